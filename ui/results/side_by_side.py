"""Every rater's rating of one run, side by side: metrics down, raters across.

Shown under the blind rule: only to a rater who has submitted (or signed) their own rating
of that run, so seeing the others' can no longer sway theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from reviewer.agreement.records import RatingRecord
from reviewer.results.data import MetricInfo

_OUTCOME = {"not_applicable": "N/A", "not_observed": "N/O"}


def may_see(viewer: str | None, records: Sequence[RatingRecord]) -> bool:
    """Whether ``viewer`` may see these ratings of one run: they hold a decided rating of
    it themselves (records are live submitted or signed ratings only)."""
    return viewer is not None and any(r.rater == viewer for r in records)


class SideBySideModel(QAbstractTableModel):
    """Rows: the rubric's metrics; columns: the raters of the run; cells: score or N/A, N/O."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._metrics: list[MetricInfo] = []
        self._raters: list[str] = []
        self._cells: dict[tuple[str, str], RatingRecord] = {}

    def set_run(self, metrics: Sequence[MetricInfo], records: Sequence[RatingRecord]) -> None:
        """Show ``records`` (one run's) over ``metrics``; empty records clear the table."""
        self.beginResetModel()
        self._raters = sorted({r.rater for r in records}, key=str.casefold)
        self._metrics = list(metrics) if records else []
        self._cells = {(r.metric_id, r.rater): r for r in records}
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._metrics)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._raters)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        key = (self._metrics[index.row()].id, self._raters[index.column()])
        record = self._cells.get(key)
        if role == Qt.ItemDataRole.DisplayRole:
            if record is None:
                return "—"
            return str(record.score) if record.score is not None else _OUTCOME[record.outcome]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._raters):
            return self._raters[section]
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._metrics):
            return self._metrics[section].title
        return None

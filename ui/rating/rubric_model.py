"""The rubric as a table: one row per metric, with the rater's item and what is still missing.

The rubric decides what is missing (``rubric.problems(items)``); this model only caches the
answer per metric so that painting never re-runs the checks.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from ui.theme import plain_tooltip

MetricRole: Final = Qt.ItemDataRole.UserRole + 1
"""Returns the rubric's Metric of the row."""
ItemRole: Final = Qt.ItemDataRole.UserRole + 2
"""Returns the current RatingItem of the row, or None when the metric is untouched."""

OUTCOME_LABELS: Final = {
    "applicable": "Applicable",
    "not_applicable": "Not applicable",
    "not_observed": "Not observed",
    None: "—",
}
SCORE_LABELS: Final = {
    0: "Not demonstrated / unsafe",
    1: "Below standard",
    2: "Standard",
    3: "Exemplary",
}
OK_MARK: Final = "✓"
#: The Check of a metric revised after a blind study's reveal that has no reason yet.
REVISION_PROBLEM: Final = "revised: press C to give the reason"
#: Shown in the Comment column of the metric whose comment is being typed.
COMMENTING_MARK: Final = "✎ typing…"
# A muted amber: readable on light and dark palettes, and the text says the problem anyway.
WARNING_COLOUR: Final = QColor("#b26a00")
OK_COLOUR: Final = QColor("#2e7d32")


class Column(IntEnum):
    METRIC = 0
    OUTCOME = 1
    SCORE = 2
    COMMENT = 3
    CHECK = 4


HEADERS: Final = ("Metric", "Outcome", "Score", "Comment", "Check")


class RubricModel(QAbstractTableModel):
    """Metrics of one rubric against the items of one rating."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rubric: Any = None
        self._metrics: list[Any] = []
        self._items: dict[str, Any] = {}
        self._problems: list[tuple[str, str]] = []
        self._problem_of: dict[str, str] = {}
        # After a blind study's reveal: the frozen blind items and the revision reasons.
        self._blind: dict[str, Any] = {}
        self._reasons: dict[str, str] = {}
        self._commenting: str | None = None  # the metric whose comment has the focus
        self._evidence: dict[str, int] = {}  # cited steps per metric (the evidence rule)
        self.editable = False

    # ---- Qt model API -------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._metrics)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        metric = self._metrics[index.row()]
        item = self._items.get(metric.id)
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(metric, item, column)
        if role == MetricRole:
            return metric
        if role == ItemRole:
            return item
        if role == Qt.ItemDataRole.ToolTipRole:
            # Comments are user text, the rubric a file: tooltips show them literally.
            if column == Column.METRIC:
                return plain_tooltip(metric.question)
            if column == Column.COMMENT and item is not None and item.comment:
                return plain_tooltip(item.comment)
            if column in (Column.OUTCOME, Column.SCORE) and self.is_revised(metric.id):
                return plain_tooltip(self._revision_tip(metric.id))
            if column == Column.SCORE and item is not None and item.score is not None:
                return plain_tooltip(metric.anchors.get(item.score) or "")
            if column == Column.CHECK:
                return plain_tooltip(self._problem_of.get(metric.id, "Complete"))
        if role == Qt.ItemDataRole.ForegroundRole and column == Column.CHECK:
            return WARNING_COLOUR if metric.id in self._problem_of else OK_COLOUR
        if role == Qt.ItemDataRole.TextAlignmentRole and column == Column.SCORE:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(HEADERS)
        ):
            return HEADERS[section]
        return None

    # ---- Our API ------------------------------------------------------------------------
    def set_rating(self, rubric: Any, items: dict[str, Any], editable: bool) -> None:
        """Show ``items`` (metric_id → RatingItem) against ``rubric``'s metrics."""
        self.beginResetModel()
        self._rubric = rubric
        self._metrics = list(rubric.metrics) if rubric is not None else []
        self._items = dict(items)
        self.editable = editable
        self._recheck()
        self.endResetModel()

    def set_item(self, metric_id: str, item: Any) -> None:
        """Replace one metric's item; rows whose check changed are reported too."""
        row = self.row_of(metric_id)
        if row is None:
            return
        if item is None:
            self._items.pop(metric_id, None)
        else:
            self._items[metric_id] = item
        before = dict(self._problem_of)
        self._recheck()
        last = len(HEADERS) - 1
        self.dataChanged.emit(self.index(row, 0), self.index(row, last))
        # A rubric may check across metrics; repaint any other row whose verdict moved.
        for other, metric in enumerate(self._metrics):
            if other != row and before.get(metric.id) != self._problem_of.get(metric.id):
                cell = self.index(other, Column.CHECK)
                self.dataChanged.emit(cell, cell)

    def set_evidence(self, counts: dict[str, int]) -> None:
        """How many steps each metric cites; rows whose check changed are repainted."""
        before = dict(self._problem_of)
        self._evidence = dict(counts)
        self._recheck()
        for row, metric in enumerate(self._metrics):
            if before.get(metric.id) != self._problem_of.get(metric.id):
                cell = self.index(row, Column.CHECK)
                self.dataChanged.emit(cell, cell)

    def evidence_of(self, metric_id: str) -> int:
        """How many steps ``metric_id`` cites."""
        return self._evidence.get(metric_id, 0)

    def set_blind(self, blind: dict[str, Any], reasons: dict[str, str]) -> None:
        """The blind values to compare with (empty: no reveal, nothing to revise) and the
        reasons given so far; a revised metric without a reason is a problem."""
        self.beginResetModel()
        self._blind, self._reasons = dict(blind), dict(reasons)
        self._recheck()
        self.endResetModel()

    def set_reason(self, metric_id: str, reason: str) -> None:
        """The rater typed a reason: re-check at once (the save follows later)."""
        self._reasons[metric_id] = reason
        self.set_item(metric_id, self._items.get(metric_id))

    def blind_item(self, metric_id: str | None) -> Any:
        """The frozen blind item of ``metric_id`` (None outside the reveal)."""
        return self._blind.get(metric_id) if metric_id is not None else None

    def reason(self, metric_id: str | None) -> str:
        return self._reasons.get(metric_id, "") if metric_id else ""

    def is_revised(self, metric_id: str | None) -> bool:
        """True when the metric's outcome or score differs from its blind value."""
        blind = self.blind_item(metric_id)
        if blind is None:
            return False
        item = self.item(metric_id)
        now = (None, None) if item is None else (item.outcome, item.score)
        return now != (blind.outcome, blind.score)

    def set_commenting(self, metric_id: str | None) -> None:
        """Mark the metric whose comment box has the keyboard focus (None: none)."""
        rows = [self.row_of(m) for m in (self._commenting, metric_id) if m is not None]
        self._commenting = metric_id
        for row in rows:
            if row is not None:
                cell = self.index(row, Column.COMMENT)
                self.dataChanged.emit(cell, cell)

    def problems(self) -> list[tuple[str, str]]:
        """``rubric.problems(items)`` for the current items, as (metric_id, message)."""
        return list(self._problems)

    def problem_of(self, metric_id: str) -> str | None:
        """The first problem the rubric reports for ``metric_id``, or None."""
        return self._problem_of.get(metric_id)

    def items(self) -> dict[str, Any]:
        return dict(self._items)

    def item(self, metric_id: str | None) -> Any:
        return self._items.get(metric_id) if metric_id is not None else None

    def metric_at(self, row: int) -> Any:
        return self._metrics[row]

    def row_of(self, metric_id: str) -> int | None:
        for row, metric in enumerate(self._metrics):
            if metric.id == metric_id:
                return row
        return None

    def rubric(self) -> Any:
        return self._rubric

    # ---- internals ----------------------------------------------------------------------
    def _recheck(self) -> None:
        rubric = self._rubric
        self._problems = list(rubric.problems(self._items, self._evidence)) if rubric else []
        for metric in self._metrics:
            if self.is_revised(metric.id) and not self._reasons.get(metric.id, "").strip():
                self._problems.append((metric.id, REVISION_PROBLEM))
        self._problem_of = {}
        for metric_id, message in self._problems:
            self._problem_of.setdefault(metric_id, message)

    def _revision_tip(self, metric_id: str) -> str:
        item = self._items.get(metric_id)
        now = value_text(item) if item is not None else "—"
        reason = self._reasons.get(metric_id, "").strip() or "(no reason yet)"
        return f"Blind: {value_text(self._blind[metric_id])}\nNow: {now}\nReason: {reason}"

    def _display(self, metric: Any, item: Any, column: int) -> str:
        if column == Column.METRIC:
            return metric.title
        if column == Column.CHECK:
            return self._problem_of.get(metric.id, OK_MARK)
        if column == Column.COMMENT and metric.id == self._commenting:
            first = (item.comment.strip().splitlines() or [""])[0] if item else ""
            return f"{COMMENTING_MARK} {first}".rstrip()
        if item is None:
            return "—" if column == Column.OUTCOME else ""
        if column == Column.OUTCOME:
            return OUTCOME_LABELS.get(item.outcome, str(item.outcome))
        if column == Column.SCORE:
            score = "" if item.score is None else str(item.score)
            if self.is_revised(metric.id):
                # The revision at a glance: what was frozen blind, then what it is now.
                return f"{value_text(self._blind[metric.id])} → {score or '—'}"
            return score
        first_line = item.comment.strip().splitlines()
        return first_line[0] if first_line else ""


def value_text(item: Any) -> str:
    """An item's outcome and score in a few characters: "2", "N/A", "not obs."."""
    if item.outcome == "applicable":
        return "—" if item.score is None else str(item.score)
    return {"not_applicable": "N/A", "not_observed": "not obs."}.get(item.outcome, "—")

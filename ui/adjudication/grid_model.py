"""The adjudication grid: one row per rubric metric, one column per rater, and the decision.

Each rater's cell holds their final outcome and score, the blind value above it when the
study was blind (and the reason when they differ), and the first words of the comment; the
full text is in the tooltip and in the pane's detail box. Disputed metrics are highlighted.
"""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from ui.theme import plain_tooltip

#: Okabe-Ito orange, faint: a disputed row stands out on light and dark palettes, and its
#: Decision cell says so in words as well.
DISPUTED_COLOUR: Final = QColor(230, 159, 0, 70)
OUTCOME_SHORT: Final = {"applicable": "A", "not_applicable": "N/A", "not_observed": "N/O"}
COMMENT_CHARS: Final = 40
MetricIdRole: Final = Qt.ItemDataRole.UserRole + 1


def value_text(outcome: str | None, score: float | int | None) -> str:
    """``A 2``, ``N/A``, ``N/O`` or ``—``."""
    if outcome is None:
        return "—"
    short = OUTCOME_SHORT.get(outcome, outcome)
    return short if score is None else f"{short} {score:g}"


def rater_cell(value: Any, blind_study: bool) -> str:
    """The text of one rater's cell (final value, blind value, start of the comment)."""
    lines = [value_text(value.outcome, value.score)]
    if blind_study and value.blind_outcome is not None:
        lines[0] = f"final {lines[0]}"
        lines.append(f"blind {value_text(value.blind_outcome, value.blind_score)}")
    evidence = getattr(value, "evidence", ())
    if evidence:
        lines.append("cites " + ", ".join(evidence))
    comment = " ".join(value.comment.split())
    if comment:
        cut = comment if len(comment) <= COMMENT_CHARS else comment[: COMMENT_CHARS - 1] + "…"
        lines.append(f"“{cut}”")
    return "\n".join(lines)


class AdjudicationGridModel(QAbstractTableModel):
    """Metrics × raters of one run, with the adjudicator's decisions (see the module doc)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._metrics: list[Any] = []
        self._raters: tuple[str, ...] = ()
        self._disputes: dict[str, Any] = {}
        self._decisions: dict[str, tuple[str | None, int | None, str]] = {}
        self._blind = False

    def set_view(self, view: Any, decisions: dict[str, tuple[str | None, int | None, str]]) -> None:
        """Show ``view`` (an AdjudicationView) with the decisions as the pane holds them."""
        self.beginResetModel()
        self._metrics = list(view.rubric.metrics) if view is not None else []
        self._raters = view.raters if view is not None else ()
        self._disputes = dict(view.disputes) if view is not None else {}
        self._blind = bool(view is not None and view.blind_study)
        self._decisions = dict(decisions)
        self.endResetModel()

    def set_decision(self, metric_id: str, decision: tuple[str | None, int | None, str]) -> None:
        """Update one decision (shown at once, before the store answers)."""
        self._decisions[metric_id] = decision
        row = self.row_of(metric_id)
        if row is not None:
            last = self.index(row, self.columnCount() - 1)
            self.dataChanged.emit(self.index(row, 0), last)

    def row_of(self, metric_id: str) -> int | None:
        for row, metric in enumerate(self._metrics):
            if metric.id == metric_id:
                return row
        return None

    def metric_at(self, row: int) -> Any:
        return self._metrics[row] if 0 <= row < len(self._metrics) else None

    def disputed(self, metric_id: str) -> bool:
        found = self._disputes.get(metric_id)
        return found is not None and found.status == "disputed"

    def dispute(self, metric_id: str) -> Any:
        return self._disputes.get(metric_id)

    # ---- Qt model API -------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._metrics)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._raters) + 2

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section == 0:
            return "Metric"
        if section == len(self._raters) + 1:
            return "Decision"
        return self._raters[section - 1]

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        metric = self._metrics[index.row()]
        column = index.column()
        if role == MetricIdRole:
            return metric.id
        if role == Qt.ItemDataRole.BackgroundRole and self.disputed(metric.id):
            return DISPUTED_COLOUR
        if role == Qt.ItemDataRole.FontRole and column == 0 and self.disputed(metric.id):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(metric, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(metric, column)
        return None

    def _value(self, metric_id: str, column: int) -> Any:
        dispute = self._disputes.get(metric_id)
        rater = self._raters[column - 1]
        for value in dispute.values if dispute else ():
            if value.rater == rater:
                return value
        return None

    def _display(self, metric: Any, column: int) -> str:
        if column == 0:
            return metric.title
        if column == len(self._raters) + 1:
            outcome, score, reason = self._decisions.get(metric.id, (None, None, ""))
            if outcome is None:
                return "to decide" if self.disputed(metric.id) else ""
            return value_text(outcome, score) + ("" if reason.strip() else "\nreason needed")
        value = self._value(metric.id, column)
        return "" if value is None else rater_cell(value, self._blind)

    def _tooltip(self, metric: Any, column: int) -> str | None:
        if column == 0:
            dispute = self._disputes.get(metric.id)
            status = dispute.status.replace("_", " ") if dispute else "not rated"
            return plain_tooltip(f"{metric.title}: {status}")
        if column == len(self._raters) + 1:
            reason = self._decisions.get(metric.id, (None, None, ""))[2]
            return plain_tooltip(reason) if reason else None
        value = self._value(metric.id, column)
        if value is None:
            return None
        text = rater_cell(value, self._blind).split("\n“")[0]
        if value.reason:
            text += f"\nrevised after the reveal: {value.reason}"
        if value.comment:
            text += f"\n{value.comment}"
        return plain_tooltip(text)

"""The gold reference beside the rater's own rating (Rating → Gold reference…, Ctrl+Shift+G).

Shown only after the rater's final submit of a gold run (the store gives nothing sooner):
per metric, the rater's value, the reference's value, its comment and the steps it cites.
Read-only; the table takes the focus, so the arrows move through it and Esc closes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Metric", "Yours", "Reference", "Reference comment", "Cited steps")
#: The row's Python objects (metric id, the rater's item, the reference's item).
RowRole = Qt.ItemDataRole.UserRole + 1


def value_text(outcome: str | None, score: int | None) -> str:
    """``2``, ``not applicable``, ``not observed`` or ``—`` (nothing)."""
    if score is not None:
        return str(score)
    return outcome.replace("_", " ") if outcome else "—"


class GoldReferenceModel(QAbstractTableModel):
    """One row per metric of the reference: the rater's value against the reference's."""

    def __init__(self, rubric: Any, rating: Any, reference: Any, parent: Any = None) -> None:
        super().__init__(parent)
        mine = rating.items if rating is not None else {}
        titles = {m.id: m.title for m in rubric.metrics}
        by_metric = {i.metric_id: i for i in reference.items}
        order = [m for m in rubric.metric_ids if m in by_metric]
        order += sorted(set(by_metric) - set(order))  # a metric this rubric lacks: last
        self._rows = [(m, titles.get(m, m), mine.get(m), by_metric[m]) for m in order]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section] if 0 <= section < len(COLUMNS) else None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        metric, title, mine, ref = self._rows[index.row()]
        if role == RowRole:
            return (metric, mine, ref)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        column = index.column()
        if column == 0:
            return title
        if column == 1:
            return value_text(mine.outcome, mine.score) if mine is not None else "—"
        if column == 2:
            return value_text(ref.outcome, ref.score)
        if column == 3:
            return ref.comment
        return "; ".join(c.label + (f" ({c.note})" if c.note else "") for c in ref.citations)


class GoldReferenceDialog(QDialog):
    """The reference of a gold run the rater has submitted, beside their rating."""

    def __init__(self, parent: QWidget | None, rubric: Any, rating: Any, feedback: Any) -> None:
        super().__init__(parent)
        self.setWindowTitle("Gold reference")
        source = feedback.reference.source.describe()
        self.note = QLabel(
            f"This run is a gold run of study {feedback.study}: its reference ({source}, "
            f"signed by {feedback.reference.owner.name}) beside your submitted rating.",
            self,
        )
        self.note.setWordWrap(True)
        self.model = GoldReferenceModel(rubric, rating, feedback.reference, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(820, 360)
        if self.model.rowCount():
            self.table.selectRow(0)
        self.table.setFocus()

"""A read-only table of value rows: the base of the results window's table models.

Each subclass is one data shape (metric alphas, raters, validity...) and declares its
columns; this base brackets every change and answers the roles the views and delegates use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

RowRole = Qt.ItemDataRole.UserRole + 1  # the row's Python object, for delegates
SortRole = Qt.ItemDataRole.UserRole + 2  # the raw value, so numbers sort as numbers
RunRole = Qt.ItemDataRole.UserRole + 3  # the run_pk a row stands for, if any


def fmt(value: Any, digits: int = 3) -> str:
    """A cell's text: ``—`` for nothing, floats rounded."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def pct(value: float | None) -> str:
    """A share as a percentage."""
    return "—" if value is None else f"{value:.0%}"


class Col(NamedTuple):
    """A column: its header, how to get the value from a row, how to show it."""

    header: str
    value: Callable[[Any], Any]
    show: Callable[[Any], str] = fmt
    tip: str | None = None


class RowsModel(QAbstractTableModel):
    """Rows of values shown through ``COLUMNS``."""

    COLUMNS: ClassVar[tuple[Col, ...]] = ()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[Any]:
        """The rows, in model order."""
        return list(self._rows)

    def run_of(self, row: Any) -> int | None:
        """The run a row stands for (subclasses listing runs say which)."""
        del row
        return None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.show(col.value(row))
        if role == SortRole:
            value = col.value(row)
            return value if isinstance(value, int | float | str) else None
        if role == RowRole:
            return row
        if role == RunRole:
            return self.run_of(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(col.value(row), int | float):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section].header
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.COLUMNS[section].tip
        return None

"""The legend of the command classes above the timeline: icon and words for each."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from reviewer import assets
from ui.theme import LEGEND_ORDER, STYLES


class LegendBar(QWidget):
    """Icon + label of every class, so colour is never the only cue.

    One small label per entry in a grid that re-flows with the width: an entry never breaks
    across lines, and the legend never sets the window's minimum width.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.entries: list[QLabel] = []
        for key in LEGEND_ORDER:
            style = STYLES[key]
            words = style.column_text.lstrip("✓○⚠+✗?⇅↻◌ ").strip().replace(" ", "&nbsp;")
            with assets.as_file("icons", f"{style.icon}.svg") as file:
                img = f"<img src='{file.as_uri()}' width='13' height='13'>"
            entry = QLabel(f"{img}&nbsp;{words}", self)
            entry.setToolTip(f"<b>{style.label}</b>: {style.meaning}")
            self.entries.append(entry)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(14)
        self._grid.setVerticalSpacing(2)
        self._columns = 0
        self._reflow(len(self.entries))

    def minimumSizeHint(self) -> QSize:
        widest = max(e.sizeHint().width() for e in self.entries)
        return QSize(widest, super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        widest = max(e.sizeHint().width() for e in self.entries) + self._grid.horizontalSpacing()
        self._reflow(max(1, min(len(self.entries), event.size().width() // widest)))

    def _reflow(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        for entry in self.entries:
            self._grid.removeWidget(entry)
        for n, entry in enumerate(self.entries):
            self._grid.addWidget(entry, n // columns, n % columns)

"""The run queue's columns: measured once, shared out to fit the panel, cut where they
lose least.

A part of :class:`ui.queue.queue_panel.QueuePanel`, given its table view and run model.
Score, Safety and Rating keep their width and stay in sight; the other columns share what
is left, until the rater resizes one by hand. It watches the view's width and the header's
mouse itself.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTableView
from shiboken6 import isValid

from ui.queue.run_queue_model import Column, RunQueueModel

_MAX_COLUMN_WIDTH = 240
MIN_ELASTIC = 44
#: Below this a shared column shows a letter or two of its text ("Mode" for Model at
#: 1366×768): rather than four such columns, Status and then Model give way.
USEFUL_ELASTIC = 64
_ELASTIC = (Column.SCENARIO, Column.MODEL, Column.RUN, Column.STATUS)
_GIVE_WAY = (Column.STATUS, Column.MODEL)

#: Where each cut column keeps its distinguishing part: scenario ids differ at their start
#: ("elec-apu…", "hyd-blue…"), models at their end ("claude…4-5"), run ids at their time and
#: suffix ("…08:23 f18f09"). The full text is in each cell's tooltip.
_ELIDE: dict[int, Qt.TextElideMode] = {
    Column.SCENARIO: Qt.TextElideMode.ElideRight,
    Column.MODEL: Qt.TextElideMode.ElideMiddle,
    Column.RUN: Qt.TextElideMode.ElideLeft,
}


class ElidingDelegate(QStyledItemDelegate):
    """Cuts each column's text where it loses the least (see ``_ELIDE``)."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = _ELIDE.get(index.column(), Qt.TextElideMode.ElideRight)


class QueueColumns(QObject):
    """Column widths of the queue's table."""

    def __init__(self, view: QTableView, model: RunQueueModel) -> None:
        super().__init__(view)
        self.view = view
        self.model = model
        self._natural: dict[Column, int] = {}
        self._sizing = False
        self._user_sized = False
        # A section resized while a mouse button is down *on the header* is the rater's
        # drag; a button held elsewhere (a splitter or window edge being dragged) is not.
        self._header_pressed = False
        header = view.horizontalHeader()
        header.sectionResized.connect(self._on_section_resized)
        # Held here: the filter also sees their last events, while the view is destroyed.
        self._viewport, self._header_viewport = view.viewport(), header.viewport()
        self._header_viewport.installEventFilter(self)
        self._viewport.installEventFilter(self)  # width changes re-fit the columns

    @property
    def measured(self) -> bool:
        """The columns were measured (from the first rows shown)."""
        return bool(self._natural)

    def natural_width(self) -> int:
        """The width at which every column shows its text whole (the window's first split)."""
        if not self._natural:
            return 0  # no rows yet: unknown
        bar = self.view.verticalScrollBar().sizeHint().width()
        columns = sum(self._natural.values())
        if self.view.isColumnHidden(Column.IN):
            columns -= self._natural.get(Column.IN, 0)  # only within a study
        return columns + bar + 2 * self.view.frameWidth()

    def fit_columns(self) -> None:
        # Once, from the first rows, measured on a sample: ResizeToContents would measure
        # all 10,000 rows, and again on every change.
        bold = QFont(self.view.font())
        bold.setBold(True)  # UNSAFE is bold, and so are headers in the shared stylesheet
        plain, strong = self.view.fontMetrics(), QFontMetrics(bold)
        rows = range(min(self.model.rowCount(), 200))
        for column in Column:
            cells = plain if column != Column.SAFETY else strong
            texts = {self.model.index(row, column).data() for row in rows}
            title = self.model.headerData(column, Qt.Orientation.Horizontal)
            width = max(
                max(cells.horizontalAdvance(t) for t in texts) + 16,
                strong.horizontalAdvance(title) + 24,  # room for the sort arrow
            )
            # Never under the header's minimum section size: Qt would widen it anyway.
            self._natural[column] = min(max(width, MIN_ELASTIC), _MAX_COLUMN_WIDTH)
        self.layout_columns()

    def layout_columns(self) -> None:
        """Fit the columns to the panel: Score, Safety and Rating keep their width and stay
        in sight; Scenario, Model, Run and Status share what is left (elided at the end),
        and Scenario takes any spare width. Stops once the rater resizes a column by hand."""
        if not self._natural or self._user_sized:
            return
        widths = dict(self._natural)
        fixed = sum(
            w for c, w in widths.items() if c not in _ELASTIC and not self.view.isColumnHidden(c)
        )
        room = self.view.viewport().width() - fixed
        # On a small screen Status, then Model, give way (both are in the Scenario tooltip
        # and the filters) so Score, Safety and Rating stay in view.
        hidden: set[Column] = set()
        for column in _GIVE_WAY:
            if room >= USEFUL_ELASTIC * (len(_ELASTIC) - len(hidden)):
                break
            hidden.add(column)
        for column in _ELASTIC:
            self.view.setColumnHidden(column, column in hidden)
            if column in hidden:
                widths.pop(column)
        elastic = [c for c in _ELASTIC if c not in hidden]
        wanted = sum(widths[c] for c in elastic)
        if room >= wanted:
            widths[Column.SCENARIO] += room - wanted
        else:
            # Trim the widest first, to one common cap: short columns stay whole.
            cap = max(widths[c] for c in elastic)
            while cap > MIN_ELASTIC and sum(min(widths[c], cap) for c in elastic) > room:
                cap -= 4
            for column in elastic:
                widths[column] = max(MIN_ELASTIC, min(widths[column], cap))
        self._sizing = True
        try:
            for column, width in widths.items():
                self.view.horizontalHeader().resizeSection(column, width)
        finally:
            self._sizing = False

    def _on_section_resized(self, *_args: int) -> None:
        # Only a drag by the rater counts: Qt also resizes sections itself.
        if not self._sizing and self._header_pressed:
            self._user_sized = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isValid(self.view):
            return False  # the view is being destroyed (this part is its child)
        if watched is self._viewport and event.type() == QEvent.Type.Resize:
            self.layout_columns()
        elif watched is self._header_viewport and event.type() in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseButtonRelease,
        ):
            self._header_pressed = event.type() == QEvent.Type.MouseButtonPress
        return False

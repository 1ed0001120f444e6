"""The run queue's columns: measured once, shared out to fit the panel, cut where they
lose least.

A mixin of :class:`ui.queue.queue_panel.QueuePanel`, like :mod:`ui.rating.revision_flow`
for the rubric form. Score, Safety and Rating keep their width and stay in sight; the
other columns share what is left, until the rater resizes one by hand.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QAbstractScrollArea, QStyledItemDelegate, QTableView, QWidget
from shiboken6 import isValid

from ui.queue.run_queue_model import UNSAFE_COLOUR, Column, RunQueueModel, ShortTextRole

_MAX_COLUMN_WIDTH = 240
#: The rows the columns are measured on: the first ones (never all of 10,000).
SAMPLE = 200
MIN_ELASTIC = 44
#: Below this a shared column shows a letter or two of its text ("Mode" for Model at
#: 1366×768): rather than four such columns, Status and then Model give way.
USEFUL_ELASTIC = 64
_ELASTIC = (Column.SCENARIO, Column.MODEL, Column.RUN, Column.STATUS)
#: Status gives way on a small screen (it is in the Scenario tooltip and the filters),
#: then Safety folds into Score; Model never does: a rater tells runs apart by it.
_GIVE_WAY = (Column.STATUS, Column.SAFETY)

_MODES = (Qt.TextElideMode.ElideRight, Qt.TextElideMode.ElideMiddle, Qt.TextElideMode.ElideLeft)
#: Where each cut column first tries to keep its distinguishing part: scenario ids differ
#: at their start ("elec-apu…", "hyd-blue…"), models at their end ("claude…4-5"), run ids
#: at their time and suffix ("…08:23 f18f09"). If two values would still read the same,
#: the next mode that tells them apart is used (see ``elide_mode_for``). The full text is
#: in each cell's tooltip.
_ELIDE = {
    Column.SCENARIO: Qt.TextElideMode.ElideRight,
    Column.MODEL: Qt.TextElideMode.ElideMiddle,
    Column.RUN: Qt.TextElideMode.ElideLeft,
}
#: The room a cell's text loses to the style's margins (QStyle's item text margins).
TEXT_MARGIN = 8


def viewport_of(area: QAbstractScrollArea) -> QWidget:
    """``area.viewport()``, first made a Python object through ``findChild`` (Qt names every
    scroll area's own viewport so): PySide 6.12 builds every class of QtWidgets that
    derives from QWidget, and their enums, the first time ``viewport()`` hands it a plain
    QWidget made in C++ (some 25 ms of the first screen), and ``findChild`` does not. Once
    made, ``viewport()`` returns that object; a viewport set by hand is still the one
    returned."""
    area.findChild(QWidget, "qt_scrollarea_viewport", Qt.FindChildOption.FindDirectChildrenOnly)
    return area.viewport()


def shown_text(text: str, short: str | None, metrics, width: int, mode) -> str:
    """What a cell of ``width`` pixels draws: the whole text if it fits, else its short
    form ("Subm.") if that fits, else the text elided by ``mode``."""
    room = width - TEXT_MARGIN
    if metrics.horizontalAdvance(text) <= room:
        return text
    if short and metrics.horizontalAdvance(short) <= room:
        return short
    return metrics.elidedText(short or text, mode, room)


def elide_mode_for(texts: set[str], metrics, width: int, first) -> Qt.TextElideMode:
    """The elide mode, ``first`` if it will do, under which distinct ``texts`` still read
    differently at ``width``; ``first`` when none does (the tooltip tells them apart)."""
    advances = {t: metrics.horizontalAdvance(t) for t in texts}
    for mode in (first, *[m for m in _MODES if m != first]):
        if _read_apart(advances, metrics, width, mode):
            return mode
    return first


def _read_apart(advances: dict[str, int], metrics, width: int, mode) -> bool:
    """Whether the texts (keys of ``advances``, their widths) all read differently in a
    cell of ``width`` under ``mode``: :func:`shown_text` of each (no short form), with
    each text measured once and a stop at the first two that read the same."""
    room = width - TEXT_MARGIN
    seen: set[str] = set()
    for text, advance in advances.items():
        shown = text if advance <= room else metrics.elidedText(text, mode, room)
        if shown in seen:
            return False
        seen.add(shown)
    return True


class ElidingDelegate(QStyledItemDelegate):
    """Draws each cell as :func:`shown_text` says: whole, short, or cut where it loses
    the least (``modes``, chosen per column by the queue panel)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.modes: dict[int, Qt.TextElideMode] = {int(c): m for c, m in _ELIDE.items()}

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        mode = self.modes.get(index.column(), Qt.TextElideMode.ElideRight)
        option.textElideMode = mode
        if index.column() == Column.SCORE and self._safety_folded(index):
            option.text = f"⚠ {option.text}"  # the Safety column gave way: UNSAFE here
            option.palette.setColor(QPalette.ColorRole.Text, UNSAFE_COLOUR)
            option.font.setBold(True)
        if option.text:
            short = index.data(ShortTextRole)
            option.text = shown_text(
                option.text, short, option.fontMetrics, option.rect.width(), mode
            )

    def _safety_folded(self, index) -> bool:
        view = self.parent()
        folded = getattr(view, "isColumnHidden", lambda _c: False)(Column.SAFETY)
        return folded and index.siblingAtColumn(Column.SAFETY).data() == "UNSAFE"


class QueueColumns(QObject):
    """Column widths of the queue's table."""

    def __init__(self, view: QTableView, model: RunQueueModel) -> None:
        super().__init__(view)
        self.view = view
        self.model = model
        self._natural: dict[Column, int] = {}
        # What layout_columns measures on the sample, kept until the rows change: the
        # panel is laid out at every resize (five times before the first paint).
        self._texts: dict[Column, set[str]] = {}
        self._telling: dict[Column, int] = {}
        self._modes: dict[tuple[Column, int], Qt.TextElideMode] = {}
        for changed in (model.modelReset, model.layoutChanged, model.dataChanged,
                        model.rowsInserted, model.rowsRemoved):  # fmt: skip
            changed.connect(self._forget_sample)
        self._sizing = False
        self._user_sized = False
        # A section resized while a mouse button is down *on the header* is the rater's
        # drag; a button held elsewhere (a splitter or window edge being dragged) is not.
        self._header_pressed = False
        header = view.horizontalHeader()
        header.sectionResized.connect(self._on_section_resized)
        # Held here: the filter also sees their last events, while the view is destroyed.
        self._viewport, self._header_viewport = viewport_of(view), viewport_of(header)
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
        for column in Column:
            cells = plain if column != Column.SAFETY else strong
            texts = {t or "" for t in self.model.display_texts(column, SAMPLE)}
            title = self.model.headerData(column, Qt.Orientation.Horizontal)
            width = max(
                max(cells.horizontalAdvance(t) for t in texts) + 2 * TEXT_MARGIN,
                strong.horizontalAdvance(title) + 18,  # room for the sort arrow
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
        study = not self.view.isColumnHidden(Column.IN)
        fixed = sum(w for c, w in widths.items() if c not in _ELASTIC and (c != Column.IN or study))
        room = self.view.viewport().width() - fixed
        # On a small screen Status gives way (it is in the Scenario tooltip and the
        # filters), then Safety folds into Score ("⚠ 0.00"), so that Scenario, Model and
        # Run stay readable beside Score and Rating.
        hidden = set()
        for column in _GIVE_WAY:
            left = len([c for c in _ELASTIC if c not in hidden])
            if room >= USEFUL_ELASTIC * left:
                break
            hidden.add(column)
            if column == Column.SAFETY:
                bold = QFont(self.view.font())
                bold.setBold(True)
                folded = QFontMetrics(bold).horizontalAdvance("⚠ 0.00") + 2 * TEXT_MARGIN
                grow = max(folded - widths[Column.SCORE], 0)
                widths[Column.SCORE] += grow
                room += widths[Column.SAFETY] - grow
        for column in (*_ELASTIC, Column.SAFETY):
            self.view.setColumnHidden(column, column in hidden)
            if column in hidden:
                widths.pop(column)
        elastic = [c for c in _ELASTIC if c not in hidden]
        wanted = sum(widths[c] for c in elastic)
        if room >= wanted:
            widths[Column.SCENARIO] += room - wanted
        else:
            # Each column first gets the width at which its values still read apart
            # ("elec-apu…" beside "elec-eng…"); what is left goes to Scenario and Model,
            # the words a rater reads, in proportion to what they lack, then to the rest.
            # Run keeps at least its id's last digits ("…b5760"); Scenario and Model a
            # readable width when all three fit, else the width that tells them apart.
            digits = self.view.fontMetrics().horizontalAdvance("…b5760") + TEXT_MARGIN
            telling = {c: max(MIN_ELASTIC, self._telling_width(c)) for c in elastic}
            floors = [{Column.RUN: digits}]
            readable = {Column.SCENARIO: USEFUL_ELASTIC, Column.MODEL: USEFUL_ELASTIC}
            floors.insert(0, {**floors[0], **readable})
            for floor in floors:
                least = {c: min(widths[c], max(telling[c], floor.get(c, 0))) for c in elastic}
                if sum(least.values()) <= room:
                    break
            spare = room - sum(least.values())
            for group in ((Column.SCENARIO, Column.MODEL), tuple(elastic)):
                lacking = {c: widths[c] - least[c] for c in group if c in least}
                total = sum(lacking.values())
                if spare <= 0 or total <= 0:
                    continue
                given = {c: min(lack, spare * lack // total) for c, lack in lacking.items()}
                for column, extra in given.items():
                    least[column] += extra
                spare -= sum(given.values())
            widths.update(least)
        self._sizing = True
        try:
            for column, width in widths.items():
                self.view.horizontalHeader().resizeSection(column, width)
        finally:
            self._sizing = False
        self._choose_elide_modes()

    def _forget_sample(self, *_args: object) -> None:
        self._texts.clear()
        self._telling.clear()
        self._modes.clear()

    def _telling_width(self, column: Column) -> int:
        """The narrowest width (to 4 px) at which the column's distinct values still read
        differently under some elide mode: "elec-apu…" and "elec-eng…", not "elec-…"."""
        width = self._telling.get(column)
        if width is None:
            width = self._telling[column] = self._measure_telling_width(column)
        return width

    def _measure_telling_width(self, column: Column) -> int:
        metrics = self.view.fontMetrics()
        advances = {t: metrics.horizontalAdvance(t) for t in self._column_texts(column)}
        widest = max(advances.values(), default=0) + TEXT_MARGIN
        for width in range(MIN_ELASTIC, widest + 4, 4):
            for mode in _MODES:
                if _read_apart(advances, metrics, width, mode):
                    return width
        return widest

    def _column_texts(self, column: Column) -> set[str]:
        # A sample, as for the natural widths: 10,000 rows are never all measured.
        texts = self._texts.get(column)
        if texts is None:
            texts = {t or "" for t in self.model.display_texts(column, SAMPLE)}
            self._texts[column] = texts
        return texts

    def _choose_elide_modes(self) -> None:
        """Per cut column, an elide mode under which distinct values read differently."""
        delegate = self.view.itemDelegate()
        if not isinstance(delegate, ElidingDelegate):
            return
        metrics = self.view.fontMetrics()
        for column, first in _ELIDE.items():
            width = self.view.columnWidth(column)
            mode = self._modes.get((column, width))
            if mode is None:
                texts = self._column_texts(column)
                mode = self._modes[column, width] = elide_mode_for(texts, metrics, width, first)
            delegate.modes[column] = mode

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

"""Cutting a laid-out sheet into PDF pages, and painting each page's band.

Qt's own pagination splits a table row line by line; :class:`Pager` cuts where a reader
would, and :func:`draw_slice` paints one band of the long strip onto a page without
leaving the text of lines clipped out of sight in the PDF.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QRectF
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QTextDocument, QTextTable

_EDGE = 12.0  # device pixels (1 mm at 300 dpi): less than any line's height


def draw_slice(painter: QPainter, doc: QTextDocument, start: float, end: float, y: float) -> None:
    """Paint the document's band ``[start, end)`` with its top at ``y`` on the page."""
    painter.save()
    painter.translate(0, y - start)
    width = doc.textWidth()
    painter.setClipRect(QRectF(0, start, width, end - start))
    # What is drawn is chosen on a band a little inside the page's: Qt draws every line
    # that comes near it, and a line drawn on two pages, clipped out of sight on one,
    # still stays in the PDF's text (a second, invisible "Overall comment" at the foot of
    # page 1; a comment line twice). Cuts fall between lines, so nothing visible is lost.
    context = QAbstractTextDocumentLayout.PaintContext()
    context.clip = QRectF(0, start + _EDGE, width, max(end - start - 2 * _EDGE, 0.0))
    doc.documentLayout().draw(painter, context)
    painter.restore()


_Band = tuple[float, float]


class Pager:
    """Cuts a laid-out document into pages at places a reader would cut it.

    Qt's own pagination splits a table row line by line, which leaves a metric's name on
    one page and its comment on the next. Here a page ends only between blocks, between
    lines of a paragraph, or between table rows; a heading stays with what follows it; a
    section shorter than a third of a page is not split at all; and a table that runs onto
    a new page gets its header row repeated there.
    """

    def __init__(self, doc: QTextDocument, page_height: float) -> None:
        self.doc = doc
        self.height = page_height
        self.layout = doc.documentLayout()
        self.cuts: set[float] = set()
        # Line tops inside table cells: used only for a row taller than a page, which
        # then breaks between lines, never through one.
        self.line_cuts: set[float] = set()
        self.bleed: dict[float, float] = {}
        self.tables: list[tuple[_Band, float]] = []  # (header band, table bottom)
        headings: list[float] = []
        after_heading = False
        it = doc.rootFrame().begin()
        while not it.atEnd():
            frame, block = it.currentFrame(), it.currentBlock()
            if isinstance(frame, QTextTable):
                top = self.layout.frameBoundingRect(frame).top()
                if not after_heading:
                    self.cuts.add(top)
                self._table(frame)
                after_heading = False
            elif block.isValid():
                top = self.layout.blockBoundingRect(block).top()
                heading = block.blockFormat().headingLevel() > 0
                if heading:
                    headings.append(top)
                if not after_heading:
                    self.cuts.add(top)
                if not heading:
                    lines = block.layout()
                    self.cuts.update(top + lines.lineAt(n).y() for n in range(1, lines.lineCount()))
                after_heading = heading
            it += 1
        self.end = self.layout.documentSize().height()
        self._keep_short_sections(headings)

    def _table(self, table: QTextTable) -> None:
        # A cell's first block starts below the row's top border by the cell's top border
        # and padding, which Qt gives in CSS pixels and scales to the device (dpi / 96).
        # Measured on the rendered PDF: frameBoundingRect's top sits at that same offset.
        cell = table.cellAt(0, 0).format().toTableCellFormat()
        scale = self.doc.documentLayout().paintDevice().logicalDpiY() / 96
        inset = (cell.topPadding() + cell.topBorder()) * scale
        rows = [self._text_top(table, r) - inset for r in range(table.rows())]
        box = self.layout.frameBoundingRect(table)
        header_rows = table.format().headerRowCount()
        # Never leave only the header at the bottom of a page: first cut after row one.
        self.cuts.update(rows[header_rows + 1 :])
        # A page cut at a row's top border must still draw that border, as the table's last.
        self.bleed.update(dict.fromkeys(rows[header_rows + 1 :], cell.topBorder() * scale))
        if header_rows:
            self.tables.append(((rows[0], rows[header_rows]), box.bottom()))
        for row in range(header_rows, table.rows()):
            for column in range(table.columns()):
                self._cell_lines(table.cellAt(row, column))

    def _cell_lines(self, cell) -> None:
        it = cell.begin()
        while not it.atEnd():
            block = it.currentBlock()
            if block.isValid():
                top = self.layout.blockBoundingRect(block).top()
                lines = block.layout()
                self.line_cuts.update(top + lines.lineAt(n).y() for n in range(lines.lineCount()))
            it += 1

    def _text_top(self, table: QTextTable, row: int) -> float:
        blocks = (
            table.cellAt(row, c).firstCursorPosition().block() for c in range(table.columns())
        )
        return min(self.layout.blockBoundingRect(b).top() for b in blocks)

    def _keep_short_sections(self, headings: list[float]) -> None:
        bounds = [*headings, self.end]
        for top, bottom in itertools.pairwise(bounds):
            if bottom - top < self.height / 3:
                self.cuts = {c for c in self.cuts if not top < c < bottom}

    def pages(self) -> list[tuple[float, float, _Band | None]]:
        """``(start, end, repeated header band or None)`` for every page."""
        pages: list[tuple[float, float, _Band | None]] = []
        start, header = 0.0, None
        while start < self.end - 0.5:
            room = self.height - (header[1] - header[0] if header else 0.0)
            if self.end - start <= room:
                pages.append((start, self.end, header))
                break
            fitting = [c for c in self.cuts if start < c <= start + room]
            if not fitting:
                # A single row taller than a page: cut it between two of its lines.
                fitting = [c for c in self.line_cuts if start < c <= start + room]
            cut = max(fitting) if fitting else start + room
            pages.append((start, cut + self.bleed.get(cut, 0.0), header))
            start = cut
            header = next((band for band, bottom in self.tables if band[1] <= cut < bottom), None)
        return pages

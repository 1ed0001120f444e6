"""A signed rating sheet as a human-readable A4 PDF (Qt's own PDF writer).

The PDF is for people: it shows the run, the scorer's vector, the rubric as rated, the
comments, who signed and how to check it. It is *not* the signed artefact; the JSON sheet
is, and the last section says so and gives the exact command that verifies it.

:func:`render_sheet_pdf` needs a running ``QGuiApplication`` (fonts come from it);
:func:`render_sheet_pdf_offscreen` creates an offscreen one first when there is none, for
the command line.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QFont,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPaintDevice,
    QPainter,
    QPdfWriter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextOption,
)

from reviewer.sheets.sheet import SignedSheet
from ui.sheets.pdf_pager import Pager, draw_slice
from ui.sheets.sheet_html import sheet_html

_DPI = 300
_FOOTER_MM = 8.0


def render_sheet_pdf(sheet: SignedSheet, path: Path) -> int:
    """Write ``sheet`` as an A4 PDF to ``path``; needs a ``QGuiApplication``.

    The PDF is drawn in memory and written with Python's file API, so a full disk is an
    ``OSError`` (Qt's writer fails silently and leaves half a file); returns the number of
    bytes rendered, which the signing service checks against the file on disk.
    """
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    _draw(sheet, buffer)
    data = bytes(buffer.data().data())
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return len(data)


def _draw(sheet: SignedSheet, device: QBuffer) -> None:
    if QGuiApplication.instance() is None:
        raise RuntimeError("render_sheet_pdf needs a QGuiApplication (or use the offscreen one)")
    p = sheet.payload
    writer = QPdfWriter(device)
    writer.setResolution(_DPI)
    writer.setTitle(f"Rating sheet {p.run.run_id} ({p.rater.name})")
    writer.setCreator("a320-review")
    writer.setAuthor(p.rater.name)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(16, 14, 16, 12),
            QPageLayout.Unit.Millimeter,
        )
    )
    page = writer.pageLayout().paintRectPixels(_DPI)
    footer_px = _FOOTER_MM / 25.4 * _DPI
    body = QSizeF(page.width(), page.height() - footer_px)

    doc = sheet_document(sheet, writer, body.width())
    pages = Pager(doc, body.height()).pages()

    footer_font = _no_ligatures(QFont("DejaVu Sans", 7))
    painter = QPainter(writer)
    try:
        for index, (start, end, header) in enumerate(pages):
            if index:
                writer.newPage()
            offset = 0.0
            if header is not None:
                draw_slice(painter, doc, header[0], header[1], 0.0)
                offset = header[1] - header[0]
            draw_slice(painter, doc, start, end, offset)
            painter.setFont(footer_font)
            painter.setPen(Qt.GlobalColor.darkGray)
            footer = QRectF(0, body.height(), body.width(), footer_px)
            left = f"Rating sheet {p.sheet_id} · {p.rater.name}"
            painter.drawText(
                footer, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, left
            )
            painter.drawText(
                footer,
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                f"page {index + 1} of {len(pages)}",
            )
    finally:
        if not painter.end():
            raise RuntimeError("the PDF writer could not finish the document")


def sheet_document(sheet: SignedSheet, device: QPaintDevice, width: float) -> QTextDocument:
    """The sheet laid out as one long strip ``width`` device pixels wide.

    It is laid out in the device's own resolution so that point sizes mean points on
    paper; pages are cut from the strip by :class:`Pager`, not by Qt.
    """
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    doc.setDefaultFont(_no_ligatures(QFont("DejaVu Sans", 9)))
    # Words wrap at their boundaries only ("Workload manageme/nt" was broken mid-word);
    # a very long unbroken run (a pasted hash, a key held down) gets break opportunities
    # of its own (sheet_html._breakable), so it neither widens its column nor takes
    # minutes to lay out.
    option = QTextOption(doc.defaultTextOption())
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    doc.setDocumentMargin(0)
    doc.setHtml(sheet_html(sheet))
    _drop_ligatures(doc)
    doc.setTextWidth(width)
    return doc


_NO_LIGATURES = {QFont.Tag(tag): 0 for tag in ("liga", "clig", "dlig", "hlig")}


def _no_ligatures(font: QFont) -> QFont:
    """``font`` without ligatures: "fi" must extract as typed, so a search for
    "fingerprint" or "offline" finds it in the PDF."""
    for tag, value in _NO_LIGATURES.items():
        font.setFeature(tag, value)
    return font


def _drop_ligatures(doc: QTextDocument) -> None:
    # The HTML's CSS sets fonts per fragment, over the default font: turn the features
    # off on every character too.
    cursor = QTextCursor(doc)
    cursor.select(QTextCursor.SelectionType.Document)
    fmt = QTextCharFormat()
    fmt.setFontFeatures(_NO_LIGATURES)
    cursor.mergeCharFormat(fmt)


def render_sheet_pdf_offscreen(sheet: SignedSheet, path: Path) -> int:
    """:func:`render_sheet_pdf` for the command line: starts an offscreen app if needed.

    The app is left running (not deleted) so that ``export`` can render many sheets; it
    ends with the process.
    """
    if QGuiApplication.instance() is None:
        app = QGuiApplication(["a320-review", "-platform", "offscreen"])
        # Keep the only reference somewhere that outlives this call.
        _keepalive.append(app)
    return render_sheet_pdf(sheet, path)


_keepalive: list[QGuiApplication] = []

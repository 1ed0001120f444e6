"""A signed rating sheet as a human-readable A4 PDF (Qt's own PDF writer).

The PDF is for people: it shows the run, the scorer's vector, the rubric as rated, the
comments, who signed and how to check it. It is *not* the signed artefact; the JSON sheet
is, and the last section says so and gives the exact command that verifies it.

:func:`render_sheet_pdf` needs a running ``QGuiApplication`` (fonts come from it);
:func:`render_sheet_pdf_offscreen` creates an offscreen one first when there is none, for
the command line.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import re
import shlex
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
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
    QTextTable,
)

from reviewer.sheets.sheet import SignedSheet, sheet_file_bytes, sheet_file_name

_DPI = 300
_FOOTER_MM = 8.0
_EDGE = 12.0  # device pixels (1 mm at 300 dpi): less than any line's height

_CSS = """
body { font-family: 'DejaVu Sans', sans-serif; font-size: 9.5pt; color: #1a1a1a; }
h1 { font-size: 17pt; margin: 0; }
.run { font-size: 12pt; font-weight: bold; margin-top: 2px; }
h2 { font-size: 11.5pt; margin-top: 14px; margin-bottom: 5px; color: #1f3a5f; }
.sub { color: #555555; font-size: 9pt; }
table.grid { border-collapse: collapse; }
table.grid th { background-color: #e8edf3; text-align: left; font-weight: bold; }
table.grid td, table.grid th { border: 1px solid #b8c2cc; padding: 4px; }
.num { text-align: right; }
.mono { font-family: 'DejaVu Sans Mono', monospace; font-size: 8.5pt; }
.muted { color: #666666; }
.box { background-color: #f4f6f8; }
"""


#: Runs of non-space characters at least this long get break opportunities (see _e).
_LONG_RUN = 80
_LONG_RUN_RE = re.compile(rf"\S{{{_LONG_RUN},}}")
_BREAK_EVERY = 10


def _breakable(text: str) -> str:
    """``text`` with a zero-width space every 10 characters of a very long unbroken run.

    Qt lays out one 400 KB "word" in tens of seconds (it re-shapes the run for every line
    it breaks); with break opportunities it takes a fraction of a second, and the text
    still wraps where the column ends. Ordinary words, hashes and keys are left alone.
    """

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        return "\u200b".join(run[i : i + _BREAK_EVERY] for i in range(0, len(run), _BREAK_EVERY))

    return _LONG_RUN_RE.sub(split, text)


def _e(value: object) -> str:
    """Escaped text; ``None`` shows as an em dash so empty cells read as 'nothing'."""
    if value is None or value == "":
        return "—"
    return html.escape(_breakable(str(value)))


def _multiline(text: str) -> str:
    return _e(text).replace("\n", "<br/>") if text.strip() else "<i class='muted'>none</i>"


def _outcome(outcome: str | None) -> str:
    # "not_applicable" is an identifier; on paper it reads "not applicable".
    return _e(outcome.replace("_", " ") if outcome else None)


_PLAIN_HEAD = (
    "<th width='19%'>Metric</th><th width='13%'>Outcome</th><th width='8%'>Score</th>"
    "<th width='32%'>Level</th><th>Comment</th>"
)
_EVIDENCE_HEAD = (
    "<th width='14%'>Metric</th><th width='13%'>Outcome</th><th width='8%'>Score</th>"
    "<th width='23%'>Level</th><th width='20%'>Comment</th><th>Evidence</th>"
)


def _evidence(citations: list) -> str:
    """Cited steps, one a line: the step in bold, the rest of its label, the note below."""
    if not citations:
        return "<i class='muted'>none</i>"
    lines = []
    for c in citations:
        rest = c.label[len(c.step) :].strip() if c.label.startswith(c.step) else c.label
        note = f"<br/><i>{_e(c.note)}</i>" if c.note else ""
        lines.append(f"<b>{_e(c.step)}</b> <span class='mono'>{_e(rest)}</span>{note}")
    return "<br/>".join(lines)


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return _e(value)


def sheet_html(sheet: SignedSheet) -> str:
    """The sheet as the HTML subset ``QTextDocument`` understands."""
    p = sheet.payload
    json_name = sheet_file_name(p)
    json_sha256 = hashlib.sha256(sheet_file_bytes(sheet)).hexdigest()
    signed_at = p.signed_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    parts = [
        f"<html><head><style>{_CSS}</style></head><body>",
        "<h1>Rating sheet</h1>",
        f"<p class='run'>{_e(p.run.run_id)}</p>",
        f"<p class='sub'>Signed by <b>{_e(p.rater.name)}</b> on {signed_at}"
        f" · sheet {_e(p.sheet_id)}</p>",
        # A forged PDF can copy any fingerprint: only the JSON file's signature counts.
        f"<p class='sub'><b>Not signed:</b> a rendering of the signed record {_e(json_name)}"
        " (its SHA-256 is under Signature).</p>",
    ]
    # A sheet without cited steps keeps the layout it always had.
    cited = any(item.citations for item in p.items)
    if p.supersedes:
        parts.append(f"<p><b>Correction:</b> this sheet supersedes sheet {_e(p.supersedes)}.</p>")
    parts.append("<h2>Run</h2><table class='grid' width='100%' cellspacing='0'>")
    for label, value in (
        ("Run", p.run.run_id),
        ("Scenario", p.run.scenario_id),
        ("Model", p.run.model),
        ("Trajectory SHA-256", p.run.trajectory_sha256),
        ("Scorer version", p.scorer.version),
    ):
        cls = " class='mono'" if label.startswith("Trajectory") else ""
        parts.append(f"<tr><th width='28%'>{label}</th><td{cls}>{_e(value)}</td></tr>")
    parts.append("</table>")

    parts.append("<h2>Score vector</h2><table class='grid' width='100%' cellspacing='0'><tr>")
    parts += [f"<th>{_e(name.replace('_', ' '))}</th>" for name in p.scorer.vector]
    parts.append("</tr><tr>")
    parts += [f"<td class='num'>{_format_value(v)}</td>" for v in p.scorer.vector.values()]
    parts.append("</tr></table>")

    parts.append(
        f"<h2>Rubric</h2><p class='sub'>{_e(p.rubric.id)} version {_e(p.rubric.version)}"
        f" · SHA-256 <span class='mono'>{_e(p.rubric.sha256)}</span></p>"
        "<table class='grid' width='100%' cellspacing='0'><thead><tr>"
        # <thead> makes Qt repeat the header row on every page the table runs onto.
        + (_EVIDENCE_HEAD if cited else _PLAIN_HEAD)
        + "</tr></thead>"
    )
    for item in p.items:
        # The metric id is in the JSON; the title is what the rater saw in the form.
        evidence = f"<td>{_evidence(item.citations)}</td>" if cited else ""
        parts.append(
            f"<tr><td><b>{_e(item.title)}</b></td><td>{_outcome(item.outcome)}</td>"
            f"<td align='center'>{_e(item.score)}</td><td>{_e(item.anchor)}</td>"
            f"<td>{_multiline(item.comment)}</td>{evidence}</tr>"
        )
    parts.append("</table>")

    parts.append(f"<h2>Overall comment</h2><p>{_multiline(p.overall_comment)}</p>")

    parts.append("<h2>Signature</h2><table class='grid' width='100%' cellspacing='0'>")
    for label, value in (
        ("Rater", p.rater.name),
        ("Key fingerprint", p.rater.fingerprint),
        ("Public key", f"ed25519 {p.rater.public_key}"),
        ("Sheet file SHA-256", json_sha256),
        ("Signed at", signed_at),
    ):
        cls = "" if label in ("Rater", "Signed at") else " class='mono'"
        parts.append(f"<tr><th width='28%'>{label}</th><td{cls}>{_e(value)}</td></tr>")
    parts.append("</table>")

    # One option a line, as a shell continuation: a wrapped line would split "--trust".
    command = " \\\n    ".join(
        [
            f"a320-review verify {shlex.quote(json_name)}",
            "--trajectory path/to/the/trajectory.jsonl",
            "--trust trusted_keys.txt --require-trusted",
        ]
    )
    parts.append(
        "<h2>How to verify</h2>"
        "<p>This PDF is a rendering and is not signed. The signed record is the file "
        f"<span class='mono'>{_e(json_name)}</span>: an Ed25519 signature over the "
        "canonical JSON of everything above. Anyone can check it offline:</p>"
        f"<table class='box' width='100%' cellpadding='6'><tr><td><pre class='mono'>"
        f"{_e(command)}</pre></td></tr></table>"
        "<p>It prints <b>OK</b> when the signature matches, the trajectory file is the one "
        "that was rated, and the key is in your trust list (one line per rater, as "
        "<span class='mono'>a320-review whoami</span> prints it). Check that the "
        "fingerprint above is the one the rater gave you, and that "
        f"<span class='mono'>sha256sum {_e(json_name)}</span> prints the sheet file SHA-256 "
        "above: this PDF is a rendering, the JSON file is the signed record.</p>"
    )
    parts.append("</body></html>")
    return "".join(parts)


def render_sheet_pdf(sheet: SignedSheet, path: Path) -> None:
    """Write ``sheet`` as an A4 PDF to ``path``; needs a ``QGuiApplication``."""
    if QGuiApplication.instance() is None:
        raise RuntimeError("render_sheet_pdf needs a QGuiApplication (or use the offscreen one)")
    p = sheet.payload
    writer = QPdfWriter(str(path))
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
    pages = _Pager(doc, body.height()).pages()

    footer_font = _no_ligatures(QFont("DejaVu Sans", 7))
    painter = QPainter(writer)
    try:
        for index, (start, end, header) in enumerate(pages):
            if index:
                writer.newPage()
            offset = 0.0
            if header is not None:
                _draw_slice(painter, doc, header[0], header[1], 0.0)
                offset = header[1] - header[0]
            _draw_slice(painter, doc, start, end, offset)
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
        painter.end()


def sheet_document(sheet: SignedSheet, device: QPaintDevice, width: float) -> QTextDocument:
    """The sheet laid out as one long strip ``width`` device pixels wide.

    It is laid out in the device's own resolution so that point sizes mean points on
    paper; pages are cut from the strip by :class:`_Pager`, not by Qt.
    """
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    doc.setDefaultFont(_no_ligatures(QFont("DejaVu Sans", 9)))
    # A comment may hold one long unbroken "word" (a pasted hash, a key held down): it
    # wraps anywhere instead of widening its column (and taking minutes to lay out).
    option = QTextOption(doc.defaultTextOption())
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
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


def _draw_slice(painter: QPainter, doc: QTextDocument, start: float, end: float, y: float) -> None:
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


class _Pager:
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


def render_sheet_pdf_offscreen(sheet: SignedSheet, path: Path) -> None:
    """:func:`render_sheet_pdf` for the command line: starts an offscreen app if needed.

    The app is left running (not deleted) so that ``export`` can render many sheets; it
    ends with the process.
    """
    if QGuiApplication.instance() is None:
        app = QGuiApplication(["a320-review", "-platform", "offscreen"])
        # Keep the only reference somewhere that outlives this call.
        _keepalive.append(app)
    render_sheet_pdf(sheet, path)


_keepalive: list[QGuiApplication] = []

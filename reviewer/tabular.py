"""Rendering rows of plain values as an aligned table, CSV, Markdown or JSON."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

FORMATS = ("table", "csv", "json", "markdown")

#: Text a spreadsheet would run as a formula (OWASP "CSV injection"), and the apostrophe
#: itself, so that one leading apostrophe is always ours and reading strips exactly it.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")

#: A line start inside a cell: the start of the text, or just after a CR or LF. A cell read
#: by a tool that splits on line breaks inside quotes (or pasted line by line) starts a new
#: cell at each of them, so each is guarded like the first.
_LINE_START = re.compile(r"(?:^|(?<=[\r\n]))(?=[=+\-@\t\r'])")
_OUR_APOSTROPHE = re.compile(r"(?:^|(?<=[\r\n]))'")


def csv_cell(value: Any) -> Any:
    """One value for a CSV cell: None empty, numbers as numbers, and text that a spreadsheet
    would evaluate (``=HYPERLINK(…)``, ``+cmd|…``, ``-2+3``, ``@SUM(…)``, a leading tab or
    carriage return) behind a leading apostrophe, which spreadsheets show as plain text.

    Every line start inside the text is guarded the same way, not only the first: a model
    named ``"gpt\r=cmd|…"`` has ``=cmd|…`` at the start of its second line.

    Only text is neutralised: a negative score written by us stays a number. A text cell
    that merely looks like a negative number (a run id ``-5``) gets the apostrophe too;
    :func:`csv_text` takes it off again when the file is read back.
    """
    if value is None:
        return ""
    if isinstance(value, bool):  # as JSON writes it, so a CSV and a JSON export read alike
        return "true" if value else "false"
    if isinstance(value, str):
        return _LINE_START.sub("'", value)
    return value


def csv_text(cell_text: str) -> str:
    """A cell read from a CSV written with :func:`csv_cell`: the apostrophe it added at each
    line start is removed (exactly one), so every text round-trips unchanged."""
    return _OUR_APOSTROPHE.sub("", cell_text)


def csv_writer(out: TextIO) -> _SafeWriter:
    """A ``csv.writer`` whose ``writerow`` passes every value through :func:`csv_cell`.

    Rows end in ``\n``; every field holding a CR, an LF, a comma or a quote is quoted.
    """
    return _SafeWriter(out)


class _SafeWriter:
    """The one CSV writer of every export: rows go through :func:`csv_cell`.

    Python's writer quotes a field only for the characters of its own ``lineterminator``:
    with ``"\n"`` a bare CR went out unquoted and a spreadsheet split the cell there. So
    each row is formatted with ``"\r\n"`` (a CR or LF anywhere is then quoted) and its
    terminator replaced by ``"\n"``.
    """

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer, lineterminator="\r\n")

    def writerow(self, values: Iterable[Any]) -> None:
        """Write one row, each value neutralised by :func:`csv_cell`."""
        self._buffer.seek(0)
        self._buffer.truncate()
        self._writer.writerow([csv_cell(v) for v in values])
        self._out.write(self._buffer.getvalue()[:-2] + "\n")


def cell(value: Any) -> str:
    """One value as text: floats to three places, None as empty, booleans as yes/no, and
    text with its control characters escaped as error messages show them (a run id or
    model from a file may hold an escape sequence that would repaint the terminal)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    # Here, not at the top: importing scoring loads the scorer (pydantic), and every verb's
    # parser imports this module (test_building_the_parser_imports_no_scorer_store_or_qt).
    from scoring.paths import shown

    return shown(str(value))


def write_rows(
    rows: Iterable[dict[str, Any]], columns: Sequence[str], fmt: str, out: TextIO
) -> None:
    """Write ``rows`` (dicts) restricted to ``columns`` in ``fmt``."""
    if fmt == "json":
        json.dump([{c: r.get(c) for c in columns} for r in rows], out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        writer = csv_writer(out)
        writer.writerow(columns)
        for r in rows:
            writer.writerow([r.get(c) for c in columns])
    elif fmt == "markdown":
        out.write("| " + " | ".join(columns) + " |\n")
        out.write("|" + "|".join("---" for _ in columns) + "|\n")
        for r in rows:
            out.write("| " + " | ".join(cell(r.get(c)) for c in columns) + " |\n")
    elif fmt == "table":
        text = [[cell(r.get(c)) for c in columns] for r in rows]
        widths = [max([len(c), *(len(t[i]) for t in text)]) for i, c in enumerate(columns)]
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip())
        out.write("\n")
        for t in text:
            out.write("  ".join(v.ljust(w) for v, w in zip(t, widths, strict=True)).rstrip())
            out.write("\n")
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def render(rows: Iterable[dict[str, Any]], columns: Sequence[str], fmt: str) -> str:
    """Like :func:`write_rows`, into a string."""
    buf = io.StringIO()
    write_rows(rows, columns, fmt, buf)
    return buf.getvalue()

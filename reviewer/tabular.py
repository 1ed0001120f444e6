"""Rendering rows of plain values as an aligned table, CSV, Markdown or JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

FORMATS = ("table", "csv", "json", "markdown")


def cell(value: Any) -> str:
    """One value as text: floats to three places, None as empty, booleans as yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def write_rows(
    rows: Iterable[dict[str, Any]], columns: Sequence[str], fmt: str, out: TextIO
) -> None:
    """Write ``rows`` (dicts) restricted to ``columns`` in ``fmt``."""
    if fmt == "json":
        json.dump([{c: r.get(c) for c in columns} for r in rows], out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for r in rows:
            writer.writerow(["" if r.get(c) is None else r.get(c) for c in columns])
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

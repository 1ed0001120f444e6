"""The ``runs`` verb's table, built column by column: 50,000 runs print in well under a second.

:func:`reviewer.tabular.write_rows` formats cell by cell through one generic function, which
is most of the verb's time at 50,000 runs. Here each column has one formatter picked from its
values, and each line is one ``str.format`` call; the text is the same as ``write_rows``'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, TextIO

from reviewer.tabular import cell

#: ``cell`` of a boolean column's values.
_BOOL_TEXT = {True: "yes", False: "no", None: ""}


def _columns(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> list[list[Any]]:
    """The values of each column, ``row.get(column)`` for every row: one ``itemgetter``
    call per row rather than one ``dict.get`` per cell (650,000 of them at 50,000 runs)."""
    if not rows:
        return [[] for _ in columns]
    if len(columns) > 1 and all(c in rows[0] for c in columns):
        get = itemgetter(*columns)
        with contextlib.suppress(KeyError):  # a later row lacks a column: the general way
            return [list(col) for col in zip(*map(get, rows), strict=True)]
    return [[row.get(c) for row in rows] for c in columns]


def _texts(values: list[Any]) -> list[str]:
    """``cell(v)`` for every value, with one fast path when the column holds one plain type."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    if kinds == {str}:
        # Text from files (run ids, models) escaped as cell() does: no raw escape sequences.
        texts = ["" if v is None else v for v in values]
        joined = "".join(texts)
        if joined.isascii() and joined.isprintable():
            # shown() leaves printable ASCII as it is (tests/reviewer/test_runs_output.py
            # holds it to that), and importing it loads the whole scorer: a tenth of `runs`.
            return texts
        from scoring.paths import shown_all

        return shown_all(texts)
    if kinds == {int}:
        return ["" if v is None else str(v) for v in values]
    if kinds == {float}:
        return ["" if v is None else f"{v:.3f}" for v in values]
    if kinds == {bool}:
        return [_BOOL_TEXT[v] for v in values]
    return [cell(v) for v in values]  # bools, mixed types, or every value None


def write_table(rows: Sequence[dict[str, Any]], columns: Sequence[str], out: TextIO) -> None:
    """Write ``rows`` as ``write_rows(rows, columns, "table", out)`` does, faster."""
    write_columns(_columns(rows, columns), columns, out)


def write_columns(values: Sequence[list[Any]], columns: Sequence[str], out: TextIO) -> None:
    """:func:`write_table` of rows given as columns (``values[i]``: column ``columns[i]``
    of every row, all of one length)."""
    texts = [_texts(column) for column in values]
    widths = [max([len(c), *map(len, col)]) for c, col in zip(columns, texts, strict=True)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    out.write(line.format(*columns).rstrip() + "\n")
    if texts and texts[0]:
        # Each cell padded as ``{:<w}`` pads it (``str.ljust``), the rows joined, all mapped
        # in C: no Python frame nor format parsing per row (650,000 cells at 50,000 runs).
        padded = [map(str.ljust, col, repeat(w)) for col, w in zip(texts, widths, strict=True)]
        lines = map(str.rstrip, map("  ".join, zip(*padded, strict=True)))
        out.write("\n".join(lines) + "\n")

"""The ``runs`` verb's fast table writes what the generic ``write_rows`` table writes."""

from __future__ import annotations

import io
import random

import pytest

from reviewer.commands.runs_output import write_columns, write_table
from reviewer.tabular import write_rows

COLUMNS = ("pk", "name", "score", "flag", "mixed", "empty")


def _value(rng: random.Random, column: str) -> object:
    kinds = {
        "pk": lambda: rng.randrange(100_000),
        "name": lambda: rng.choice(["a", "bb", "", "run-ü", None]),
        "score": lambda: rng.choice([None, rng.random(), -rng.random() * 10]),
        "flag": lambda: rng.choice([True, False, None]),
        "mixed": lambda: rng.choice([1, 2.5, "x", True, None]),
        "empty": lambda: None,
    }
    return kinds[column]()


def _both(rows: list[dict], columns: tuple[str, ...]) -> tuple[str, str]:
    fast, generic, by_column = io.StringIO(), io.StringIO(), io.StringIO()
    write_table(rows, columns, fast)
    write_rows(rows, columns, "table", generic)
    # The same rows handed over as columns (how the plain run list is printed).
    write_columns([[row.get(c) for row in rows] for c in columns], columns, by_column)
    assert by_column.getvalue() == fast.getvalue()
    return fast.getvalue(), generic.getvalue()


@pytest.mark.parametrize("seed", range(20))
def test_the_fast_table_is_the_generic_table(seed: int) -> None:
    rng = random.Random(seed)
    rows = [{c: _value(rng, c) for c in COLUMNS} for _ in range(rng.randrange(1, 40))]
    for row in rows:  # some rows lack a column: write_rows reads it as None
        if rng.random() < 0.1:
            del row[rng.choice(COLUMNS)]
    fast, generic = _both(rows, COLUMNS)
    assert fast == generic


def test_edge_shapes() -> None:
    assert _both([], COLUMNS)[0] == _both([], COLUMNS)[1]
    rows = [{"pk": 1, "flag": True}, {"pk": 2, "flag": False}]
    for columns in (("pk",), ("flag",), ("pk", "flag"), ("flag", "absent")):
        fast, generic = _both(rows, columns)
        assert fast == generic, columns


def test_printable_ascii_is_shown_as_it_is() -> None:
    # write_table leaves a column of printable ASCII as it is, without importing the scorer
    # for shown(): that holds only while shown() changes none of these characters.
    from scoring.paths import shown

    printable = "".join(chr(c) for c in range(0x20, 0x7F))
    assert printable.isascii() and printable.isprintable()
    assert shown(printable) == printable
    rows = [{"name": "ok"}, {"name": "esc\x1b[2J"}, {"name": "tab\there"}]
    fast, generic = _both(rows, ("name",))
    assert fast == generic and "\\x1b" in fast and "\\x09" in fast

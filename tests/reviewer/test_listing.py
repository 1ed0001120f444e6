"""The run list read without the store (``reviewer.listing``): the same rows, the same
refusals, and none of the store's imports."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.listing import reader
from reviewer.listing.reader import NotReadHere, read_first_page, read_run_rows, read_run_values
from reviewer.listing.rows import SCORER_FIELDS, RunValues
from reviewer.store import SCHEMA_VERSION, RunRow
from reviewer.verbs.database import RUN_ROW_FIELDS
from reviewer.workspace import ReviewStore


def test_the_reader_is_written_for_the_store_schema_version() -> None:
    # A migration that bumps the store's version makes the light read step aside (it would
    # fall back to the store for every file) until its SQL is checked against the new schema.
    assert reader.SCHEMA_VERSION == SCHEMA_VERSION


def test_the_json_keys_are_the_run_row_fields() -> None:
    assert list(RunRow.model_fields) == RUN_ROW_FIELDS


def test_the_queue_rows_have_the_run_row_fields_and_values(
    tmp_path: Path, seeded: ReviewStore
) -> None:
    # The window's queue holds RunValues (plain), the store's list RunRow (models): one
    # list, read once, the same fields and values either way.
    assert RunValues._fields == tuple(RunRow.model_fields)
    seeded.ensure_rater("ann")
    first = seeded.list_runs()[0].run_pk
    seeded.start_rating(first, "ann")
    listed = seeded.list_runs(rater="ann")
    plain = read_run_rows(seeded.path, rater="ann")
    assert plain == seeded.list_run_rows(rater="ann")
    assert [row._asdict() for row in plain] == [row.model_dump() for row in listed]
    assert plain[0].rating_state == "draft" and plain[1].rating_state == "unrated"
    assert RunValues.of(listed[2]) == plain[2]
    # Blanking the scorer's values blanks the same fields as RunRow's, and only those.
    blank, model_blank = plain[2].without_scorer(), listed[2].without_scorer()
    assert blank._asdict() == model_blank.model_dump()
    changed = {f for f in RunValues._fields if getattr(blank, f) != getattr(plain[2], f)}
    assert changed <= set(SCORER_FIELDS) and plain[2].scalar is not None


def test_files_the_store_must_open_are_left_to_it(tmp_path: Path, seeded: ReviewStore) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    for path in (tmp_path / "missing.db", tmp_path, text):
        with pytest.raises(NotReadHere):
            read_run_values(path, rater=None)
    older = tmp_path / "older.db"
    with sqlite3.connect(older) as conn:
        seeded.db.conn.backup(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    with pytest.raises(NotReadHere):
        read_run_values(older, rater=None)
    assert len(read_run_values(seeded.path, rater=None)) == 5


def test_runs_reads_the_list_without_the_store(tmp_path: Path, seeded: ReviewStore) -> None:
    seeded.start_rating(2, "ann")
    script = (
        "import sys\n"
        "from reviewer.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "heavy = ('reviewer.store', 'reviewer.workspace', 'sqlite_utils', 'cryptography', "
        "'pydantic', 'scoring')\n"
        "print(sorted(m for m in sys.modules if m in heavy), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    for fmt in ("table", "json"):
        argv = ["runs", "--db", str(seeded.path), "--rater", "ann", "--format", fmt]
        done = subprocess.run(
            [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr.splitlines()[-1] == "[]", fmt  # none of them was imported
    rows = json.loads(done.stdout)
    assert [(r["run_pk"], r["rating_state"]) for r in rows] == [
        (1, "unrated"), (2, "draft"), (3, "unrated"), (4, "unrated"), (5, "unrated"),
    ]  # fmt: skip
    assert rows == [r.model_dump() for r in seeded.list_runs(rater="ann")]


def test_the_first_rows_are_the_head_of_the_list_and_count_the_whole(
    store: ReviewStore, tmp_path: Path, make_run, fill_rating
) -> None:
    # The window's first screen reads a head of the list, its length and its rows per
    # rating state (reviewer.listing.run_values.list_first_rows); each must be what the
    # whole list, read and counted plainly, says: versions, corrections, drafts and
    # another rater's ratings included.
    root = tmp_path / "runs"
    paths = [make_run(root, n) for n in (1, 2, 3, 4, 5)]
    store.import_paths([root])
    make_run(root, 1, steps=(("ext_pwr", 1),))
    store.import_paths([paths[0]])  # run 6: version 2 of run 1's path (1 is superseded)
    first = fill_rating(store, store.start_rating(1, "ann"))
    first = store.submit(first.rating_pk, expected_version=first.version)
    store.supersede(first.rating_pk, rater="ann")  # correcting: rated, and a draft again
    done = fill_rating(store, store.start_rating(3, "ann"))
    store.submit(done.rating_pk, expected_version=done.version)
    store.start_rating(4, "ann")  # a draft
    other = fill_rating(store, store.start_rating(2, "bob"))
    store.submit(other.rating_pk, expected_version=other.version)
    for rater in ("ann", "bob", "nobody"):
        whole = read_run_rows(store.path, rater=rater)
        assert len(whole) == 6
        counts: dict[str, int] = {}
        for row in whole:
            counts[row.rating_state] = counts.get(row.rating_state, 0) + 1
        for limit in (0, 1, 2, 5, 6, 50):
            (head, total, states), blind = read_first_page(store.path, rater=rater, limit=limit)
            assert head == whole[:limit]
            assert total == len(whole)
            assert {s: n for s, n in states.items() if n} == counts
            assert blind == frozenset()
    ann = {s: n for s, n in read_first_page(store.path, rater="ann", limit=1)[0].states.items()}
    # Runs 1 (correcting), 3 (submitted), 4 (draft); 2, 5, 6 unrated for ann.
    assert ann == {"correcting": 1, "submitted": 1, "draft": 1, "unrated": 3}

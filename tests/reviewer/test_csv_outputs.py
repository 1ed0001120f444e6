"""Every CSV the tool writes, with hostile text in it, read back as a spreadsheet would
(issue 27): a carriage return inside a field split the cell and let ``=cmd|…`` through."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.tabular import csv_cell, csv_text, csv_writer
from reviewer.workspace import ReviewStore

APU = "elec-apu-gen-fault"
PROCEDURE = (("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0), ("ext_pwr", 1))

MODEL = "gpt\r=cmd|' /C calc'!A0"
RUN_ID = "\r=2+2"
COMMENT = "fine\n@SUM(A1)\r\n-1+1\r+x"
#: What a spreadsheet runs at the start of a cell, or of a line a reader splits a cell at.
_DANGER = ("=", "+", "-", "@", "\t", "\r")


def _unguarded(cell: str) -> list[str]:
    """The lines of ``cell`` (split at CR and LF, as a naive importer does) that a
    spreadsheet would evaluate: the cell itself, or a line in it, starts with a formula
    character rather than the guarding apostrophe."""
    try:
        float(cell)
        return []  # a number we wrote (a negative score) is a number, not a formula
    except ValueError:
        pass
    lines = cell.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [line for line in [cell, *lines[1:]] if line.startswith(_DANGER)]


def _check(text: str, *, expect: list[str]) -> list[list[str]]:
    """Parse ``text`` as CSV; assert no cell or line within a cell is an unguarded formula
    and that every row has the header's width (no cell was split into two rows)."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows, "no CSV written"
    width = len(rows[0])
    for row in rows:
        assert len(row) == width, row
        for cell in row:
            assert not _unguarded(cell), repr(cell)
    # No physical line of the file (a naive split on CR or LF) starts with a formula either.
    for line in text.replace("\r", "\n").split("\n"):
        assert not line.startswith(("=", "+", "@")), repr(line)
    read_back = {csv_text(cell) for row in rows for cell in row}
    for value in expect:
        assert value in read_back, (value, read_back)
    return rows


def _run(capsys, *argv: object) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """Two trajectories: one by a model with a CR and a formula, one with such a run id."""
    root = tmp_path / "hostile"
    for n, (run_id, model) in enumerate([("run-a", MODEL), (RUN_ID, "m")]):
        b = TrajectoryBuilder(bundled_scenario(APU), run_id=run_id, model=model, seed=n)
        b.turn().read("read_ecam")
        for control, value in PROCEDURE:
            b.set(control, value)
        b.advance(5).read("read_ecam").done().final("agent_done", passed=True)
        b.write(root / APU / f"run{n}.jsonl")
    return root


@pytest.mark.parametrize(
    "text", [MODEL, RUN_ID, COMMENT, "a\r\r=b", "'x\n'y", "plain", "-5", "x\n\n=1"]
)
def test_every_line_start_is_guarded_and_reads_back(text: str) -> None:
    out = io.StringIO()
    csv_writer(out).writerow([text, 1, -2.5, None])
    [[cell, one, minus, empty]] = _check(out.getvalue(), expect=[])
    assert csv_text(cell) == text and (one, minus, empty) == ("1", "-2.5", "")
    assert csv_cell(-2) == -2  # numbers written by us stay numbers


def test_every_csv_the_tool_writes_is_safe(
    capsys, hostile: Path, db_path: Path, tmp_path: Path, fill_rating
) -> None:
    _check(_run(capsys, "score", hostile, "--format", "csv"), expect=[MODEL, RUN_ID])
    _check(_run(capsys, "aggregate", hostile, "--format", "csv"), expect=[MODEL])

    _run(capsys, "import", hostile, "--db", db_path)
    with ReviewStore.open(db_path, create=False) as store:
        for run in store.list_runs():
            rating = store.start_rating(run.run_pk, "ann")
            rating = fill_rating(store, rating, comment=COMMENT)
            store.submit(rating.rating_pk, expected_version=rating.version)
    export = tmp_path / "ratings.csv"
    _run(capsys, "ratings", "export", "--db", db_path, "--out", export)
    _check(export.read_bytes().decode("utf-8"), expect=[COMMENT, RUN_ID])
    _check(_run(capsys, "consensus", "export", "--db", db_path), expect=[])

    _run(capsys, "study", "create", "s", "--raters", "bob,cat", "--per-run", "1",
         "--protocol", "blind", "--seed", "1", "--db", db_path)  # fmt: skip
    assignments = _run(capsys, "study", "assignments", "s", "--format", "csv", "--db", db_path)
    _check(assignments, expect=[RUN_ID])


ESCAPE_RUN = "run-\x1b[2J\x1b]0;owned\x07"
ESCAPE_MODEL = "m\x1b[31mred\r\nforged line"


@pytest.fixture
def escaping(tmp_path: Path) -> Path:
    """One trajectory whose run id and model hold terminal escape sequences."""
    b = TrajectoryBuilder(bundled_scenario(APU), run_id=ESCAPE_RUN, model=ESCAPE_MODEL, seed=1)
    b.turn().read("read_ecam")
    b.advance(5).read("read_ecam").done().final("agent_done", passed=True)
    return b.write(tmp_path / "esc" / APU / "run.jsonl")


@pytest.mark.parametrize(
    "argv",
    [["score", "{file}", "--format", "table"], ["aggregate", "{file}"],
     ["aggregate", "{file}", "--format", "markdown"], ["runs", "--db", "{db}"]],
)  # fmt: skip
def test_tables_escape_text_from_files(
    capsys, escaping: Path, db_path: Path, argv: list[str]
) -> None:
    main(["import", str(escaping), "--db", str(db_path)])
    capsys.readouterr()
    main([a.format(file=escaping, db=db_path) for a in argv])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    if argv[0] != "aggregate":
        assert "run-\\x1b[2J\\x1b]0;owned\\x07" in out
    assert "m\\x1b[31mred\\x0d\\x0aforged line" in out

"""Hostile input to the batch verbs: one bad file never spoils the batch (issue 8, items 3,
5 and 12). Each test here failed before its fix."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.tabular import csv_cell, csv_text
from reviewer.workspace import ReviewStore


def _run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _spoil(path: Path, mutate) -> Path:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    mutate(records)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def mixed(corpus: Path) -> Path:
    """The corpus of four with three files spoilt the ways the attacker found."""
    files = sorted(corpus.rglob("*.jsonl"))
    _spoil(files[0], lambda r: r[1].update(type=["setup"]))
    _spoil(files[1], lambda r: r[0]["scenario"].update(initial_state={"world_controls": [1]}))
    bad_name = files[2].with_name(os.fsdecode(b"bad-\xff.jsonl"))
    files[2].rename(bad_name)
    return corpus


@pytest.mark.parametrize("verb", ["score", "aggregate"])
def test_score_and_aggregate_keep_the_good_files(capsys, mixed: Path, verb: str) -> None:
    code, out, err = _run(capsys, verb, mixed, "--format", "csv")
    assert code == 1
    assert "Traceback" not in err
    assert err.count("unreadable: ") == 3
    assert "the record's 'type' must be a string" in err
    assert "world_controls must be an object" in err
    assert "bad-\\xff.jsonl" in err and "not valid UTF-8" in err
    assert len(list(csv.reader(io.StringIO(out)))) >= 2


def test_import_stores_the_good_files(capsys, mixed: Path, db_path: Path) -> None:
    code, out, _err = _run(capsys, "import", mixed, "--db", db_path)
    assert code == 1
    assert "1 new runs" in out and "3 unreadable" in out
    with ReviewStore.open(db_path, create=False) as store:
        assert store.count_runs() == 1


def test_the_store_importer_keeps_the_good_files(mixed: Path, store: ReviewStore) -> None:
    # The window imports through the same call.
    report = store.import_paths([mixed])
    assert len(report.unreadable) == 3 and store.count_runs() == 1


# -- item 12: what a folder holds but cannot be read ------------------------------------


def test_fifo_symlink_loop_and_control_characters_are_reported(capsys, corpus: Path) -> None:
    folder = corpus / "elec-apu-gen-fault"
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "loop.jsonl").symlink_to(folder / "loop.jsonl")
    (folder / "up").symlink_to(corpus)  # a folder loop
    evil = folder / "evil\n\x1b[31mname.jsonl"
    evil.write_text("not json\n")
    code, _out, err = _run(capsys, "score", corpus, "--format", "csv")
    assert code == 1
    assert "pipe.jsonl: not a regular file (a FIFO)" in err
    assert "loop.jsonl: a symlink loop" in err
    assert "up: a symlink loop" in err
    assert "evil\\x0a\\x1b[31mname.jsonl" in err and "\x1b" not in err
    assert sum(line.startswith("unreadable: ") for line in err.splitlines()) == 4


def test_import_reports_a_fifo_and_does_not_hang(capsys, corpus: Path, db_path: Path) -> None:
    os.mkfifo(corpus / "pipe.jsonl")
    code, out, err = _run(capsys, "import", corpus, "--db", db_path)
    assert code == 1 and "4 new runs" in out
    assert "pipe.jsonl: not a regular file (a FIFO)" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a folder whatever its mode")
def test_an_unreadable_subfolder_is_reported(capsys, corpus: Path) -> None:
    locked = corpus / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        code, _, err = _run(capsys, "score", corpus)
    finally:
        locked.chmod(0o755)
    assert code == 1 and "locked: cannot read the folder" in err


# -- item 5: formulas in CSV cells -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx"],
)
def test_formula_cells_are_neutralised_and_read_back(text: str) -> None:
    assert csv_cell(text) == "'" + text
    assert csv_text(csv_cell(text)) == text


def test_numbers_and_plain_text_are_left_alone() -> None:
    assert csv_cell(-2) == -2 and csv_cell(-0.5) == -0.5 and csv_cell(None) == ""
    assert csv_cell("fine") == "fine"
    # A genuine leading apostrophe is escaped too, so reading strips only ours.
    assert csv_cell("'quoted") == "''quoted" and csv_text("''quoted") == "'quoted"


FORMULAS = ['=HYPERLINK("http://evil","x")', "+cmd|' /C calc'!A0", "-2+3", "'quoted", "plain"]


def test_ratings_export_neutralises_and_import_reads_back(
    capsys, seeded: ReviewStore, db_path: Path, tmp_path: Path, fill_rating
) -> None:
    rating = seeded.start_rating(1, "=ann")
    rating = fill_rating(seeded, rating, score=3, comment=FORMULAS[0])
    for metric_id, comment in zip(list(rating.items)[1:], FORMULAS[1:], strict=False):
        rating = seeded.save_item(
            rating.rating_pk, metric_id, outcome="applicable", score=3, comment=comment,
            expected_version=rating.version,
        )  # fmt: skip
    seeded.submit(rating.rating_pk, expected_version=rating.version)
    seeded.close()
    out_file = tmp_path / "export.csv"
    code, _, _ = _run(capsys, "ratings", "export", "--db", db_path, "--out", out_file)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out_file.read_text(encoding="utf-8"))))
    comments = [r["comment"] for r in rows]
    assert all(not c.startswith(("=", "+", "-", "@")) for c in comments)
    assert {r["rater"] for r in rows} == {"'=ann"}
    assert rows[0]["score"] == "3"  # a number stays a number

    # Read back as another rater: every comment arrives as it was typed.
    code, _, err = _run(capsys, "ratings", "import", out_file, "--rater", "bob", "--db", db_path)
    assert code == 0, err
    with ReviewStore.open(db_path, create=False) as store:
        back = store.latest_decisions(rater="bob")[0]
    assert sorted(item.comment for item in back.items.values()) == sorted(
        [FORMULAS[0], *FORMULAS[1:], *([FORMULAS[0]] * (len(rows) - len(FORMULAS)))]
    )


def test_score_csv_neutralises_text_from_the_trajectory(capsys, corpus: Path) -> None:
    first = sorted(corpus.rglob("*.jsonl"))[0]
    _spoil(first, lambda r: r[0]["adapter"].update(model="=HYPERLINK(1)"))
    code, out, _ = _run(capsys, "score", first, "--format", "csv")
    row = next(csv.DictReader(io.StringIO(out)))
    assert code == 0 and row["model"] == "'=HYPERLINK(1)"
    code, out, _ = _run(capsys, "aggregate", first, "--format", "csv")
    assert "'=HYPERLINK(1)" in out and ",=HYPERLINK" not in out


def test_a_fifo_or_loop_given_by_name_is_reported(capsys, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "loop.jsonl").symlink_to(tmp_path / "loop.jsonl")
    code, _, err = _run(capsys, "score", tmp_path / "pipe.jsonl", tmp_path / "loop.jsonl")
    assert code == 1
    assert "pipe.jsonl: not a regular file (a FIFO)" in err
    assert "loop.jsonl: a symlink loop" in err

"""Ratings files built to break the parser give ``line N: reason``, never a traceback
(issue 8, item 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.cli import main

HEADER = "run_id,metric,outcome,score,comment\n"


def _import(capsys, path: Path, db: Path) -> tuple[int, str]:
    code = main(["ratings", "import", str(path), "--rater", "pat", "--db", str(db)])
    return code, capsys.readouterr().err


@pytest.fixture
def db(corpus: Path, db_path: Path, capsys) -> Path:
    assert main(["import", str(corpus), "--db", str(db_path)]) == 0
    capsys.readouterr()
    return db_path


@pytest.mark.parametrize(
    ("score", "shown"),
    [("²", "'²'"), ("٣", "'٣'"), ("9" * 5000, "'99999999999999999999…'")],
    ids=["superscript", "arabic-indic", "5000-digits"],
)
def test_odd_csv_scores_are_refused_by_line(capsys, db, tmp_path, score, shown) -> None:
    path = tmp_path / "r.csv"
    path.write_text(HEADER + f"20260724T101500Z-000000,safety,applicable,{score},x\n")
    code, err = _import(capsys, path, db)
    assert code == 1 and "Traceback" not in err
    assert (
        f"{path}:2: 20260724T101500Z-000000, safety: score must be an integer 0–3; got {shown}"
        in (err)
    )


def test_a_csv_field_over_the_limit(capsys, db, tmp_path) -> None:
    path = tmp_path / "r.csv"
    path.write_text(
        HEADER + '20260724T101500Z-000000,safety,applicable,2,"' + "x" * 200_000 + '"\n'
    )
    code, err = _import(capsys, path, db)
    assert code == 1 and f"{path}:2: not readable as CSV (field larger than field limit" in err


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"run_id": "r", "metric": "safety", "score": ' + "9" * 5000 + "}", "Exceeds the limit"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
    ids=["5000-digit-integer", "nested-100000"],
)
def test_jsonl_lines_that_break_the_parser(capsys, db, tmp_path, line, reason) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"run_id": "r", "metric": "m"}) + "\n" + line + "\n")
    code, err = _import(capsys, path, db)
    assert code == 1 and "Traceback" not in err
    assert f"{path}:2: not JSON ({reason}" in err


def test_a_deep_first_line_is_not_a_scorecard_file(capsys, tmp_path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    code = main(["aggregate", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "deep.jsonl:1: not a trajectory" in err

"""The headless workflow: adjudicate, submit, sign, export, correct, threshold."""

from __future__ import annotations

import json
from pathlib import Path

from reviewer.cli import main
from reviewer.sheets.verify import verify_file
from reviewer.workspace import ReviewStore

RUN1 = "20260724T101500Z-000000"


def _cli(db: Path, *args: str) -> int:
    return main([*args, "--db", str(db)])


def test_adjudicate_submit_sign_export(
    disputed: ReviewStore, signed: Path, db_path: Path, tmp_path: Path, capsys
) -> None:
    base = ("adjudicate", "--run", RUN1, "--rater", "dana")
    assert (
        _cli(
            db_path,
            *base,
            "--metric",
            "safety",
            "--outcome",
            "applicable",
            "--score",
            "1",
            "--reason",
            "one slip",
            "--sides-with",
            "ann",
        )
        == 0
    )
    assert "still to decide: verification" in capsys.readouterr().out
    assert _cli(db_path, "adjudication", "submit", "--run", RUN1, "--rater", "dana") == 1
    assert "verification: disputed, not decided yet" in capsys.readouterr().err
    assert (
        _cli(
            db_path,
            *base,
            "--metric",
            "verification",
            "--outcome",
            "not_observed",
            "--reason",
            "no ECAM read visible",
        )
        == 0
    )
    assert (
        _cli(db_path, *base, "--metric", "safety", "--outcome", "applicable", "--reason", "x") == 2
    )
    assert _cli(db_path, "adjudication", "submit", "--run", RUN1, "--rater", "dana") == 0
    assert (
        _cli(db_path, *base, "--metric", "safety", "--outcome", "not_applicable", "--reason", "x")
        == 1
    )
    assert "adjudication correct" in capsys.readouterr().err
    out = tmp_path / "out"
    assert (
        _cli(db_path, "adjudication", "sign", "--run", RUN1, "--rater", "dana", "--out", str(out))
        == 0
    )
    (written,) = out.glob("*.adjudication.sheet.json")
    assert verify_file(written).ok
    again = tmp_path / "again"
    assert _cli(db_path, "adjudication", "export", "--out", str(again)) == 0
    assert (again / written.name).read_bytes() == written.read_bytes()
    assert _cli(db_path, "adjudication", "correct", "--run", RUN1, "--rater", "dana") == 0
    capsys.readouterr()
    assert _cli(db_path, "adjudication", "threshold", "nope") == 1
    assert "no study 'nope'" in capsys.readouterr().err


def test_threshold_command_sets_and_shows(disputed: ReviewStore, db_path: Path, capsys) -> None:
    from reviewer.studies.model import StudySpec

    disputed.create_study(StudySpec(name="pilot", raters=("ann", "bob"), per_run=2))
    assert _cli(db_path, "adjudication", "threshold", "pilot", "3") == 0
    assert json.loads(capsys.readouterr().out) == {"study": "pilot", "adjudication_threshold": 3}
    assert _cli(db_path, "adjudication", "threshold", "pilot") == 0
    assert json.loads(capsys.readouterr().out)["adjudication_threshold"] == 3

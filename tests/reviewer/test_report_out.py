"""Every verb that prints a report can write it with ``--out FILE``: the same text as on
stdout, the file complete or absent, messages still on stderr."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from reviewer.cli import build_parser, main

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"

#: The verbs whose output is a report (a table, JSON or CSV printed on stdout).
REPORT_VERBS = (
    ("agreement",), ("validity",), ("ratings", "summary"), ("runs",), ("audit", "verify"),
    ("aggregate",), ("judge", "compare"), ("adjudication", "list"), ("study", "list"),
    ("study", "show"), ("study", "assignments"), ("leaderboard",), ("raters", "bias"),
    ("score",), ("consensus", "export"), ("ratings", "export"),
)  # fmt: skip


def _parser_of(path: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = build_parser(path[0])
    for word in path:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


@pytest.mark.parametrize("path", REPORT_VERBS, ids=" ".join)
def test_every_report_verb_takes_out(path: tuple[str, ...]) -> None:
    options = {s for a in _parser_of(path)._actions for s in a.option_strings}
    assert "--out" in options, " ".join(path)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("out") / "r.db"
    assert main(["import", str(DEMO), "--db", str(db)]) == 1  # one corrupt file on purpose
    return db


@pytest.mark.parametrize(
    "argv",
    [
        ["runs", "--format", "json"],
        ["audit", "verify"],
        ["aggregate", str(DEMO), "--format", "markdown"],
        ["adjudication", "list", "--format", "json"],
        ["ratings", "summary", "--format", "json"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_out_writes_what_stdout_shows(demo_db: Path, tmp_path: Path, capsys, argv) -> None:
    db = [] if argv[0] == "aggregate" else ["--db", str(demo_db)]
    code = main([*argv, *db])
    shown = capsys.readouterr().out
    out = tmp_path / "report.txt"
    assert main([*argv, *db, "--out", str(out)]) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert out.read_text(encoding="utf-8") == shown and shown


def test_a_report_that_cannot_be_written_leaves_nothing(demo_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "folder" / "runs.csv"
    assert main(["runs", "--db", str(demo_db), "--out", str(target)]) == 2
    assert not target.exists()


def test_agreement_names_a_raters_columns_alike_in_csv_and_json(
    demo_db: Path, tmp_path: Path, capsys
) -> None:
    # The JSON nested a rater's means as mean_score.<metric> where the CSV had mean_<metric>.
    import csv
    import json
    import shutil
    import sqlite3

    from reviewer.rubric import default_rubric

    db = tmp_path / "rated.db"
    shutil.copy(demo_db, db)
    with sqlite3.connect(db) as conn:
        runs = [r[0] for r in conn.execute(
            "SELECT run_id FROM runs WHERE status = 'scored' ORDER BY run_id LIMIT 4")]  # fmt: skip
    for rater in ("ann", "bob"):
        path = tmp_path / f"{rater}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["run_id", "metric", "outcome", "score", "comment"])
            for run in runs:
                for metric in default_rubric().metric_ids:
                    w.writerow([run, metric, "applicable", 2, ""])
        assert main(["ratings", "import", str(path), "--rater", rater, "--db", str(db)]) == 0
    capsys.readouterr()
    base = ["agreement", "--db", str(db), "--bootstrap", "0"]
    assert main([*base, "--format", "json"]) == 0
    json_rater = json.loads(capsys.readouterr().out)["raters"][0]
    assert main([*base, "--format", "csv"]) == 0
    csv_text = capsys.readouterr().out
    means = {f"mean_{m}" for m in default_rubric().metric_ids}
    assert all(name in csv_text for name in means)  # the CSV's raters table
    assert means <= set(json_rater) and "mean_score" not in json_rater

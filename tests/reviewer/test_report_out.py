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

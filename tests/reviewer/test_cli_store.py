"""The store verbs (``import``, ``runs``, ``ratings``, ``audit verify``) as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from reviewer import home
from reviewer.cli import main
from reviewer.store import SCHEMA_VERSION
from reviewer.workspace import ReviewStore

METRICS = (
    "procedure_application",
    "situation_awareness",
    "problem_solving",
    "safety",
    "verification",
    "workload_management",
    "communication",
)


def _run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_import_then_list_runs(capsys, corpus: Path, db_path: Path) -> None:
    code, out, err = _run(capsys, "import", corpus, "--db", db_path)
    assert code == 0
    assert out == (
        "import: 4 new runs, 0 new versions of changed files, 0 unchanged, 0 unreadable; "
        f"database {db_path}\n"
    )
    code, out, _ = _run(capsys, "import", corpus, "--db", db_path)
    assert "0 new runs, 0 new versions of changed files, 4 unchanged" in out
    code, out, err = _run(capsys, "runs", "--db", db_path)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 + 4
    assert lines[0].split() == [
        "run_pk", "run_id", "scenario_id", "model", "status", "scalar", "coverage",
        "end_state", "unsafe", "version", "changed", "rating", "n_ratings",
    ]  # fmt: skip
    assert lines[1].split()[:6] == [
        "1", "20260724T101500Z-000000", "elec-apu-gen-fault", "model-b", "scored", "1.000",
    ]  # fmt: skip
    assert err == "4 runs\n"


def test_runs_as_json_with_a_rater(capsys, corpus: Path, db_path: Path) -> None:
    _run(capsys, "import", corpus, "--db", db_path)
    with ReviewStore.open(db_path) as store:
        store.start_rating(2, "ann")
    code, out, err = _run(capsys, "runs", "--db", db_path, "--format", "json", "--rater", "ann")
    rows = json.loads(out)
    assert code == 0 and [r["rating_state"] for r in rows] == [
        "unrated",
        "draft",
        "unrated",
        "unrated",
    ]
    assert rows[0]["scalar"] == 1.0 and rows[0]["superseded_by_version"] is False
    assert "rating state of ann" in err


def test_import_reports_unreadable_files_and_exits_1(capsys, corpus: Path, db_path: Path) -> None:
    bad = corpus / "bad.jsonl"
    bad.write_text("garbage\n{}\n", encoding="utf-8")
    code, out, err = _run(capsys, "import", corpus, "--db", db_path)
    assert code == 1
    assert "4 new runs" in out and "1 unreadable" in out
    assert f"unreadable: {bad.resolve()}:1: " in err


def test_the_default_database_lives_under_the_home(capsys, corpus: Path) -> None:
    assert os.environ[home.HOME_ENV]  # set by the autouse fixture
    code, out, _ = _run(capsys, "import", corpus)
    assert code == 0 and str(home.default_db_path()) in out
    assert home.default_db_path().is_file()


@pytest.mark.parametrize("verb", [("runs",), ("audit", "verify"), ("ratings", "export")])
def test_reading_verbs_never_create_a_database(capsys, tmp_path: Path, verb) -> None:
    missing = tmp_path / "typo.db"
    code, out, err = _run(capsys, *verb, "--db", missing)
    assert code == 1 and out == ""
    assert err == (
        f"a320-review {' '.join(verb)}: no review database at {missing} "
        "(import runs first to create one)\n"
    )
    assert not missing.exists()


def test_a_newer_database_is_a_clean_error(capsys, db_path: Path) -> None:
    with ReviewStore.open(db_path) as store:
        store.db.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    code, _, err = _run(capsys, "runs", "--db", db_path)
    newer = f"schema version {SCHEMA_VERSION + 1}, newer than"
    assert code == 1 and newer in err and "Traceback" not in err


def _paper_form(path: Path, run_id: str, *, safety_score: str = "2") -> Path:
    rows = [f"{run_id},{m},applicable,2,seen\n" for m in METRICS if m != "safety"]
    rows.append(f"{run_id},safety,applicable,{safety_score},\n")
    path.write_text("run_id,metric,outcome,score,comment\n" + "".join(rows), encoding="utf-8")
    return path


def test_ratings_import_export_and_summary(capsys, corpus: Path, db_path: Path, tmp_path) -> None:
    _run(capsys, "import", corpus, "--db", db_path)
    bad = _paper_form(tmp_path / "bad.csv", "20260724T101500Z-000000", safety_score="3")
    code, out, err = _run(capsys, "ratings", "import", bad, "--rater", "pat", "--db", db_path)
    assert code == 1 and out == ""
    assert "1 error(s), nothing imported" in err
    assert f"{bad}:8: 20260724T101500Z-000000, safety: a score of 3 needs a comment" in err
    good = _paper_form(tmp_path / "good.csv", "20260724T101500Z-000000")
    code, out, _ = _run(capsys, "ratings", "import", good, "--rater", "pat", "--db", db_path)
    assert code == 0 and out == f"ratings import: 1 submitted ratings of pat from {good}\n"

    code, out, err = _run(capsys, "ratings", "export", "--db", db_path)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 7 and err == "ratings export: 7 rows\n"
    assert {r["rater"] for r in rows} == {"pat"} and rows[0]["model"] == "model-b"
    target = tmp_path / "out.jsonl"
    code, _, _ = _run(
        capsys, "ratings", "export", "--db", db_path, "--format", "jsonl", "--out", target
    )
    assert [json.loads(line)["metric"] for line in target.read_text().splitlines()] == list(METRICS)

    code, out, _ = _run(capsys, "ratings", "summary", "--db", db_path, "--format", "json")
    summary = {row["metric_id"]: row for row in json.loads(out)}
    assert summary["safety"]["mean"] == 2.0 and summary["safety"]["n"] == 1

    code, out, _ = _run(capsys, "audit", "verify", "--db", db_path)
    # migrate, rubric, 4 imports, rater, submit, ratings_import, 2 exports = 11
    assert code == 0 and out == "audit chain ok: 11 entries\n"


def test_audit_verify_reports_a_broken_chain(capsys, db_path: Path, corpus: Path) -> None:
    _run(capsys, "import", corpus, "--db", db_path)
    with ReviewStore.open(db_path) as store:
        store.db.conn.execute("DROP TRIGGER audit_log_no_update")
        store.db.conn.execute("UPDATE audit_log SET at = 'yesterday' WHERE seq = 3")
    code, out, err = _run(capsys, "audit", "verify", "--db", db_path)
    assert code == 1 and out == ""
    assert err == (
        "a320-review audit verify: audit chain broken: "
        "entry 3 (import) was altered: its hash does not match its content\n"
    )


def test_usage_errors_exit_2(capsys) -> None:
    for argv in (["ratings"], ["ratings", "import", "f.csv"], ["audit"]):
        # argparse exits; a missing input file (f.csv) is reported by main with the same code.
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        assert code == 2
    capsys.readouterr()


def test_import_names_every_unreadable_file_in_one_form(
    capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder's FIFO (met while walking) was named as given, a file the parser refused by
    # its absolute path: both are now relative to the working directory when under it.
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "bad.jsonl").write_text("garbage\n", encoding="utf-8")
    os.mkfifo(runs / "pipe.jsonl")
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "import", "runs", "--db", tmp_path / "r.db")
    assert code == 1
    # The unreadable files' lines (the summary that follows them is not one of them).
    lines = sorted(line for line in err.splitlines() if line.startswith("unreadable:"))
    assert lines[0].startswith(f"unreadable: {Path('runs', 'bad.jsonl')}:1: ")
    assert "import: exit code 1 because 2 file(s) could not be read" in err
    assert lines[1].startswith(f"unreadable: {Path('runs', 'pipe.jsonl')}: not a regular file")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the files are not under it: absolute
    code, _, err = _run(capsys, "import", tmp_path / "runs", "--db", tmp_path / "r.db")
    assert f"unreadable: {runs / 'bad.jsonl'}:1: " in err
    assert f"unreadable: {runs / 'pipe.jsonl'}: not a regular file" in err

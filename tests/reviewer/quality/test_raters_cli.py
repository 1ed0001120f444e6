"""``a320-review raters accuracy|bias|drift`` on a database rated headless by four people."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.rubric import default_rubric

DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo"
METRICS = default_rubric().metric_ids


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _rate(path: Path, runs: list[str], score_of) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["run_id", "metric", "outcome", "score", "comment", "evidence"])
        for i, run in enumerate(runs):
            for k, metric in enumerate(METRICS):
                score = score_of(i, k)
                comment = "seen" if score == 3 else ""
                writer.writerow([run, metric, "applicable", score, comment, "GT:1" * (score < 2)])
    return path


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    tmp = tmp_path_factory.mktemp("raters")
    db = tmp / "r.db"
    assert _run("import", DEMO, "--db", db) == 1  # one demo file is corrupt on purpose
    with sqlite3.connect(db) as conn:
        query = "SELECT run_id FROM runs WHERE status = 'scored' ORDER BY run_id LIMIT 12"
        runs = [r[0] for r in conn.execute(query)]
    scorers = {
        "olga": lambda i, k: 2,
        "ann": lambda i, k: 2,
        "bob": lambda i, k: 2 if (i + k) % 3 else 1,
        "cat": lambda i, k: 2 + (i % 2),  # cat gives a 3 every other run: biased up
    }
    for name, score_of in scorers.items():
        assert _run("ratings", "import", _rate(tmp / f"{name}.csv", runs, score_of),
                    "--rater", name, "--db", db) == 0  # fmt: skip
    return db, runs


def test_accuracy_against_a_reference(rated, capsys) -> None:
    db, runs = rated
    capsys.readouterr()
    assert _run("raters", "accuracy", "--reference", "olga", "--db", db, "--format", "json") == 0
    rows = {(r["rater"], r["metric"]): r for r in json.loads(capsys.readouterr().out)}
    assert {r for r, _ in rows} == {"ann", "bob", "cat"}
    n = len(runs) * len(METRICS)
    assert rows[("ann", "all")]["exact"] == 1.0 and rows[("ann", "all")]["n"] == n
    # bob: a 1 where (i + k) % 3 == 0, else 2; olga always 2.
    ones = sum(1 for i in range(len(runs)) for k in range(len(METRICS)) if (i + k) % 3 == 0)
    assert rows[("bob", "all")]["exact"] == pytest.approx(1 - ones / n)
    assert rows[("bob", "all")]["within_one"] == 1.0
    assert rows[("bob", "all")]["signed"] == pytest.approx(-ones / n)
    assert rows[("cat", "all")]["signed"] == pytest.approx(0.5)  # a 3 on half the runs


def test_bias_flags_the_rater_who_scores_high(rated, capsys) -> None:
    db, _ = rated
    capsys.readouterr()
    assert _run("raters", "bias", "--db", db, "--format", "csv") == 0
    captured = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(captured.out)))
    cat = next(r for r in rows if r["rater"] == "cat" and r["metric"] == "all")
    assert cat["flagged"] == "true" and float(cat["bias"]) > 0  # as JSON writes it
    assert "interval excludes 0 for: " in captured.err and "cat" in captured.err


def test_drift_and_refusals(rated, capsys) -> None:
    db, _ = rated
    assert _run("raters", "drift", "--db", db) == 0
    assert "raters drift: 4 raters" in capsys.readouterr().err
    assert _run("raters", "bias", "--db", db, "--study", "nosuch") == 2
    assert _run("raters", "accuracy", "--db", db, "--reference", "nobody") == 2
    assert "Traceback" not in capsys.readouterr().err

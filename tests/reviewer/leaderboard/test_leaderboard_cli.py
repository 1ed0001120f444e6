"""``a320-review leaderboard`` on the demo: every figure against an independent computation
from the database's own columns, every format, hostile names, and the humans' view."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections import defaultdict
from pathlib import Path
from statistics import median

import pytest
from scipy.stats import binomtest

from reviewer.cli import main
from reviewer.rubric import default_rubric

DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo"
METRICS = default_rubric().metric_ids


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lb") / "r.db"
    assert _run("import", DEMO, "--db", db) == 1  # one demo file is corrupt on purpose
    return db


def _board(db: Path, capsys, *extra: object) -> dict:
    capsys.readouterr()
    assert _run("leaderboard", "--db", db, "--format", "json", "--resamples", "400", *extra) == 0
    return json.loads(capsys.readouterr().out)


def _scorer_truth(db: Path) -> dict[str, dict]:
    """Per model, from SQL: the mean over scenarios of the mean scalar, pass and unsafe."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT model, scenario_id, scalar, all_passed, unsafe FROM runs r"
            " WHERE scalar IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)"
        ).fetchall()
    cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    facts: dict[str, list[tuple[int | None, int]]] = defaultdict(list)
    for model, scenario, scalar, passed, unsafe in rows:
        cells[model][scenario].append(scalar)
        facts[model].append((passed, unsafe))
    out = {}
    for model, by_scenario in cells.items():
        means = [sum(v) / len(v) for v in by_scenario.values()]
        checked = [p for p, _ in facts[model] if p is not None]
        out[model] = {
            "score": sum(means) / len(means),
            "n_runs": sum(len(v) for v in by_scenario.values()),
            "n_scenarios": len(by_scenario),
            "passed": sum(checked),
            "n_checked": len(checked),
            "unsafe": sum(u for _, u in facts[model]),
        }
    return out


def test_the_scorer_board_matches_an_independent_computation(demo_db: Path, capsys) -> None:
    board = _board(demo_db, capsys)
    truth = _scorer_truth(demo_db)
    assert {m["model"] for m in board["models"]} == set(truth)
    for row in board["models"]:
        want = truth[row["model"]]
        assert row["score"] == pytest.approx(want["score"], abs=1e-12)
        assert row["low"] <= row["score"] <= row["high"]
        assert row["low"] >= 0 and row["high"] <= 1  # a mean of 0–1 values stays inside
        for key in ("n_runs", "n_scenarios", "passed", "n_checked", "unsafe"):
            assert row[key] == want[key], (row["model"], key)
        ci = binomtest(want["unsafe"], row["n_safety"]).proportion_ci(method="wilson")
        assert row["unsafe_low"] == pytest.approx(ci.low) and row["unsafe_high"] == pytest.approx(
            ci.high
        )
        assert row["rank_low"] <= row["rank"] <= row["rank_high"]
    ranked = sorted(board["models"], key=lambda r: -r["score"])
    assert [r["model"] for r in ranked] == [r["model"] for r in board["models"]]
    n = len(board["models"])
    assert len(board["pairs"]) == n * (n - 1) // 2
    for pair in board["pairs"]:
        a, b = truth[pair["a"]], truth[pair["b"]]
        # All demo models fly all three scenarios, so the paired difference is the
        # difference of the scores.
        assert pair["difference"] == pytest.approx(a["score"] - b["score"], abs=1e-12)
        assert pair["distinguishable"] == (pair["low"] > 0 or pair["high"] < 0)
    assert any("no value" in note for note in board["notes"])
    assert "Wilson" in board["method"] and "scenarios" in board["method"]


def test_safe_only_says_what_it_left_out(demo_db: Path, capsys) -> None:
    board = _board(demo_db, capsys, "--safe-only")
    unsafe = sum(r["unsafe"] for r in board["models"])
    assert unsafe > 0
    assert f"{unsafe} unsafe run(s) left out" in " ".join(board["notes"])
    assert sum(r["left_out_unsafe"] for r in board["models"]) == unsafe
    for row in board["models"]:
        assert row["n_runs"] == row["n_safety"] - row["unsafe"]


def test_every_format(demo_db: Path, capsys, tmp_path: Path) -> None:
    out = tmp_path / "board.md"
    assert _run("leaderboard", "--db", demo_db, "--format", "markdown", "--out", out,
                "--resamples", "200") == 0  # fmt: skip
    text = out.read_text(encoding="utf-8")
    assert text.startswith("### Leaderboard by scorer")
    assert "| rank (95%) | model | score [95% CI] |" in text and "### Pairwise differences" in text
    capsys.readouterr()
    assert _run("leaderboard", "--db", demo_db, "--format", "csv", "--resamples", "200") == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows and rows[0]["rank"] == "1" and "dangerous_rate" in rows[0]
    assert _run("leaderboard", "--db", demo_db, "--resamples", "200") == 0
    assert "Pairwise differences" in capsys.readouterr().out


def test_bad_options_are_one_line(demo_db: Path, capsys) -> None:
    assert _run("leaderboard", "--db", demo_db, "--by", "crowd") == 2
    assert _run("leaderboard", "--db", demo_db, "--by", "judge:nobody") == 2
    assert _run("leaderboard", "--db", demo_db, "--metric", "charm") == 2
    assert _run("leaderboard", "--db", demo_db, "--resamples", "1") == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "judges: none" in err


def _rate(path: Path, runs: list[str], scores: dict[str, list[int]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["run_id", "metric", "outcome", "score", "comment"])
        for run, run_scores in zip(runs, scores.values(), strict=True):
            for metric, score in zip(METRICS, run_scores, strict=True):
                writer.writerow([run, metric, "applicable", score, "seen" if score == 3 else ""])
    return path


def test_the_humans_board_uses_the_consensus(demo_db: Path, tmp_path: Path, capsys) -> None:
    db = tmp_path / "humans.db"
    db.write_bytes(demo_db.read_bytes())
    with sqlite3.connect(db) as conn:
        runs = conn.execute(
            "SELECT run_id, model, scenario_id FROM runs WHERE status = 'scored'"
            " ORDER BY run_id LIMIT 8"
        ).fetchall()
    ids = [r[0] for r in runs]
    ann = {rid: [2 + (i + k) % 2 for k in range(len(METRICS))] for i, rid in enumerate(ids)}
    bob = {rid: [2] * len(METRICS) for rid in ids}
    assert _run("ratings", "import", _rate(tmp_path / "a.csv", ids, ann), "--rater", "ann",
                "--db", db) == 0  # fmt: skip
    assert _run("ratings", "import", _rate(tmp_path / "b.csv", ids, bob), "--rater", "bob",
                "--db", db) == 0  # fmt: skip
    board = _board(db, capsys, "--by", "humans")
    # Independent: per run, each metric's agreed value is the median of the two scores
    # (they never differ by 2); the run's value is the mean over metrics; then the model's
    # mean over scenarios of the mean over its runs.
    cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for run_id, model, scenario in runs:
        per_metric = [median(pair) for pair in zip(ann[run_id], bob[run_id], strict=True)]
        cells[model][scenario].append(sum(per_metric) / len(per_metric))
    truth = {
        model: sum(sum(v) / len(v) for v in by_s.values()) / len(by_s)
        for model, by_s in cells.items()
    }
    assert {r["model"]: r["score"] for r in board["models"]} == pytest.approx(truth)
    assert all(r["low"] >= 0 and r["high"] <= 3 for r in board["models"])
    # The scorer's view is compared with the humans' on the runs both value.
    (agree,) = board["agreement"]
    assert agree["a"] == "humans" and agree["b"] == "scorer" and agree["n_runs"] == len(runs)
    assert -1 <= agree["tau"] <= 1


def test_hostile_model_names_are_printed_as_text(tmp_path: Path, capsys) -> None:
    from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario

    root = tmp_path / "runs"
    for n, model in enumerate(["$$$$$$", "a|b*_c", "x\x1b[31mred", "مرحبا 🚀"] * 2):
        run_id = f"20260724T101500Z-{n:06d}"
        b = TrajectoryBuilder(
            bundled_scenario("elec-apu-gen-fault"), run_id=run_id, model=model, seed=n
        )
        b.turn().read("read_ecam").set("apu_gen", 0).set("apu_gen", 1).set("apu_gen", 0)
        b.set("ext_pwr", 1).advance(5).done().final("agent_done", passed=True)
        b.write(root / f"{run_id}.jsonl")
    db = tmp_path / "h.db"
    assert _run("import", root, "--db", db) == 0
    capsys.readouterr()
    assert _run("leaderboard", "--db", db, "--format", "markdown", "--resamples", "50") == 0
    text = capsys.readouterr().out
    # The escape is shown as text; Markdown doubles its backslash so it renders as \x1b.
    assert "\x1b" not in text and "x\\\\x1b[31mred" in text
    assert "a\\|b\\*\\_c" in text  # the table's separator cannot be forged
    assert "مرحبا 🚀" in text and "$$$$$$" in text

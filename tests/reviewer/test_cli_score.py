"""The ``score`` and ``aggregate`` verbs, through ``reviewer.cli.main`` as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from scoring import ScoreCard

APU = "elec-apu-gen-fault"
PROCEDURE = (("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0), ("ext_pwr", 1))
CSV_COLUMNS = [
    "path", "run_id", "scenario_id", "model", "status", "reason", "coverage", "order",
    "end_state", "all_passed", "safety_dangerous", "safety_anti_procedure", "extraneous",
    "scalar", "error",
]  # fmt: skip
GROUP_FIELDS = [
    "scenario", "model", "n", "n_scored", "score_mean", "score_std", "coverage_mean",
    "order_mean", "end_state_mean", "pass_rate", "dangerous_rate", "provider_error_rate",
    "invalid_rate",
]  # fmt: skip


def _builder(run_id: str, model: str) -> TrajectoryBuilder:
    return TrajectoryBuilder(bundled_scenario(APU), run_id=run_id, model=model).turn().read()


def _write(root: Path, b: TrajectoryBuilder, run_id: str) -> Path:
    return b.write(root / APU / f"{run_id}.jsonl")


@pytest.fixture
def corpus(tmp_path) -> Path:
    """Five runs, written out of path order on purpose."""
    root = tmp_path / "runs"
    b = _builder("r5-incomplete", "m2").set("apu_gen", 0)
    _write(root, b, "r5-incomplete")
    invalid = TrajectoryBuilder(bundled_scenario(APU), run_id="r4-invalid", model="m2")
    _write(root, invalid.invalid_scenario(), "r4-invalid")
    b = _builder("r3-provider", "m1").set("apu_gen", 0).provider_error()
    _write(root, b.final("provider_error", passed=False), "r3-provider")
    _write(root, _builder("r2-ext-only", "m1").set("ext_pwr", 1).done().final(), "r2-ext-only")
    b = _builder("r1-full", "m1")
    for control, value in PROCEDURE:
        b.set(control, value)
    _write(root, b.done().final(), "r1-full")
    return root


def _cards(text: str) -> list[ScoreCard]:
    return [ScoreCard.model_validate_json(line) for line in text.splitlines()]


def test_score_jsonl_one_card_per_file_in_path_order(corpus, capsys):
    rc = main(["score", str(corpus)])

    out, err = capsys.readouterr()
    cards = _cards(out)
    assert rc == 0
    # Path order, whatever the order the files were written in.
    # 1.00 for the full procedure, 0.4·1 + 0.6·0.25 = 0.55 for EXT PWR alone,
    # 0.4·0 + 0.6·0.25 = 0.15 for the provider error; no scalar for invalid or incomplete.
    assert [(c.run_id, c.status, c.scalar) for c in cards] == [
        ("r1-full", "scored", pytest.approx(1.0)),
        ("r2-ext-only", "scored", pytest.approx(0.55)),
        ("r3-provider", "provider_error", pytest.approx(0.15)),
        ("r4-invalid", "invalid", None),
        ("r5-incomplete", "incomplete", None),
    ]
    assert '"class":"matched_required"' in out.splitlines()[0]  # spec field names
    assert "5 files, 5 read, 0 unreadable" in err


def test_score_csv(corpus, capsys):
    rc = main(["score", str(corpus), "--format", "csv"])

    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rc == 0
    assert rows[0] == CSV_COLUMNS
    by_run = {r[1]: dict(zip(CSV_COLUMNS, r, strict=True)) for r in rows[1:]}
    assert list(by_run) == ["r1-full", "r2-ext-only", "r3-provider", "r4-invalid", "r5-incomplete"]
    full = by_run["r1-full"]
    assert (full["scenario_id"], full["model"], full["coverage"], full["scalar"]) == (
        APU, "m1", "1.0", "1.0"
    )  # fmt: skip
    assert by_run["r2-ext-only"]["order"] == ""  # null order: an empty cell
    assert by_run["r5-incomplete"]["end_state"] == ""
    assert by_run["r4-invalid"]["reason"] == "invalid_scenario"


def test_score_table(corpus, capsys):
    rc = main(["score", str(corpus), "--format", "table"])

    lines = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert lines[0].split() == [c for c in CSV_COLUMNS if c not in ("path", "reason")]
    assert len(lines) == 6
    assert lines[1].split()[:3] == ["r1-full", APU, "m1"]
    assert lines[1].split()[-1] == "1.000"
    assert lines[2].split()[-1] == "0.550"


def test_unreadable_file_gets_its_row_and_exit_code_1(corpus, capsys):
    bad = corpus / APU / "r0-bad.jsonl"
    bad.write_text('{"type": "meta", "run_id": "x", "scenario": {"id": "s"}}\n{oops\n{}\n')

    rc = main(["score", str(corpus)])

    out, err = capsys.readouterr()
    cards = _cards(out)
    assert rc == 1
    assert [(c.run_id, c.status) for c in cards][:2] == [
        ("r0-bad", "unreadable"),
        ("r1-full", "scored"),
    ]
    assert (cards[0].error_line, cards[0].error.startswith("invalid JSON")) == (2, True)
    assert cards[0].scenario_id == APU  # from the folder it lies in
    assert len(cards) == 6  # the others were still scored
    assert f"unreadable: {bad}:2: invalid JSON" in err
    assert "6 files, 5 read, 1 unreadable" in err


@pytest.mark.parametrize("verb", ["score", "aggregate"])
def test_missing_path_is_a_usage_error(corpus, capsys, verb):
    missing = corpus / "nope"

    rc = main([verb, str(corpus), str(missing)])

    out, err = capsys.readouterr()
    assert rc == 2
    assert out == ""
    assert err == f"a320-review {verb}: error: no such file or folder: {missing}\n"


def test_unwritable_out_is_a_usage_error(corpus, tmp_path, capsys):
    out = tmp_path / "no" / "such" / "cards.jsonl"

    assert main(["score", str(corpus), "--out", str(out)]) == 2
    assert f"a320-review score: error: cannot write {out}" in capsys.readouterr().err
    assert not out.exists()


def test_a_corrupt_scorecard_file_is_a_usage_error(corpus, tmp_path, capsys):
    cards = tmp_path / "cards.jsonl"
    assert main(["score", str(corpus), "--out", str(cards)]) == 0
    with cards.open("a") as fh:
        fh.write("garbage\n")
    capsys.readouterr()

    assert main(["aggregate", str(cards)]) == 2
    assert f"a320-review aggregate: error: {cards}:6: not a ScoreCard" in capsys.readouterr().err


def test_bad_jobs_is_a_usage_error(corpus, capsys):
    assert main(["score", str(corpus), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_two_jobs_give_the_same_output_as_one(tmp_path, capsys):
    # Enough files for score_many to really start its worker pool (2 × its chunk of 16).
    root = tmp_path / "runs"
    for i in range(33):
        b = _builder(f"r{i:02d}", f"m{i % 3}")
        for control, value in PROCEDURE[: i % 5]:
            b.set(control, value)
        _write(root, b.done().final(passed=i % 2 == 0), f"r{i:02d}")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"

    assert main(["score", str(root), "--jobs", "1", "--out", str(one)]) == 0
    assert main(["score", str(root), "--jobs", "2", "--out", str(two)]) == 0

    assert one.read_bytes() == two.read_bytes()
    assert len(one.read_text().splitlines()) == 33
    assert "33/33 files" in capsys.readouterr().err  # progress shows for large batches


def test_aggregate_reads_back_the_jsonl_written_by_score(corpus, tmp_path, capsys):
    cards = tmp_path / "cards.jsonl"
    assert main(["score", str(corpus), "--out", str(cards)]) == 0
    capsys.readouterr()

    assert main(["aggregate", str(cards), "--format", "json"]) == 0
    from_cards = json.loads(capsys.readouterr().out)
    assert main(["aggregate", str(corpus), "--format", "json"]) == 0
    from_runs = json.loads(capsys.readouterr().out)

    assert from_cards == from_runs
    assert [list(row) for row in from_cards] == [GROUP_FIELDS, GROUP_FIELDS]
    m1, m2 = from_cards
    assert (m1["scenario"], m1["model"], m1["n"], m1["n_scored"]) == (APU, "m1", 3, 2)
    assert m1["score_mean"] == pytest.approx(0.775)  # (1 + 0.55) / 2, the provider error left out
    assert m1["score_std"] == pytest.approx(0.45 / 2**0.5)  # sample std of [1, 0.55]
    assert m1["pass_rate"] == 1.0
    assert m1["provider_error_rate"] == pytest.approx(1 / 3)
    assert (m2["n"], m2["n_scored"], m2["score_mean"], m2["invalid_rate"]) == (2, 0, None, 0.5)


def test_aggregate_include_errors(corpus, capsys):
    assert main(["aggregate", str(corpus), "--format", "json", "--include-errors"]) == 0

    m1 = json.loads(capsys.readouterr().out)[0]
    assert m1["n_scored"] == 3
    assert m1["score_mean"] == pytest.approx((1 + 0.55 + 0.15) / 3)


def test_aggregate_table(corpus, capsys):
    assert main(["aggregate", str(corpus)]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == GROUP_FIELDS
    assert lines[1].split()[:6] == [APU, "m1", "3", "2", "0.775", "0.318"]


def test_score_never_imports_qt(corpus):
    # Through the console entry point itself (ui.entry:main), in a fresh interpreter.
    script = textwrap.dedent(
        f"""
        import sys
        from ui.entry import main
        rc = main(["score", {str(corpus)!r}, "--format", "csv"])
        print("QT" if "PySide6" in sys.modules else "NO-QT", rc, file=sys.stderr)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().endswith("NO-QT 0")
    assert len(result.stdout.splitlines()) == 6


def test_aggregate_runs_in_a_fresh_process(corpus, tmp_path):
    # In this process `scoring.aggregate` is long bound to the function; a fresh one once
    # got the submodule of that name (its names resolved on first use, GroupRow first) and
    # `a320-review aggregate` failed with "'module' object is not callable".
    result = subprocess.run(
        [sys.executable, "-m", "reviewer", "aggregate", str(corpus), "--format", "csv"],
        capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("scenario,model,n,")


def test_aggregate_counts_a_run_once_when_its_scorecard_file_sits_beside_it(corpus, capsys):
    # `score runs/ --out runs/cards.jsonl`, then `aggregate runs/`: the cards and the
    # trajectories are the same five runs (same bytes), not ten.
    assert main(["score", str(corpus), "--out", str(corpus / "cards.jsonl")]) == 0
    capsys.readouterr()

    assert main(["aggregate", str(corpus), "--format", "json"]) == 0
    out = capsys.readouterr()
    assert [row["n"] for row in json.loads(out.out)] == [3, 2]
    assert "5 run(s) seen twice" in out.err


def test_aggregate_names_unreadable_files_and_leaves_them_out(corpus, tmp_path, capsys):
    bad = corpus / APU / "bad.jsonl"
    bad.write_text("scenario,model\nx,y\n", encoding="utf-8")  # a CSV given by mistake

    assert main(["aggregate", str(corpus), "--format", "json"]) == 1
    out = capsys.readouterr()
    assert [(row["model"], row["n"]) for row in json.loads(out.out)] == [("m1", 3), ("m2", 2)]
    assert f"unreadable: {bad}:1: " in out.err

"""What a newcomer to a study needs from the command line: a study that holds only runs a
rater can rate, a rating file to fill in for each phase, and help that names the columns."""

from __future__ import annotations

import csv
import io
import shlex
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.rubric import default_rubric

METRICS = default_rubric().metric_ids
APU = "elec-apu-gen-fault"


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


@pytest.fixture
def with_invalid(tmp_path: Path, corpus: Path) -> Path:
    """The corpus plus one run whose scenario failed its validity gate: no event, no GT."""
    run_id = "20260724T101500Z-invalid"
    b = TrajectoryBuilder(bundled_scenario(APU), run_id=run_id, model="model-a", seed=9)
    b.invalid_scenario().write(corpus / APU / f"{run_id}.jsonl")
    db = tmp_path / "r.db"
    assert _run("import", corpus, "--db", db) == 0
    return db


def _create(db: Path, *extra: str) -> int:
    return _run("study", "create", "s", "--raters", "ann,bob", "--per-run", "2",
                "--protocol", "blind", "--reveal-first", "0.25", "--seed", "3",
                "--db", db, *extra)  # fmt: skip


def test_study_create_leaves_out_a_run_nobody_could_rate_low_and_says_so(
    with_invalid: Path, capsys
) -> None:
    capsys.readouterr()
    assert _create(with_invalid) == 0
    err = capsys.readouterr().err
    assert "1 selected run(s) left out: 20260724T101500Z-invalid" in err
    assert "--include-unratable" in err
    assert _run("study", "assignments", "s", "--format", "csv", "--db", with_invalid) == 0
    ids = {r["run_id"] for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert len(ids) == 4 and "20260724T101500Z-invalid" not in ids


def test_include_unratable_keeps_it(with_invalid: Path, capsys) -> None:
    assert _create(with_invalid, "--include-unratable") == 0
    assert "left out" not in capsys.readouterr().err
    assert _run("study", "assignments", "s", "--format", "csv", "--db", with_invalid) == 0
    ids = {r["run_id"] for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert "20260724T101500Z-invalid" in ids


def _template(db: Path, rater: str, phase: str, capsys) -> tuple[list[dict], str]:
    capsys.readouterr()
    assert _run("ratings", "template", "--rater", rater, "--study", "s", "--phase", phase,
                "--db", db) == 0  # fmt: skip
    captured = capsys.readouterr()
    return list(csv.DictReader(io.StringIO(captured.out))), captured.err


def _fill(rows: list[dict], path: Path, **changes: str) -> Path:
    for row in rows:
        row["outcome"] = row["outcome"] or "applicable"
        row["score"] = row["score"] or "2"
        if row["metric"] in changes:
            row.update(score=changes[row["metric"]], evidence="GT:2", reason="second look")
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_templates_cover_every_phase_and_import_as_they_are_filled(
    with_invalid: Path, tmp_path: Path, capsys
) -> None:
    assert _create(with_invalid) == 0
    blind, err = _template(with_invalid, "ann", "blind", capsys)
    opened, _ = _template(with_invalid, "ann", "open", capsys)
    # ann rates all 4 runs (k = 2 of 2 raters): each in exactly one of the two arms.
    blind_runs, open_runs = {r["run_id"] for r in blind}, {r["run_id"] for r in opened}
    assert len(blind_runs | open_runs) == 4 and not blind_runs & open_runs
    assert len(blind) == len(blind_runs) * len(METRICS)
    assert [r["metric"] for r in blind[: len(METRICS)]] == list(METRICS)
    assert list(blind[0]) == ["run_id", "metric", "outcome", "score", "comment", "evidence",
                              "overall_comment"]  # fmt: skip
    assert f"{len(open_runs)} run(s) of the queue need the open phase instead" in err
    assert "procedure_application" in err  # the metric ids are named
    # Before the blind submit there is nothing to finalise.
    assert _template(with_invalid, "ann", "final", capsys)[0] == []
    blind_csv = _fill(blind, tmp_path / "blind.csv")
    assert _run("ratings", "import", blind_csv, "--rater", "ann", "--study", "s",
                "--phase", "blind", "--db", with_invalid) == 0  # fmt: skip
    # The final template repeats every metric with its blind value filled in.
    final, _ = _template(with_invalid, "ann", "final", capsys)
    assert len(final) == len(blind) and {r["score"] for r in final} == {"2"}
    assert "reason" in final[0]
    final_csv = _fill(final, tmp_path / "final.csv", procedure_application="1")
    assert _run("ratings", "import", final_csv, "--rater", "ann", "--study", "s",
                "--phase", "final", "--db", with_invalid) == 0  # fmt: skip
    assert _template(with_invalid, "ann", "blind", capsys)[0] == []
    assert _template(with_invalid, "ann", "final", capsys)[0] == []


def test_ratings_import_help_names_the_columns_and_the_metric_ids(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["ratings", "import", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for word in ("overall_comment", "evidence", "reason", "ratings template", *METRICS):
        assert word in text, word


@pytest.mark.parametrize("rater", ["e$ve", "<b>eve</b>", "o'neil"])
def test_the_commands_printed_for_the_rater_run_as_printed(
    with_invalid: Path, tmp_path: Path, rater: str, capsys
) -> None:
    """A rater name the shell would expand or redirect (``$``, ``<``, a quote) is quoted in
    the command lines the tool prints, so pasting them acts for that rater."""
    assert _run("study", "create", "s", "--raters", f"{rater},bob", "--per-run", "2",
                "--protocol", "blind", "--seed", "3", "--db", with_invalid) == 0  # fmt: skip
    blind, err = _template(with_invalid, rater, "blind", capsys)
    printed = shlex.split(err.split("then: ", 1)[1].splitlines()[0])
    assert printed[printed.index("--rater") + 1] == rater
    assert printed[printed.index("--study") + 1] == "s"
    # A rating outside the study, submitted and not signed: export says how to sign it.
    assert _run("ratings", "template", "--rater", rater, "--out", tmp_path / "o.csv",
                "--db", with_invalid) == 0  # fmt: skip
    with (tmp_path / "o.csv").open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["run_id"] == blind[0]["run_id"]]
    assert _run("ratings", "import", _fill(rows, tmp_path / "o.csv"), "--rater", rater,
                "--db", with_invalid) == 0  # fmt: skip
    capsys.readouterr()
    assert _run("export", "--out", tmp_path / "out dir", "--db", with_invalid) == 0
    hint = capsys.readouterr().err.split("`")[1]  # a320-review sign --all --rater ... --out ...
    printed = shlex.split(hint)
    assert printed[printed.index("--rater") + 1] == rater
    assert printed[printed.index("--out") + 1] == str(tmp_path / "out dir")

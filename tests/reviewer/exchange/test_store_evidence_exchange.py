"""Evidence in ratings files: exported as ``3.0; GT:2 "note"``, imported in the same form."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from reviewer.evidence import Citation
from reviewer.rubric import default_rubric
from reviewer.store import RatingsFileError
from reviewer.workspace import ReviewStore
from scoring import read_trajectory
from scoring.steps import event_ref, required_ref

METRICS = default_rubric().metric_ids


@pytest.fixture
def runs(tmp_path: Path, make_run) -> list[Path]:
    """Two trajectories; run 1 skips the isolating APU GEN off and EXT PWR."""
    root = tmp_path / "runs"
    return [make_run(root, 0), make_run(root, 1, steps=(("apu_gen", 0), ("apu_gen", 1)))]


def _export(store: ReviewStore, fmt: str) -> str:
    buf = io.StringIO()
    store.export_ratings(buf, fmt=fmt)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_cited_steps_round_trip_through_export_and_import(
    tmp_path: Path, runs: list[Path], fill_rating, fmt: str
) -> None:
    traj = read_trajectory(runs[1])
    with ReviewStore.open(tmp_path / "one.db") as one:
        one.import_paths(runs)
        run_pk = one.list_runs()[1].run_pk
        card = one.get_run(run_pk).scorecard
        r = fill_rating(one, one.start_rating(run_pk, "ann"))
        r = one.save_item(
            r.rating_pk,
            "procedure_application",
            outcome="applicable",
            score=1,
            comment="stopped early",
            expected_version=r.version,
        )
        for target, note in (
            (event_ref(traj, 3), 'reset, then "done"; no isolation'),
            (required_ref(card, 2), ""),
            (event_ref(traj, 1), ""),
        ):
            r = one.cite(
                r.rating_pk,
                Citation.of("procedure_application", target, note),
                expected_version=r.version,
            )
        one.submit(r.rating_pk, expected_version=r.version)
        before = one.get_rating(r.rating_pk).citations
        exported = _export(one, fmt)
    rows = (
        list(csv.DictReader(io.StringIO(exported)))
        if fmt == "csv"
        else [json.loads(line) for line in exported.splitlines()]
    )
    by_metric = {row["metric"]: row["evidence"] for row in rows}
    # Timeline order, then the ground truth; quotes in a note doubled, as in CSV.
    assert by_metric["procedure_application"] == (
        '1.0; 1.2 "reset, then ""done""; no isolation"; GT:3'
    )
    assert by_metric["situation_awareness"] == ""
    file = tmp_path / f"export.{fmt}"
    file.write_text(exported, encoding="utf-8")
    with ReviewStore.open(tmp_path / "two.db") as two:
        two.import_paths(runs)
        [pk] = two.import_ratings(file, rater="ann")
        after = two.get_rating(pk).citations
        again = _export(two, fmt)
    assert after == before
    assert again.count("1.2 ") == exported.count("1.2 ")
    assert "GT:3" in again


def _file(tmp_path: Path, run_id: str, evidence: dict[str, str], score: int = 2) -> Path:
    path = tmp_path / "paper.csv"
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["run_id", "metric", "outcome", "score", "comment", "evidence"])
    for metric in METRICS:
        s = 1 if metric in evidence else score
        writer.writerow([run_id, metric, "applicable", s, "seen", evidence.get(metric, "")])
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_every_evidence_problem_is_reported_by_line(
    store: ReviewStore, runs: list[Path], tmp_path: Path
) -> None:
    store.import_paths(runs)
    run_id = store.list_runs()[1].run_id
    path = _file(
        tmp_path,
        run_id,
        {
            "procedure_application": "1.0; 9.9",  # line 2
            "situation_awareness": "GT:7",  # line 3: there are 4
            "safety": "  ",  # line 5: blank, and a 1 needs evidence
        },
    )
    with pytest.raises(RatingsFileError) as info:
        store.import_ratings(path, rater="paper")
    assert info.value.errors == [
        f"line 2: {run_id}, procedure_application: evidence 9.9: no such step in this run",
        f"line 3: {run_id}, situation_awareness: evidence GT:7: the ground truth has 4 "
        "actions (GT:1 to GT:4)",
        f"line 5: {run_id}, safety: a score of 1 needs evidence: cite at least one step of "
        "the run or a ground-truth row",
    ]


def test_a_malformed_evidence_field_is_a_file_error(
    store: ReviewStore, runs: list[Path], tmp_path: Path
) -> None:
    store.import_paths(runs)
    path = _file(tmp_path, store.list_runs()[1].run_id, {"problem_solving": '1.0 "open'})
    with pytest.raises(RatingsFileError) as info:
        store.import_ratings(path, rater="paper")
    assert info.value.errors == [
        "line 4: evidence: the note starting at character 5 has no closing quote"
    ]


def test_event_steps_need_the_runs_unchanged_file(
    store: ReviewStore, runs: list[Path], tmp_path: Path
) -> None:
    store.import_paths(runs)
    run_id = store.list_runs()[1].run_id
    runs[1].write_text(runs[1].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    path = _file(tmp_path, run_id, {"procedure_application": "1.0; GT:3"})
    with pytest.raises(RatingsFileError) as info:
        store.import_ratings(path, rater="paper")
    [error] = info.value.errors
    assert error.startswith(f"line 2: {run_id}, procedure_application: evidence 1.0: the run")
    assert "changed since it was imported" in error
    # Ground-truth rows need only the ScoreCard the store holds.
    ok = _file(tmp_path, run_id, {"procedure_application": 'GT:3 "never isolated"'})
    [pk] = store.import_ratings(ok, rater="paper")
    [cited] = store.get_rating(pk).citations
    assert (cited.step, cited.note) == ("GT:3", "never isolated")

"""``consensus export``: the reported value for each way it is reached, and validity using it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from reviewer.adjudication.consensus import consensus_rows
from reviewer.adjudication.model import ReportedValue
from reviewer.agreement.consensus import build_consensus
from reviewer.agreement.records import RatingRecord
from reviewer.agreement.source import load_inputs
from reviewer.cli import main
from reviewer.workspace import ReviewStore


def _rows(store: ReviewStore) -> dict:
    return {(r.run_pk, r.metric): r for r in consensus_rows(store)}


def test_each_way_a_value_is_reached(disputed: ReviewStore, adjudicate) -> None:
    rows = _rows(disputed)
    assert rows[(1, "safety")].reached == "open" and rows[(1, "safety")].score is None
    agreed = rows[(1, "problem_solving")]
    assert (agreed.reached, agreed.outcome, agreed.score, agreed.raters) == (
        "agreed",
        "applicable",
        1.5,
        2,
    )
    single = rows[(2, "safety")]
    assert (single.reached, single.score, single.raters) == ("single_rater", 2.0, 1)
    adjudicate(disputed)
    rows = _rows(disputed)
    decided = rows[(1, "verification")]
    assert (decided.reached, decided.outcome, decided.score, decided.adjudicator) == (
        "adjudicated",
        "applicable",
        2.0,
        "dana",
    )
    assert {r.reached for r in rows.values()} == {"agreed", "adjudicated", "single_rater"}


def test_the_export_command_in_both_formats(disputed: ReviewStore, db_path, capsys) -> None:
    assert main(["consensus", "export", "--db", str(db_path)]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    safety = [r for r in table if r["metric"] == "safety" and r["run_pk"] == "1"]
    assert safety[0]["reached"] == "open" and safety[0]["score"] == ""
    assert main(["consensus", "export", "--format", "jsonl", "--db", str(db_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(table) == 14  # run 1 and run 2, seven metrics each
    assert {line["reached"] for line in lines} == {"open", "agreed", "single_rater"}


def test_validity_uses_the_reported_consensus(disputed: ReviewStore, adjudicate) -> None:
    adjudicate(disputed)
    inputs = load_inputs(disputed)
    table = inputs.consensus().scores
    assert table[("1", "safety")] == 1.0  # adjudicated, not the median 1.5
    assert table[("1", "problem_solving")] == 1.5  # agreed: the median
    assert ("1", "workload_management") in table
    # An open dispute has no value (its raters' median is the sensitivity value); a key the
    # reported table lacks falls back to the median.
    records = [
        RatingRecord(run_key=k, rater="a", metric_id="m", outcome="applicable", score=1)
        for k in ("8", "9")
    ]
    found = build_consensus(records, {("9", "m"): ReportedValue(None, None, "open", 2.5)})
    assert found.scores == {("8", "m"): 1.0}
    assert found.open == {("9", "m"): 2.5} and found.open_count("m") == 1
    assert found.at_median() == {("8", "m"): 1.0, ("9", "m"): 2.5}


def test_adjudication_list_shows_the_raters_values(disputed: ReviewStore, db_path, capsys) -> None:
    assert (
        main(["adjudication", "list", "--disputed", "--format", "json", "--db", str(db_path)]) == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert {r["metric"] for r in rows} == {"safety", "verification"}
    safety = next(r for r in rows if r["metric"] == "safety")
    assert [(v["rater"], v["score"]) for v in safety["values"]] == [("ann", 0), ("bob", 3)]
    assert main(["adjudication", "list", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "ann: applicable 0; bob: applicable 3" in out


@pytest.mark.parametrize("adjudicated", [False, True])
def test_the_light_reported_scores_equal_what_the_disputes_report(
    disputed: ReviewStore, adjudicate, adjudicated: bool
) -> None:
    # Results and validity read every rated metric's reported score without building a
    # dispute row each: the two paths must never differ (agreed, single, open, decided).
    if adjudicated:
        adjudicate(disputed)
    full = {
        (d.run_pk, d.metric_id): d.reported.score
        for d in disputed.disputes()
        if d.reported is not None
    }
    assert disputed.reported_scores() == full
    reached = {d.reported.reached for d in disputed.disputes() if d.reported is not None}
    expected = {"agreed", "single_rater"} | ({"adjudicated"} if adjudicated else {"open"})
    assert reached == expected

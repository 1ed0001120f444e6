"""Validity on synthetic input with known answers: rho, rankings, disagreements, consensus."""

from __future__ import annotations

import math

import pytest

from reviewer.adjudication.model import ReportedValue
from reviewer.agreement.consensus import build_consensus
from reviewer.agreement.counterparts import counterpart_value, rubric_counterparts
from reviewer.agreement.records import RatingRecord, RunInfo
from reviewer.agreement.validity import spearman, validity_report
from reviewer.rubric import default_rubric


def rec(run: str, rater: str, score: int | None, metric: str = "procedure_application"):
    outcome = "applicable" if score is not None else "not_applicable"
    return RatingRecord(run_key=run, rater=rater, metric_id=metric, outcome=outcome, score=score)


def run(key: str, model: str, scalar: float, coverage: float, scenario: str = "s1") -> RunInfo:
    return RunInfo(run_key=key, run_id=f"id-{key}", scenario_id=scenario, model=model,
                   scalar=scalar, automatic={"coverage": coverage})  # fmt: skip


def test_counterpart_values_map_to_0_1() -> None:
    info = RunInfo(run_key="1", scalar=0.4, automatic={
        "coverage": 0.5, "order": None, "end_state": 1.0, "all_passed": False,
        "safety_dangerous": 0, "safety_anti_procedure": 2})  # fmt: skip
    assert counterpart_value("coverage", info) == 0.5
    assert counterpart_value("order", info) is None
    assert counterpart_value("all_passed", info) == 0.0
    assert counterpart_value("safety", info) == 0.25  # 0.5 per anti-procedure command
    assert counterpart_value("scalar", info) == 0.4
    dangerous = info.model_copy(update={"automatic": {**info.automatic, "safety_dangerous": 1}})
    assert counterpart_value("safety", dangerous) == 0.0


def test_the_default_rubric_declares_two_counterparts() -> None:
    assert rubric_counterparts(default_rubric()) == {
        "procedure_application": "coverage",
        "safety": "safety",
    }


def test_consensus_is_the_median_unless_reported_otherwise() -> None:
    records = [rec("1", "a", 1), rec("1", "b", 3), rec("1", "c", 2), rec("2", "a", None),
               rec("3", "a", 0), rec("3", "b", 3)]  # fmt: skip
    assert build_consensus(records).scores == {("1", "procedure_application"): 2.0,
                                               ("3", "procedure_application"): 1.5}  # fmt: skip
    reported = {("3", "procedure_application"): ReportedValue("applicable", 3.0, "adjudicated"),
                ("1", "procedure_application"): ReportedValue(None, None, "open", 2.0)}  # fmt: skip
    found = build_consensus(records, reported)
    assert found.scores == {("3", "procedure_application"): 3.0}
    assert found.adjudicated == {("3", "procedure_application")}
    assert found.open == {("1", "procedure_application"): 2.0}


def test_spearman_with_its_fisher_interval_by_hand() -> None:
    # x and y ranks differ by one swap among 5: rho = 1 − 6·Σd²/(n(n²−1)) = 1 − 6·2/120 = 0.9
    rho, low, high, note = spearman([1, 2, 3, 4, 5], [1, 2, 4, 3, 5])
    assert rho == pytest.approx(0.9) and note is None
    half = 1.96 * 1.06 / math.sqrt(5 - 3)
    assert (low, high) == pytest.approx((math.tanh(math.atanh(0.9) - half),
                                         math.tanh(math.atanh(0.9) + half)))  # fmt: skip
    assert spearman([1, 2], [1, 2])[3].startswith("too few runs")
    assert "the counterpart is the same" in spearman([1, 2, 3], [1, 1, 1])[3]


def test_validity_report_on_known_input() -> None:
    # Humans score coverage × 3 exactly, so rho is 1 (no interval at |rho| = 1).
    runs = {
        "1": run("1", "m1", scalar=1.0, coverage=1.0),
        "2": run("2", "m1", scalar=0.6, coverage=2 / 3),
        "3": run("3", "m2", scalar=0.1, coverage=1 / 3),
        "4": run("4", "m2", scalar=0.0, coverage=0.0),
    }
    scores = {"1": 3, "2": 2, "3": 1, "4": 0}
    records = [rec(k, r, s) for k, s in scores.items() for r in ("a", "b")]
    report = validity_report(records, runs, {"procedure_application": "coverage"}, top=2)
    (metric,) = report.metrics
    assert (metric.n, metric.rho, metric.ci_low) == (4, pytest.approx(1.0), None)
    (scenario,) = report.scenarios
    m1, m2 = scenario.models
    # m1: humans (1 + 2/3)/2 = 0.833, scorer (1.0 + 0.6)/2 = 0.8; m2: 0.167 and 0.05
    assert (m1.human, m1.scorer) == (pytest.approx(5 / 6), pytest.approx(0.8))
    assert (m1.human_rank, m2.human_rank, m1.scorer_rank) == (1.0, 2.0, 1.0)
    assert scenario.kendall_tau == pytest.approx(1.0)
    # |human − scalar|: run 3 → 1/3 − 0.1 = 0.233, run 2 → 0.667 − 0.6 = 0.067, others 0
    assert [d.run_key for d in report.disagreements] == ["3", "2"]
    assert report.disagreements[0].difference == pytest.approx(1 / 3 - 0.1)
    assert report.anchoring is None


def test_a_single_model_has_no_tau_but_a_note() -> None:
    runs = {"1": run("1", "m1", 0.5, 0.5), "2": run("2", "m1", 0.7, 0.5)}
    report = validity_report([rec("1", "a", 1), rec("2", "a", 2)], runs, {})
    (scenario,) = report.scenarios
    assert scenario.kendall_tau is None and "fewer than two models" in scenario.note


def test_a_counterpart_leaves_the_rubric_hash_alone_and_must_be_known() -> None:
    from reviewer.rubric import Rubric, RubricError, parse_rubric

    rubric = default_rubric()
    data = rubric.model_dump(mode="json", exclude={"sha256"})
    for metric in data["metrics"]:
        metric.pop("counterpart")
    assert Rubric.model_validate(data).sha256 == rubric.sha256
    # A stored rubric (with its claimed sha256) reads back with its counterparts.
    assert Rubric.model_validate_json(rubric.model_dump_json()).metrics[0].counterpart == (
        "coverage"
    )
    data["metrics"][0]["counterpart"] = "vibes"
    import yaml

    with pytest.raises(RubricError, match="counterpart"):
        parse_rubric(yaml.safe_dump(data), source="r.yaml")

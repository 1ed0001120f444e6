"""scoring.md, "The vector" (end_state) and "Run status"."""

from __future__ import annotations

import pytest

from reviewer.demo.synth import TrajectoryBuilder, harness_error_records
from scoring import VECTOR_FIELDS, score_file

CHECKS = {"final_state": ("AC1", "AC2", "ESS"), "ecam_clear_of": ("GEN FAULT", "ESS FAULT")}


def test_end_state_counts_predicates_and_ecam_messages(scenario, score):
    s = scenario([("a", 1)], **CHECKS)
    b = TrajectoryBuilder(s).turn().set("a", 1).done()

    card = score(b.final(failing=("ESS", "GEN FAULT")))

    # 3 of 5 checks passed (AC1, AC2, ESS FAULT clear): end_state 0.6
    assert card.end_state == pytest.approx(0.6)
    assert card.all_passed is False
    # 0.4·0.6 + 0.6·1 = 0.84
    assert card.scalar == pytest.approx(0.84)
    assert [(c.kind, c.label, c.passed) for c in card.success_checks] == [
        ("final_state", "AC1", True),
        ("final_state", "AC2", True),
        ("final_state", "ESS", False),
        ("ecam_clear", "GEN FAULT", False),
        ("ecam_clear", "ESS FAULT", True),
    ]
    assert card.success_checks[0].expected == "eq 1"


def test_end_state_is_read_from_success_eval_not_recomputed(scenario, score_raw):
    # The harness's verdict is the truth even if the snapshot disagrees with it.
    s = scenario([("a", 1)], final_state=("AC1", "AC2"))
    records = TrajectoryBuilder(s).turn().set("a", 1).final().records()
    records[-1]["success_eval"]["final_state"][1]["passed"] = False
    records[-1]["success_eval"]["all_passed"] = False

    card = score_raw(records)

    assert card.end_state == 0.5
    assert card.all_passed is False


@pytest.mark.parametrize(
    "reason", ["agent_done", "end_turn_without_done", "budget_tool_calls", "budget_sim_time"]
)
def test_normal_ends_are_scored(scenario, score, reason):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn().set("a", 1)

    card = score(b.final(reason))

    assert (card.status, card.reason) == ("scored", reason)
    # 0.4·1 + 0.6·1 = 1.00: budget exhaustion is an ordinary end, not a penalty
    assert card.scalar == pytest.approx(1.0)


def test_invalid_scenario_is_never_scored(scenario, score):
    card = score(TrajectoryBuilder(scenario([("a", 1)]), model="m").invalid_scenario())

    assert (card.status, card.reason, card.model) == ("invalid", "invalid_scenario", "m")
    assert card.vector() == dict.fromkeys(VECTOR_FIELDS)
    assert card.scalar is None
    assert card.commands == []
    assert card.judge_bundle is None


def test_provider_error_keeps_its_vector(scenario, score):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn().set("a", 1).provider_error()

    card = score(b.final("provider_error", passed=False))

    assert card.status == "provider_error"
    assert (card.coverage, card.end_state, card.all_passed) == (1.0, 0.0, False)
    # 0.4·0 + 0.6·1 = 0.60
    assert card.scalar == pytest.approx(0.6)


def test_incomplete_run_has_coverage_but_no_end_state(scenario, score):
    b = TrajectoryBuilder(scenario([("a", 1)], [("b", 1)])).turn().set("a", 1).read()

    card = score(b)  # crashed mid-episode: no final

    assert (card.status, card.reason) == ("incomplete", None)
    assert card.coverage == 0.5
    assert card.order is None
    assert card.end_state is None
    assert card.all_passed is None
    assert card.scalar is None  # no scalar without an end state
    assert card.extraneous == 0


def test_final_without_success_eval_has_no_scalar(scenario, score_raw):
    records = TrajectoryBuilder(scenario([("a", 1)])).turn().set("a", 1).final().records()
    records[-1]["success_eval"] = None

    card = score_raw(records)

    assert card.status == "scored"
    assert card.coverage == 1.0
    assert (card.end_state, card.scalar) == (None, None)


def test_harness_error(score_raw):
    card = score_raw(harness_error_records("setup failed: boom"))

    assert card.status == "harness_error"
    assert card.error == "setup failed: boom"
    assert card.vector() == dict.fromkeys(VECTOR_FIELDS)
    assert card.scalar is None


def test_unreadable_file_names_line_and_reason(tmp_path, scenario):
    lines = TrajectoryBuilder(scenario([("a", 1)])).turn().set("a", 1).final().lines()
    lines[2] = lines[2][:-5]  # corrupt the assistant record, not the last line
    path = tmp_path / "rule-test" / "20260724T101500Z-bad.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    card = score_file(path)

    assert card.status == "unreadable"
    assert card.error_line == 3
    assert card.error.startswith("invalid JSON")
    # identity comes from the layout <out>/<scenario_id>/<run_id>.jsonl
    assert (card.scenario_id, card.run_id) == ("rule-test", "20260724T101500Z-bad")
    assert card.vector() == dict.fromkeys(VECTOR_FIELDS)


def test_missing_file_is_unreadable(tmp_path):
    card = score_file(tmp_path / "nope.jsonl")

    assert card.status == "unreadable"
    assert card.error.startswith("cannot read file")
    assert card.error_line is None

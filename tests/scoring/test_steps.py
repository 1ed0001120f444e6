"""Step tokens and labels: one naming for the timeline, chips, sheets and exports."""

from __future__ import annotations

import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from scoring import parse_trajectory, score_trajectory
from scoring.steps import (
    LABEL_CHARS,
    event_label,
    event_ref,
    event_step,
    is_step_token,
    required_ref,
    resolve_step,
)


@pytest.fixture(scope="module")
def run():
    b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"))
    b.turn("Reading the ECAM.").read("read_ecam").read("read_state", vars=["APU_GEN"])
    b.turn("x " * 200).set("apu_gen", 0).set("apu_gen", 1.5)
    b.turn("").nudge().provider_error()
    b.final("provider_error", passed=False)
    traj = parse_trajectory(b.text().encode())
    return traj, score_trajectory(traj)


def test_each_kind_of_event_has_its_own_token_and_label(run) -> None:
    traj, _ = run
    labels = [event_label(e, i) for i, e in enumerate(traj.events)]
    assert labels[:3] == [
        "1 agent: Reading the ECAM.",
        "1.0 read_ecam",
        '1.1 read_state vars=["APU_GEN"]',
    ]
    # set_control reads as the timeline shows it: the control, then the value as JSON.
    assert labels[4:6] == ["2.0 set_control apu_gen = 0", "2.1 set_control apu_gen = 1.5"]
    assert labels[6:] == ["3 agent turn (no text)", "3n nudge", "3e provider error"]
    # A long turn is cut to one short line.
    assert len(labels[3]) == LABEL_CHARS and labels[3].endswith("…")
    assert [event_step(e, i) for i, e in enumerate(traj.events)][6:] == ["3", "3n", "3e"]


def test_every_token_resolves_back_to_its_event(run) -> None:
    traj, card = run
    for index, event in enumerate(traj.events):
        token = event_step(event, index)
        assert is_step_token(token)
        assert resolve_step(token, traj=traj, card=card) == event_ref(traj, index)
    assert resolve_step("#4", traj=traj, card=card).step == "2.0"


def test_ground_truth_rows_are_named_from_the_scorecard(run) -> None:
    _, card = run
    ref = required_ref(card, 2)
    assert (ref.kind, ref.ref, ref.step) == ("ground_truth", 2, "GT:3")
    assert ref.label.startswith("GT:3 apu_gen = 0 (")
    # Ground-truth tokens need no trajectory: the ScoreCard has the procedure.
    assert resolve_step("GT:3", traj=None, card=card) == ref


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("9.9", "no such step"),
        ("#99", "has 9 events"),
        ("GT:40", "the ground truth has 4 actions"),
        ("step 3", "is not a step"),
        ("GT:x", "is not a step"),
        ("GT:0", "is not a step"),
    ],
)
def test_unknown_tokens_say_why(run, token: str, reason: str) -> None:
    traj, card = run
    with pytest.raises(LookupError, match=reason):
        resolve_step(token, traj=traj, card=card)


def test_event_tokens_need_the_trajectory(run) -> None:
    _, card = run
    with pytest.raises(LookupError, match="trajectory is needed"):
        resolve_step("2.0", traj=None, card=card)

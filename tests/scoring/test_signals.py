"""scoring.md, "Informative signals": reported beside the vector, never folded into it."""

from __future__ import annotations

import json

import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario


def test_reads_are_counted_per_tool_and_never_scored(scenario, score):
    s = scenario([("a", 1)])
    quiet = score(TrajectoryBuilder(s).turn().set("a", 1).final())
    b = TrajectoryBuilder(s).turn().read("read_ecam").read("read_state", names=["AC1"])
    b.read("read_ecam").read("snapshot").read("list_controls").set("a", 1).advance(10).done()

    card = score(b.final())

    assert card.signals.reads == {
        "list_controls": 1,
        "read_ecam": 2,
        "read_state": 1,
        "snapshot": 1,
    }  # set_control, advance and report_done are not reads
    assert card.vector() == quiet.vector()
    assert card.scalar == quiet.scalar


STEPS = {
    "read": lambda b: b.read("read_ecam"),
    "set": lambda b: b.set("a", 1),
    "bad_set": lambda b: b.set("a", "on"),  # rejected by the simulator: is_error
}


@pytest.mark.parametrize(
    ("steps", "observed"),
    [
        (["read", "set"], True),
        (["set", "read"], False),
        (["bad_set", "read", "set"], True),  # an errored command is not the first action
        (["read"], None),  # no command: no evidence either way
        ([], None),
    ],
)
def test_observed_before_acting(scenario, score, steps, observed):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn()
    for step in steps:
        STEPS[step](b)

    card = score(b.final())

    assert card.signals.observed_before_acting is observed


def test_world_writes_are_flagged(scenario, run):
    s = scenario([("a", 1)], world_controls={"gpu_cart": 1})

    card = run(s, ("ext_pwr_avail", 1), ("a", 1), ("fuel_pump_l1", 0), ("gpu_cart", 0), ("b", 1))

    assert card.signals.world_writes == [0, 2, 3]
    assert [c.world_write for c in card.commands] == [True, False, True, True, False]
    # World writes are extraneous like any uncatalogued command, nothing more:
    # (1 − 0.05·4) · (0.4·1 + 0.6·1) = 0.80
    assert card.scalar == pytest.approx(0.8)


def test_clock_budget_and_efficiency(scenario, score):
    s = scenario([("a", 1), ("b", 1)], budget={"max_tool_calls": 10, "max_sim_time_s": 100})
    b = TrajectoryBuilder(s, t0=250.0).turn().read().set("a", 1).advance(30)
    b.set("x", 1).set("a", 1).advance(12.5).set("b", 1, is_error=True).done()

    card = score(b.final())

    sig = card.signals
    assert sig.sim_time_used == pytest.approx(42.5)  # 250 → 292.5
    assert sig.sim_time_budget_used == pytest.approx(0.425)  # 42.5 / 100
    assert sig.tool_calls_used == 8  # every executed call, the errored one included
    assert sig.tool_call_budget_used == pytest.approx(0.8)
    # 1 matched of 3 effective commands (the errored b=1 is not one)
    assert sig.efficiency == pytest.approx(1 / 3)
    assert card.commands[1].sim_time == 280.0  # the clock when x=1 was sent


def test_turns_nudges_and_malformed_arguments(scenario, score):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn("thinking", stop_reason="end_turn").nudge()
    b.turn("ok", malformed_args=['{"control": "a"', "nonsense"]).set("a", 1)

    card = score(b.final())

    assert (card.signals.turns, card.signals.nudges) == (2, 1)
    assert card.signals.malformed_tool_arguments == 2


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_judge_bundle_is_self_contained_and_has_no_snapshot(score):
    s = bundled_scenario("elec-apu-gen-fault")
    b = TrajectoryBuilder(s, snapshot_vars=300).turn("Reading the ECAM.").read("read_ecam")
    b.set("apu_gen", 0).call("clear_failure", {"id": "x"}).nudge().turn("Done.")
    b.done("APU GEN failed", "APU GEN off")
    card = score(b.final())

    bundle = card.judge_bundle
    text = json.dumps(bundle)  # plain JSON: a judge needs nothing else
    assert "snapshot" not in _keys(bundle)
    assert len(text) < len(b.text()) / 4  # compact: the t0 and end snapshots are left out
    assert bundle["task_prompt"] == s["task_prompt"]
    assert bundle["scenario"]["id"] == "elec-apu-gen-fault"
    assert [
        a["control"] for blk in bundle["ground_truth"]["procedure"] for a in blk["actions"]
    ] == [
        "apu_gen",
        "apu_gen",
        "apu_gen",
        "ext_pwr",
    ]
    assert [(t["step"], [c["name"] for c in t["calls"]]) for t in bundle["turns"]] == [
        (1, ["read_ecam", "set_control", "clear_failure"]),
        (2, ["report_done"]),
    ]
    assert "nudge" in bundle["turns"][0]
    assert bundle["done_report"] == {
        "diagnosis": "APU GEN failed",
        "actions_summary": "APU GEN off",
    }
    assert bundle["harness"]["reason"] == "agent_done"
    assert bundle["harness"]["all_passed"] is True
    assert bundle["vector"] == card.vector()


def test_judge_bundle_cuts_long_results(scenario, score):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn()
    b.call("read_state", {}, result="x" * 1000)

    bundle = score(b.final()).judge_bundle

    result = bundle["turns"][0]["calls"][0]["result"]
    assert result.startswith("x" * 400)
    assert result.endswith("[600 chars cut]")


def test_judge_bundle_can_be_left_out(scenario, score):
    b = TrajectoryBuilder(scenario([("a", 1)])).turn().set("a", 1).final()

    assert score(b, with_judge_bundle=False).judge_bundle is None

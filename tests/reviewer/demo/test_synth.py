"""The trajectory builder writes the benchmark's record format and keeps the harness's books."""

from __future__ import annotations

import json
import re

import pytest

from reviewer.demo.synth import (
    BENCHMARK_SURFACE,
    TrajectoryBuilder,
    bundled_scenario,
    harness_error_records,
    load_scenario_yaml,
)

SCENARIO = {
    "schema_version": 1,
    "id": "test-scenario",
    "title": "t",
    "system": "HYD",
    "failures": [{"id": "hyd.blue_epump.1", "at": {"after_setup_s": 5}}],
    "expected_ecam": {"must_appear": ["HYD B ELEC PUMP LO PR", "HYD B SYS LO PR"]},
    "ground_truth": {"procedure": [{"block": "b", "actions": [{"control": "x", "value": 0}]}]},
    "success": {
        "final_state": [
            {"var": "A32NX_HYD_YELLOW_SYSTEM_1_SECTION_PRESSURE", "op": "between", "min": 2800,
             "max": 3200},
            {"var": "ELEC_AC_1_BUS_IS_POWERED", "op": "eq", "value": 1},
        ],
        "ecam_clear_of": ["HYD B ELEC PUMP LO PR"],
    },
    "budget": {"max_tool_calls": 40, "max_sim_time_s": 600},
}  # fmt: skip


def types(builder: TrajectoryBuilder) -> list[str]:
    return [r["type"] for r in builder.records()]


def calls(builder: TrajectoryBuilder) -> list[dict]:
    return [r for r in builder.records() if r["type"] == "tool_call"]


def test_surface_is_sorted_benchmark_profile():
    assert list(BENCHMARK_SURFACE) == sorted(BENCHMARK_SURFACE)
    assert len(BENCHMARK_SURFACE) == 8 and "set_control" in BENCHMARK_SURFACE


def test_record_order_and_header():
    b = TrajectoryBuilder(SCENARIO, run_id="20260724T101500Z-3f9a1c", model="m", provider="p")
    b.turn("look").read().turn("act").set("x", 0).nudge().provider_error().final("provider_error")
    assert types(b) == ["meta", "setup", "assistant", "tool_call", "assistant", "tool_call",
                        "nudge", "provider_error", "final"]  # fmt: skip
    meta, setup = b.records()[:2]
    assert meta["scenario"] == SCENARIO  # as given: no defaults filled in
    # datetime.isoformat() as the harness writes it: microseconds and an offset.
    assert re.fullmatch(r"2026-07-24T10:15:00\.\d{6}\+00:00", meta["ts_utc"])
    assert meta["adapter"]["model"] == "m" and meta["versions"]["trajectory_schema"] == "1"
    assert set(meta["versions"]) == {
        "trajectory_schema",
        "a320-sim",
        "a320-mcp",
        "a320-bench",
        "mcp",
    }
    assert meta["tool_surface"] == list(BENCHMARK_SURFACE)
    assert setup["validity_gate"]["passed"] is True
    assert setup["active_failures"] == ["hyd.blue_epump.1"]
    assert b.records()[-2]["step"] == 2  # provider_error and nudge carry the current step


def test_step_and_call_index_bookkeeping():
    b = TrajectoryBuilder(SCENARIO)
    b.read().read("read_state", prefix="ELEC")  # no turn yet: one is started
    b.turn().set("x", 0).advance(5).read().turn().done()
    got = [(c["step"], c["call_index"]) for c in calls(b)]
    assert got == [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0)]
    assert [r["step"] for r in b.records() if r["type"] == "assistant"] == [1, 2, 3]


def test_only_advance_moves_the_clock():
    b = TrajectoryBuilder(SCENARIO, t0=50.0)
    b.set("x", 1).advance(5).call("advance", {"seconds": "2.5"}).read()
    b.call("read_ecam", advance_s=1.0).call("clear_failure", {"id": "f"}, advance_s=9)
    clock = [(c["sim_time_before"], c["sim_time_after"]) for c in calls(b)]
    assert clock == [(50, 50), (50, 55), (55, 57.5), (57.5, 57.5), (57.5, 58.5), (58.5, 58.5)]
    assert b.final().records()[-1]["sim_time"] == 58.5


def test_off_surface_call_is_refused():
    b = TrajectoryBuilder(SCENARIO).call("clear_failure", {"id": "hyd.blue_epump.1"})
    (c,) = calls(b)
    assert c["is_error"] is True and c["result"] == "Unknown tool: clear_failure"
    narrow = TrajectoryBuilder(SCENARIO, tool_surface=["read_ecam", "advance"]).set("x", 1)
    assert calls(narrow)[0]["result"] == "Unknown tool: set_control"


def test_set_keeps_raw_values_and_answers_the_same_text():
    b = TrajectoryBuilder(SCENARIO)
    for value in (0, 0.0, True, "1", 1):
        b.set("x", value)
    b.set("x", "OFF").set("nope", 1, is_error=True, error="Unknown control: nope")
    cs = calls(b)
    assert [c["args"]["value"] for c in cs[:5]] == [0, 0.0, True, "1", 1]
    assert not any(c["is_error"] for c in cs[:5])
    assert cs[2]["result"] == cs[3]["result"] == cs[4]["result"]  # changed or not: same text
    assert cs[5]["is_error"] and "OFF" in cs[5]["result"]  # not coercible: rejected
    assert cs[6]["result"] == "Unknown control: nope"


def test_malformed_arguments_are_recorded_on_the_turn():
    b = TrajectoryBuilder(SCENARIO).turn(malformed_args=['{"control": "x"'])
    raw = b.records()[-1]["provider_raw"]
    assert raw["malformed_tool_arguments"] == ['{"control": "x"']
    assert TrajectoryBuilder(SCENARIO).turn().records()[-1]["stop_reason"] == "tool_use"


def success(b: TrajectoryBuilder) -> dict:
    return b.records()[-1]["success_eval"]


def test_final_success_eval_passed():
    b = TrajectoryBuilder(SCENARIO).turn().set("x", 0).done("diag", "sum").done("later")
    final = b.final().records()[-1]
    ev = final["success_eval"]
    assert ev["all_passed"] is True and final["ecam"] == []
    between = ev["final_state"][0]
    assert between["op"] == "between" and 2800 <= between["value"] <= 3200
    assert ev["ecam_clear_of"] == [{"message": "HYD B ELEC PUMP LO PR", "clear": True}]
    assert final["done_payload"] == {"diagnosis": "diag", "actions_summary": "sum"}
    assert final["tool_calls_used"] == 3


def test_final_success_eval_failing_everything_or_some():
    ev = success(TrajectoryBuilder(SCENARIO).final(passed=False))
    assert not any(c["passed"] for c in ev["final_state"]) and not ev["all_passed"]
    assert not (ev["final_state"][0]["value"] >= 2800)  # outside the window
    some = TrajectoryBuilder(SCENARIO).final(failing=["ELEC_AC_1_BUS_IS_POWERED"])
    ev = success(some)
    assert [c["passed"] for c in ev["final_state"]] == [True, False]
    assert ev["ecam_clear_of"][0]["clear"] is True and ev["all_passed"] is False
    msg = TrajectoryBuilder(SCENARIO).final(failing=["HYD B ELEC PUMP LO PR"]).records()[-1]
    assert msg["ecam"] == ["HYD B ELEC PUMP LO PR"] and not msg["success_eval"]["all_passed"]


def test_final_ends_the_episode_and_counts_errors():
    b = TrajectoryBuilder(SCENARIO).call("nope").set("x", "bad").final("budget_tool_calls")
    assert b.records()[-1]["tool_calls_used"] == 2
    assert b.records()[-1]["done_payload"] is None
    with pytest.raises(RuntimeError):
        b.turn()


def test_invalid_scenario_has_no_end_state():
    b = TrajectoryBuilder(SCENARIO).invalid_scenario()
    setup, final = b.records()[1:]
    assert setup["validity_gate"]["passed"] is False
    assert setup["validity_gate"]["missing"] == ["HYD B SYS LO PR"]
    assert final["reason"] == "invalid_scenario" and final["success_eval"] is None
    assert not {"ecam", "snapshot", "active_failures"} & set(final)
    with pytest.raises(RuntimeError):
        TrajectoryBuilder(SCENARIO).turn().invalid_scenario()


def test_harness_error_is_a_single_record():
    (record,) = harness_error_records("boom")
    assert record == {"type": "harness_error", "stage": "setup", "error": "boom"}


def test_snapshot_is_deterministic_and_realistic():
    one = TrajectoryBuilder(SCENARIO, snapshot_vars=400, seed=7).records()[1]["snapshot"]
    again = TrajectoryBuilder(SCENARIO, snapshot_vars=400, seed=7).records()[1]["snapshot"]
    other = TrajectoryBuilder(SCENARIO, snapshot_vars=400, seed=8).records()[1]["snapshot"]
    assert one == again and one != other
    assert len(one) >= 400 and "ELEC_AC_1_BUS_IS_POWERED" in one
    assert one["A32NX_ADIRS_IR_3_TRUE_HEADING"] == "NaN"  # JSON cannot hold NaN
    assert TrajectoryBuilder(SCENARIO).records()[1]["snapshot"] == {}


def test_text_lines_and_write(tmp_path):
    b = TrajectoryBuilder(SCENARIO, snapshot_vars=60).turn("é → ok").read().final()
    text = b.text()
    assert text.endswith("\n") and len(text.splitlines()) == len(b.records())
    assert [json.loads(line) for line in b.lines()] == b.records()
    assert b.lines()[2].startswith('{"type": "assistant", ')  # the recorder's json.dumps defaults
    path = b.write(tmp_path / "a" / "b" / "run.jsonl")
    assert path.read_bytes() == text.encode("utf-8")


def test_bundled_scenarios_load(tmp_path):
    for sid in ("elec-apu-gen-fault", "elec-eng1-gen-fault", "hyd-blue-elec-pump-fault"):
        assert bundled_scenario(sid)["id"] == sid
    with pytest.raises(KeyError):
        bundled_scenario("no-such-scenario")
    path = tmp_path / "s.yaml"
    path.write_text("id: x\nbudget: {max_tool_calls: 3}\n", encoding="utf-8")
    assert load_scenario_yaml(path) == {"id": "x", "budget": {"max_tool_calls": 3}}

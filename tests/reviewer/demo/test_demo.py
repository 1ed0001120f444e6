"""The bundled scenarios are well formed and the demo runs regenerate byte for byte."""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path

import pytest
import yaml

from reviewer.demo import default_out_dir, generate
from reviewer.demo.catalog import demo_runs

SCENARIOS = importlib.resources.files("resources").joinpath("scenarios")
REQUIRED = {"schema_version", "id", "title", "system", "initial_state", "failures",
            "expected_ecam", "task_prompt", "ground_truth", "success", "budget"}  # fmt: skip
OPS = {"eq", "ne", "gt", "ge", "lt", "le", "between"}


def scenario_files() -> list:
    return sorted((p for p in SCENARIOS.iterdir() if p.name.endswith(".yaml")), key=str)


@pytest.fixture(scope="module")
def generated_paths(tmp_path_factory) -> list[Path]:
    """The demo set generated into a fresh folder, in catalog order."""
    return generate(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def generated(generated_paths) -> dict[str, bytes]:
    return {f"{p.parent.name}/{p.name}": p.read_bytes() for p in generated_paths}


def test_bundled_scenarios_are_well_formed():
    files = scenario_files()
    assert len(files) >= 3
    for entry in files:
        s = yaml.safe_load(entry.read_text(encoding="utf-8"))
        assert set(s) >= REQUIRED, entry.name
        assert s["id"].replace("-", "_") + ".yaml" == entry.name
        assert s["expected_ecam"]["must_appear"] and s["task_prompt"].strip()
        source = s["ground_truth"]["source"]
        assert {"document", "revision", "accessed"} <= set(source)
        for block in s["ground_truth"]["procedure"]:
            assert block["actions"] and isinstance(block.get("ordered", False), bool)
            for action in block["actions"]:
                assert isinstance(action["control"], str) and isinstance(action["value"], int)
        for bad in s["ground_truth"].get("forbidden_actions", []):
            assert bad["severity"] in ("dangerous", "anti_procedure")
        for pred in s["success"]["final_state"]:
            assert pred["op"] in OPS
            assert {"min", "max"} <= set(pred) if pred["op"] == "between" else "value" in pred
        assert s["budget"]["max_tool_calls"] > 0 and s["budget"]["max_sim_time_s"] > 0


def test_hydraulic_scenario_covers_the_other_shapes():
    s = yaml.safe_load(SCENARIOS.joinpath("hyd_blue_elec_pump_fault.yaml").read_text("utf-8"))
    gt = s["ground_truth"]
    assert {b.get("ordered", False) for b in gt["procedure"]} == {True, False}
    assert {f["severity"] for f in gt["forbidden_actions"]} == {"dangerous", "anti_procedure"}
    assert any(p["op"] == "between" for p in s["success"]["final_state"])
    assert s["success"]["ecam_clear_of"]


def test_generation_is_deterministic(tmp_path, generated):
    again = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in generate(tmp_path)}
    assert again == generated
    assert 45 <= len(generated) <= 60


def test_committed_demo_files_are_up_to_date(generated):
    # If this fails: python -m reviewer.demo, then commit resources/demo.
    committed = Path(default_out_dir())
    on_disk = {p.relative_to(committed).as_posix(): p.read_bytes()
               for p in committed.glob("*/*.jsonl")}  # fmt: skip
    assert on_disk == generated


def records(blob: bytes) -> list[dict]:
    return [json.loads(line) for line in blob.decode("utf-8").splitlines() if line.strip()]


def test_demo_covers_every_ending(generated):
    reasons, kinds = set(), set()
    for blob in generated.values():
        text = blob.decode("utf-8")
        lines = text.splitlines()
        if not text.endswith("\n"):
            kinds.add("torn")
            continue
        try:
            recs = records(blob)
        except json.JSONDecodeError:
            kinds.add("corrupt")
            continue
        types = [r["type"] for r in recs]
        kinds.add("harness_error" if types == ["harness_error"] else "")
        kinds.add("incomplete" if types[0] == "meta" and "final" not in types else "")
        kinds.add("nudge" if "nudge" in types else "")
        reasons |= {r["reason"] for r in recs if r["type"] == "final"}
        assert len(lines) == len(recs)
    assert reasons == {"agent_done", "end_turn_without_done", "budget_tool_calls",
                       "budget_sim_time", "provider_error", "invalid_scenario"}  # fmt: skip
    assert {"torn", "corrupt", "harness_error", "incomplete", "nudge"} <= kinds


def test_demo_covers_the_awkward_calls(generated):
    calls = [r for blob in generated.values() if blob.endswith(b"\n") for r in _safe(blob)
             if r["type"] == "tool_call"]  # fmt: skip
    names = {c["name"] for c in calls}
    assert "clear_failure" in names  # off the surface
    sets = [c for c in calls if c["name"] == "set_control"]
    assert any(c["is_error"] for c in sets)
    assert any(c["args"].get("control") == "ext_pwr_avail" for c in sets)  # world domain
    raw_values = {json.dumps(c["args"].get("value")) for c in sets}
    assert {"0", "0.0", "true", '"0"'} <= raw_values
    assert len({m for _, m, _, _ in demo_runs()}) >= 4


def _safe(blob: bytes) -> list[dict]:
    try:
        return records(blob)
    except json.JSONDecodeError:
        return []


def test_first_four_runs_are_the_verified_ordering(generated_paths):
    scoring = pytest.importorskip("scoring")
    runs = demo_runs()[:4]
    assert {sid for sid, _, _, _ in runs} == {"elec-apu-gen-fault"}
    assert len({model for _, model, _, _ in runs}) == 1
    cards = [scoring.score_file(p) for p in generated_paths[:4]]
    # 0.4·1 + 0.4·1 + 0.2·1 = 1.00; 0.4·1 + 0.4·0.75 + 0.2·1 = 0.90;
    # 0.4·1 + 0.6·0.25 = 0.55 (order null); nothing done and end state failing: 0.
    assert [round(c.scalar, 2) for c in cards] == [1.0, 0.9, 0.55, 0.0]
    assert cards[0].scalar > cards[1].scalar > cards[2].scalar > cards[3].scalar
    assert [c.coverage for c in cards] == [1.0, 0.75, 0.25, 0.0]
    assert [c.order for c in cards] == [1.0, 1.0, None, None]
    assert cards[2].all_passed is True  # success is not compliance

"""The bundled demo runs carry tool results in the shapes the benchmark's MCP server records.

Each check reads the committed ``resources/demo`` files, so a regeneration that drifts back to
an invented shape fails here, not in front of a new user.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reviewer.demo import default_out_dir
from reviewer.demo.mcp_text import ecam_entries, unknown_control
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario

ECAM_KEYS = {"message", "severity", "system", "id", "source"}
SET_TEXT = re.compile(r"^[a-z0-9_]+ <- -?[0-9.e+]+ \(call advance\(\) for the aircraft to react\)$")
ADVANCE_TEXT = re.compile(r"^advanced [0-9.]+s \(t=\d+\.\ds\)$")


def _records() -> list[dict]:
    records = []
    for path in sorted(Path(default_out_dir()).glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # the torn and the corrupt file, on purpose
    return records


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return _records()


def _calls(records: list[dict], name: str, *, error: bool = False) -> list[dict]:
    return [r for r in records if r["type"] == "tool_call" and r["name"] == name
            and r["is_error"] is error]  # fmt: skip


def test_read_ecam_is_a_wrapped_list_of_full_entries(records):
    reads = _calls(records, "read_ecam")
    assert reads
    for call in reads:
        assert set(call["result"]) == {"result"}
        assert all(set(e) == ECAM_KEYS for e in call["result"]["result"])
    assert any(c["result"] == {"result": []} for c in reads)  # an empty ECAM is shown too
    assert any(c["result"]["result"] for c in reads)


def test_set_advance_and_report_answer_wrapped_text(records):
    for call in _calls(records, "set_control"):
        assert SET_TEXT.match(call["result"]["result"]), call["result"]
    for call in _calls(records, "advance"):
        text = call["result"]["result"]
        assert ADVANCE_TEXT.match(text) and f"(t={call['sim_time_after']:.1f}s)" in text
    done = _calls(records, "report_done")
    assert done and all(c["result"]["result"].startswith("Report recorded.") for c in done)


def test_read_state_takes_variables_and_returns_the_mapping(records):
    reads = _calls(records, "read_state")
    assert reads
    for call in reads:
        assert set(call["args"]) == {"variables"}
        assert list(call["result"]) == call["args"]["variables"]
        assert all(isinstance(v, float) for v in call["result"].values())


def test_list_controls_lists_full_entries(records):
    (first, *_) = _calls(records, "list_controls")
    entries = first["result"]["result"]
    assert {"name", "domain", "lvar", "kind", "valid_values"} <= set(entries[0])
    assert {e["domain"] for e in entries} == {"cockpit", "world"}


def test_errors_are_worded_as_the_server_words_them(records):
    errors = [r for r in records if r["type"] == "tool_call" and r["is_error"]]
    assert errors
    for call in errors:
        text = call["result"]
        assert isinstance(text, str)
        assert text.startswith(("Error executing tool ", "Unknown tool: ")), text
    validation = [c["result"] for c in errors if "validation error" in c["result"]]
    assert validation and all(len(t.splitlines()) >= 4 for t in validation)


def test_meta_versions_timestamps_and_text(records):
    metas = [r for r in records if r["type"] == "meta"]
    assert metas
    for meta in metas:
        assert set(meta["versions"]) == {"a320-sim", "a320-mcp", "a320-bench", "mcp",
                                         "trajectory_schema"}  # fmt: skip
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", meta["ts_utc"])
        assert meta["tool_surface"] == sorted(meta["tool_surface"])
    blob = json.dumps(records, ensure_ascii=False)
    assert {"—", "→", "✓"} <= set(blob)


def test_invalid_scenario_final_has_no_done_payload(records):
    invalid = [r for r in records if r["type"] == "final" and r["reason"] == "invalid_scenario"]
    assert invalid and all("done_payload" not in r for r in invalid)
    assert all(r["success_eval"] is None for r in invalid)


def test_ecam_entries_most_severe_first():
    got = [e["severity"] for e in ecam_entries(["RAT OUT", "HYD B SYS LO PR", "NEW THING"])]
    assert got == ["caution", "caution", "advisory"]


def test_unknown_control_lists_the_accepted_names_as_pydantic_does():
    text = unknown_control("x", ["b", "a", "c"])
    assert text.splitlines()[:3] == [
        "Error executing tool set_control: 1 validation error for set_controlArguments",
        "control",
        "  Input should be 'a', 'b' or 'c' [type=literal_error, input_value='x', input_type=str]",
    ]


def test_builder_defaults_are_the_server_shapes():
    b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), t0=84.0)
    b.turn().set("apu_gen", 0).advance(2).read("read_state", variables=["X"]).done()
    set_call, advance, read, done = [r for r in b.records() if r["type"] == "tool_call"]
    assert set_call["result"] == {
        "result": "apu_gen <- 0 (call advance() for the aircraft to react)"
    }
    assert advance["result"] == {"result": "advanced 2s (t=86.0s)"}
    assert read["result"] == {"X": 0.0}
    assert done["result"] == {
        "result": "Report recorded. The episode is over; make no further tool calls."
    }

"""trajectory-format.md, "File" and "Record order": what the reader accepts and refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reviewer.demo.synth import TrajectoryBuilder
from scoring import TrajectoryError, parse_trajectory, score_trajectory
from scoring.records import RECORD_DECODER


@pytest.fixture
def lines(scenario) -> list[str]:
    """meta, setup, assistant, tool_call, tool_call, final: six lines."""
    b = TrajectoryBuilder(scenario([("a", 1)])).turn().read().set("a", 1)
    return b.final().lines()


def _parse(lines: list[str], end: str = "\n"):
    return parse_trajectory(("\n".join(lines) + end).encode(), path="runs/x.jsonl")


def test_a_well_formed_file(lines):
    traj = _parse(lines)

    assert traj.meta.run_id == "20260724T101500Z-000001"
    assert [e.type for e in traj.events] == ["assistant", "tool_call", "tool_call"]
    assert traj.event_lines == (3, 4, 5)
    assert traj.final.reason == "agent_done"
    assert (traj.torn_last_line, traj.unknown_records, traj.line_count) == (False, 0, 6)


def test_corrupt_middle_line_is_an_error_with_line_and_reason(lines):
    lines[3] = lines[3][:-1]

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 4
    assert info.value.reason.startswith("invalid JSON")
    assert str(info.value).startswith("runs/x.jsonl:4: invalid JSON")


def test_schema_violation_in_the_middle_names_the_field(lines):
    record = json.loads(lines[3])
    del record["name"]
    lines[3] = json.dumps(record)

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 4
    assert "name" in info.value.reason


@pytest.mark.parametrize("end", ["", "\n", "\n\n  \n"])
def test_torn_last_line_is_dropped_silently(lines, scenario, end):
    lines[-1] = lines[-1][: len(lines[-1]) // 2]  # the crash cut the final record

    traj = _parse(lines, end)
    card = score_trajectory(traj)

    assert traj.torn_last_line
    assert traj.final is None
    assert card.status == "incomplete"
    assert card.signals.torn_last_line
    assert card.coverage == 1.0


@pytest.mark.parametrize(("data", "line"), [(b'{"type":"meta","run', 1), (b'\n\n{"type":"me\n', 3)])
def test_a_file_whose_only_line_is_torn_is_not_a_trajectory(data, line):
    # No meta survived: there is no run to call incomplete.
    with pytest.raises(TrajectoryError) as info:
        parse_trajectory(data)

    assert info.value.line == line
    assert info.value.reason.startswith("not a trajectory")


def test_a_complete_last_line_that_breaks_the_schema_is_not_torn(lines):
    lines[-1] = json.dumps({"type": "final", "reason": "bogus"})

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 6


def test_blank_lines_are_skipped(lines):
    traj = parse_trajectory(("\n\n".join(lines) + "\n").encode())

    assert traj.final is not None
    assert traj.event_lines == (5, 7, 9)  # line numbers stay those of the file


@pytest.mark.parametrize("data", [b"", b"\n", b"  \n\n"])
def test_empty_file(data):
    with pytest.raises(TrajectoryError) as info:
        parse_trajectory(data)

    assert info.value.line is None
    assert "empty" in info.value.reason


def test_first_record_must_be_meta(lines):
    with pytest.raises(TrajectoryError) as info:
        _parse(lines[1:])

    assert info.value.line == 1
    assert "first record is 'setup', expected 'meta'" in info.value.reason


def test_not_a_trajectory_at_all():
    with pytest.raises(TrajectoryError) as info:
        parse_trajectory(b'{"hello": "world"}\n{"type": "meta"}\n')

    assert info.value.line == 1


def test_record_after_final(lines):
    lines.append(json.dumps({"type": "nudge", "step": 2, "text": "late"}))

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 7
    assert info.value.reason == "record 'nudge' after final"


def test_second_meta(lines):
    lines.insert(2, lines[0])

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert (info.value.line, info.value.reason) == (3, "second meta record")


def test_record_after_harness_error():
    data = b'{"type":"harness_error","stage":"setup","error":"x"}\n{"type":"setup"}\n'

    with pytest.raises(TrajectoryError) as info:
        parse_trajectory(data)

    assert info.value.line == 2


def test_unknown_record_types_are_tolerated_and_counted(lines):
    baseline = score_trajectory(_parse(lines))
    lines.insert(3, json.dumps({"type": "thinking", "step": 1, "text": "hmm"}))
    lines.insert(1, json.dumps({"type": "heartbeat"}))

    card = score_trajectory(_parse(lines))

    assert card.signals.unknown_records == 2
    assert card.vector() == baseline.vector()
    assert card.scalar == baseline.scalar


def test_a_bad_embedded_scenario_points_at_the_meta_line(lines):
    meta = json.loads(lines[0])
    meta["scenario"]["ground_truth"]["procedure"][0]["actions"][0]["value"] = "on"
    lines[0] = json.dumps(meta)

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 1
    assert info.value.reason.startswith("meta.scenario.ground_truth.procedure.0.actions.0.value")


def test_scenario_defaults_are_applied(lines):
    scenario = _parse(lines).scenario

    assert scenario.ground_truth.procedure[0].ordered is False
    assert scenario.ground_truth.optional_actions == []
    assert scenario.ground_truth.forbidden_actions == []
    assert scenario.success.ecam_clear_of == []
    assert scenario.failures[0].settle_s == 5
    assert scenario.instructions_profile == "benchmark"


def test_two_records_on_one_line_are_corruption_not_two_records(lines):
    # The whole-file fast path must not read "{...},{...}" as two records: it is one
    # malformed line (JSON allows one value per line).
    lines[3:5] = [lines[3] + "," + lines[4]]

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 4
    assert info.value.reason.startswith("invalid JSON")


def test_a_record_split_over_two_lines_is_corruption(lines):
    # Cut inside an array so that the pieces would parse if joined by a comma.
    record = json.loads(lines[3])
    record["args"] = {"list": [1, 2]}
    text = json.dumps(record, separators=(",", ":"))
    cut = text.index("[1,") + 2
    lines[3:4] = [text[:cut], text[cut + 1 :]]

    with pytest.raises(TrajectoryError) as info:
        _parse(lines)

    assert info.value.line == 4


def test_snapshots_are_not_parsed_but_can_be_read_on_demand(scenario, tmp_path):
    from scoring.reader import read_snapshot, read_trajectory

    b = TrajectoryBuilder(scenario([("a", 1)]), snapshot_vars=30).turn().set("a", 1).final()
    path = b.write(tmp_path / "run.jsonl")
    traj = read_trajectory(path)

    assert not hasattr(traj.setup, "snapshot")  # skipped: two thirds of a file's bytes
    at_t0 = read_snapshot(path, traj.setup_line)
    assert at_t0 == b.records()[1]["snapshot"] and len(at_t0) >= 30
    assert read_snapshot(path, traj.final_line) == b.records()[-1]["snapshot"]
    assert read_snapshot(path, 999) == {}


def test_a_utf8_byte_order_mark_is_not_part_of_the_first_record(lines):
    data = ("\n".join(lines) + "\n").encode()
    traj = parse_trajectory(b"\xef\xbb\xbf" + data, path="runs/x.jsonl")
    assert traj.meta is not None and traj.final is not None
    assert traj.sha256 != parse_trajectory(data).sha256  # the file's identity is its bytes


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("[1, 2, 3]", "not a JSON object: each line must hold one record"),
        ('{"step": 1}', "the record has no 'type'"),
        ('{"type": 7}', "the record's 'type' must be a string"),
        # The column is the editor's: characters, 1-based (é is two bytes, one column).
        ('{"type": "nudge", "text": "é" x}', "invalid JSON: expected ',' or '}' at column 31"),
        (
            '{"type": "nudge", "text": "cut',
            "invalid JSON: the line ends (column 30) before its record does",
        ),
        ('{"type": "tool_call", "step": "one"}', "step: Expected `int`, got `str`"),
        (
            '{"type": "tool_call", "step": 1, "call_index": 0}',
            "Object missing required field `name`",
        ),
        (
            '{"type": "final", "reason": "agent_done", "success_eval": '
            '{"final_state": [{"var": "x", "op": "eq"}], "all_passed": true}}',
            "success_eval.final_state[0]: Object missing required field `passed`",
        ),
        ('{"type": "final", "reason": "gave_up"}', "reason: Invalid enum value 'gave_up'"),
        ("[" * 100_000 + "]" * 100_000, "invalid JSON: nested too deeply to read"),
    ],
)
def test_a_line_that_is_not_a_record_says_so(lines, line, reason):
    lines[3] = line
    with pytest.raises(TrajectoryError) as info:
        _parse(lines)
    assert (info.value.line, info.value.reason) == (4, reason)


def test_the_reader_is_as_lax_as_the_harness_is_loose(lines):
    # "3" and 3.0 are the step 3, 1 is true, an int time is a float: what pydantic's lax
    # mode accepted before the records moved to msgspec, a file still gets.
    call = json.loads(lines[3])
    call.update(step="1", call_index=0.0, is_error=0, sim_time_before=100)
    lines[3] = json.dumps(call)
    traj = _parse(lines)
    read = traj.events[1]
    assert (read.step, read.call_index, read.is_error, read.sim_time_before) == (1, 0, False, 100.0)
    assert isinstance(read.sim_time_before, float)


@pytest.mark.parametrize(
    "shape",
    [
        "usual",  # meta, setup, timeline, final
        "blank lines",  # line numbers skip the blanks
        "no final",  # a run cut short
        "no setup",
        "setup late",  # setup after a timeline record: the fast assembly declines it
        "meta only",
        "meta and final",
    ],
)
def test_the_fast_assembly_and_the_record_by_record_builder_agree(lines, shape):
    # parse_trajectory assembles a usual file with list operations and leaves every other
    # one to the builder that checks record by record: both must give the same Trajectory.
    from scoring.reader import _build

    if shape == "blank lines":
        text = "\n\n".join(lines) + "\n"
    else:
        kept = {
            "usual": lines,
            "no final": lines[:-1],
            "no setup": [lines[0], *lines[2:]],
            "setup late": [lines[0], lines[2], lines[1], *lines[3:]],
            "meta only": lines[:1],
            "meta and final": [lines[0], lines[-1]],
        }[shape]
        text = "\n".join(kept) + "\n"
    fast = parse_trajectory(text.encode(), path="runs/x.jsonl")
    numbered = [
        (number, RECORD_DECODER.decode(raw))
        for number, raw in enumerate(text.split("\n"), start=1)
        if raw.strip()
    ]
    careful = _build(
        numbered,
        path="runs/x.jsonl",
        sha=fast.sha256,
        torn=False,
        line_count=numbered[-1][0],
    )

    assert fast == careful
    assert len(fast.events) == len(fast.event_lines)
    assert fast.tool_calls == tuple(e for e in fast.events if e.type == "tool_call")


def test_runs_of_one_scenario_share_its_validation_but_only_for_the_exact_same_json(scenario):
    # The reader validates an embedded scenario once per exact JSON.  Python calls 1, 1.0
    # and true equal, but they are different JSON, and a scenario keeps such values as the
    # file has them (initial_state is free-form): each must get its own Scenario.
    def parse(value: Any):
        s = scenario([("a", 1)])
        s["initial_state"]["gpu_cart"] = value
        text = TrajectoryBuilder(s).turn().set("a", 1).final().text()
        return parse_trajectory(text.encode())

    one, again, as_float, as_true = parse(1), parse(1), parse(1.0), parse(True)

    assert one.scenario is again.scenario  # the same JSON: validated once, shared
    assert one.meta is not again.meta  # each file still has its own records
    assert [type(t.scenario.initial_state["gpu_cart"]) for t in (one, as_float, as_true)] == [
        int,
        float,
        bool,
    ]


def test_the_scenario_cache_and_plans_hold_under_threads_past_the_bound(scenario):
    # The window scores on worker threads; more scenarios than the reader keeps (256) make
    # it evict while other threads insert, and plans are worked out on shared scenarios.
    # Every card must be what one thread gives.
    from concurrent.futures import ThreadPoolExecutor

    texts = []
    for n in range(300):
        s = scenario([("a", 1)], [("b", n % 2)], ordered={1}, scenario_id=f"scenario-{n:03d}")
        texts.append(TrajectoryBuilder(s).turn().read().set("a", 1).set("b", n % 2).final().text())

    def card(text: str) -> str:
        return score_trajectory(parse_trajectory(text.encode(), path="run.jsonl")).to_json()

    alone = [card(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(card, texts * 3))
    assert together == alone * 3


def test_windows_line_ends_read_as_the_same_trajectory(lines):
    # A file saved on Windows ends its lines with CR LF: the CR is JSON whitespace.
    unix = _parse(lines)
    windows = parse_trajectory(("\r\n".join(lines) + "\r\n").encode(), path="runs/x.jsonl")
    assert windows.event_lines == unix.event_lines and windows.line_count == unix.line_count
    assert score_trajectory(windows).model_dump(exclude={"trajectory_sha256"}) == (
        score_trajectory(unix).model_dump(exclude={"trajectory_sha256"})
    )

"""The reader knows which trajectory schema versions it reads, and refuses the others."""

from __future__ import annotations

import json

import pytest

from reviewer.demo.synth import TrajectoryBuilder
from scoring import parse_trajectory
from scoring.reader import TrajectoryError
from scoring.records import READABLE_SCHEMAS
from scoring.scorer import score_file


def _file_text(versions: object, *, fast: bool = True) -> bytes:
    scenario = {"id": "s", "ground_truth": {"procedure": []}, "success": {}}
    b = TrajectoryBuilder(scenario).turn("look").read().set("a", 1)
    records = b.final().records()
    if versions is ...:
        del records[0]["versions"]
    else:
        records[0]["versions"] = versions
    if not fast:
        records.insert(2, {"type": "from_the_future"})  # takes the record-by-record path
    return "".join(json.dumps(r) + "\n" for r in records).encode()


@pytest.mark.parametrize("fast", [True, False], ids=["whole-file", "line-by-line"])
@pytest.mark.parametrize("version", ["2", "0", 2, "1.1", True, None])
def test_an_unknown_schema_is_an_unreadable_file_naming_what_is_read(version, fast):
    text = _file_text({"trajectory_schema": version, "a320-bench": "9.0.0"}, fast=fast)
    with pytest.raises(TrajectoryError) as info:
        parse_trajectory(text, path="runs/r.jsonl")
    assert info.value.line == 1  # the meta record
    reason = info.value.reason
    assert "\n" not in reason and "is not one this release reads" in reason
    assert f"(it reads version {', '.join(READABLE_SCHEMAS)})" in reason


@pytest.mark.parametrize(
    "versions",
    [
        {"trajectory_schema": "1", "a320-sim": "0.5.0"},
        {"trajectory_schema": 1},  # the recorder's constant before it wrote it as text
        {"a320-bench": "0.4.0"},  # no trajectory_schema: written before it was recorded
        {},
        ...,  # no versions at all
    ],
    ids=["text-1", "int-1", "no-schema-key", "empty", "no-versions"],
)
def test_version_one_and_files_without_a_version_are_read(versions):
    traj = parse_trajectory(_file_text(versions))
    assert traj.final is not None and len(traj.tool_calls) == 2


def test_an_unknown_schema_is_never_scored(tmp_path):
    path = tmp_path / "s" / "r.jsonl"
    path.parent.mkdir()
    path.write_bytes(_file_text({"trajectory_schema": "2"}))
    card = score_file(path)
    assert card.status == "unreadable" and card.error_line == 1
    assert card.coverage is None and card.scalar is None
    assert 'trajectory schema version "2"' in card.error

"""The fuzzer: mutated trajectories give a ScoreCard or a clear unreadable reason, never an
exception.

Valid files from ``resources/demo`` are mutated the way the attacker's fuzzer did it: any
field of any record (nested ones too) gets a value of another JSON type, records are
deleted or duplicated, junk lines are inserted. Seeded and derandomized, so a failure
reproduces; the example count keeps it to a few seconds in CI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ScoreCard, parse_trajectory, score_trajectory
from scoring.reader import TrajectoryError
from scoring.scorer import score_file

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"
FILES = sorted(DEMO.rglob("*.jsonl"))[:6]

#: Values of every JSON type, the awkward ones included.
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["meta", "final", "tool_call", "setup", "", "=cmd"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
JUNK_LINES = st.sampled_from(
    [
        b"junk",
        b"[]",
        b"42",
        b'"text"',
        b"{",
        b"\xff\xfe\x00",
        b'{"type": ["meta"]}',
        b'{"type": {"a": 1}}',
        b'{"type": null}',
        b"[" * 5000 + b"]" * 5000,
        b'{"type": "tool_call", "step": 1' + b"0" * 5000 + b"}",
    ]
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:4]):
            out += _paths(item, (*prefix, index))
    return out


def _replace(value: Any, path: tuple, new: Any) -> None:
    for part in path[:-1]:
        value = value[part]
    value[path[-1]] = new


@st.composite
def mutated(draw) -> bytes:
    """A demo trajectory with a handful of mutations applied."""
    path = draw(st.sampled_from(FILES))
    records = [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    lines: list[bytes] = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["retype", "retype", "delete", "duplicate", "junk"]))
        index = draw(st.integers(min_value=0, max_value=len(records) - 1))
        if kind == "retype":
            targets = _paths(records[index])
            if targets:
                _replace(records[index], draw(st.sampled_from(targets)), draw(JSON_VALUES))
            else:
                records[index] = draw(JSON_VALUES)
        elif kind == "delete" and len(records) > 1:
            del records[index]
        elif kind == "duplicate":
            records.insert(index, json.loads(json.dumps(records[index])))
    lines = [json.dumps(r).encode() for r in records]
    if draw(st.booleans()):
        at = draw(st.integers(min_value=0, max_value=len(lines)))
        lines.insert(at, draw(JUNK_LINES))
    return b"\n".join(lines) + b"\n"


def _check(data: bytes) -> None:
    try:
        traj = parse_trajectory(data, path="fuzz.jsonl")
    except TrajectoryError as exc:
        assert exc.reason.strip(), "an unreadable file needs a reason"
        return
    assert isinstance(score_trajectory(traj), ScoreCard)


@settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_trajectories_score_or_give_a_reason(data: bytes) -> None:
    _check(data)


@pytest.mark.parametrize(
    "mutation",
    [
        pytest.param(lambda r: r[0].update(type=["meta"]), id="type-is-a-list"),
        pytest.param(lambda r: r[1].update(type={"a": 1}), id="type-is-an-object"),
        pytest.param(
            lambda r: (
                r[0]["scenario"].setdefault("initial_state", {}).update(world_controls=["X", "Y"])
            ),
            id="world-controls-a-list",
        ),
        pytest.param(
            lambda r: r[0]["scenario"].update(initial_state=["x"]), id="initial-state-a-list"
        ),
    ],
)
def test_reported_shapes_are_unreadable_or_scored(mutation) -> None:
    records = [json.loads(line) for line in FILES[0].read_bytes().splitlines() if line.strip()]
    mutation(records)
    _check(b"\n".join(json.dumps(r).encode() for r in records))


def test_deeply_nested_line_is_a_clear_error() -> None:
    lines = FILES[0].read_bytes().splitlines()
    data = b"\n".join([lines[0], b"[" * 100_000 + b"]" * 100_000, *lines[1:]])
    with pytest.raises(TrajectoryError) as caught:
        parse_trajectory(data, path="deep.jsonl")
    assert caught.value.line == 2


def test_huge_integer_is_a_clear_error() -> None:
    lines = FILES[0].read_bytes().splitlines()
    record = json.loads(lines[-1])
    text = json.dumps(record)[:-1] + ', "tool_calls_used": ' + "9" * 5000 + "}"
    data = b"\n".join([*lines[:-1], text.encode(), b""])
    _check(data)


def test_non_utf8_file_name_is_an_unreadable_card(tmp_path: Path) -> None:
    name = tmp_path / Path(b"run-\xff.jsonl".decode("utf-8", "surrogateescape"))
    name.write_bytes(FILES[0].read_bytes())
    card = score_file(name)
    assert card.status == "unreadable"
    assert "UTF-8" in (card.error or "")
    assert card.path.endswith("run-\\xff.jsonl")
    card.model_dump_json()  # a card that can be written out


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    card = score_file(fifo)  # would block forever on a plain open()
    assert card.status == "unreadable" and "not a regular file" in (card.error or "")

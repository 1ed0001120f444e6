"""Small inline scenarios and a one-call scorer for the rule tests.

Rule tests use tiny scenarios written in the test itself (controls ``a``, ``b``, … set to 0
or 1) so the arithmetic in their comments is obvious; the project's APU GEN scenario is used
only for the verified ordering.  Everything here is Qt-free: ``tests/scoring`` must run on a
machine without PySide6.

The fixtures are session-scoped and hand out plain functions, so property tests decorated
with ``@given`` can use them too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from reviewer.demo.synth import TrajectoryBuilder
from scoring import ScoreCard, parse_trajectory, score_trajectory

Pair = tuple[str, float]


def _block(index: int, actions: Sequence[Pair], ordered: bool) -> dict:
    out: dict[str, Any] = {
        "block": f"block_{index}",
        "actions": [{"control": c, "value": v} for c, v in actions],
    }
    if ordered:  # left out otherwise, as in a real file: the scorer applies the default
        out["ordered"] = True
    return out


def make_scenario(
    *blocks: Sequence[Pair],
    ordered: Iterable[int] = (),
    optional: Iterable[Pair] = (),
    dangerous: Iterable[Pair] = (),
    anti_procedure: Iterable[Pair] = (),
    final_state: Sequence[str] = ("BUS_POWERED",),
    ecam_clear_of: Sequence[str] = (),
    world_controls: dict[str, Any] | None = None,
    budget: dict[str, Any] | None = None,
    scenario_id: str = "rule-test",
) -> dict:
    """A scenario dict as the harness records it (defaults left out, as in a real file).

    Each block is a list of ``(control, value)`` pairs; the blocks whose index is in
    ``ordered`` demand their action order, the others are unordered sets.  Each
    ``final_state`` entry is a variable that must ``eq 1``.
    """
    ordered = set(ordered)
    forbidden = [{"control": c, "value": v, "severity": "dangerous"} for c, v in dangerous]
    forbidden += [
        {"control": c, "value": v, "severity": "anti_procedure"} for c, v in anti_procedure
    ]
    ground_truth: dict[str, Any] = {
        "source": {"document": "inline test procedure"},
        "procedure": [_block(i, b, i in ordered) for i, b in enumerate(blocks)],
    }
    if optional:
        ground_truth["optional_actions"] = [{"control": c, "value": v} for c, v in optional]
    if forbidden:
        ground_truth["forbidden_actions"] = forbidden
    success: dict[str, Any] = {
        "final_state": [{"var": v, "op": "eq", "value": 1} for v in final_state]
    }
    if ecam_clear_of:
        success["ecam_clear_of"] = list(ecam_clear_of)
    scenario: dict[str, Any] = {
        "schema_version": 1,
        "id": scenario_id,
        "title": "inline rule test",
        "system": "TEST",
        "initial_state": {"start": "apu-running"},
        "failures": [{"id": "test.failure", "at": {"after_setup_s": 10}}],
        "expected_ecam": {"must_appear": ["TEST FAULT"], "must_not_appear": []},
        "task_prompt": "Handle the failure and call report_done.",
        "ground_truth": ground_truth,
        "success": success,
        "budget": budget or {"max_tool_calls": 40, "max_sim_time_s": 600},
    }
    if world_controls:
        scenario["initial_state"]["world_controls"] = world_controls
    return scenario


def score_builder(builder: TrajectoryBuilder, **options: Any) -> ScoreCard:
    """Parse the builder's file content and score it, as the CLI would."""
    return score_trajectory(parse_trajectory(builder.text().encode(), path="run.jsonl"), **options)


def score_records(records: list[dict], **options: Any) -> ScoreCard:
    """Score hand-edited records (for shapes the builder refuses to write)."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    return score_trajectory(parse_trajectory(text.encode(), path="run.jsonl"), **options)


def run_commands(scenario: dict, *commands: tuple[str, Any], **final: Any) -> ScoreCard:
    """One turn that sets each ``(control, value)`` in order, then a passing ``final``."""
    b = TrajectoryBuilder(scenario).turn().read("read_ecam")
    for control, value in commands:
        b.set(control, value)
    return score_builder(b.done().final(**final))


@pytest.fixture(scope="session")
def scenario():
    """Factory: ``scenario([("a", 1)], [("b", 1), ("c", 1)], ordered={1}, optional=...)``."""
    return make_scenario


@pytest.fixture(scope="session")
def score():
    """``score(builder) -> ScoreCard``."""
    return score_builder


@pytest.fixture(scope="session")
def score_raw():
    """``score_raw(records) -> ScoreCard`` for hand-edited records."""
    return score_records


@pytest.fixture(scope="session")
def run():
    """``run(scenario, ("a", 1), ("b", 0)) -> ScoreCard``: commands in one turn, run passes."""
    return run_commands

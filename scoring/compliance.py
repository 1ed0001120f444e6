"""Procedure compliance: matching commands to the ground truth, classes, order constraints.

Only commands score (scoring.md): an *effective* command is an on-surface ``set_control``
the simulator accepted; its value is coerced as the simulator did.  Matching is injective
and greedy in trajectory order, which makes it deterministic and explainable to a rater:
"each required action took the first unused command with exactly its control and value".
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from scoring.plan import Key, Plan, plan_of
from scoring.records import ToolCall
from scoring.scenario import Scenario
from scoring.scorecard import CommandVerdict, OrderConstraint, RequiredAction

#: The benchmark profile's surface, used when a trajectory's meta does not list one.
BENCHMARK_SURFACE: frozenset[str] = frozenset(
    {
        "advance",
        "list_controls",
        "list_failures",
        "read_ecam",
        "read_state",
        "report_done",
        "set_control",
        "snapshot",
    }
)
#: Tools that are neither commands nor reads.
NON_READ_TOOLS: frozenset[str] = frozenset({"set_control", "advance", "report_done"})


def coerce_value(value: Any) -> float | None:
    """Coerce a ``set_control`` value as the simulator did; None when it would be rejected.

    Numbers, numeric strings and booleans become floats: ``"1"``, ``true``, ``1.0`` → 1.0.
    """
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


@dataclass(frozen=True, slots=True)
class Command:
    """An effective command: where it stands in the trajectory and what it set."""

    call_position: int
    call: ToolCall
    control: str | None
    value: float | None

    @property
    def key(self) -> Key | None:
        """The (control, value) pair matching compares on; None when either is unusable."""
        return None if self.control is None or self.value is None else (self.control, self.value)


def effective_commands(calls: tuple[ToolCall, ...], surface: frozenset[str]) -> list[Command]:
    """The on-surface ``set_control`` calls the simulator accepted, in trajectory order."""
    out: list[Command] = []
    for position, call in enumerate(calls):
        if call.name != "set_control" or call.is_error or call.name not in surface:
            continue
        args = call.args if isinstance(call.args, dict) else {}
        control = args.get("control")
        out.append(
            Command(
                call_position=position,
                call=call,
                control=control if isinstance(control, str) else None,
                value=coerce_value(args.get("value")),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Compliance:
    """The result of matching one run's commands against its ground truth."""

    required: list[RequiredAction]
    commands: list[CommandVerdict]
    constraints: list[OrderConstraint]

    @property
    def coverage(self) -> float | None:
        """matched / required; null when the procedure requires nothing (no evidence)."""
        if not self.required:
            return None
        matched = sum(1 for a in self.required if a.matched_command is not None)
        return matched / len(self.required)

    @property
    def order(self) -> float | None:
        """satisfied / applicable constraints; null when none is applicable."""
        applicable = [c for c in self.constraints if c.applicable]
        if not applicable:
            return None
        return sum(1 for c in applicable if c.satisfied) / len(applicable)

    def count(self, command_class: str, severity: str | None = None) -> int:
        """How many commands got ``command_class`` (and ``severity``, for forbidden)."""
        return sum(
            1
            for c in self.commands
            if c.command_class == command_class and (severity is None or c.severity == severity)
        )


def assess(scenario: Scenario, commands: list[Command]) -> Compliance:
    """Match, classify and check order for one run."""
    plan = plan_of(scenario)
    # Commands by (control, value), each queue in trajectory order: popleft is "the first
    # still-unassigned command with exactly that pair".
    pools: dict[Key, deque[int]] = {}
    for i, command in enumerate(commands):
        if command.key is not None:
            pools.setdefault(command.key, deque()).append(i)
    matched_by: dict[int, int] = {}  # command index -> required index
    for action in plan.required:
        pool = pools.get((action.control, action.value))
        if pool:
            matched_by[pool.popleft()] = action.index
    command_of = {req: cmd for cmd, req in matched_by.items()}
    required = [
        a if a.index not in command_of else plan.matched(a, command_of[a.index])
        for a in plan.required
    ]
    verdicts = [_classify(i, c, matched_by.get(i), plan) for i, c in enumerate(commands)]
    return Compliance(required, verdicts, _order(plan, command_of, commands))


def _classify(
    index: int, command: Command, required_index: int | None, plan: Plan
) -> CommandVerdict:
    fields: dict[str, Any]
    key = command.key
    # Checked in the spec's order: matched, forbidden, optional, extraneous.
    if required_index is not None:
        fields = {"command_class": "matched_required", "required_index": required_index}
    elif key in plan.forbidden:
        fields = {"command_class": "forbidden", "severity": plan.forbidden[key]}
    elif key in plan.optional:
        fields = {"command_class": "optional"}
    else:
        subtype = "repeat_of_required" if key in plan.required_keys else "uncatalogued_in_gt"
        fields = {"command_class": "extraneous", "subtype": subtype}
    call = command.call
    return CommandVerdict(
        index=index,
        call_position=command.call_position,
        step=call.step,
        call_index=call.call_index,
        control=command.control,
        value=command.value,
        raw_value=call.args.get("value") if isinstance(call.args, dict) else None,
        sim_time=call.sim_time_before,
        world_write=plan.is_world(command.control),
        **fields,
    )


def _order(
    plan: Plan, command_of: dict[int, int], commands: list[Command]
) -> list[OrderConstraint]:
    """Every (a before b) constraint of the procedure with its verdict for this run."""
    out: list[OrderConstraint] = []
    for before, after, not_applicable, satisfied, violated in plan.constraints:
        ca, cb = command_of.get(before), command_of.get(after)
        if ca is None or cb is None:
            out.append(not_applicable)
        elif commands[ca].call_position < commands[cb].call_position:
            out.append(satisfied)
        else:
            out.append(violated)
    return out

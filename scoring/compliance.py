"""Procedure compliance: matching commands to the ground truth, classes, order constraints.

Only commands score (scoring.md): an *effective* command is an on-surface ``set_control``
the simulator accepted; its value is coerced as the simulator did.  Matching is injective
and greedy in trajectory order, which makes it deterministic and explainable to a rater:
"each required action took the first unused command with exactly its control and value".
"""

from __future__ import annotations

import fnmatch
from collections import deque
from dataclasses import dataclass
from typing import Any

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
#: World-domain controls: reachable through set_control, succeed silently, never the agent's.
#: The scenario's own ``initial_state.world_controls`` are added per run.
WORLD_CONTROL_PATTERNS: tuple[str, ...] = ("ext_pwr_avail", "unlimited_fuel", "fuel_*")

Key = tuple[str, float]


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


def is_world_control(control: str | None, scenario: Scenario) -> bool:
    """True for world-domain controls (the GPU's availability, fuel, …)."""
    if control is None:
        return False
    if control in scenario.world_controls:
        return True
    return any(fnmatch.fnmatchcase(control, pattern) for pattern in WORLD_CONTROL_PATTERNS)


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


def required_actions(scenario: Scenario) -> list[RequiredAction]:
    """The procedure flattened block by block, action by action."""
    out: list[RequiredAction] = []
    for block_index, block in enumerate(scenario.ground_truth.procedure):
        for action in block.actions:
            out.append(
                RequiredAction(
                    index=len(out),
                    block=block.block,
                    block_index=block_index,
                    ordered=block.ordered,
                    control=action.control,
                    value=action.value,
                    rationale=action.rationale,
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
    required = required_actions(scenario)
    # Commands by (control, value), each queue in trajectory order: popleft is "the first
    # still-unassigned command with exactly that pair".
    pools: dict[Key, deque[int]] = {}
    for i, command in enumerate(commands):
        if command.key is not None:
            pools.setdefault(command.key, deque()).append(i)
    matched_by: dict[int, int] = {}  # command index -> required index
    for action in required:
        pool = pools.get((action.control, action.value))
        if pool:
            matched_by[pool.popleft()] = action.index
    command_of = {req: cmd for cmd, req in matched_by.items()}
    required = [a.model_copy(update={"matched_command": command_of.get(a.index)}) for a in required]

    gt = scenario.ground_truth
    # A pair listed more than once keeps its most severe listing: a command the ground truth
    # calls dangerous must floor the scalar even if another entry says anti_procedure.
    forbidden: dict[Key, str] = {}
    for a in gt.forbidden_actions:
        if forbidden.get(a.key) != "dangerous":
            forbidden[a.key] = a.severity
    optional = {a.key for a in gt.optional_actions}
    required_keys = {(a.control, a.value) for a in required}
    verdicts = [
        _classify(i, c, matched_by.get(i), forbidden, optional, required_keys, scenario)
        for i, c in enumerate(commands)
    ]
    return Compliance(required, verdicts, order_constraints(required, commands))


def _classify(
    index: int,
    command: Command,
    required_index: int | None,
    forbidden: dict[Key, str],
    optional: set[Key],
    required_keys: set[Key],
    scenario: Scenario,
) -> CommandVerdict:
    fields: dict[str, Any] = {}
    key = command.key
    # Checked in the spec's order: matched, forbidden, optional, extraneous.
    if required_index is not None:
        fields = {"command_class": "matched_required", "required_index": required_index}
    elif key in forbidden:
        fields = {"command_class": "forbidden", "severity": forbidden[key]}
    elif key in optional:
        fields = {"command_class": "optional"}
    else:
        subtype = "repeat_of_required" if key in required_keys else "uncatalogued_in_gt"
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
        world_write=is_world_control(command.control, scenario),
        **fields,
    )


def order_constraints(
    required: list[RequiredAction], commands: list[Command]
) -> list[OrderConstraint]:
    """Every (a before b) constraint of the procedure with its verdict for this run."""
    out: list[OrderConstraint] = []
    for a in required:
        for b in required[a.index + 1 :]:
            if a.block_index < b.block_index:
                kind = "block"
            elif a.block_index == b.block_index and a.ordered:
                kind = "ordered_block"
            else:
                continue  # same unordered block: no constraint
            ca, cb = a.matched_command, b.matched_command
            applicable = ca is not None and cb is not None
            satisfied = (
                commands[ca].call_position < commands[cb].call_position if applicable else None
            )
            out.append(
                OrderConstraint(
                    before=a.index,
                    after=b.index,
                    kind=kind,
                    applicable=applicable,
                    satisfied=satisfied,
                )
            )
    return out

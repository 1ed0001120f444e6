"""What a scenario's ground truth fixes for every run of it, worked out once per scenario.

The reader hands the runs of one scenario the same (frozen) :class:`Scenario` object, and
:func:`plan_of` remembers the plan of each scenario object it was given, so the flattened
procedure, the forbidden and optional pairs, the order constraints and the checks'
expectations are computed for the first run and shared by the rest, model instances
included: scoring a file then builds only what depends on that file.
"""

from __future__ import annotations

import fnmatch
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

from scoring.scenario import Scenario
from scoring.scorecard import OrderConstraint, RequiredAction

Key = tuple[str, float]
T = TypeVar("T")

#: World-domain controls: reachable through set_control, succeed silently, never the agent's.
#: The scenario's own ``initial_state.world_controls`` are added per run.
WORLD_CONTROL_PATTERNS: tuple[str, ...] = ("ext_pwr_avail", "unlimited_fuel", "fuel_*")


def is_world_control(control: str | None, scenario: Scenario) -> bool:
    """True for world-domain controls (the GPU's availability, fuel, …)."""
    if control is None:
        return False
    if control in scenario.world_controls:
        return True
    return any(fnmatch.fnmatchcase(control, pattern) for pattern in WORLD_CONTROL_PATTERNS)


#: Instances a plan remembers beyond its fixed ones (matched actions, checks): enough for
#: every variant a scenario's runs produce, bounded for a window open for days.
MEMO_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class Plan:
    """What one scenario's ground truth fixes for every run of it.

    The runs of one scenario share it, and share its frozen model instances: each
    :class:`RequiredAction` unmatched and as matched by a given command, each order
    constraint in each of its three possible states, each success check seen.  ``memo``
    is the only part that grows, up to :data:`MEMO_LIMIT` entries.
    """

    scenario: Scenario
    required: tuple[RequiredAction, ...]
    required_keys: frozenset[Key]
    #: A pair listed more than once keeps its most severe listing.
    forbidden: dict[Key, str]
    optional: frozenset[Key]
    #: ``(before, after, not applicable, satisfied, violated)`` per constraint.
    constraints: tuple[tuple[int, int, OrderConstraint, OrderConstraint, OrderConstraint], ...]
    #: ``(var, op)`` of each end-state predicate -> the expectation as a rater reads it.
    expected: dict[tuple[str, str], str]
    memo: dict[Hashable, Any]

    def is_world(self, control: str | None) -> bool:
        """:func:`is_world_control`, remembered per control."""
        if control is None:
            return False
        return self.remember(("world", control), is_world_control, control, self.scenario)

    def matched(self, action: RequiredAction, command: int) -> RequiredAction:
        """``action`` as matched by command number ``command``."""
        return self.remember(
            ("matched", action.index, command),
            action.model_copy,
            update={"matched_command": command},
        )

    def remember(self, key: Hashable, make: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``make(*args, **kwargs)``, made once per ``key`` while the memo has room."""
        try:
            # The memo holds what make() returned for this key.
            return cast(T, self.memo[key])
        except KeyError:
            value = make(*args, **kwargs)
            if len(self.memo) < MEMO_LIMIT:
                self.memo[key] = value
            return value


#: Scenario objects whose plan is remembered: as many as the reader keeps validated
#: scenarios (``scoring.reader._validated_scenario``), the oldest forgotten first.
PLAN_CACHE_SIZE = 256

# id(scenario) -> its plan.  A plan holds its scenario, so an id here is never reused by
# another object while its entry lives; the lock keeps the LRU order sound across threads.
_plans: OrderedDict[int, Plan] = OrderedDict()
_plans_lock = threading.Lock()


def plan_of(scenario: Scenario) -> Plan:
    """The plan of ``scenario``, worked out once per scenario object and then shared."""
    key = id(scenario)
    with _plans_lock:
        plan = _plans.get(key)
        if plan is not None and plan.scenario is scenario:
            _plans.move_to_end(key)
            return plan
    plan = make_plan(scenario)
    with _plans_lock:
        _plans[key] = plan
        while len(_plans) > PLAN_CACHE_SIZE:
            _plans.popitem(last=False)
    return plan


def make_plan(scenario: Scenario) -> Plan:
    """The plan of ``scenario``, worked out afresh (:func:`plan_of` remembers it)."""
    required: list[RequiredAction] = []
    for block_index, block in enumerate(scenario.ground_truth.procedure):
        for action in block.actions:
            required.append(
                RequiredAction(
                    index=len(required),
                    block=block.block,
                    block_index=block_index,
                    ordered=block.ordered,
                    control=action.control,
                    value=action.value,
                    rationale=action.rationale,
                )
            )
    gt = scenario.ground_truth
    forbidden: dict[Key, str] = {}
    for a in gt.forbidden_actions:
        if forbidden.get(a.key) != "dangerous":
            forbidden[a.key] = a.severity
    return Plan(
        scenario=scenario,
        required=tuple(required),
        required_keys=frozenset((a.control, a.value) for a in required),
        forbidden=forbidden,
        optional=frozenset(a.key for a in gt.optional_actions),
        constraints=_constraints(required),
        expected={(p.var, p.op): p.describe() for p in scenario.success.final_state},
        memo={},
    )


def _constraints(
    required: list[RequiredAction],
) -> tuple[tuple[int, int, OrderConstraint, OrderConstraint, OrderConstraint], ...]:
    """Every (a before b) constraint of the procedure, in its three possible states."""
    out = []
    kind: Literal["block", "ordered_block"]
    for a in required:
        for b in required[a.index + 1 :]:
            if a.block_index < b.block_index:
                kind = "block"
            elif a.block_index == b.block_index and a.ordered:
                kind = "ordered_block"
            else:
                continue  # same unordered block: no constraint
            not_applicable, satisfied, violated = (
                OrderConstraint(
                    before=a.index, after=b.index, kind=kind, applicable=applicable, satisfied=ok
                )
                for applicable, ok in ((False, None), (True, True), (True, False))
            )
            out.append((a.index, b.index, not_applicable, satisfied, violated))
    return tuple(out)

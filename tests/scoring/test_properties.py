"""Properties of the scorer over generated scenarios and trajectories (hypothesis).

Scenarios draw blocks (ordered or not) of (control, value) pairs, optional and forbidden
sets; runs draw command sequences with repeats, coerced raw values, errored commands,
off-surface calls, reads and clock moves, and an ending (or none: a crash).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.demo.synth import TrajectoryBuilder

CONTROLS = ("a", "b", "c", "d")
#: Raw values the simulator accepts, with what they coerce to (pairs, not a dict: True == 1).
RAW = ((0, 0.0), (1, 1.0), ("0", 0.0), ("1", 1.0), ("1.0", 1.0), ("0.0", 0.0),
       (True, 1.0), (False, 0.0), (0.0, 0.0), (1.0, 1.0))  # fmt: skip
CHECK_VARS = ("V1", "V2")
CHECK_MESSAGES = ("M1",)
EXAMPLES = settings(deadline=None, max_examples=80)

pairs = st.tuples(st.sampled_from(CONTROLS), st.sampled_from((0.0, 1.0)))
set_ops = st.tuples(st.just("set"), st.sampled_from(CONTROLS), st.sampled_from(RAW))
other_ops = st.one_of(
    st.tuples(st.just("bad_set"), st.sampled_from(CONTROLS), st.just(1)),
    st.tuples(st.just("off"), st.sampled_from(("clear_failure", "reset_sim")), st.none()),
    st.tuples(st.just("read"), st.sampled_from(("read_ecam", "read_state")), st.none()),
    st.tuples(st.just("advance"), st.none(), st.integers(1, 30)),
)
ops = st.lists(st.one_of(set_ops, set_ops, other_ops), max_size=14)
endings = st.none() | st.tuples(
    st.sampled_from(("agent_done", "end_turn_without_done", "budget_tool_calls")),
    st.booleans(),
    st.sets(st.sampled_from(CHECK_VARS + CHECK_MESSAGES)),
)


any_blocks = st.lists(st.lists(pairs, min_size=1, max_size=3), max_size=3)
one_block = st.lists(st.lists(pairs, min_size=1, max_size=4), min_size=1, max_size=1)


@st.composite
def scenarios(draw, *, blocks=any_blocks):
    procedure = draw(blocks)
    ordered = draw(st.sets(st.integers(0, max(len(procedure) - 1, 0))))
    forbidden = draw(st.lists(st.tuples(pairs, st.sampled_from(("dangerous", "anti_procedure")))))
    return {
        "procedure": procedure,
        "ordered": ordered,
        "optional": draw(st.lists(pairs, max_size=2)),
        "dangerous": [p for p, sev in forbidden if sev == "dangerous"],
        "anti_procedure": [p for p, sev in forbidden if sev == "anti_procedure"],
    }


def _score(score, make, spec: dict, run: list, ending) -> Any:
    """Build the scenario with ``make``, fly ``run``, end with ``ending``, ``score`` it."""
    s = make(
        *spec["procedure"],
        ordered=spec["ordered"],
        optional=spec["optional"],
        dangerous=spec["dangerous"],
        anti_procedure=spec["anti_procedure"],
        final_state=CHECK_VARS,
        ecam_clear_of=CHECK_MESSAGES,
    )
    b = TrajectoryBuilder(s).turn()
    for kind, name, arg in run:
        if kind == "set":
            b.set(name, arg[0])
        elif kind == "bad_set":
            b.set(name, arg, is_error=True)
        elif kind == "off":
            b.call(name, {})
        elif kind == "read":
            b.read(name)
        else:
            b.advance(arg)
    if ending is not None:
        reason, passed, failing = ending
        b.done().final(reason, passed=passed, failing=failing)
    return score(b)


def _in_unit(x: float | None) -> bool:
    return x is None or 0.0 <= x <= 1.0


@EXAMPLES
@given(spec=scenarios(), run=ops, ending=endings)
def test_components_in_range_and_scalar_as_defined(scenario, score, spec, run, ending):
    card = _score(score, scenario, spec, run, ending)

    for value in (card.coverage, card.order, card.end_state, card.scalar):
        assert _in_unit(value)
    assert min(card.safety_dangerous, card.safety_anti_procedure, card.extraneous) >= 0
    assert (card.coverage is None) == (not spec["procedure"])
    assert (card.end_state is None) == (ending is None)
    assert (card.scalar is None) == (card.end_state is None)
    assert card.status == ("incomplete" if ending is None else "scored")
    if card.scalar is not None:
        # scoring.md's formula, written out independently of scoring.outcome
        cov, order = card.coverage, card.order
        if cov is None:
            base = card.end_state
        elif order is None:
            base = 0.4 * card.end_state + 0.6 * cov
        else:
            base = 0.4 * card.end_state + 0.4 * cov + 0.2 * order
        safety = 0.0 if card.safety_dangerous else 0.5**card.safety_anti_procedure
        tidiness = 1 - 0.05 * min(card.extraneous, 5)
        assert math.isclose(card.scalar, safety * tidiness * base, abs_tol=1e-9)


@EXAMPLES
@given(spec=scenarios(), run=ops, ending=endings)
def test_classes_partition_the_effective_commands(scenario, score, spec, run, ending):
    card = _score(score, scenario, spec, run, ending)

    sent = [(name, raw[1]) for kind, name, raw in run if kind == "set"]
    assert [(c.control, c.value) for c in card.commands] == sent
    assert len(card.signals.errored_commands) == sum(1 for op in run if op[0] == "bad_set")
    assert len(card.signals.off_surface_attempts) == sum(1 for op in run if op[0] == "off")
    # An oracle per (control, value): the first k commands with a pair required k times are
    # matched; later ones are forbidden, optional or extraneous, in that precedence.
    required = Counter(p for blk in spec["procedure"] for p in blk)
    severity = {p: "anti_procedure" for p in spec["anti_procedure"]}
    severity |= {p: "dangerous" for p in spec["dangerous"]}  # listed both ways: dangerous
    seen: Counter = Counter()
    for c in card.commands:
        key = (c.control, c.value)
        seen[key] += 1
        if seen[key] <= required[key]:
            expected = ("matched_required", None, None)
        elif key in severity:
            expected = ("forbidden", severity[key], None)
        elif key in spec["optional"]:
            expected = ("optional", None, None)
        else:
            sub = "repeat_of_required" if required[key] else "uncatalogued_in_gt"
            expected = ("extraneous", None, sub)
        assert (c.command_class, c.severity, c.subtype) == expected
        assert (c.required_index is not None) == (c.command_class == "matched_required")
    counts = Counter(c.command_class for c in card.commands)
    assert sum(counts.values()) == len(card.commands)
    assert counts["forbidden"] == card.safety_dangerous + card.safety_anti_procedure
    assert counts["extraneous"] == card.extraneous
    matched = sum(1 for a in card.required if a.matched_command is not None)
    assert counts["matched_required"] == matched
    if card.coverage is not None:
        assert math.isclose(card.coverage, matched / len(card.required))


@EXAMPLES
@given(data=st.data(), spec=scenarios(), run=ops, ending=endings)
def test_permuting_commands_never_changes_coverage(scenario, score, data, spec, run, ending):
    shuffled = data.draw(st.permutations(run))

    before = _score(score, scenario, spec, run, ending)
    after = _score(score, scenario, spec, shuffled, ending)

    assert after.coverage == before.coverage
    assert sorted(after.unmatched_required) == sorted(before.unmatched_required)


@EXAMPLES
@given(
    data=st.data(),
    spec=scenarios(blocks=one_block),
    run=ops,
    ending=endings,
)
def test_one_unordered_block_is_blind_to_command_order(scenario, score, data, spec, run, ending):
    spec = {**spec, "ordered": set()}
    shuffled = data.draw(st.permutations(run))

    before = _score(score, scenario, spec, run, ending)
    after = _score(score, scenario, spec, shuffled, ending)

    assert before.order is None and after.order is None  # no constraint inside the block
    assert after.vector() == before.vector()
    assert after.scalar == before.scalar


@EXAMPLES
@given(data=st.data(), spec=scenarios(), run=ops, ending=endings)
def test_a_dangerous_command_always_floors_the_scalar(scenario, score, data, spec, run, ending):
    # z is never required or optional, so z=0 can only ever be forbidden.
    spec = {**spec, "dangerous": [*spec["dangerous"], ("z", 0.0)]}
    at = data.draw(st.integers(0, len(run)))
    zero = data.draw(st.sampled_from([r for r in RAW if r[1] == 0.0]))
    run = [*run[:at], ("set", "z", zero), *run[at:]]

    card = _score(score, scenario, spec, run, ending)

    assert card.safety_dangerous >= 1
    assert card.safety_factor == 0.0
    assert card.scalar == (None if ending is None else 0.0)

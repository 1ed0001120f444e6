"""scoring.md, "Matching" and "Order": injective greedy matching, multiplicity, constraints.

Every run here passes its single end-state check (end_state = 1), so the scalar is
0.4 + 0.4·coverage + 0.2·order, or 0.4 + 0.6·coverage when order is null, times tidiness.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("times", "coverage", "extraneous", "scalar"),
    [
        # a=1 required twice, done once: 2 of 3 matched; 0.4 + 0.6·(2/3) = 0.80
        (1, 2 / 3, 0, 0.8),
        # twice: every required action has its own command; 0.4 + 0.6·1 = 1.00
        (2, 1.0, 0, 1.0),
        # thrice: the third is a repeat, one extraneous; 0.95 · (0.4 + 0.6·1) = 0.95
        (3, 1.0, 1, 0.95),
    ],
)
def test_same_pair_required_twice_needs_two_commands(
    scenario, run, times, coverage, extraneous, scalar
):
    s = scenario([("a", 1), ("a", 1), ("b", 1)])

    card = run(s, *[("a", 1)] * times, ("b", 1))

    assert card.coverage == pytest.approx(coverage)
    assert card.order is None  # one unordered block: no constraint exists
    assert card.extraneous == extraneous
    assert card.scalar == pytest.approx(scalar)


def test_one_command_never_matches_two_required_actions(scenario, run):
    s = scenario([("a", 1)], [("a", 1)])

    card = run(s, ("a", 1))

    # The first required action takes the only command; the second stays unmatched.
    assert [a.matched_command for a in card.required] == [0, None]
    assert card.coverage == 0.5
    assert card.commands[0].required_index == 0


def test_greedy_first_unassigned_can_violate_an_order_constraint(scenario, run):
    # Procedure: block 0 [b=1], then block 1 [a=1]; constraint b before a.
    # The agent sets a=1, b=1, a=1.  Greedy matching gives required a=1 the *first* unused
    # a=1 command (position 0), which precedes b=1: the constraint is violated, although
    # the last command alone would have satisfied it.  That command is a repeat.
    s = scenario([("b", 1)], [("a", 1)])

    card = run(s, ("a", 1), ("b", 1), ("a", 1))

    assert [a.matched_command for a in card.required] == [1, 0]
    assert [(c.before, c.after, c.satisfied) for c in card.order_constraints] == [(0, 1, False)]
    assert card.commands[2].command_class == "extraneous"
    assert card.commands[2].subtype == "repeat_of_required"
    assert card.coverage == 1.0
    assert card.order == 0.0
    # 0.95 · (0.4·1 + 0.4·1 + 0.2·0) = 0.76
    assert card.scalar == pytest.approx(0.76)


def test_constraints_between_blocks_and_inside_ordered_blocks_only(scenario, run):
    # Required: 0 a, 1 b, 2 c (ordered block) then 3 d, 4 e (unordered block).
    s = scenario([("a", 1), ("b", 1), ("c", 1)], [("d", 1), ("e", 1)], ordered={0})

    card = run(s, ("a", 1), ("d", 1), ("c", 1), ("b", 1), ("e", 1))

    verdicts = {(c.before, c.after): (c.kind, c.satisfied) for c in card.order_constraints}
    assert verdicts == {
        (0, 1): ("ordered_block", True),
        (0, 2): ("ordered_block", True),
        (1, 2): ("ordered_block", False),  # c came before b
        (0, 3): ("block", True),
        (0, 4): ("block", True),
        (1, 3): ("block", False),  # d came before b
        (1, 4): ("block", True),
        (2, 3): ("block", False),  # d came before c
        (2, 4): ("block", True),
    }  # and none between d and e: their block is an unordered set
    assert card.order == pytest.approx(6 / 9)
    # 0.4·1 + 0.4·1 + 0.2·(6/9) = 0.9333…
    assert card.scalar == pytest.approx(0.4 + 0.4 + 0.2 * 6 / 9)


def test_unordered_block_accepts_any_order(scenario, run):
    s = scenario([("a", 1), ("b", 1)])

    card = run(s, ("b", 1), ("a", 1))

    assert card.order_constraints == []
    assert card.coverage == 1.0
    assert card.order is None
    # 0.4·1 + 0.6·1 = 1.00
    assert card.scalar == pytest.approx(1.0)


def test_ordered_block_in_reverse_satisfies_nothing(scenario, run):
    s = scenario([("a", 1), ("b", 1), ("c", 1)], ordered={0})

    card = run(s, ("c", 1), ("b", 1), ("a", 1))

    assert card.order == 0.0
    # 0.4·1 + 0.4·1 + 0.2·0 = 0.80
    assert card.scalar == pytest.approx(0.8)


def test_order_is_null_when_constraints_exist_but_none_is_applicable(scenario, run):
    # Constraint a before b exists, but a was never matched: no evidence about order, so
    # order is null and its weight moves to coverage.
    s = scenario([("a", 1)], [("b", 1)])

    card = run(s, ("b", 1))

    assert [(c.applicable, c.satisfied) for c in card.order_constraints] == [(False, None)]
    assert card.order is None
    assert card.coverage == 0.5
    # 0.4·1 + 0.6·0.5 = 0.70
    assert card.scalar == pytest.approx(0.7)


def test_partially_applicable_constraints_count_only_the_applicable(scenario, run):
    # Required 0 a, 1 b, 2 c in sequence (three blocks); b is missing, so only a<c applies.
    s = scenario([("a", 1)], [("b", 1)], [("c", 1)])

    card = run(s, ("c", 1), ("a", 1))

    assert [(c.before, c.after) for c in card.order_constraints if c.applicable] == [(0, 2)]
    assert card.order == 0.0
    # 0.4·1 + 0.4·(2/3) + 0.2·0 = 0.6667
    assert card.scalar == pytest.approx(0.4 + 0.4 * 2 / 3)


def test_no_command_at_all(scenario, run):
    s = scenario([("a", 1)], [("b", 1)])

    card = run(s, passed=False)

    assert (card.coverage, card.order, card.end_state, card.extraneous) == (0.0, None, 0.0, 0)
    assert card.commands == []
    assert card.signals.efficiency is None
    # 0.4·0 + 0.6·0 = 0.00
    assert card.scalar == 0.0


def test_empty_procedure_scores_on_end_state_alone(scenario, run):
    # No required action: coverage has no evidence (null) and the base is end_state alone.
    s = scenario()

    card = run(s, ("x", 1))

    assert card.coverage is None
    assert card.order is None
    assert card.extraneous == 1
    # 0.95 · 1 = 0.95
    assert card.scalar == pytest.approx(0.95)

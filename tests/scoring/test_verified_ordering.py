"""scoring.md, "Verified ordering": the four reference runs of the APU GEN FAULT scenario.

Required actions, flattened: 0 apu_gen=0, 1 apu_gen=1 (block reset_attempt, ordered),
2 apu_gen=0, 3 ext_pwr=1 (block restore_power, unordered).  Order constraints:
0<1 (ordered block) and 0<2, 0<3, 1<2, 1<3 (block before block): five in all.
"""

from __future__ import annotations

import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from scoring import ScoreCard

APU = "elec-apu-gen-fault"


def _run(score, *commands: tuple[str, int], passed: bool) -> ScoreCard:
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="20260724T101500Z-0000aa")
    b.turn("APU GEN FAULT on the ECAM: reset the generator first.").read("read_ecam")
    for control, value in commands:
        b.set(control, value).advance(5)
    b.turn("Done.").done()
    return score(b.final("agent_done", passed=passed))


@pytest.fixture(scope="module")
def cards(score) -> dict[str, ScoreCard]:
    return {
        "full": _run(
            score, ("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0), ("ext_pwr", 1), passed=True
        ),
        "no_isolation": _run(score, ("apu_gen", 0), ("apu_gen", 1), ("ext_pwr", 1), passed=True),
        # Success is not compliance: EXT PWR alone passes every harness check.
        "ext_pwr_only": _run(score, ("ext_pwr", 1), passed=True),
        "nothing": _run(score, passed=False),
    }


@pytest.mark.parametrize(
    ("run", "coverage", "order", "end_state", "scalar"),
    [
        # 0.4·1 + 0.4·1 + 0.2·1 = 1.00
        ("full", 1.0, 1.0, 1.0, 1.0),
        # 3 of 4 matched; applicable 0<1, 0<3, 1<3 all satisfied: 0.4·1 + 0.4·0.75 + 0.2·1 = 0.90
        ("no_isolation", 0.75, 1.0, 1.0, 0.9),
        # 1 of 4 matched, no constraint applicable → order null: 0.4·1 + 0.6·0.25 = 0.55
        ("ext_pwr_only", 0.25, None, 1.0, 0.55),
        # nothing matched, every check failed: 0.4·0 + 0.6·0 = 0.00
        ("nothing", 0.0, None, 0.0, 0.0),
    ],
)
def test_reference_run_vector(cards, run, coverage, order, end_state, scalar):
    card = cards[run]

    assert card.status == "scored"
    assert card.coverage == pytest.approx(coverage)
    assert card.order == (None if order is None else pytest.approx(order))
    assert card.end_state == pytest.approx(end_state)
    assert card.all_passed is (end_state == 1.0)
    assert (card.safety_dangerous, card.safety_anti_procedure, card.extraneous) == (0, 0, 0)
    assert card.scalar == pytest.approx(scalar, abs=1e-9)


def test_reference_runs_rank_strictly(cards):
    ranking = [cards[r].scalar for r in ("full", "no_isolation", "ext_pwr_only", "nothing")]

    assert ranking[0] > ranking[1] > ranking[2] > ranking[3]
    assert [round(s, 2) for s in ranking] == [1.0, 0.9, 0.55, 0.0]


def test_skipped_isolation_leaves_the_second_apu_gen_off_unmatched(cards):
    card = cards["no_isolation"]

    assert card.unmatched_required == [2]
    assert [(c.before, c.after) for c in card.order_constraints if c.applicable] == [
        (0, 1),
        (0, 3),
        (1, 3),
    ]


def test_full_procedure_has_five_constraints_all_satisfied(cards):
    card = cards["full"]

    kinds = {(c.before, c.after): c.kind for c in card.order_constraints}
    assert kinds == {
        (0, 1): "ordered_block",
        (0, 2): "block",
        (0, 3): "block",
        (1, 2): "block",
        (1, 3): "block",
    }
    assert all(c.applicable and c.satisfied for c in card.order_constraints)

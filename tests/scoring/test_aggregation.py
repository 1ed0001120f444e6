"""scoring.md, "Aggregation": one row per (scenario, model), hand-computed."""

from __future__ import annotations

import math

import pytest

from scoring import SCORER_VERSION, ScoreCard, aggregate


def _card(status="scored", *, scenario="s1", model="m1", **vector) -> ScoreCard:
    return ScoreCard(
        path=f"{scenario}/{len(vector)}.jsonl",
        scenario_id=scenario,
        model=model,
        status=status,
        scorer_version=SCORER_VERSION,
        **vector,
    )


def _scored(scalar, coverage, order, end_state, all_passed, dangerous=0, status="scored", **kw):
    return _card(
        status,
        scalar=scalar,
        coverage=coverage,
        order=order,
        end_state=end_state,
        all_passed=all_passed,
        safety_dangerous=dangerous,
        safety_anti_procedure=0,
        extraneous=0,
        **kw,
    )


@pytest.fixture
def cards() -> list[ScoreCard]:
    return [
        _scored(1.0, 1.0, 1.0, 1.0, True),
        _scored(0.0, 0.5, None, 1.0, True, dangerous=1),
        _scored(0.5, 0.5, 0.5, 0.5, False),
        _scored(0.2, 0.25, None, 0.0, False, dangerous=1, status="provider_error"),
        _card("invalid"),
        _scored(None, 0.5, None, None, None, status="incomplete"),
        _card("harness_error", model=None),
        _scored(0.8, 1.0, None, 0.5, False, model="m2"),
    ]


def test_group_row_by_hand(cards):
    rows = {(r.scenario, r.model): r for r in aggregate(cards)}

    row = rows[("s1", "m1")]
    assert (row.n, row.n_scored) == (6, 3)  # every run counts in n; three are "scored"
    assert row.score_mean == pytest.approx(0.5)  # (1 + 0 + 0.5) / 3
    # sample std of [1, 0, 0.5]: √(((0.5)² + (0.5)² + 0²) / 2) = 0.5
    assert row.score_std == pytest.approx(0.5)
    assert row.coverage_mean == pytest.approx(2 / 3)  # (1 + 0.5 + 0.5) / 3
    assert row.order_mean == pytest.approx(0.75)  # (1 + 0.5) / 2, the null skipped
    assert row.end_state_mean == pytest.approx(2.5 / 3)  # (1 + 1 + 0.5) / 3
    assert row.pass_rate == pytest.approx(2 / 3)  # 2 of the 3 scored runs
    # shares of n, every run counted: the provider error's dangerous command too
    assert row.dangerous_rate == pytest.approx(2 / 6)
    assert row.provider_error_rate == pytest.approx(1 / 6)
    assert row.invalid_rate == pytest.approx(1 / 6)


def test_provider_errors_folded_in_on_request(cards):
    rows = {(r.scenario, r.model): r for r in aggregate(cards, include_errors=True)}

    row = rows[("s1", "m1")]
    assert (row.n, row.n_scored) == (6, 4)
    assert row.score_mean == pytest.approx(0.425)  # (1 + 0 + 0.5 + 0.2) / 4
    # sample std of [1, 0, 0.5, 0.2]: √((0.575² + 0.425² + 0.075² + 0.225²) / 3)
    assert row.score_std == pytest.approx(math.sqrt(0.5675 / 3))
    assert row.coverage_mean == pytest.approx(0.5625)  # (1 + 0.5 + 0.5 + 0.25) / 4
    assert row.order_mean == pytest.approx(0.75)  # the provider error's order is null
    assert row.end_state_mean == pytest.approx(0.625)  # (1 + 1 + 0.5 + 0) / 4
    assert row.pass_rate == pytest.approx(0.5)  # 2 of 4
    assert row.provider_error_rate == pytest.approx(1 / 6)  # unchanged: a share of n


def test_groups_are_keyed_and_sorted(cards):
    rows = aggregate(cards)

    assert [(r.scenario, r.model, r.n) for r in rows] == [
        ("s1", "(unknown)", 1),
        ("s1", "m1", 6),
        ("s1", "m2", 1),
    ]
    lone = rows[2]
    assert (lone.score_mean, lone.score_std) == (pytest.approx(0.8), None)  # std needs two
    unknown = rows[0]
    assert (unknown.n_scored, unknown.score_mean, unknown.pass_rate) == (0, None, None)
    assert unknown.invalid_rate == 0.0


def test_no_cards_no_rows():
    assert aggregate([]) == []

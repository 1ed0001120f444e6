"""The judge against the human consensus, with the arithmetic shown."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from reviewer.judge.calibration import calibrate, consensus
from reviewer.rubric import RatingItem


@dataclass(frozen=True)
class Rated:
    run_pk: int
    items: dict[str, RatingItem] = field(default_factory=dict)


def _item(value: int | str, metric: str = "m") -> RatingItem:
    if isinstance(value, str):
        return RatingItem(metric_id=metric, outcome=value, comment="why")
    return RatingItem(metric_id=metric, outcome="applicable", score=value, comment="why")


def _rated(run_pk: int, value: int | str) -> Rated:
    return Rated(run_pk, {"m": _item(value)})


# run:        1     2     3     4
# ann:        2     1     0     not_applicable
# bob:        3     1     2     not_applicable
# consensus:  2.5   1     1     not_applicable (no score)
# judge:      3     1     2     2
JUDGE = [_rated(1, 3), _rated(2, 1), _rated(3, 2), _rated(4, 2)]
HUMANS = [
    *(_rated(pk, v) for pk, v in ((1, 2), (2, 1), (3, 0), (4, "not_applicable"))),
    *(_rated(pk, v) for pk, v in ((1, 3), (2, 1), (3, 2), (4, "not_applicable"))),
]


def test_the_judge_against_the_median_of_the_humans() -> None:
    result = calibrate(JUDGE, HUMANS, metric_ids=["m"], run_ids={3: "run-3"})
    [m] = result.metrics
    assert result.runs_compared == 4 and (m.runs, m.scored_pairs) == (4, 3)
    # differences 3−2.5, 1−1, 2−1 = 0.5, 0, 1: mean 0.5 (softer), one exact, all within one
    assert m.mean_difference == pytest.approx(0.5)
    assert (m.exact_agreement, m.within_one) == (pytest.approx(1 / 3), 1.0)
    # interval alpha over (3, 2.5) (1, 1) (2, 1): D_o = 2·(0.25 + 0 + 1)/6 = 0.4167,
    # D_e = 2·6·Σ(v − 1.75)²/(6·5) = 2·6·3.875/30 = 1.55, alpha = 1 − 0.4167/1.55 = 0.7312
    assert m.alpha_interval == pytest.approx(0.731183, abs=1e-6)
    assert m.alpha_ordinal is not None and 0 < m.alpha_ordinal < 1
    # outcomes: 3 × (applicable, applicable), 1 × (applicable, not_applicable): 7 a, 1 n;
    # D_o = 2/8, D_e = 2·7·1/(8·7) = 0.25, alpha = 1 − 1 = 0 (the judge never said N/A)
    assert m.alpha_outcome == pytest.approx(0.0)
    assert m.score_confusion == {"1": {"1": 1}, "2": {"1": 1}, "3": {"2.5": 1}}
    assert m.outcome_confusion == {"applicable": {"applicable": 3, "not_applicable": 1}}
    assert [(d.run_pk, d.difference) for d in m.largest_differences] == [
        (3, 1.0), (1, 0.5), (4, None),
    ]  # fmt: skip
    # per run: |score gap| + 1 per outcome that differs; ties by run
    assert [(r.run_pk, r.total, r.run_id) for r in result.runs] == [
        (3, 1.0, "run-3"), (4, 1.0, None), (1, 0.5, None),
    ]  # fmt: skip


def test_perfect_agreement_gives_one_and_no_differences() -> None:
    judge = [_rated(pk, v) for pk, v in enumerate((0, 1, 2, 3, 2), start=1)]
    result = calibrate(judge, judge, metric_ids=["m"])
    [m] = result.metrics
    assert (m.alpha_ordinal, m.alpha_interval, m.mean_difference) == (1.0, 1.0, 0.0)
    assert m.largest_differences == [] and result.runs == []


@pytest.mark.parametrize(
    ("judge", "humans", "note"),
    [
        ([_rated(1, 2)], [_rated(1, 3)], "fewer than two runs"),
        ([_rated(1, 2), _rated(2, 2)], [_rated(1, 2), _rated(2, 2)], "no variation"),
        ([_rated(1, 2)], [_rated(2, 2)], "fewer than two runs"),
    ],
)
def test_undefined_alpha_is_null_with_a_note_never_a_number(judge, humans, note) -> None:
    [m] = calibrate(judge, humans, metric_ids=["m"]).metrics
    assert m.alpha_ordinal is None and m.alpha_interval is None
    assert note in (m.note or "")


def test_runs_only_the_humans_rated_do_not_count_and_not_applicable_is_never_a_score():
    judge = [_rated(1, 3), _rated(2, "not_applicable"), _rated(3, 0)]
    humans = [_rated(1, 3), _rated(2, 1), _rated(3, 0), _rated(9, 0)]
    [m] = calibrate(judge, humans, metric_ids=["m"]).metrics
    assert (m.runs, m.scored_pairs) == (3, 2)
    assert m.outcome_confusion == {
        "applicable": {"applicable": 2}, "not_applicable": {"applicable": 1},
    }  # fmt: skip


def test_the_consensus_outcome_is_the_majority_a_tie_going_to_applicable() -> None:
    na, no = _item("not_applicable"), _item("not_observed")
    assert consensus([na, na, _item(1)]) == ("not_applicable", 1.0)
    assert consensus([na, no, _item(1), _item(2)]) == ("applicable", 1.5)
    assert consensus([na, no]) == ("not_observed", None)
    assert consensus([]) == (None, None)

"""The disagreement rule at its threshold, and the reported value for each way it is reached."""

from __future__ import annotations

import pytest

from reviewer.adjudication.rule import (
    Decided,
    RaterValue,
    needs_adjudication,
    reported,
    status,
)


def _v(*scores: int | None, outcome: str = "applicable") -> list[RaterValue]:
    return [RaterValue(rater=f"r{i}", outcome=outcome, score=s) for i, s in enumerate(scores)]


@pytest.mark.parametrize(
    ("scores", "threshold", "expected"),
    [
        ((1, 2), 2, False),  # one apart: below the default threshold
        ((1, 3), 2, True),  # exactly the threshold
        ((0, 3), 2, True),
        ((2, 2), 1, False),
        ((1, 2), 1, True),  # a threshold of 1: any difference
        ((1, 3), 3, False),  # a threshold of 3: only 0 against 3
        ((0, 3), 3, True),
        ((1, 2, 3), 2, True),  # two of three raters differ by 2
        ((1, 2, 2), 2, False),
    ],
)
def test_scores_need_adjudication_from_the_threshold_on(scores, threshold, expected) -> None:
    assert needs_adjudication(_v(*scores), threshold) is expected


def test_differing_outcomes_always_need_adjudication() -> None:
    values = [*_v(2), RaterValue(rater="x", outcome="not_observed")]
    assert needs_adjudication(values, 3)
    both_na = _v(None, None, outcome="not_applicable")
    assert status(both_na) == "agreed"


def test_a_single_rater_is_never_disputed_and_a_bad_threshold_is_refused() -> None:
    assert status(_v(0)) == "single_rater"
    assert status([]) == "single_rater"
    for bad in (0, 4, True, 1.5):
        with pytest.raises(ValueError, match="threshold"):
            status(_v(1, 2), bad)


def test_the_reported_value_for_each_way_it_is_reached() -> None:
    agreed = reported(_v(1, 2))
    assert (agreed.outcome, agreed.score, agreed.reached) == ("applicable", 1.5, "agreed")
    single = reported(_v(3))
    assert (single.score, single.reached) == (3.0, "single_rater")
    opened = reported(_v(0, 3))
    assert (opened.outcome, opened.score, opened.reached) == (None, None, "open")
    decided = reported(_v(0, 3), Decided(adjudicator="dana", outcome="applicable", score=1))
    assert (decided.score, decided.reached, decided.adjudicator) == (1.0, "adjudicated", "dana")
    not_obs = reported(_v(None, None, outcome="not_observed"))
    assert (not_obs.outcome, not_obs.score, not_obs.reached) == ("not_observed", None, "agreed")
    assert reported([]) is None

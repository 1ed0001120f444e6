"""Anchoring on synthetic blind studies with known answers."""

from __future__ import annotations

import pytest

from reviewer.agreement.anchoring import anchoring_report
from reviewer.agreement.records import RatingRecord

M = "procedure_application"


def blind(run: str, rater: str, before: int, after: int) -> RatingRecord:
    return RatingRecord(run_key=run, rater=rater, metric_id=M, outcome="applicable",
                        score=after, blind_outcome="applicable", blind_score=before,
                        reveal_first=False)  # fmt: skip


def control(run: str, rater: str, score: int) -> RatingRecord:
    return RatingRecord(run_key=run, rater=rater, metric_id=M, outcome="applicable",
                        score=score, reveal_first=True)  # fmt: skip


def test_revisions_and_arms_by_hand() -> None:
    # Counterparts: run r1 → 1.0 (target 3), r2 → 0.0 (target 0), r3 → 0.5 (target 1.5).
    counterpart = {("r1", M): 1.0, ("r2", M): 0.0, ("r3", M): 0.5}
    records = [
        blind("r1", "a", 1, 3),  # revised by 2, toward 3
        blind("r2", "a", 1, 2),  # revised by 1, away from 0
        blind("r3", "a", 2, 2),  # kept
        blind("r1", "b", 2, 3),  # revised by 1, toward 3
        control("r2", "c", 0),  # distance 0
        control("r3", "c", 2),  # distance 0.5
        control("r1", "c", 3),  # distance 0
    ]
    report = anchoring_report(records, counterpart, [M])
    row = report.overall
    assert (row.items, row.revised, row.share_revised) == (4, 3, 0.75)
    assert row.mean_revision == pytest.approx((2 + 1 + 1) / 3)
    assert (row.score_revisions, row.share_toward_counterpart) == (3, pytest.approx(2 / 3))
    # blind distances: |1−3|, |1−0|, |2−1.5|, |2−3| = 2, 1, 0.5, 1 → mean 1.125
    # control distances: 0, 0.5, 0 → mean 1/6; difference 1/6 − 1.125
    assert row.blind_distance == pytest.approx(1.125)
    assert row.control_distance == pytest.approx(1 / 6)
    assert row.difference == pytest.approx(1 / 6 - 1.125)
    assert row.ci_low < row.difference < row.ci_high
    assert report.by_metric[0].model_dump(exclude={"metric_id"}) == row.model_dump(
        exclude={"metric_id"}
    )


def test_not_a_blind_study_gives_no_anchoring() -> None:
    open_rating = RatingRecord(run_key="r1", rater="a", metric_id=M, outcome="applicable",
                               score=2)  # fmt: skip
    assert anchoring_report([open_rating], {}, [M]) is None


def test_an_outcome_revision_counts_but_has_no_size() -> None:
    r = RatingRecord(run_key="r1", rater="a", metric_id=M, outcome="not_observed",
                     blind_outcome="applicable", blind_score=2, reveal_first=False)  # fmt: skip
    row = anchoring_report([r], {("r1", M): 1.0}, [M]).overall
    assert (row.revised, row.mean_revision, row.share_toward_counterpart) == (1, None, None)
    assert row.ci_low is None and "at least two" in row.note

"""The human raters' scores, read from the review store's analyst views.

One row per (run, rater, metric) of each rater's live decision that is a score (an
applicable outcome): the final value, or with ``phase="blind"`` the frozen blind value of
a blind-study rating. Judges are left out (they are not raters whose quality is at stake
here), and so is what a study does not hold when a study is named. Each row carries the
run's place in the rater's queue (``assignments.position``, within a study) and when the
rating was submitted, for drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from reviewer.store import ReviewStore

Phase = Literal["final", "blind"]


@dataclass(frozen=True)
class Score:
    """One rater's score of one metric of one run."""

    run_pk: int
    run_id: str | None
    rater: str
    metric: str
    score: int
    position: int | None
    submitted_at: datetime | None


_QUERY = """
SELECT i.run_pk, i.run_id, i.rater, i.metric, {score}, a.position, c.submitted_at
FROM current_rating_items i
JOIN current_ratings c ON c.rating_pk = i.rating_pk
LEFT JOIN studies st ON st.name = i.study
LEFT JOIN raters ra ON ra.name = i.rater
LEFT JOIN assignments a
    ON a.study_pk = st.study_pk AND a.run_pk = i.run_pk AND a.rater_pk = ra.rater_pk
WHERE i.rater_kind = 'human' AND {score} IS NOT NULL {study}
ORDER BY i.rater, a.position, c.submitted_at, i.run_pk, i.metric
"""


def scores(store: ReviewStore, *, study: str | None = None, phase: Phase = "final") -> list[Score]:
    """Every human score (of ``study`` when given), in each rater's queue order."""
    column = "i.blind_score" if phase == "blind" else "i.score"
    sql = _QUERY.format(score=column, study="AND i.study = ?" if study else "")
    rows = store.db.conn.execute(sql, (study,) if study else ())
    return [
        Score(
            run_pk=run_pk,
            run_id=run_id,
            rater=rater,
            metric=metric,
            score=int(score),
            position=position,
            submitted_at=datetime.fromisoformat(at) if at else None,
        )
        for run_pk, run_id, rater, metric, score, position, at in rows
    ]

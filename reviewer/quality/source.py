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

from reviewer.quality.facade import QualityStore

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
    #: The study the rating was made in (``None``: outside any study). Queue positions are
    #: per study, and drift is fitted within each study (:mod:`reviewer.quality.report`).
    study: str | None = None


def scores(store: QualityStore, *, study: str | None = None, phase: Phase = "final") -> list[Score]:
    """Every human score (of ``study`` when given), in each rater's queue order."""
    rows = store.human_scores(study=study, blind=phase == "blind")
    return [
        Score(
            run_pk=run_pk,
            run_id=run_id,
            rater=rater,
            metric=metric,
            score=int(score),
            position=position,
            submitted_at=datetime.fromisoformat(at) if at else None,
            study=study_name,
        )
        for run_pk, run_id, rater, metric, score, position, at, study_name in rows
    ]

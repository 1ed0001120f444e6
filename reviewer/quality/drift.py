"""Drift slopes fitted within each study, for ``raters drift`` and the Raters tab.

A rater's series (their difference from the panel's consensus per run, or their error on
gold) is regressed on queue position and on days since their first submit. Ratings of
different studies do not share one line: queue positions restart in each study, and a rater
can sit at different levels in two studies without drifting in either. So each slope is the
**pooled within-study slope** -- one regression with an intercept per study (the series and
the covariate demeaned within each study: study fixed effects,
:func:`reviewer.quality.stats.within_slope`). A rating outside any study has no queue
position; for days, the ratings outside any study form one group of their own.

A slope per day is only estimated from a study whose ratings span at least
:data:`MIN_DAY_SPAN` (first to last submit): over minutes, "per day" extrapolates noise a
thousandfold. Below it the day slope is not available (NaN: an empty cell, "n/a" on
screen) and cannot flag the rater.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from reviewer.quality import stats
from reviewer.quality.stats import Estimate

#: The least span of submit times within a study for its ratings to enter a day slope.
MIN_DAY_SPAN = timedelta(days=1)


@dataclass(frozen=True)
class Point:
    """One run of a rater's series: where it was rated, and the value regressed."""

    study: str | None
    position: int | None
    at: datetime | None
    value: float


def per_position(points: Sequence[Point]) -> Estimate:
    """The within-study slope on queue position (of the ratings that have one: those made in
    a study, as the store reads them)."""
    kept = [p for p in points if p.position is not None]
    return stats.within_slope(
        [float(p.position) for p in kept if p.position is not None],
        [p.value for p in kept],
        [p.study for p in kept],
    )


def per_day(points: Sequence[Point]) -> Estimate:
    """The within-study slope on days, from the studies spanning :data:`MIN_DAY_SPAN` or
    more (NaN, n 0, when none does)."""
    by_study: dict[str | None, list[tuple[datetime, float]]] = defaultdict(list)
    for p in points:
        if p.at is not None:
            by_study[p.study].append((p.at, p.value))
    x: list[float] = []
    y: list[float] = []
    groups: list[str | None] = []
    for study, timed in by_study.items():
        start, end = min(t for t, _ in timed), max(t for t, _ in timed)
        if end - start < MIN_DAY_SPAN:
            continue
        for t, v in timed:
            x.append((t - start).total_seconds() / 86400)
            y.append(v)
            groups.append(study)
    if not x:
        return stats.NOTHING
    return stats.within_slope(x, y, groups)

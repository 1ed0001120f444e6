"""The rater-quality tables computed on score columns equal the score-by-score computation.

:mod:`reviewer.quality.report` works on :class:`~reviewer.quality.source.ScoreColumns` (no
Python object per score: 200,000 at 10,000 runs). Here each table it gives is held, on
simulated scores in two studies (queue positions, submit times, some missing, in a shuffled
order), to the plain computation it replaced, kept below as it was: a loop over
:class:`~reviewer.quality.source.Score` values, dicts and lists. Same numbers to the bit
(the same floats summed in the same order).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from reviewer.quality import consensus, drift, report, stats
from reviewer.quality.consensus import Columns
from reviewer.quality.reference import rater_reference
from reviewer.quality.source import Score, ScoreColumns
from reviewer.quality.summary import summarize

T0 = datetime(2026, 1, 5, 8, tzinfo=UTC)


def simulate(seed: int, *, studies: bool = True, timed: bool = True) -> list[Score]:
    rnd = random.Random(seed)
    out = []
    for k, study in enumerate(("A", "B") if studies else (None,)):
        for i in range(rnd.randint(12, 20)):
            run = k * 1000 + rnd.randint(1, 999)  # a run may come twice: its last score counts
            q = rnd.choice((1, 2))
            for rater in rnd.sample(["ann", "bob", "cat", "dan"], rnd.randint(2, 4)):
                at = T0 + timedelta(days=30 * k, hours=6 * i, seconds=rnd.randint(0, 999))
                position = i + 1 if study and rnd.random() > 0.1 else None
                when = at if timed and rnd.random() > 0.1 else None
                for metric in rnd.sample(["safety", "procedure", "workload"], rnd.randint(1, 3)):
                    score = min(3, max(0, q + rnd.choice((-1, 0, 0, 1))))
                    out.append(Score(run, f"r{run}", rater, metric, score, position, when, study))
    # One score per (run, rater, metric), as the store holds them; the order shuffled.
    unique = list({(s.run_pk, s.rater, s.metric): s for s in out}.values())
    rnd.shuffle(unique)
    return unique


# -- the score-by-score computation, as it was ----------------------------------------------


def plain_columns(scores: Sequence[Score], *, x: Callable[[Score], float] | None = None):
    names = sorted({s.rater for s in scores})
    metrics = sorted({s.metric for s in scores})
    rater_at = {r: i for i, r in enumerate(names)}
    metric_at = {m: i for i, m in enumerate(metrics)}
    metric = np.array([metric_at[s.metric] for s in scores], dtype=int)
    run = np.array([s.run_pk for s in scores], dtype=int)
    data = Columns(
        raters=tuple(names),
        rater=np.array([rater_at[s.rater] for s in scores], dtype=int),
        run=run,
        item=run * max(len(metrics), 1) + metric,
        score=np.array([s.score for s in scores], dtype=float),
        x=np.array([x(s) if x else math.nan for s in scores], dtype=float),
    )
    return data, metrics, metric


def plain_queue_x(scores: Sequence[Score]) -> Callable[[Score], float] | None:
    def position(s: Score) -> float | None:
        return None if s.position is None else float(s.position)

    along: Callable[[Score], float | None] = position
    if not any(position(s) is not None for s in scores):
        times = [s.submitted_at for s in scores if s.submitted_at is not None]
        if not times:
            return None
        origin = min(times)

        def along(s: Score) -> float | None:
            at = s.submitted_at
            return None if at is None else (at - origin).total_seconds() / 86400

    values: dict[tuple[str, str | None], list[float]] = defaultdict(list)
    for s in scores:
        if (v := along(s)) is not None:
            values[(s.rater, s.study)].append(v)
    means = {key: sum(vs) / len(vs) for key, vs in values.items()}

    def x(s: Score) -> float:
        v = along(s)
        return math.nan if v is None else v - means[(s.rater, s.study)]

    return x


def plain_differences(scores: Sequence[Score]) -> dict[str, dict[int, float]]:
    x = plain_queue_x(scores)
    data, _, _ = plain_columns(scores, x=x)
    return consensus.corrected_differences(data, drift=x is not None)


def plain_drift_rows(scores: Sequence[Score]) -> list[tuple]:
    differences = plain_differences(scores)
    rows = []
    for rater in sorted({s.rater for s in scores}):
        diffs = differences.get(rater, {})
        mine = {s.run_pk: s for s in scores if s.rater == rater}
        points = [drift.Point(mine[r].study, mine[r].position, mine[r].submitted_at, d)
                  for r, d in diffs.items()]  # fmt: skip
        p, d = drift.per_position(points), drift.per_day(points)
        rows.append((rater, len(diffs), p.value, p.low, p.high, d.value, d.low, d.high))
    return rows


def plain_drift_points(scores: Sequence[Score], rater: str) -> list[tuple]:
    diffs = plain_differences(scores).get(rater, {})
    mine = {s.run_pk: s for s in scores if s.rater == rater}
    times = [t for r in diffs if (t := mine[r].submitted_at) is not None]
    start = min(times, default=None)
    points = []
    for run, d in diffs.items():
        s = mine[run]
        at = s.submitted_at
        days = (at - start).total_seconds() / 86400 if at is not None and start else math.nan
        points.append((s.position, days, d))
    return sorted(points, key=lambda p: (p[0] is None, p[0] or 0, p[1]))


def plain_accuracy(scores: Sequence[Score], reference, skip) -> list[tuple]:
    rows = []
    for rater in sorted({s.rater for s in scores}):
        if rater == skip:
            continue
        pairs: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for s in scores:
            if s.rater == rater and (s.run_pk, s.metric) in reference:
                pair = (s.score, reference[(s.run_pk, s.metric)])
                pairs[s.metric].append(pair)
                pairs["all"].append(pair)
        for metric in sorted(pairs, key=lambda m: (m == "all", m)):
            mine, theirs = zip(*pairs[metric], strict=True)
            a = stats.accuracy(list(mine), list(theirs), seed=0, resamples=200)
            rows.append((rater, metric, a))
    return rows


def same(a: object, b: object) -> bool:
    """Equal, NaN equal to NaN (to the bit otherwise)."""
    return repr(a) == repr(b)


# -- the tests --------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "studies", "timed"),
                         [(0, True, True), (1, True, True), (2, False, True), (3, False, False),
                          (4, True, False)])  # fmt: skip
def test_the_tables_on_columns_equal_the_score_by_score_tables(
    seed: int, studies: bool, timed: bool
) -> None:
    scores = simulate(seed, studies=studies, timed=timed)
    cols = ScoreColumns.of(scores)
    assert cols.scores() == scores  # the columns hold every field, in order
    x_plain, x_cols = plain_queue_x(scores), report._queue_x(cols)
    assert (x_plain is None) == (x_cols is None)
    if x_plain is not None and x_cols is not None:
        assert same([x_plain(s) for s in scores], x_cols.tolist())
    assert same(plain_differences(scores), report.run_differences(cols))
    rows = [tuple(r[k] for k in ("rater", "n_runs", "per_position", "position_low",
                                 "position_high", "per_day", "day_low", "day_high"))
            for r in report.drift_rows(cols)]  # fmt: skip
    assert same(rows, plain_drift_rows(scores))
    for rater in cols.raters:
        assert same(report.drift_points(cols, rater), plain_drift_points(scores, rater))
    data, metrics, metric = plain_columns(scores)
    got, got_metrics, got_metric = report._columns(cols)
    assert got_metrics == metrics and np.array_equal(got_metric, metric)
    for name in ("rater", "run", "item", "score"):
        assert np.array_equal(getattr(got, name), getattr(data, name)), name
    assert got.raters == data.raters
    assert report.bias_rows(cols, resamples=60) == report.bias_rows(scores, resamples=60)


@pytest.mark.parametrize("seed", range(3))
def test_accuracy_on_columns_equals_the_score_by_score_accuracy(seed: int) -> None:
    scores = simulate(seed)
    cols = ScoreColumns.of(scores)
    reference = rater_reference(cols, "ann")
    assert reference is not None
    plain_ref = {(s.run_pk, s.metric): s.score for s in scores if s.rater == "ann"}
    assert dict(reference.scores) == plain_ref
    got = report.accuracy_against(cols, reference.scores, skip="ann", resamples=200)
    want = plain_accuracy(scores, plain_ref, "ann")
    assert [(r["rater"], r["metric"]) for r in got] == [(r, m) for r, m, _ in want]
    for row, (_r, _m, a) in zip(got, want, strict=True):
        assert same((row["n"], row["exact"], row["within_one_low"], row["signed_high"],
                     row["kappa"], row["kappa_low"]),
                    (a.exact.n, a.exact.value, a.within_one.low, a.signed.high,
                     a.kappa.value, a.kappa.low))  # fmt: skip


def test_a_selection_keeps_the_raters_and_metrics_present_sorted() -> None:
    scores = simulate(5)
    cols = ScoreColumns.of(scores)
    keep = np.array([s.rater != "bob" and s.metric != "procedure" for s in scores])
    part = cols.take(keep)
    wanted = [s for s in scores if s.rater != "bob" and s.metric != "procedure"]
    assert part.scores() == wanted
    assert part.raters == tuple(sorted({s.rater for s in wanted}))
    assert part.metrics == tuple(sorted({s.metric for s in wanted}))
    assert summarize(part, resamples=50) == summarize(wanted, resamples=50)
    assert len(ScoreColumns.of([])) == 0
    assert summarize([], resamples=50).n_scores == 0

"""The human raters' scores, read from the review store's analyst views.

One row per (run, rater, metric) of each rater's live decision that is a score (an
applicable outcome): the final value, or with ``phase="blind"`` the frozen blind value of
a blind-study rating. Judges are left out (they are not raters whose quality is at stake
here), and so is what a study does not hold when a study is named. Each row carries the
run's place in the rater's queue (``assignments.position``, within a study) and when the
rating was submitted, for drift.

The views read them as :class:`ScoreColumns` (:func:`score_columns`: no Python object per
score, 200,000 of them at 10,000 runs); :func:`scores` gives them as :class:`Score` values,
and :meth:`ScoreColumns.of` turns such values back into columns, in the same order: every
function of :mod:`reviewer.quality.report` takes either and computes on the columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from reviewer.quality.facade import QualityStore

Phase = Literal["final", "blind"]
Ints = npt.NDArray[np.int64]
#: A queue position that is not there (a rating outside any study).
NO_POSITION = np.iinfo(np.int64).min


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


@dataclass(frozen=True)
class ScoreColumns:
    """Scores as columns, one entry a score, in the order given (the store's: each rater's
    queue order): the run (``run_pk``), the rater (an index into ``raters``, the raters
    present, sorted), the metric (into ``metrics``, likewise), the score, and its rating's
    queue position (:data:`NO_POSITION`: none), submit time (into ``times``), study (into
    ``studies``) and run id (into ``run_ids``; -1: none). Never changed in place."""

    run: Ints
    rater: Ints
    metric: Ints
    score: Ints
    position: Ints
    at: Ints
    study: Ints
    run_id: Ints
    raters: tuple[str, ...]
    metrics: tuple[str, ...]
    times: tuple[datetime, ...]
    studies: tuple[str, ...]
    run_ids: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.run)

    @classmethod
    def of(cls, scores: Sequence[Score]) -> ScoreColumns:
        """``scores`` as columns, in their order."""
        raters = tuple(sorted({s.rater for s in scores}))
        metrics = tuple(sorted({s.metric for s in scores}))
        times = _names(s.submitted_at for s in scores)
        studies = _names(s.study for s in scores)
        run_ids = _names(s.run_id for s in scores)
        rater_at = {r: i for i, r in enumerate(raters)}
        metric_at = {m: i for i, m in enumerate(metrics)}

        def code(values: Any, at: dict[Any, int]) -> Ints:
            return np.array([-1 if v is None else at[v] for v in values], dtype=np.int64)

        return cls(
            run=np.array([s.run_pk for s in scores], dtype=np.int64),
            rater=code((s.rater for s in scores), rater_at),
            metric=code((s.metric for s in scores), metric_at),
            score=np.array([s.score for s in scores], dtype=np.int64),
            position=np.array(
                [NO_POSITION if s.position is None else s.position for s in scores], dtype=np.int64
            ),
            at=code((s.submitted_at for s in scores), {t: i for i, t in enumerate(times)}),
            study=code((s.study for s in scores), {t: i for i, t in enumerate(studies)}),
            run_id=code((s.run_id for s in scores), {t: i for i, t in enumerate(run_ids)}),
            raters=raters,
            metrics=metrics,
            times=times,
            studies=studies,
            run_ids=run_ids,
        )

    def take(self, keep: npt.NDArray[np.bool_] | Ints) -> ScoreColumns:
        """The scores ``keep`` selects, in order; ``raters`` and ``metrics`` become the ones
        still present (as :meth:`of` would make them of these scores)."""
        rater, raters = _present(self.rater[keep], self.raters)
        metric, metrics = _present(self.metric[keep], self.metrics)
        return replace(
            self, run=self.run[keep], rater=rater, metric=metric, score=self.score[keep],
            position=self.position[keep], at=self.at[keep], study=self.study[keep],
            run_id=self.run_id[keep], raters=raters, metrics=metrics,
        )  # fmt: skip

    def scores(self) -> list[Score]:
        """The scores as :class:`Score` values, in order."""
        raters, metrics = self.raters, self.metrics
        times, studies, run_ids = (*self.times, None), (*self.studies, None), (*self.run_ids, None)
        return [
            Score(
                run_pk=run,
                run_id=run_ids[run_id],
                rater=raters[rater],
                metric=metrics[metric],
                score=score,
                position=None if position == NO_POSITION else position,
                submitted_at=times[at],
                study=studies[study],
            )
            for run, rater, metric, score, position, at, study, run_id in zip(
                self.run.tolist(),
                self.rater.tolist(),
                self.metric.tolist(),
                self.score.tolist(),
                self.position.tolist(),
                self.at.tolist(),
                self.study.tolist(),
                self.run_id.tolist(),
                strict=True,
            )
        ]


def columns_of(scores: Sequence[Score] | ScoreColumns) -> ScoreColumns:
    """``scores`` as columns (as they are when they already are)."""
    return scores if isinstance(scores, ScoreColumns) else ScoreColumns.of(scores)


def _names(values: Any) -> tuple[Any, ...]:
    """The distinct values but ``None``, in order of first appearance."""
    return tuple(v for v in dict.fromkeys(values) if v is not None)


def _present(codes: Ints, names: tuple[str, ...]) -> tuple[Ints, tuple[str, ...]]:
    """``codes`` re-coded into the names they use (sorted names stay sorted)."""
    used = np.unique(codes)
    if len(used) == len(names):
        return codes, names
    recode = np.full(len(names), -1, dtype=np.int64)
    recode[used] = np.arange(len(used), dtype=np.int64)
    return recode[codes], tuple(names[i] for i in used.tolist())


def score_columns(
    store: QualityStore, *, study: str | None = None, phase: Phase = "final"
) -> ScoreColumns:
    """Every human score (of ``study`` when given), in each rater's queue order: by rater,
    queue position, submit time (as stored: text), run and metric (no two scores share all
    of them: a rater has one live rating per run)."""
    ratings, parts = store.human_score_parts(study=study, blind=phase == "blind")
    rating_pk = np.array([r[0] for r in ratings], dtype=np.int64)
    metrics = tuple(sorted(m for m, _ in parts))
    pk_parts, metric_parts = [], []
    for name, text in parts:
        packed = np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, np.int64)
        pk_parts.append(packed)
        metric_parts.append(np.full(len(packed), metrics.index(name), dtype=np.int64))
    packed = np.concatenate([np.zeros(0, np.int64), *pk_parts])
    metric = np.concatenate([np.zeros(0, np.int64), *metric_parts])
    pk, score = packed >> 3, packed & 7
    # Each score's rating (both in rating_pk order); the scores of no live human rating go.
    row = np.minimum(np.searchsorted(rating_pk, pk), max(len(rating_pk) - 1, 0))
    live = rating_pk[row] == pk if len(rating_pk) else np.zeros(len(pk), np.bool_)
    row, metric, score = row[live], metric[live], score[live]
    _pks, runs, run_ids, names, positions, texts, study_names = (
        zip(*ratings, strict=True) if ratings else ((),) * 7
    )
    raters = tuple(sorted(set(names)))
    rater_at = {r: i for i, r in enumerate(raters)}
    run = np.array(runs, dtype=np.int64)
    rater = np.array([rater_at[n] for n in names], dtype=np.int64)
    position = np.array([NO_POSITION if p is None else p for p in positions], dtype=np.int64)
    # The submit times as SQLite sorts the text (NULL first), and as datetimes ('': none).
    stamps = sorted({t for t in texts if t is not None})
    text_rank = {t: i for i, t in enumerate(stamps)}
    order_at = np.array([-1 if t is None else text_rank[t] for t in texts], dtype=np.int64)
    given = [t for t in stamps if t]
    times = tuple(datetime.fromisoformat(t) for t in given)
    time_at = {t: i for i, t in enumerate(given)}
    at = np.array([time_at[t] if t else -1 for t in texts], dtype=np.int64)
    studies = _names(study_names)
    study_at = {s: i for i, s in enumerate(studies)}
    study_code = np.array([-1 if s is None else study_at[s] for s in study_names], np.int64)
    ids = _names(run_ids)
    id_at = {s: i for i, s in enumerate(ids)}
    run_id = np.array([-1 if s is None else id_at[s] for s in run_ids], dtype=np.int64)
    order = np.lexsort((metric, run[row], order_at[row], position[row], rater[row]))
    row, metric = row[order], metric[order]
    whole = ScoreColumns(
        run=run[row], rater=rater[row], metric=metric, score=score[order],
        position=position[row], at=at[row], study=study_code[row], run_id=run_id[row],
        raters=raters, metrics=metrics, times=times, studies=studies, run_ids=ids,
    )  # fmt: skip
    return whole.take(np.ones(len(whole), dtype=np.bool_))  # the raters and metrics present


def scores(store: QualityStore, *, study: str | None = None, phase: Phase = "final") -> list[Score]:
    """Every human score (of ``study`` when given), in each rater's queue order
    (:func:`score_columns` as :class:`Score` values)."""
    return score_columns(store, study=study, phase=phase).scores()

"""Rating items as columns: the dashboard's records without a Python object per item.

An :class:`ItemColumns` holds what a :class:`~reviewer.agreement.records.RatingRecord`
holds, one numpy array per field (names as indices into small tuples; -1 where a record
has ``None``). The sums over the records read it as
:class:`~reviewer.agreement.records.Columns`; :meth:`ItemColumns.records` builds the
records themselves, in the same order, for what still reads them one by one (the charts,
the report, the bootstrap), and only when one asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from reviewer.agreement.alpha import SCORE_DOMAIN, Units
from reviewer.agreement.distinct import distinct, first_appearance
from reviewer.agreement.records import Columns, RatingRecord
from reviewer.rubric import OUTCOMES

Ints = npt.NDArray[np.int64]
_ARRAYS = (
    "run", "rater", "study", "reveal", "metric", "outcome", "score", "blind_outcome",
    "blind_score",
)  # fmt: skip


@dataclass(frozen=True)
class ItemColumns:
    """Items: run (``run_pk``), rater (index into ``raters``), study (into ``studies``),
    arm (``reveal_first`` 0/1), metric (into ``metrics``), outcome (into
    :data:`~reviewer.rubric.OUTCOMES`), score, blind outcome, blind score; -1: none.
    The arrays are never changed in place (a new value is made instead)."""

    run: Ints
    rater: Ints
    study: Ints
    reveal: Ints
    metric: Ints
    outcome: Ints
    score: Ints
    blind_outcome: Ints
    blind_score: Ints
    raters: tuple[str, ...]
    judges: tuple[bool, ...]
    studies: tuple[str, ...]
    metrics: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.run)

    def take(self, index: npt.NDArray[np.int64] | npt.NDArray[np.bool_] | slice) -> ItemColumns:
        """The items ``index`` selects, names kept (these very items when a mask keeps
        them all: the arrays are never changed in place)."""
        if (
            isinstance(index, np.ndarray)
            and index.dtype == np.bool_
            and len(index) == len(self)
            and index.all()
        ):
            return self
        arrays: dict[str, Any] = {name: getattr(self, name)[index] for name in _ARRAYS}
        return replace(self, **arrays)

    def chosen(self, study: str | None) -> ItemColumns:
        """The items of ``study`` (all when ``None``) by people: judges never count here
        (:func:`reviewer.agreement.source.choose` without ``include_judges``)."""
        keep = np.ones(len(self), dtype=np.bool_)
        if self.judges:
            keep &= ~np.array(self.judges, dtype=np.bool_)[self.rater]
        if study is not None:
            code = self.studies.index(study) if study in self.studies else -2
            keep &= self.study == code
        return self.take(keep)

    def known_studies(self) -> set[str]:
        """The studies the items belong to."""
        return {self.studies[int(c)] for c in distinct(self.study).tolist() if c >= 0}

    def recoded(self, names: ItemColumns) -> ItemColumns:
        """These items with their names as indices into ``names``' tuples, which grow by
        the names they lack (a new rater, study or metric)."""
        raters, judges, studies, metrics = (
            list(names.raters), list(names.judges), list(names.studies), list(names.metrics)
        )  # fmt: skip

        def codes(own: Sequence[str], into: list[str], extra: list[bool] | None) -> Ints:
            out = np.zeros(len(own) + 1, dtype=np.int64)
            out[-1] = -1  # -1 stays -1
            for i, name in enumerate(own):
                if name not in into:
                    into.append(name)
                    if extra is not None:
                        extra.append(self.judges[i])
                out[i] = into.index(name)
            return out

        rater = codes(self.raters, raters, judges)[self.rater]
        study = codes(self.studies, studies, None)[self.study]
        metric = codes(self.metrics, metrics, None)[self.metric]
        return replace(
            self, rater=rater, study=study, metric=metric, raters=tuple(raters),
            judges=tuple(judges), studies=tuple(studies), metrics=tuple(metrics),
        )  # fmt: skip

    def renamed(self, names: ItemColumns) -> ItemColumns:
        """These items with ``names``' tuples (which extend their own)."""
        return replace(
            self, raters=names.raters, judges=names.judges, studies=names.studies,
            metrics=names.metrics,
        )  # fmt: skip

    def spliced(self, start: int, end: int, new: ItemColumns) -> ItemColumns:
        """Items ``start:end`` replaced by ``new`` (coded with the same names)."""
        arrays: dict[str, Any] = {
            name: np.concatenate(
                [getattr(self, name)[:start], getattr(new, name), getattr(self, name)[end:]]
            )
            for name in _ARRAYS
        }
        return replace(new, **arrays)

    def columns(self) -> Columns:
        """The items as :class:`Columns` (runs, metrics and raters numbered in order of
        first appearance, as :meth:`Columns.of` numbers the records)."""
        run_codes, runs = first_appearance(self.run)
        metric_codes, metrics = first_appearance(self.metric)
        rater_codes, raters = first_appearance(self.rater)
        return Columns(
            runs=[str(pk) for pk in runs.tolist()],
            metrics=[self.metrics[i] for i in metrics.tolist()],
            raters=[self.raters[i] for i in raters.tolist()],
            run=run_codes,
            metric=metric_codes,
            rater=rater_codes,
            outcome=self.outcome,
            score=self.score,
        )

    def score_units(self, metric: str, domain: Sequence[float] = SCORE_DOMAIN) -> Units:
        """The scores of ``metric`` by run, as
        :func:`reviewer.agreement.report.score_units` counts the records of that metric
        (every run with an item of it a unit, keyed ``str(run_pk)``, sorted by key; a
        missing score counts nothing), without building a record."""
        width = len(domain)
        code = self.metrics.index(metric) if metric in self.metrics else -2
        mine = self.metric == code
        run, score = self.run[mine], self.score[mine]
        runs, row = np.unique(run, return_inverse=True)
        keys = [str(pk) for pk in runs.tolist()]
        order = sorted(range(len(keys)), key=keys.__getitem__)  # as the records' units
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        scored = score >= 0
        column = np.full(int(score.max(initial=0)) + 1, -1, dtype=np.int64)
        for i, value in enumerate(domain):
            if float(value).is_integer() and 0 <= value < len(column):
                column[int(value)] = i
        values = score[scored]
        at = column[values]
        if (at < 0).any():
            bad = int(values[at < 0][0])
            raise ValueError(f"value {bad!r} is outside the domain {tuple(domain)}")
        cells = rank[row.reshape(-1)[scored]] * width + at
        counts = np.bincount(cells, minlength=len(keys) * width).reshape(-1, width)
        return Units(keys=tuple(keys[i] for i in order), domain=tuple(domain), counts=counts)

    def records(self) -> list[RatingRecord]:
        """The items as records, in order (fields as
        :func:`reviewer.agreement.source.rating_records` fills them)."""
        outcomes = (*OUTCOMES, None)  # index -1: none
        build = RatingRecord.from_store
        raters, metrics = self.raters, self.metrics
        studies = (*self.studies, None)
        judges = self.judges
        arms = (False, True, None)
        return [
            build(
                {
                    "run_key": str(run),
                    "rater": raters[rater],
                    "metric_id": metrics[metric],
                    "outcome": outcomes[outcome],
                    "score": None if score < 0 else score,
                    "blind_outcome": outcomes[blind_outcome],
                    "blind_score": None if blind_score < 0 else blind_score,
                    "reveal_first": arms[reveal],
                    "is_judge": judges[rater],
                    "study": studies[study],
                }
            )
            for run, rater, study, reveal, metric, outcome, score, blind_outcome, blind_score
            in zip(*(getattr(self, name).tolist() for name in _ARRAYS), strict=True)
        ]  # fmt: skip

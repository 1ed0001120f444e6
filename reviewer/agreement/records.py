"""The input of the agreement and validity statistics: plain records, no database.

One :class:`RatingRecord` is one rater's decision on one metric of one run. The store
adapter (:mod:`reviewer.agreement.source`) builds them from the review database; tests and
other tools can build them by hand. :func:`select` applies the study, phase and judge
choices, so every statistic downstream sees one outcome and one score per record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from reviewer.prevalidated import prevalidated
from reviewer.rubric import OUTCOMES, Outcome

Phase = Literal["blind", "final"]
PHASES: tuple[str, ...] = ("blind", "final")


class Output(BaseModel):
    """Base of the frozen report models (their JSON is what the commands print)."""

    model_config = ConfigDict(frozen=True)


class RatingRecord(BaseModel):
    """One rater's outcome (and 0–3 score when applicable) for one metric of one run.

    ``blind_outcome``/``blind_score`` are the values given before the reveal in a blind
    study (``None`` outside one); ``reveal_first`` is true for the control arm (the scorer's
    view shown from the start), false for the blind arm, ``None`` outside a blind study.
    """

    model_config = ConfigDict(frozen=True)

    run_key: str
    rater: str
    metric_id: str
    outcome: Outcome
    score: int | None = Field(default=None, ge=0)
    blind_outcome: Outcome | None = None
    blind_score: int | None = Field(default=None, ge=0)
    reveal_first: bool | None = None
    is_judge: bool = False
    study: str | None = None

    # Field validators, not a model validator: a model "after" validator also runs on every
    # record passed to a model holding them (the dashboard's 200,000), a field one does not.
    @field_validator("score")
    @classmethod
    def _score_only_when_applicable(cls, score: int | None, info: ValidationInfo) -> int | None:
        # Not applicable and Not observed are missing values, never a score.
        if score is not None and info.data.get("outcome", "applicable") != "applicable":
            raise ValueError("a score is only given when the outcome is applicable")
        return score

    @field_validator("blind_score")
    @classmethod
    def _blind_score_only_when_applicable(
        cls, score: int | None, info: ValidationInfo
    ) -> int | None:
        if score is not None and info.data.get("blind_outcome") != "applicable":
            raise ValueError("a blind score is only given when the blind outcome is applicable")
        return score

    @classmethod
    def from_store(cls, fields: dict[str, object]) -> RatingRecord:
        """A record of values the store's schema has already checked (its ``CHECK``
        constraints: an outcome of the three, a score 0–3 only when applicable), built
        without validating again: the dashboard reads 200,000 of them, and validation was
        most of the time. ``fields`` names every field."""
        return prevalidated(cls, fields)

    @property
    def has_blind(self) -> bool:
        """Whether this record carries a blind-phase value."""
        return self.blind_outcome is not None


class RunInfo(BaseModel):
    """What validity needs to know about a run: where it belongs and what the scorer said.

    ``automatic`` holds the ScoreCard fields a rubric counterpart may name (``coverage``,
    ``order``, ``end_state``, ``all_passed``, ``safety_dangerous``,
    ``safety_anti_procedure``, ``scalar``); missing or ``None`` means the scorer had no value.
    """

    model_config = ConfigDict(frozen=True)

    run_key: str
    run_id: str | None = None
    scenario_id: str | None = None
    model: str | None = None
    scalar: float | None = None
    automatic: dict[str, float | bool | int | None] = Field(default_factory=dict)

    @classmethod
    def from_store(cls, fields: dict[str, object]) -> RunInfo:
        """A run of values the store's schema has already typed (REAL columns hold floats),
        built without validating again, as :meth:`RatingRecord.from_store`: the dashboard
        reads 10,000 of them. ``fields`` names every field."""
        return prevalidated(cls, fields)


#: The ScoreCard fields of :attr:`RunInfo.automatic`, in their order there.
AUTOMATIC_FIELDS = (
    "coverage", "order", "end_state", "all_passed", "safety_dangerous", "safety_anti_procedure",
)  # fmt: skip


class RunInfos(Mapping[str, RunInfo]):
    """:class:`RunInfo` by run key, each made when it is first read.

    ``fields`` gives each run's ``(run_id, scenario_id, model, scalar, *automatic)``
    (:data:`AUTOMATIC_FIELDS` in their order, ``all_passed`` a bool or ``None``), as the
    store typed them. The dashboard keeps 10,000 runs and reads a handful of them whole
    (the largest disagreements): validity's table reads every run's scalar, scenario and
    model through :meth:`brief`, the counterparts a field of every run through
    :meth:`column`, and neither makes a :class:`RunInfo`.
    """

    def __init__(self, fields: dict[str, tuple[Any, ...]]) -> None:
        self._fields = fields
        self._made: dict[str, RunInfo] = {}

    def __getitem__(self, key: str) -> RunInfo:
        made = self._made.get(key)
        if made is None:
            run_id, scenario, model, scalar, *automatic = self._fields[key]
            made = self._made[key] = RunInfo.from_store(
                {
                    "run_key": key,
                    "run_id": run_id,
                    "scenario_id": scenario,
                    "model": model,
                    "scalar": scalar,
                    "automatic": dict(zip(AUTOMATIC_FIELDS, automatic, strict=True)),
                }
            )
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def only(self, keys: set[str] | frozenset[str]) -> RunInfos:
        """The runs of ``keys``, in this mapping's order."""
        return RunInfos({k: v for k, v in self._fields.items() if k in keys})

    def brief(self, key: str) -> tuple[float | None, str | None, str | None] | None:
        """Run ``key``'s ``(scalar, scenario_id, model)``; ``None`` for a run not here."""
        found = self._fields.get(key)
        return None if found is None else (found[3], found[1], found[2])

    def column(self, name: str) -> list[Any]:
        """The ``scalar`` or the ``automatic`` field ``name`` of every run, in order (as
        ``info.automatic.get(name)`` reads it: ``None`` for a field it does not hold)."""
        if name == "scalar":
            return [f[3] for f in self._fields.values()]
        if name not in AUTOMATIC_FIELDS:
            return [None] * len(self._fields)
        at = 4 + AUTOMATIC_FIELDS.index(name)
        return [f[at] for f in self._fields.values()]


def select(
    records: Iterable[RatingRecord],
    *,
    study: str | None = None,
    phase: Phase = "final",
    include_judges: bool = False,
) -> list[RatingRecord]:
    """The records one analysis uses, each carrying the values of ``phase``.

    ``final`` keeps every record as it is. ``blind`` keeps only records with a blind value
    and moves it into ``outcome``/``score`` (the blind values are then dropped, so nothing
    downstream can mix the phases). Judges (automatic raters) count only when asked.
    """
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}; got {phase!r}")
    out: list[RatingRecord] = []
    for r in records:
        if (study is not None and r.study != study) or (r.is_judge and not include_judges):
            continue
        if phase == "blind":
            if not r.has_blind:
                continue
            r = r.model_copy(
                update={
                    "outcome": r.blind_outcome,
                    "score": r.blind_score,
                    "blind_outcome": None,
                    "blind_score": None,
                }
            )
        out.append(r)
    return out


def metric_order(records: Sequence[RatingRecord], rubric_ids: Sequence[str] = ()) -> list[str]:
    """Metric ids: the rubric's order first, then any other id in order of appearance."""
    seen = dict.fromkeys(rubric_ids)
    for r in records:
        seen.setdefault(r.metric_id)
    present = {r.metric_id for r in records}
    return [m for m in seen if m in present]


@dataclass(frozen=True)
class Columns:
    """Records as integer columns, read once and shared by the sums over them (the
    agreement tally, the outcome counts, the raters' spread): a record ``i`` is run
    ``runs[run[i]]``, metric ``metrics[metric[i]]``, rater ``raters[rater[i]]``, outcome
    ``OUTCOMES[outcome[i]]`` and ``score[i]`` (-1: no score). Runs, metrics and raters are
    numbered in order of first appearance."""

    runs: list[str]
    metrics: list[str]
    raters: list[str]
    run: npt.NDArray[np.int64]
    metric: npt.NDArray[np.int64]
    rater: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.int64]
    score: npt.NDArray[np.int64]

    @classmethod
    def of(cls, records: Sequence[RatingRecord]) -> Columns:
        """The columns of ``records``."""
        runs: dict[str, int] = {}
        metrics: dict[str, int] = {}
        raters: dict[str, int] = {}
        code = {o: i for i, o in enumerate(OUTCOMES)}
        n = len(records)
        run = np.fromiter((runs.setdefault(r.run_key, len(runs)) for r in records), np.int64, n)
        metric = np.fromiter(
            (metrics.setdefault(r.metric_id, len(metrics)) for r in records), np.int64, n
        )
        rater = np.fromiter((raters.setdefault(r.rater, len(raters)) for r in records), np.int64, n)
        outcome = np.fromiter((code[r.outcome] for r in records), np.int64, n)
        score = np.fromiter((-1 if r.score is None else r.score for r in records), np.int64, n)
        return cls(list(runs), list(metrics), list(raters), run, metric, rater, outcome, score)

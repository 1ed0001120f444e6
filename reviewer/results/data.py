"""What the results charts and the report show, as one frozen value.

:class:`ResultsData` is read from the store once by :func:`reviewer.results.source.gather`;
every chart and table is a pure function of it, so the dashboard, the report and the tests
draw the same thing from the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict

from reviewer.agreement.consensus import Consensus, build_consensus
from reviewer.agreement.counterparts import counterpart_of
from reviewer.agreement.distinct import distinct
from reviewer.agreement.records import RatingRecord
from reviewer.agreement.report import AgreementReport
from reviewer.agreement.validity import ValidityReport
from reviewer.leaderboard.runs import RunPoint
from reviewer.results import derived

# The leaderboard and the raters' quality come after the point values (a bootstrap, a page
# of the report): their modules and their quantiles (scipy.special) are time the dashboard's
# first figures do not wait for. Checked as their types by mypy, taken as they are at run
# time (all three are built by this package's own functions; the items hold numpy arrays).
if TYPE_CHECKING:
    from reviewer.agreement.items import ItemColumns
    from reviewer.leaderboard.board import Board
    from reviewer.quality.summary import QualitySummary

    LaterBoard = Board | None
    LaterQuality = QualitySummary | None
    Items = ItemColumns | None
else:
    LaterBoard = LaterQuality = Items = Any

_T = TypeVar("_T")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class MetricInfo(_Frozen):
    """A rubric metric as the charts label it."""

    id: str
    title: str
    counterpart: str | None


class ResultsMeta(_Frozen):
    """Where the numbers come from: the report's title page."""

    generated_at: datetime
    database: str
    scorer_versions: list[str]
    rubric: str
    study: str | None
    scenario_filter: list[str]
    n_runs: int
    n_ratings: int
    n_raters: int
    #: Runs left out because they are still in the viewer's blind phase
    #: (:mod:`reviewer.studies.visibility`), and the sentence that says so on every view.
    n_left_out: int = 0
    left_out_note: str | None = None


class ResultsData(_Frozen):
    """Runs, ratings and the agreement/validity reports of one selection.

    ``records`` are the rating items of the selected runs only (given, or built from
    ``items`` when first read); ``agreement`` and ``validity`` are computed on them
    (``None`` when there is no rating).
    """

    meta: ResultsMeta
    scenarios: list[str]
    runs: list[RunPoint]
    metrics: list[MetricInfo]
    agreement: AgreementReport | None
    validity: ValidityReport | None
    #: The consensus every view shows (:mod:`reviewer.agreement.consensus`, the one
    #: ``validity`` and ``consensus export`` use); ``None``: the median of ``records``.
    human_consensus: Consensus | None = None
    #: Raters that are automatic judges (their ratings count only when asked).
    judges: list[str] = []
    #: The models ranked by the scorer's scalar over these runs, with intervals
    #: (:mod:`reviewer.leaderboard`); ``None`` when not computed.
    leaderboard: LaterBoard = None
    #: The raters' bias, drift and accuracy (the report's Raters page); ``None`` when not
    #: read (:func:`reviewer.results.raters_source.with_quality` reads it).
    quality: LaterQuality = None
    #: The rating items as columns (:class:`~reviewer.agreement.items.ItemColumns`), from
    #: which :attr:`records` is built when something reads it; ``None``: ``records`` given.
    items: Items = None

    def __init__(self, *, records: list[RatingRecord] | None = None, **fields: Any) -> None:
        super().__init__(**fields)
        if records is not None:
            self.__dict__["records"] = records  # where cached_property keeps its value

    @cached_property
    def records(self) -> list[RatingRecord]:
        """The rating items of the selected runs (``records`` given, or built from
        :attr:`items` the first time one asks: the point values never do)."""
        return [] if self.items is None else self.items.records()

    @property
    def n_records(self) -> int:
        """``len(self.records)``, without building the records when they are not built."""
        if "records" in self.__dict__ or self.items is None:
            return len(self.records)
        return len(self.items)

    def rated_runs(self) -> set[str]:
        """The run keys of the records (``{r.run_key for r in self.records}``), without
        building the records when they are not built."""
        if "records" in self.__dict__ or self.items is None:
            return {r.run_key for r in self.records}
        return {str(pk) for pk in distinct(self.items.run).tolist()}

    def records_of(self, run_key: str) -> list[RatingRecord]:
        """The records of one run, in order (without building every record)."""
        if "records" in self.__dict__ or self.items is None or not run_key.isdigit():
            return [r for r in self.records if r.run_key == run_key]
        return self.items.take(self.items.run == int(run_key)).records()

    def models(self) -> list[str]:
        """Model names of the selection, sorted (runs without a model are left out)."""
        return sorted({r.model for r in self.runs if r.model is not None}, key=str.casefold)

    # Cached figures: the source computes them on the worker thread (``warm``), so the
    # GUI thread only plots. pydantic keeps cached_property out of the fields.
    @cached_property
    def full_consensus(self) -> Consensus:
        """The consensus with its open disputes (left out of :attr:`consensus`)."""
        if self.human_consensus is not None:
            return self.human_consensus
        return build_consensus(self.records)

    @cached_property
    def consensus(self) -> dict[tuple[str, str], float]:
        """``{(run_key, metric_id): consensus}``: adjudicated, else the agreed median; open
        disputes left out (:attr:`full_consensus` counts them)."""
        return self.full_consensus.scores

    @cached_property
    def outcome_rates(self) -> dict[str, tuple[int, float, float]]:
        """``{metric_id: (items, N/A share, N/O share)}``."""
        return derived.outcome_rates(self.records)

    @cached_property
    def rater_spread(self) -> dict[str, tuple[int, float]]:
        """``{run_key: (raters, widest score gap)}`` for runs with two raters or more."""
        return derived.rater_spread(self.records)

    @cached_property
    def counterparts(self) -> dict[tuple[str, str], float]:
        """``{(run_key, metric_id): the scorer's counterpart in 0–1}`` for the metrics
        that name one."""
        named = {m.id: m.counterpart for m in self.metrics if m.counterpart is not None}
        out: dict[tuple[str, str], float] = {}
        for run in self.runs:
            key, auto = str(run.run_pk), _automatic(run)
            for metric_id, name in named.items():
                value = counterpart_of(name, run.scalar, auto)
                if value is not None:
                    out[(key, metric_id)] = value
        return out

    def warm(self) -> ResultsData:
        """Compute every cached figure now (on the worker thread); returns ``self``."""
        for name in _CACHED:
            getattr(self, name)
        return self

    def once(self, name: str, compute: Callable[[ResultsData], _T]) -> _T:
        """``compute(self)``, computed once per data under ``name``: a chart and its table
        share a figure (the vector's bootstrap intervals were drawn twice per report)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_once", {})
        if name not in cache:
            cache[name] = compute(self)
        return cast(_T, cache[name])

    def known(self, **figures: object) -> ResultsData:
        """Take cached figures already computed, by the same functions, from running sums
        (:class:`reviewer.results.live.LiveResults` keeps them per run), then compute the
        others now; returns ``self``."""
        for name, value in figures.items():
            if name not in _CACHED:
                raise ValueError(f"{name!r} is not a cached figure of the results")
            self.__dict__[name] = value  # where cached_property keeps its value
        return self.warm()


#: The figures :class:`ResultsData` caches (computed off the GUI thread).
_CACHED = ("full_consensus", "consensus", "outcome_rates", "rater_spread", "counterparts")


def _automatic(run: RunPoint) -> dict[str, float | bool | int | None]:
    """The run's ScoreCard fields as the counterpart functions read them."""
    return {
        "coverage": run.coverage,
        "order": run.order,
        "end_state": run.end_state,
        "all_passed": run.all_passed,
        "safety_dangerous": run.dangerous,
        "safety_anti_procedure": run.anti_procedure,
    }

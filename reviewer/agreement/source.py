"""Reading agreement and validity input from a review store.

The one place that knows the database. Each rater's word on a run is their live non-draft
rating: the head of the supersede chain that is submitted or signed (while a correction is
still a draft, the rating it corrects counts), as ``CoreStore.latest_decisions`` gives it;
its items are read as plain rows (``CoreStore.decided_items``) with their study, blind
values and arm, and whether the rater is a judge (``raters.kind``). Runs come with their
scenario, model, scalar and the ScoreCard fields a counterpart uses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.adjudication.model import ReportedValue
from reviewer.agreement.consensus import Consensus, build_consensus
from reviewer.agreement.items import ItemColumns
from reviewer.agreement.records import Phase, RatingRecord, RunInfo, select
from reviewer.rubric import Rubric
from reviewer.store.core import CoreStore
from scoring.scorecard import VECTOR_FIELDS

#: The ScoreCard fields a metric's counterpart may name (the vector but extraneous).
_AUTOMATIC = tuple(f for f in VECTOR_FIELDS if f != "extraneous")
#: What validity reads of each run, in this order.
RUN_COLUMNS = ("run_pk", "run_id", "scenario_id", "model", "scalar", *_AUTOMATIC)


def run_infos(store: CoreStore) -> dict[str, RunInfo]:
    """Every stored run by key (its ``run_pk`` as text), with what validity needs."""
    return run_infos_of(store.run_table(RUN_COLUMNS))


def run_infos_of(rows: Iterable[Sequence[Any]]) -> dict[str, RunInfo]:
    """:func:`run_infos` of rows of :data:`RUN_COLUMNS` already read."""
    out: dict[str, RunInfo] = {}
    for pk, run_id, scenario, model, scalar, *vector in rows:
        auto = dict(zip(_AUTOMATIC, vector, strict=True))
        if auto["all_passed"] is not None:
            auto["all_passed"] = bool(auto["all_passed"])
        # Built without validating again: the schema's types are the fields' (REAL columns
        # hold floats, all_passed made a bool above), and 10,000 validations were a
        # fifth of a second of the dashboard's first figures.
        out[str(pk)] = RunInfo.from_store(
            {
                "run_key": str(pk),
                "run_id": run_id,
                "scenario_id": scenario,
                "model": model,
                "scalar": scalar,
                "automatic": auto,
            }
        )
    return out


def rating_records(store: CoreStore, *, run_pk: int | None = None) -> list[RatingRecord]:
    """One record per item (with an outcome) of every rater's live non-draft rating (of
    the run ``run_pk`` when given)."""
    # The raters table knows who is a model (``raters.kind``), whatever the study.
    items = store.decided_items() if run_pk is None else store.decided_items(run_pk=run_pk)
    build = RatingRecord.from_store  # the rows unpacked as they come: 210,000 of them
    return [
        build(
            {
                "run_key": str(pk),
                "rater": rater,
                "metric_id": metric,
                "outcome": outcome,
                "score": score,
                "blind_outcome": blind_outcome,
                "blind_score": blind_score,
                "reveal_first": reveal_first,
                "is_judge": is_judge,
                "study": study,
            }
        )
        for pk, rater, is_judge, metric, outcome, score, study, blind_outcome, blind_score,
        reveal_first in items
    ]  # fmt: skip


def item_columns(store: CoreStore, *, run_pk: int | None = None) -> ItemColumns:
    """:func:`rating_records` as columns (of the run ``run_pk`` when given), in the same
    order: no record is built (the dashboard reads 210,000 items)."""
    found = store.decided_columns() if run_pk is None else store.decided_columns(run_pk=run_pk)
    return ItemColumns(**found._asdict())


def consensus_rules(
    store: AdjudicationStore, study: str | None, run_pk: int | None = None
) -> tuple[dict[int, int], dict[tuple[int, str], tuple[str, int | None]] | None]:
    """The runs' thresholds and the adjudicated values
    (:meth:`~reviewer.adjudication.facade.AdjudicationStore.consensus_rules`); ``None``
    for the latter where :func:`_reported` reports nothing (a study the store lacks)."""
    from reviewer.store import NotFoundError

    try:
        return store.consensus_rules(study=study, run_pk=run_pk)
    except NotFoundError:
        return {}, None


def known_studies(records: Iterable[RatingRecord]) -> set[str]:
    """The studies the records belong to (empty until studies exist)."""
    return {r.study for r in records if r.study is not None}


class SelectionError(ValueError):
    """The study or phase asked for has no ratings; the message says which."""


class UnknownStudyError(SelectionError):
    """No rating belongs to the study named (a bad argument rather than missing data)."""


@dataclass(frozen=True)
class Inputs:
    """Everything the agreement and validity reports need, read once from a store.

    ``records`` hold the chosen phase's values (what agreement and validity use);
    ``unselected`` the same ratings with both phases (what anchoring compares).
    """

    records: list[RatingRecord]
    unselected: list[RatingRecord]
    runs: dict[str, RunInfo]
    rubric: Rubric
    #: The reported consensus (adjudication-aware) of the final phase; empty for ``blind``,
    #: whose values no adjudication resolves (the median of the blind scores then).
    reported: dict[tuple[str, str], ReportedValue] = field(default_factory=dict)
    #: The judges whose ratings of the selection were left out (no ``include_judges``).
    left_out_judges: tuple[str, ...] = ()
    #: Every rater of the selection with their kind ("human" or "judge").
    rater_kinds: dict[str, str] = field(default_factory=dict)

    def consensus(self, keys: set[str] | None = None) -> Consensus:
        """The consensus of the records (of the runs ``keys`` when given): the one every
        figure uses (:mod:`reviewer.agreement.consensus`)."""
        records = self.records if keys is None else [r for r in self.records if r.run_key in keys]
        return build_consensus(records, self.reported)


def load_inputs(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    phase: Phase = "final",
    include_judges: bool = False,
) -> Inputs:
    """Read the records of ``study`` (all when ``None``) in ``phase``.

    :class:`UnknownStudyError` for a study no rating belongs to, :class:`SelectionError`
    for a blind phase without blind values; an empty ``records`` list when nothing is submitted yet.
    """
    raw = rating_records(store)
    if study is not None and study not in known_studies(raw):
        raise UnknownStudyError(f"no ratings belong to a study named {study!r} in this database")
    in_study = [r for r in raw if study is None or r.study == study]
    judges = sorted({r.rater for r in in_study if r.is_judge})
    records, unselected = choose(raw, study=study, phase=phase, include_judges=include_judges)
    if phase == "blind" and not records:
        raise SelectionError("no rating carries blind-phase values (only blind studies have them)")
    reported = _reported(store, study, in_study) if phase == "final" else {}
    return Inputs(
        records=records,
        unselected=unselected,
        runs=run_infos(store),
        rubric=store.rubric(),
        reported=reported,
        left_out_judges=() if include_judges else tuple(judges),
        rater_kinds={r.rater: "judge" if r.is_judge else "human" for r in in_study},
    )


def choose(
    raw: Sequence[RatingRecord],
    *,
    study: str | None = None,
    phase: Phase = "final",
    include_judges: bool = False,
) -> tuple[list[RatingRecord], list[RatingRecord]]:
    """``(records, unselected)`` of :class:`Inputs` from the store's records (all of them,
    or those of some runs: the choice is record by record)."""
    in_study = [r for r in raw if study is None or r.study == study]
    unselected = [r for r in in_study if include_judges or not r.is_judge]
    return select(unselected, phase=phase, include_judges=include_judges), unselected


def _reported(
    store: AdjudicationStore, study: str | None, in_study: Sequence[RatingRecord]
) -> dict[tuple[str, str], ReportedValue]:
    """The adjudication-aware consensus; empty (the median then) for a study the store
    does not hold. The people's values are the records' (no second read of every item)."""
    from reviewer.adjudication.consensus import reported_values
    from reviewer.store import NotFoundError

    grouped: dict[tuple[str, str], list[tuple[str, int | None]]] = defaultdict(list)
    for r in in_study:
        if not r.is_judge:  # a judge never counts towards the consensus
            grouped[(r.run_key, r.metric_id)].append((r.outcome, r.score))
    pairs = {(int(run), metric): values for (run, metric), values in grouped.items()}
    try:
        return reported_values(store, study=study, pairs=pairs)
    except NotFoundError:
        return {}

"""Reading agreement and validity input from a review store.

The one place that knows the database. Each rater's word on a run is their live non-draft
rating: the head of the supersede chain that is submitted or signed (while a correction is
still a draft, the rating it corrects counts), as ``ReviewStore.latest_decisions`` gives it.
Runs come with their scenario, model, scalar and the ScoreCard fields a counterpart uses.

Judges are told apart by ``raters.kind``. Studies, blind values and the control arm are read
by :func:`protocol_columns`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from reviewer.agreement.records import Phase, RatingRecord, RunInfo, select
from reviewer.rubric import Rubric
from reviewer.store import Rating, ReviewStore

_RUN_COLUMNS = (
    'run_pk, run_id, scenario_id, model, scalar, coverage, "order", end_state, all_passed,'
    " safety_dangerous, safety_anti_procedure"
)


@dataclass(frozen=True)
class Protocol:
    """What the study machinery knows about one item of one rating."""

    study: str | None = None
    blind_outcome: str | None = None
    blind_score: int | None = None
    reveal_first: bool | None = None
    is_judge: bool = False


def protocol_columns(store: ReviewStore, ratings: list[Rating]) -> dict[tuple[int, str], Protocol]:
    """``{(rating_pk, metric_id): Protocol}`` for the items of ratings made within a study.

    Read in one query: the study each rating belongs to, the blind outcome and score its
    item froze before the reveal (blind protocol only), and whether the rater's assignment
    to the run was in the control arm (``reveal_first``: the scorer shown from the start).
    Ratings outside any study are absent: an open, human rating.
    """
    pks = [r.rating_pk for r in ratings]
    out: dict[tuple[int, str], Protocol] = {}
    # SQLite caps bound parameters; the ratings of one database fit in a few chunks.
    for start in range(0, len(pks), 500):
        chunk = pks[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = store.db.conn.execute(
            f"""
            SELECT g.rating_pk, i.metric_id, st.name, i.blind_outcome, i.blind_score,
                   (SELECT a.reveal_first FROM assignments a
                    WHERE a.study_pk = g.study_pk AND a.run_pk = g.run_pk
                      AND a.rater_pk = g.rater_pk)
            FROM ratings g
            JOIN studies st ON st.study_pk = g.study_pk
            JOIN rating_items i ON i.rating_pk = g.rating_pk
            WHERE g.rating_pk IN ({marks})
            """,
            chunk,
        )
        for pk, metric_id, study, blind_outcome, blind_score, reveal_first in rows:
            out[(pk, metric_id)] = Protocol(
                study=study,
                blind_outcome=blind_outcome,
                blind_score=blind_score,
                reveal_first=None if reveal_first is None else bool(reveal_first),
            )
    return out


def run_infos(store: ReviewStore) -> dict[str, RunInfo]:
    """Every stored run by key (its ``run_pk`` as text), with what validity needs."""
    rows = store.db.conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY run_pk")
    out: dict[str, RunInfo] = {}
    for pk, run_id, scenario, model, scalar, *vector in rows:
        names = (
            "coverage",
            "order",
            "end_state",
            "all_passed",
            "safety_dangerous",
            "safety_anti_procedure",
        )
        auto = dict(zip(names, vector, strict=True))
        if auto["all_passed"] is not None:
            auto["all_passed"] = bool(auto["all_passed"])
        out[str(pk)] = RunInfo(
            run_key=str(pk),
            run_id=run_id,
            scenario_id=scenario,
            model=model,
            scalar=scalar,
            automatic=auto,
        )
    return out


def rating_records(store: ReviewStore) -> list[RatingRecord]:
    """One record per item (with an outcome) of every rater's live non-draft rating."""
    decided = store.latest_decisions()
    protocol = protocol_columns(store, decided)
    judges = {r.name for r in store.raters() if r.kind == "judge"}
    return list(_records(decided, protocol, judges))


def _records(
    decided: Iterable[Rating],
    protocol: dict[tuple[int, str], Protocol],
    judges: set[str] = frozenset(),  # type: ignore[assignment]
) -> Iterable[RatingRecord]:
    for rating in decided:
        for item in rating.items.values():
            if item.outcome is None:
                continue  # a submitted rating has every outcome; an old one may lack a metric
            extra = protocol.get((rating.rating_pk, item.metric_id), Protocol())
            yield RatingRecord(
                run_key=str(rating.run_pk),
                rater=rating.rater,
                metric_id=item.metric_id,
                outcome=item.outcome,
                score=item.score,
                blind_outcome=extra.blind_outcome,  # type: ignore[arg-type]
                blind_score=extra.blind_score,
                reveal_first=extra.reveal_first,
                # The raters table knows who is a model (``raters.kind``), whatever the study.
                is_judge=extra.is_judge or rating.rater in judges,
                study=extra.study,
            )


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
    #: whose values no adjudication resolves.
    reported: dict[tuple[str, str], float | None] = field(default_factory=dict)


def load_inputs(
    store: ReviewStore,
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
    unselected = [
        r for r in raw if (study is None or r.study == study) and (include_judges or not r.is_judge)
    ]
    records = select(unselected, phase=phase, include_judges=include_judges)
    if phase == "blind" and not records:
        raise SelectionError("no rating carries blind-phase values (only blind studies have them)")
    reported = _reported(store, study) if phase == "final" else {}
    return Inputs(
        records=records,
        unselected=unselected,
        runs=run_infos(store),
        rubric=store.rubric(),
        reported=reported,
    )


def _reported(store: ReviewStore, study: str | None) -> dict[tuple[str, str], float | None]:
    """The adjudication-aware consensus; empty (the median then) for a study the store
    does not hold, whose ratings were labelled by :func:`protocol_columns` alone."""
    from reviewer.adjudication.consensus import reported_scores
    from reviewer.store import NotFoundError

    try:
        return reported_scores(store, study=study)
    except NotFoundError:
        return {}

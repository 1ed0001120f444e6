"""Reading what needs adjudication: every human rater's live value per (run, metric).

One query over the ratings in force (each rater's latest submitted or signed rating of a
run, as ``latest_decisions`` reads them; judges left out), their items, blind values and
sheets; the rule (:mod:`reviewer.adjudication.rule`) then says, per (run, metric), whether
the raters agree and what is reported. Plain rows instead of whole ratings: the queue's
"Needs adjudication" filter reads every run after each change.
"""

from __future__ import annotations

import sqlite3
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence

from reviewer.adjudication import rule
from reviewer.adjudication.model import Adjudication, MetricDispute, RatedValue, ReportedValue
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import NotFoundError

_IN_FORCE = """
FROM ratings g
JOIN raters ra ON ra.rater_pk = g.rater_pk
JOIN runs r ON r.run_pk = g.run_pk
JOIN rating_items i ON i.rating_pk = g.rating_pk
WHERE g.status <> 'draft' AND ra.kind <> 'judge' AND i.outcome IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk
                  AND s.status <> 'draft')
"""
_VALUES = (
    "SELECT g.run_pk, r.run_id, ra.name, i.metric_id, i.outcome, i.score, i.comment,"
    " i.blind_outcome, i.blind_score, i.revision_reason,"
    " (SELECT sh.sheet_id FROM sheets sh WHERE sh.rating_pk = g.rating_pk), g.rating_pk" + _IN_FORCE
)
_PAIRS = "SELECT g.run_pk, i.metric_id, i.outcome, i.score" + _IN_FORCE
_IN_STUDY = " AND g.study_pk = (SELECT study_pk FROM studies WHERE name = ?)"
#: Per run: the study it is judged in and that study's adjudication threshold.
Thresholds = Mapping[int, tuple[str | None, int]]
_NO_STUDY = (None, rule.DEFAULT_THRESHOLD)


def read(
    conn: sqlite3.Connection,
    metric_ids: Sequence[str],
    *,
    study: str | None,
    run_pk: int | None,
    thresholds: Thresholds,
    in_force: Mapping[int, Adjudication],
) -> list[MetricDispute]:
    """Every (run, metric) rated by a person (within ``study`` / of ``run_pk``), in run
    then rubric order, with its status, the adjudication in force and the reported value."""
    rows = conn.execute(*_within(_VALUES, study, run_pk)).fetchall()
    # Each rater's cited steps, metric by metric: what an adjudicator weighs beside the scores.
    cited = ratings.citations_of(conn, sorted({row[-1] for row in rows}))
    values: dict[tuple[int, str], list[RatedValue]] = defaultdict(list)
    run_ids: dict[int, str | None] = {}
    for (
        pk,
        run_id,
        rater,
        metric,
        outcome,
        score,
        comment,
        b_out,
        b_score,
        why,
        sheet,
        rating_pk,
    ) in rows:
        run_ids[pk] = run_id
        evidence = tuple(c.label for c in cited.get(rating_pk, []) if c.metric_id == metric)
        values[(pk, metric)].append(
            RatedValue(rater=rater, outcome=outcome, score=score, comment=comment,
                       blind_outcome=b_out, blind_score=b_score, reason=why, sheet_id=sheet,
                       evidence=evidence)
        )  # fmt: skip
    rank = {m: i for i, m in enumerate(metric_ids)}
    out: list[MetricDispute] = []
    for (pk, metric), found in sorted(values.items(), key=lambda kv: _order(kv[0], rank)):
        where, threshold = thresholds.get(pk, _NO_STUDY)
        found.sort(key=lambda v: v.rater)
        adjudication = in_force.get(pk)
        decision = adjudication.items.get(metric) if adjudication else None
        decided = None
        if adjudication is not None and decision is not None:
            decided = rule.Decided(adjudicator=adjudication.adjudicator,
                                   outcome=decision.outcome, score=decision.score)  # fmt: skip
        out.append(
            MetricDispute(
                run_pk=pk,
                run_id=run_ids[pk],
                study=study or where,
                metric_id=metric,
                threshold=threshold,
                status=rule.status(found, threshold),
                values=tuple(found),
                decision=decision,
                adjudicator=None if decided is None else decided.adjudicator,
                reported=rule.reported(found, decided, threshold),
            )
        )
    return out


def _order(key: tuple[int, str], rank: Mapping[str, int]) -> tuple[int, int, str]:
    run_pk, metric = key
    return run_pk, rank.get(metric, len(rank)), metric


def reported_scores(
    conn: sqlite3.Connection,
    *,
    study: str | None,
    thresholds: Thresholds,
    in_force: Mapping[int, Adjudication],
) -> dict[tuple[int, str], float | None]:
    """``{(run_pk, metric_id): score}`` of every (run, metric) a person rated: what
    :func:`read` reports, without building its rows (results and validity want the score
    of every rated metric of the database)."""
    out: dict[tuple[int, str], float | None] = {}
    for (pk, metric), values in _pairs(conn, study).items():
        adjudication = in_force.get(pk)
        decision = adjudication.items.get(metric) if adjudication else None
        if decision is not None:
            out[(pk, metric)] = None if decision.score is None else float(decision.score)
            continue
        found = rule.reported_of(values, thresholds.get(pk, _NO_STUDY)[1])
        if found is not None:
            out[(pk, metric)] = found[1]
    return out


def reported_values(
    conn: sqlite3.Connection,
    *,
    study: str | None,
    thresholds: Thresholds,
    in_force: Mapping[int, Adjudication],
    run_pk: int | None = None,
    pairs: Pairs | None = None,
) -> dict[tuple[int, str], ReportedValue]:
    """``{(run_pk, metric_id): reported value}`` of every (run, metric) a person rated
    (within ``study`` / of ``run_pk``): :func:`read`'s ``reported`` with the raters' median
    score beside, from plain pairs (the dashboard reads every rated metric of the database,
    and :func:`read` builds each rater's value with its comment and cited steps).

    ``pairs``: the people's ``(outcome, score)`` per (run, metric), when the caller has
    already read them (the results read every decided item once); else read here."""
    out: dict[tuple[int, str], ReportedValue] = {}
    if pairs is None:
        pairs = _pairs(conn, study, run_pk)
    for (pk, metric), values in pairs.items():
        scores = [score for _, score in values if score is not None]
        median = float(statistics.median(scores)) if scores else None
        adjudication = in_force.get(pk)
        decision = adjudication.items.get(metric) if adjudication else None
        if decision is not None:  # an adjudication wins wherever there is one
            score = None if decision.score is None else float(decision.score)
            out[(pk, metric)] = ReportedValue(decision.outcome, score, "adjudicated", median)
            continue
        found = rule.reported_of(values, thresholds.get(pk, _NO_STUDY)[1])
        if found is not None:
            out[(pk, metric)] = ReportedValue(*found, median=median)
    return out


def open_runs(
    conn: sqlite3.Connection,
    *,
    thresholds: Thresholds,
    decided: set[tuple[int, str]],
) -> set[int]:
    """Runs with a metric its raters dispute that no adjudication in force decided."""
    found = set()
    for (pk, metric), values in _pairs(conn, None).items():
        if pk in found or (pk, metric) in decided:
            continue
        if rule.status_of(values, thresholds.get(pk, _NO_STUDY)[1]) == "disputed":
            found.add(pk)
    return found


def _within(sql: str, study: str | None, run_pk: int | None) -> tuple[str, list[object]]:
    """``sql`` over the ratings in force, narrowed to ``study`` and ``run_pk`` when given."""
    params: list[object] = []
    if run_pk is not None:
        sql += " AND g.run_pk = ?"
        params.append(run_pk)
    if study is not None:
        sql += _IN_STUDY
        params.append(study)
    return sql, params


#: The people's ``(outcome, score)`` values of each (run_pk, metric).
Pairs = Mapping[tuple[int, str], Sequence[tuple[str, int | None]]]


def _pairs(
    conn: sqlite3.Connection, study: str | None, run_pk: int | None = None
) -> dict[tuple[int, str], list[tuple[str, int | None]]]:
    """The people's ``(outcome, score)`` of each (run, metric) (within ``study`` / of
    ``run_pk``): plain pairs, for what reads every rated metric of the database at once."""
    pairs: dict[tuple[int, str], list[tuple[str, int | None]]] = defaultdict(list)
    for pk, metric, outcome, score in conn.execute(*_within(_PAIRS, study, run_pk)):
        pairs[(pk, metric)].append((outcome, score))
    return pairs


def threshold(conn: sqlite3.Connection, study: str) -> int:
    """The score gap at which the study's raters need adjudication."""
    row = conn.execute(
        "SELECT adjudication_threshold FROM studies WHERE name = ?", (study,)
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no study {study!r} in this database")
    return int(row[0])


def set_threshold(db: Database, study: str, threshold: int, *, at: str) -> None:
    """Set the study's threshold (checked by the caller; audited)."""
    with write_transaction(db):
        cursor = db.conn.execute(
            "UPDATE studies SET adjudication_threshold = ? WHERE name = ?", (threshold, study)
        )
        if cursor.rowcount != 1:
            raise NotFoundError(f"no study {study!r} in this database")
        details = {"study": study, "adjudication_threshold": threshold}
        audit.append(db.conn, [("adjudication_threshold", None, details)], at=at)


def run_thresholds(
    conn: sqlite3.Connection, study: str | None
) -> dict[int, tuple[str | None, int]]:
    """Per run: the study it is judged in and that study's threshold (the strictest,
    i.e. smallest, when a run is in several and none was named)."""
    sql = (
        "SELECT sr.run_pk, st.name, st.adjudication_threshold FROM study_runs sr"
        " JOIN studies st ON st.study_pk = sr.study_pk"
    )
    rows = conn.execute(
        sql + (" WHERE st.name = ?" if study else "") + " ORDER BY st.study_pk",
        (study,) if study else (),
    )
    out: dict[int, tuple[str | None, int]] = {}
    for run_pk, name, value in rows:
        if run_pk not in out or value < out[run_pk][1]:
            out[run_pk] = (name, int(value))
    return out

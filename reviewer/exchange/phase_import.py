"""Headless blind protocol: ``ratings import --phase blind|final`` (and ``open`` in a study).

``blind`` stores each run's rows as the rater's blind rating, frozen at once, exactly as a
blind submit in the window. ``final`` reveals (if not yet) and submits the final values;
every metric whose outcome or score differs from its blind value needs a ``reason``.
``open`` stores submitted ratings within a study (open protocol, or the control arm).
All rows valid or nothing written, every problem reported with its line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Literal

from reviewer.evidence import Citation
from reviewer.exchange import longformat as exchange
from reviewer.exchange.rating_import import StepLookup, adjudicator_problem
from reviewer.rubric import RatingItem, Rubric
from reviewer.store import audit, ratings, runs
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import RatingsFileError
from reviewer.store.models import Rater
from reviewer.store.rubrics import RubricRegistry
from reviewer.studies import qualifying

Phase = Literal["open", "blind", "final"]
PHASES: tuple[str, ...] = ("open", "blind", "final")


def import_phase(
    db: Database,
    rubrics: RubricRegistry,
    rows: Sequence[exchange.LongRow],
    *,
    rater: str,
    phase: Phase,
    study: str | None,
    source: str,
    at: str,
) -> list[int]:
    """Write one phase of ``rater``'s ratings; returns the rating keys written."""
    rubric = rubrics.current
    with write_transaction(db):
        conn = db.conn
        r = ratings.add_rater(conn, rater, at=at)
        rubric_pk = rubrics.register(at=at)
        errors: list[tuple[int, str]] = []
        groups: dict[int, list[exchange.LongRow]] = {}
        seen: dict[tuple[str, str], int] = {}
        steps = StepLookup(db)
        cited: dict[int, list[Citation]] = {}
        for row in rows:
            run_pk, problem = runs.resolve_run(conn, row.run_id)
            if run_pk is None:  # then ``problem`` says why
                errors.append((row.line, problem or f"unknown run_id {row.run_id!r}"))
                continue
            key = (row.run_id, row.metric)
            if key in seen:
                errors.append((row.line, f"{row.metric} of {row.run_id} again (line {seen[key]})"))
                continue
            seen[key] = row.line
            for p in rubric.validate_item(row.metric, row.outcome, row.score, row.comment):
                errors.append((row.line, f"{row.run_id}, {row.metric}: {p}"))
            if row.evidence and row.metric in rubric.metric_ids:
                cited[row.line] = steps.citations(run_pk, row, errors)
            groups.setdefault(run_pk, []).append(row)
        plans: dict[int, _Plan] = {}
        for run_pk, group in groups.items():
            missing = [m for m in rubric.metric_ids if m not in {g.metric for g in group}]
            if missing:
                errors.append(
                    (group[0].line, f"{group[0].run_id}: no row for {', '.join(missing)}")
                )
            plan = _plan(conn, run_pk, r.rater_pk, rater, phase, study, group, errors)
            plans[run_pk] = plan
            if phase != "blind":  # blind values are frozen without it, as in the window
                _evidence(conn, rubric, plan[1], group, cited, errors)
        if errors:
            ordered = sorted(errors, key=lambda e: e[0])
            raise RatingsFileError(source, ordered)
        written = [
            _write(conn, plans[pk], group, cited, r, rubric_pk, phase, at=at)
            for pk, group in groups.items()
        ]
        details = {"source": source, "phase": phase, "study": study, "ratings": len(written)}
        audit.append(conn, [("ratings_import", r.name, details)], at=at)
    return written


#: ``(study_pk, live rating_pk)`` of one run; either may be None.
_Plan = tuple[int | None, int | None]


def _plan(
    conn: sqlite3.Connection,
    run_pk: int,
    rater_pk: int,
    rater: str,
    phase: Phase,
    study: str | None,
    group: Sequence[exchange.LongRow],
    errors: list[tuple[int, str]],
) -> _Plan:
    """``(study_pk, live rating_pk or None)`` for one run, or problems added to ``errors``."""
    line, run_id = group[0].line, group[0].run_id
    sql = (
        "SELECT s.study_pk, s.name, s.protocol, a.reveal_first FROM assignments a"
        " JOIN studies s ON s.study_pk = a.study_pk WHERE a.run_pk = ? AND a.rater_pk = ?"
    )
    found = conn.execute(sql, (run_pk, rater_pk)).fetchall()
    if study is not None:
        found = [f for f in found if f[1] == study]
    if len(found) != 1:
        where = f"study {study!r}" if study else "any study"
        why = "not assigned" if not found else "assigned in several studies (give --study)"
        errors.append((line, f"{run_id}: {rater} is {why} in {where}"))
        return (None, None)
    study_pk, name, protocol, arm = found[0]
    restricted = qualifying.restriction(conn, name, run_pk, rater)
    if restricted is not None:
        errors.append((line, f"{run_id}: {restricted}"))
    blind_study = protocol == "blind" and not arm
    if phase == "open" and blind_study:
        errors.append((line, f"{run_id}: study {name!r} is blind: import --phase blind first"))
    if phase != "open" and not blind_study:
        errors.append((line, f"{run_id}: {name!r} shows {rater} the scorer: use --phase open"))
    adjudicated = adjudicator_problem(conn, run_pk, rater_pk, run_id, rater)
    if adjudicated:
        errors.append((line, adjudicated))
    live = ratings.live_pk(conn, run_pk, rater_pk)
    state = None
    if live is not None:
        state = conn.execute(
            "SELECT status, blind_submitted_at IS NOT NULL, study_pk FROM ratings"
            " WHERE rating_pk = ?",
            (live,),
        ).fetchone()
    if phase == "final":
        # (``state`` is None exactly when ``live`` is.)
        if live is None or state is None or not state[1] or state[0] != "draft":
            errors.append((line, f"{run_id}: {rater} has no blind rating awaiting its final"))
        else:
            _reasons(conn, live, group, errors)
    elif state is not None and (
        state[0] != "draft" or state[1] or state[2] not in (None, study_pk)
    ):
        errors.append((line, f"{run_id}: {rater} already has rating {live} of it"))
    return (study_pk, live)


def _reasons(
    conn: sqlite3.Connection,
    live: int,
    group: Sequence[exchange.LongRow],
    errors: list[tuple[int, str]],
) -> None:
    blind = {
        m: (o, s)
        for m, o, s in conn.execute(
            "SELECT metric_id, blind_outcome, blind_score FROM rating_items WHERE rating_pk = ?",
            (live,),
        )
    }
    for row in group:
        was = blind.get(row.metric, (row.outcome, row.score))
        if was != (row.outcome, row.score) and not row.reason.strip():
            errors.append(
                (row.line, f"{row.run_id}, {row.metric}: changed from {was[0]} {was[1]}"
                 " since the blind phase: the reason column must say why")
            )  # fmt: skip


def _evidence(
    conn: sqlite3.Connection,
    rubric: Rubric,
    live: int | None,
    group: Sequence[exchange.LongRow],
    cited: dict[int, list[Citation]],
    errors: list[tuple[int, str]],
) -> None:
    # A submitted rating's evidence rule counts the steps already cited (in the window,
    # during the blind phase) and those the file adds.
    before = ratings.citations_of(conn, [live]).get(live, []) if live is not None else []
    for row in group:
        keys = {c.key for c in before if c.metric_id == row.metric}
        keys |= {c.key for c in cited.get(row.line, [])}
        if row.outcome == "applicable" and row.metric in rubric.metric_ids:
            problem = rubric.evidence_problem(row.metric, row.score, len(keys))
            if problem:
                errors.append((row.line, f"{row.run_id}, {row.metric}: {problem}"))


def _write(
    conn: sqlite3.Connection,
    plan: _Plan,
    group: Sequence[exchange.LongRow],
    cited: dict[int, list[Citation]],
    r: Rater,
    rubric_pk: int,
    phase: Phase,
    *,
    at: str,
) -> int:
    study_pk, pk = plan
    if pk is None:
        pk = ratings.insert_rating(
            conn, run_pk=_run_pk(conn, group[0].run_id), rater_pk=r.rater_pk,
            rubric_pk=rubric_pk, at=at,
        )  # fmt: skip
        conn.execute("UPDATE ratings SET study_pk = ? WHERE rating_pk = ?", (study_pk, pk))
    if phase == "final":
        conn.execute(
            "UPDATE ratings SET revealed_at = COALESCE(revealed_at, ?) WHERE rating_pk = ?",
            (at, pk),
        )
    items = {}
    for row in group:
        item = RatingItem(metric_id=row.metric, outcome=row.outcome, score=row.score,
                          comment=row.comment)  # fmt: skip
        ratings.upsert_item(conn, pk, item, at=at)
        for citation in cited.get(row.line, []):
            ratings.insert_citation(conn, pk, citation, at=at)
        items[row.metric] = item
        if phase == "final" and row.reason.strip():
            conn.execute(
                "UPDATE rating_items SET revision_reason = ? WHERE rating_pk = ? AND metric_id = ?",
                (row.reason, pk, row.metric),
            )
    overall = next((g.overall_comment for g in group if g.overall_comment.strip()), "")
    # The same details as the window's blind submit and submit: ``audit verify`` reads them,
    # under the rubric the rating was made with (a final may follow a blind of another day).
    run_pk, rubric_sha = conn.execute(
        "SELECT g.run_pk, r.sha256 FROM ratings g JOIN rubrics r ON r.rubric_pk = g.rubric_pk"
        " WHERE g.rating_pk = ?",
        (pk,),
    ).fetchone()
    evidence = ratings.citations_of(conn, [pk]).get(pk, [])
    digest = ratings.content_sha256(items, overall, rubric_sha, evidence)
    details = {"rating_pk": pk, "run_pk": run_pk, "content_sha256": digest, "source": "file"}
    study = conn.execute(
        "SELECT s.name FROM ratings g JOIN studies s ON s.study_pk = g.study_pk"
        " WHERE g.rating_pk = ?",
        (pk,),
    ).fetchone()
    if study is not None:
        details["study"] = study[0]
    reasons = ratings.reasons_sha256(ratings.reasons_of(conn, pk))
    if reasons is not None:
        details["reasons_sha256"] = reasons
    if phase == "blind":
        details["blind_sha256"] = ratings.blind_sha256(items, rubric_sha)
        conn.execute(
            "UPDATE rating_items SET blind_outcome = outcome, blind_score = score,"
            " blind_comment = comment WHERE rating_pk = ?",
            (pk,),
        )
        conn.execute(
            "UPDATE ratings SET blind_submitted_at = ?, overall_comment = ?,"
            " version = version + 1, updated_at = ? WHERE rating_pk = ?",
            (at, overall, at, pk),
        )
        audit.append(conn, [("blind_submit", r.name, details)], at=at)
        return pk
    conn.execute(
        "UPDATE ratings SET status = 'submitted', submitted_at = ?, overall_comment = ?,"
        " version = version + 1, updated_at = ? WHERE rating_pk = ?",
        (at, overall, at, pk),
    )
    audit.append(conn, [("submit", r.name, details)], at=at)
    return pk


def _run_pk(conn: sqlite3.Connection, run_id: str) -> int:
    pk, _ = runs.resolve_run(conn, run_id)
    assert pk is not None  # checked while planning
    return pk

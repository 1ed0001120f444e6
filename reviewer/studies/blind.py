"""The blind protocol: blind submit (frozen), reveal, reasons for revisions, final submit.

A rating within a blind study goes draft (blind) → blind submitted (its values copied to
the ``blind_*`` columns of its items, frozen by triggers; nothing changes until the
reveal) → revealed (``revealed_at``; the rater confirms or revises each metric, a revised
one needs a ``revision_reason``) → submitted through the ordinary lifecycle. Triggers hold
these rules whatever the caller: a blind-study rating cannot be submitted without the
reveal (outside the control arm), and not with a revised metric lacking a reason.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from reviewer.rubric import RatingItem
from reviewer.store import audit, lifecycle, ratings
from reviewer.store.connection import Database, read_transaction, write_transaction
from reviewer.store.errors import (
    NotFoundError,
    RatingIncompleteError,
    RatingStateError,
    StoreError,
)
from reviewer.store.models import Rating
from reviewer.store.rubrics import RubricRegistry
from reviewer.studies import qualifying
from reviewer.studies.rows import BlindValues, RaterRunState

_CONTEXT = """
SELECT g.study_pk, s.name, s.protocol, g.blind_submitted_at, g.revealed_at,
    (SELECT a.reveal_first FROM assignments a WHERE a.study_pk = g.study_pk
        AND a.run_pk = g.run_pk AND a.rater_pk = g.rater_pk)
FROM ratings g LEFT JOIN studies s ON s.study_pk = g.study_pk WHERE g.rating_pk = ?
"""


def _context(conn: sqlite3.Connection, rating_pk: int) -> tuple[Any, ...]:
    row: tuple[Any, ...] | None = conn.execute(_CONTEXT, (rating_pk,)).fetchone()
    if row is None:
        raise NotFoundError(f"no rating {rating_pk} in this database")
    return row


def start(
    db: Database,
    rubrics: RubricRegistry,
    study: str,
    run_pk: int,
    rater: str,
    *,
    at: str,
) -> Rating:
    """The rater's live rating of the run within ``study``; a new draft if there is none."""
    with write_transaction(db):
        conn = db.conn
        row = conn.execute(
            "SELECT s.study_pk FROM studies s JOIN assignments a ON a.study_pk = s.study_pk"
            " JOIN raters ra ON ra.rater_pk = a.rater_pk"
            " WHERE s.name = ? AND a.run_pk = ? AND ra.name = ?",
            (study, run_pk, rater),
        ).fetchone()
        if row is None:
            raise StoreError(f"{rater} is not assigned run {run_pk} in study {study!r}")
        restricted = qualifying.restriction(conn, study, run_pk, rater)
        if restricted is not None:
            raise StoreError(restricted)
        study_pk = int(row[0])
        r = ratings.add_rater(conn, rater, at=at)
        pk = ratings.live_pk(conn, run_pk, r.rater_pk)
        if pk is None:
            pk = ratings.insert_rating(
                conn, run_pk=run_pk, rater_pk=r.rater_pk, rubric_pk=rubrics.register(at=at), at=at
            )
            conn.execute("UPDATE ratings SET study_pk = ? WHERE rating_pk = ?", (study_pk, pk))
            details = {"rating_pk": pk, "run_pk": run_pk, "study": study,
                       "rubric_sha256": rubrics.current.sha256}  # fmt: skip
            audit.append(conn, [("rating_start", r.name, details)], at=at)
        else:
            own = conn.execute("SELECT study_pk, status FROM ratings WHERE rating_pk = ?", (pk,))
            have, status = own.fetchone()
            if have is None and status == "draft":
                conn.execute("UPDATE ratings SET study_pk = ? WHERE rating_pk = ?", (study_pk, pk))
                details = {"rating_pk": pk, "run_pk": run_pk, "study": study}
                audit.append(conn, [("study_attach", r.name, details)], at=at)
            elif have != study_pk:
                raise StoreError(
                    f"{rater} already rated run {run_pk} outside study {study!r} (rating {pk})"
                )
        return ratings.load(conn, rubrics, pk)


def submit_blind(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Freeze the blind rating: complete, then its values copied and locked; logged."""
    with write_transaction(db):
        conn = db.conn
        h = lifecycle.open_draft(db, rating_pk, expected_version)
        _, study, protocol, blind_at, _, arm = _context(conn, rating_pk)
        if protocol != "blind" or arm:
            raise RatingStateError(f"rating {rating_pk} is not in the blind phase of a study")
        if blind_at is not None:
            raise RatingStateError(f"rating {rating_pk} was submitted blind already")
        current = ratings.load(conn, rubrics, rating_pk)
        rubric = rubrics.get(h.rubric_pk)
        problems = rubric.problems(current.items)
        if problems:
            raise RatingIncompleteError(rating_pk, problems)
        conn.execute(
            "UPDATE rating_items SET blind_outcome = outcome, blind_score = score,"
            " blind_comment = comment WHERE rating_pk = ?",
            (rating_pk,),
        )
        digest = ratings.content_sha256(current.items, current.overall_comment, rubric.sha256)
        details = {"rating_pk": rating_pk, "run_pk": h.run_pk, "study": study,
                   "content_sha256": digest,
                   "blind_sha256": ratings.blind_sha256(current.items, rubric.sha256)}  # fmt: skip
        return lifecycle.record(
            db, rubrics, h, "blind_submit", details, at=at, blind_submitted_at=at
        )


def reveal(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Show the scorer: records ``revealed_at``; the blind values stay as they are."""
    with write_transaction(db):
        h = lifecycle.open_draft(db, rating_pk, expected_version)
        _, study, _, blind_at, revealed_at, _ = _context(db.conn, rating_pk)
        if blind_at is None:
            raise RatingStateError(f"rating {rating_pk}: submit the blind rating before the reveal")
        if revealed_at is not None:
            raise RatingStateError(f"rating {rating_pk} was revealed already")
        details = {"rating_pk": rating_pk, "run_pk": h.run_pk, "study": study}
        return lifecycle.record(db, rubrics, h, "reveal", details, at=at, revealed_at=at)


def save_reason(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    metric_id: str,
    reason: str,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Autosave why a metric was revised after the reveal."""
    with write_transaction(db):
        h = lifecycle.open_draft(db, rating_pk, expected_version)
        if _context(db.conn, rating_pk)[4] is None:
            raise RatingStateError(f"rating {rating_pk} is not revealed: no revision yet")
        cursor = db.conn.execute(
            "UPDATE rating_items SET revision_reason = ? WHERE rating_pk = ? AND metric_id = ?",
            (reason, rating_pk, metric_id),
        )
        if cursor.rowcount != 1:
            raise NotFoundError(f"rating {rating_pk} has no item {metric_id!r}")
        details = {"rating_pk": rating_pk, "metric_id": metric_id, "reason": reason}
        return lifecycle.record(db, rubrics, h, "revision_reason", details, at=at)


def missing_reasons(conn: sqlite3.Connection, rating_pk: int) -> list[tuple[str, str]]:
    """``(metric_id, message)`` for each revised metric that has no reason yet."""
    rows = conn.execute(
        "SELECT metric_id, blind_outcome, blind_score, outcome, score FROM rating_items"
        " WHERE rating_pk = ? AND blind_outcome IS NOT NULL"
        " AND (outcome IS NOT blind_outcome OR score IS NOT blind_score)"
        " AND trim(COALESCE(revision_reason, '')) = '' ORDER BY metric_id",
        (rating_pk,),
    )
    return [
        (m, f"revised from {_value(bo, bs)} to {_value(o, s)}: give the reason")
        for m, bo, bs, o, s in rows
    ]


def _value(outcome: str | None, score: int | None) -> str:
    return f"{outcome} {score}" if score is not None else str(outcome)


def check_final(conn: sqlite3.Connection, rating_pk: int) -> None:
    """Refuse a final submit before the reveal or with a revision lacking its reason."""
    _, _, protocol, _, revealed_at, arm = _context(conn, rating_pk)
    if protocol == "blind" and not arm and revealed_at is None:
        raise RatingStateError(
            f"rating {rating_pk} is in a blind study: submit it blind and reveal first"
        )
    problems = missing_reasons(conn, rating_pk)
    if problems:
        raise RatingIncompleteError(rating_pk, problems)


def blind_values(conn: sqlite3.Connection, rating_pk: int) -> BlindValues:
    """The blind values and revision reasons of a rating (empty outside blind studies)."""
    with read_transaction(conn):
        _, _, _, blind_at, revealed_at, _ = _context(conn, rating_pk)
        rows = conn.execute(
            "SELECT metric_id, blind_outcome, blind_score, blind_comment, revision_reason"
            " FROM rating_items WHERE rating_pk = ?",
            (rating_pk,),
        ).fetchall()
    items = {
        m: RatingItem(metric_id=m, outcome=o, score=s, comment=c or "")
        for m, o, s, c, _ in rows
        if o is not None
    }
    reasons = {m: r for m, *_, r in rows if r}
    return BlindValues(
        items=items, reasons=reasons, blind_submitted_at=blind_at, revealed_at=revealed_at
    )


def may_see_others(conn: sqlite3.Connection, run_pk: int, rater: str | None) -> bool:
    """Whether ``rater`` may see other raters' ratings of the run: only once they have
    submitted their own (a draft or a blind-only rating is not enough)."""
    if rater is None:
        return False
    row = conn.execute(
        "SELECT 1 FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk"
        " WHERE g.run_pk = ? AND ra.name = ? AND g.status <> 'draft' LIMIT 1",
        (run_pk, rater),
    ).fetchone()
    return row is not None


def state(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    run_pk: int,
    rater: str,
    *,
    study: str | None = None,
) -> RaterRunState:
    """The rater's view of the run: study, phase, control arm, rating, blind values."""
    with read_transaction(conn):
        live = ratings.load_where(
            conn, rubrics, "g.run_pk = ? AND ra.name = ?", (run_pk, rater), live_only=True
        )
        rating = live[0] if live else None
        sql = (
            "SELECT s.name, s.protocol, a.position, a.reveal_first FROM studies s"
            " LEFT JOIN assignments a ON a.study_pk = s.study_pk AND a.run_pk = ?"
            " AND a.rater_pk = (SELECT rater_pk FROM raters WHERE name = ?)"
        )
        if study is not None:
            row = conn.execute(sql + " WHERE s.name = ?", (run_pk, rater, study)).fetchone()
            if row is None:
                raise NotFoundError(f"no study {study!r} in this database")
        elif rating is not None and _context(conn, rating.rating_pk)[0] is not None:
            pk = _context(conn, rating.rating_pk)[0]
            row = conn.execute(sql + " WHERE s.study_pk = ?", (run_pk, rater, pk)).fetchone()
        elif rating is not None and rating.status != "draft":
            row = None  # rated outside any study: it stays so
        else:
            row = conn.execute(
                sql + " WHERE a.position IS NOT NULL ORDER BY s.study_pk LIMIT 1", (run_pk, rater)
            ).fetchone()
        name, protocol, position, arm = row if row else (None, "open", None, None)
        blind = blind_values(conn, rating.rating_pk) if rating else BlindValues()
        others = may_see_others(conn, run_pk, rater)
    if protocol != "blind" or arm:
        phase = "open"
    elif blind.blind_submitted_at is None:
        phase = "blind"
    elif blind.revealed_at is None:
        phase = "sealed"
    else:
        phase = "revealed"
    return RaterRunState(
        run_pk=run_pk,
        rater=rater,
        study=name,
        protocol=protocol,
        phase=phase,
        reveal_first=bool(arm),
        assigned=position is not None,
        position=position,
        rating=rating,
        blind=blind,
        scorer_visible=phase in ("open", "revealed"),
        may_see_others=others,
    )

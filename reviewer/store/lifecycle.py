"""The rating lifecycle: draft → submitted → signed, and corrections that supersede.

Each function is one write transaction: the checks (state, optimistic version) and the
write they guard happen under the same lock, the audit entry commits with them, and the
rating returned is read back inside it (exactly what this call wrote, nobody else's save).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from reviewer import evidence
from reviewer.rubric import RatingItem
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import (
    ConflictError,
    NotFoundError,
    RatingIncompleteError,
    RatingStateError,
    RatingValidationError,
)
from reviewer.store.models import Rating, SheetRow
from reviewer.store.rubrics import RubricRegistry


def _editable(h: ratings.Head, expected_version: int) -> None:
    # Version first: a stale client learns to reload, whatever happened to the rating.
    if h.version != expected_version:
        raise ConflictError(h.rating_pk, expected_version, h.version)
    if h.status != "draft":
        raise RatingStateError(
            f"rating {h.rating_pk} is {h.status}: it is never edited in place; "
            "supersede it to correct it"
        )


def _bump(db: Database, h: ratings.Head, *, at: str, **changes: object) -> None:
    sets = ", ".join(f"{k} = :{k}" for k in changes)
    cursor = db.conn.execute(
        f"UPDATE ratings SET version = version + 1, updated_at = :at{', ' + sets if sets else ''}"
        " WHERE rating_pk = :pk AND version = :version",
        {"at": at, "pk": h.rating_pk, "version": h.version, **changes},
    )
    if cursor.rowcount != 1:  # unreachable under BEGIN IMMEDIATE; kept as the last guard
        raise ConflictError(h.rating_pk, h.version, -1)


def open_draft(db: Database, rating_pk: int, expected_version: int) -> ratings.Head:
    """The head of the draft a write is about to change, once it may be changed.

    Every write to a draft starts here, inside its transaction (:mod:`reviewer.studies.blind`
    and :mod:`reviewer.store.citations` too).
    """
    h = ratings.head(db.conn, rating_pk)
    _editable(h, expected_version)
    return h


def record(
    db: Database,
    rubrics: RubricRegistry,
    h: ratings.Head,
    action: str,
    details: dict[str, Any],
    *,
    at: str,
    **changes: object,
) -> Rating:
    """Finish a write to a rating inside its transaction: bump the version (setting
    ``changes``), append the audit entry ``action`` and read back what this call wrote."""
    _bump(db, h, at=at, **changes)
    audit.append(db.conn, [(action, h.rater, details)], at=at)
    return ratings.load(db.conn, rubrics, h.rating_pk)


def start(db: Database, rubrics: RubricRegistry, run_pk: int, rater: str, *, at: str) -> Rating:
    """The rater's live rating of the run, a new draft if there is none."""
    with write_transaction(db):
        if db.conn.execute("SELECT 1 FROM runs WHERE run_pk = ?", (run_pk,)).fetchone() is None:
            raise NotFoundError(f"no run {run_pk} in this database")
        r = ratings.add_rater(db.conn, rater, at=at)
        pk = ratings.live_pk(db.conn, run_pk, r.rater_pk)
        if pk is None:
            rubric_pk = rubrics.register(at=at)
            pk = ratings.insert_rating(
                db.conn, run_pk=run_pk, rater_pk=r.rater_pk, rubric_pk=rubric_pk, at=at
            )
            details = {"rating_pk": pk, "run_pk": run_pk, "rubric_sha256": rubrics.current.sha256}
            audit.append(db.conn, [("rating_start", r.name, details)], at=at)
        return ratings.load(db.conn, rubrics, pk)


def save_item(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    metric_id: str,
    *,
    outcome: str | None,
    score: int | None,
    comment: str,
    expected_version: int,
    at: str,
) -> Rating:
    """Autosave one metric of a draft (incomplete is fine, impossible is not)."""
    with write_transaction(db):
        h = open_draft(db, rating_pk, expected_version)
        rubric = rubrics.get(h.rubric_pk)
        problems = rubric.validate_item(metric_id, outcome, score, comment, complete=False)
        if problems:
            raise RatingValidationError(f"rating {rating_pk}, {metric_id}: {'; '.join(problems)}")
        item = RatingItem(metric_id=metric_id, outcome=outcome, score=score, comment=comment)
        ratings.upsert_item(db.conn, rating_pk, item, at=at)
        details = {"rating_pk": rating_pk, "version": h.version + 1, **item.model_dump()}
        return record(db, rubrics, h, "rating_save", details, at=at)


def save_overall_comment(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    text: str,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Autosave the free-text comment on the whole run (bounded by the rubric)."""
    with write_transaction(db):
        h = open_draft(db, rating_pk, expected_version)
        too_long = rubrics.get(h.rubric_pk).comment_problem(text)
        if too_long:
            raise RatingValidationError(f"rating {rating_pk}, overall comment: {too_long}")
        details = {"rating_pk": rating_pk, "version": h.version + 1, "overall_comment": text}
        return record(db, rubrics, h, "rating_comment", details, at=at, overall_comment=text)


def submit(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Draft → submitted, once every metric is complete; lists every problem otherwise."""
    with write_transaction(db):
        h = open_draft(db, rating_pk, expected_version)
        current = ratings.load(db.conn, rubrics, rating_pk)
        rubric = rubrics.get(h.rubric_pk)
        problems = rubric.problems(current.items, evidence.counts(current.citations))
        if problems:
            raise RatingIncompleteError(rating_pk, problems)
        digest = ratings.content_sha256(
            current.items, current.overall_comment, rubric.sha256, current.citations
        )
        details = {"rating_pk": rating_pk, "run_pk": h.run_pk, "content_sha256": digest}
        reasons = ratings.reasons_sha256(ratings.reasons_of(db.conn, rating_pk))
        if reasons is not None:  # a blind-study rating revised after the reveal
            details["reasons_sha256"] = reasons
        changes = {"status": "submitted", "submitted_at": at}
        return record(db, rubrics, h, "submit", details, at=at, **changes)


def supersede(
    db: Database, rubrics: RubricRegistry, rating_pk: int, rater: str, *, at: str
) -> Rating:
    """A new draft correcting a submitted or signed rating; the old one stays as it was."""
    with write_transaction(db):
        h = ratings.head(db.conn, rating_pk)
        if h.rater != rater:
            raise RatingStateError(f"rating {rating_pk} is {h.rater}'s: only they can correct it")
        if h.status == "draft":
            raise RatingStateError(f"rating {rating_pk} is a draft: edit it in place")
        if h.superseded_by is not None:
            raise RatingStateError(
                f"rating {rating_pk} was already superseded by rating {h.superseded_by}"
            )
        old = ratings.load(db.conn, rubrics, rating_pk)
        rubric_pk = rubrics.register(at=at)
        new_pk = ratings.insert_rating(
            db.conn,
            run_pk=h.run_pk,
            rater_pk=h.rater_pk,
            rubric_pk=rubric_pk,
            at=at,
            overall_comment=old.overall_comment,
            supersedes_pk=rating_pk,
        )
        # Under a newer rubric only the metrics it still has carry over.
        for metric_id, item in old.items.items():
            if metric_id in rubrics.current.metric_ids and item.outcome is not None:
                ratings.upsert_item(db.conn, new_pk, item, at=at)
        # The evidence carries over too; the old rating keeps its own, frozen with it.
        carried = [c for c in old.citations if c.metric_id in rubrics.current.metric_ids]
        for citation in carried:
            ratings.insert_citation(db.conn, new_pk, citation, at=at)
        details = {"rating_pk": new_pk, "supersedes_pk": rating_pk, "run_pk": h.run_pk}
        if carried:
            details["citations"] = len(carried)
        audit.append(db.conn, [("supersede", h.rater, details)], at=at)
        return ratings.load(db.conn, rubrics, new_pk)


def mark_signed(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    *,
    sheet_id: str,
    sheet_json: str,
    at: str,
) -> Rating:
    """Submitted → signed, keeping the signed sheet verbatim; both immutable afterwards."""
    try:
        json.loads(sheet_json)
    except ValueError as exc:
        raise RatingValidationError(f"the signed sheet is not JSON: {exc}") from None
    if not sheet_id.strip():
        raise RatingValidationError("a signed sheet needs a sheet_id")
    with write_transaction(db):
        h = ratings.head(db.conn, rating_pk)
        if h.status != "submitted":
            raise RatingStateError(f"rating {rating_pk} is {h.status}: only a submitted one signs")
        if h.superseded_by is not None:
            raise RatingStateError(
                f"rating {rating_pk} was superseded by rating {h.superseded_by}: sign that one"
            )
        if db.utils["sheets"].count_where("sheet_id = ?", [sheet_id]):
            raise RatingValidationError(f"a sheet with id {sheet_id!r} is already stored")
        db.utils.table("sheets").insert(
            {
                "sheet_id": sheet_id,
                "rating_pk": rating_pk,
                "sheet_json": sheet_json,
                "signed_at": at,
            }
        )
        sheet_sha = hashlib.sha256(sheet_json.encode("utf-8")).hexdigest()
        details = {"rating_pk": rating_pk, "sheet_id": sheet_id, "sheet_sha256": sheet_sha}
        return record(db, rubrics, h, "sign", details, at=at, status="signed", signed_at=at)


def signed_sheets(conn: sqlite3.Connection, *, rater: str | None = None) -> list[SheetRow]:
    """Every signed sheet (of ``rater`` if given), in signing order."""
    sql = (
        "SELECT sh.sheet_id, sh.rating_pk, r.run_id, ra.name, sh.sheet_json, sh.signed_at"
        " FROM sheets sh JOIN ratings g ON g.rating_pk = sh.rating_pk"
        " JOIN runs r ON r.run_pk = g.run_pk JOIN raters ra ON ra.rater_pk = g.rater_pk"
    )
    params: tuple[Any, ...] = ()
    if rater is not None:
        sql, params = sql + " WHERE ra.name = ?", (rater,)
    fields = ("sheet_id", "rating_pk", "run_id", "rater", "sheet_json", "signed_at")
    rows = conn.execute(sql + " ORDER BY sh.signed_at, sh.rating_pk", params)
    return [SheetRow(**dict(zip(fields, row, strict=True))) for row in rows]


def sheet_texts(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """``(sheet_id, sheet_json)`` of every signed rating sheet, in no set order."""
    rows = conn.execute("SELECT sheet_id, sheet_json FROM sheets")
    return [(str(a), str(b)) for a, b in rows]

"""Adjudications in the store: reading them, and their lifecycle (draft → submitted → signed).

Stored like ratings (``adjudications`` and ``adjudication_items``): one live adjudication
per (run, adjudicator), corrections supersede, triggers keep submitted and signed ones
unchanged and refuse an adjudicator who rated the run. Each writing function is one write
transaction with its audit entry; what it returns is read back inside it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reviewer.adjudication.model import Adjudication, AdjudicationItem
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, read_transaction, write_transaction
from reviewer.store.errors import (
    ConflictError,
    NotFoundError,
    RatingIncompleteError,
    RatingStateError,
    RatingValidationError,
    StoreError,
)
from reviewer.store.rubrics import RubricRegistry

_SELECT = """
SELECT a.adjudication_pk, a.run_pk, ra.name, a.status, a.version, ru.sha256,
    (SELECT st.name FROM studies st WHERE st.study_pk = a.study_pk),
    a.created_at, a.updated_at, a.submitted_at, a.signed_at, a.collected_at, a.supersedes_pk,
    (SELECT s.adjudication_pk FROM adjudications s WHERE s.supersedes_pk = a.adjudication_pk),
    (SELECT sh.sheet_id FROM adjudication_sheets sh WHERE sh.adjudication_pk = a.adjudication_pk)
FROM adjudications a JOIN raters ra ON ra.rater_pk = a.rater_pk
JOIN rubrics ru ON ru.rubric_pk = a.rubric_pk
"""
_FIELDS = (
    "adjudication_pk",
    "run_pk",
    "adjudicator",
    "status",
    "version",
    "rubric_sha256",
    "study",
    "created_at",
    "updated_at",
    "submitted_at",
    "signed_at",
    "collected_at",
    "supersedes_pk",
    "superseded_by_pk",
    "sheet_id",
)
LIVE = "NOT EXISTS (SELECT 1 FROM adjudications s WHERE s.supersedes_pk = a.adjudication_pk)"
#: The adjudication in force on a run: non-draft, not superseded by a non-draft correction.
IN_FORCE = (
    "a.status <> 'draft' AND NOT EXISTS (SELECT 1 FROM adjudications s"
    " WHERE s.supersedes_pk = a.adjudication_pk AND s.status <> 'draft')"
)


class AdjudicationConflictError(ConflictError):
    """The adjudication was saved elsewhere since it was read: reload it."""


def load_where(
    conn: sqlite3.Connection, where: str, params: Iterable[object] = ()
) -> list[Adjudication]:
    """Adjudications matching a WHERE clause over ``adjudications a``, oldest first."""
    with read_transaction(conn):
        query = f"{_SELECT} WHERE {where} ORDER BY a.adjudication_pk"
        rows = conn.execute(query, tuple(params)).fetchall()
        items: dict[int, dict[str, AdjudicationItem]] = {}
        for row in rows:
            found = conn.execute(
                "SELECT metric_id, outcome, score, reason, sides_with FROM adjudication_items"
                " WHERE adjudication_pk = ?",
                (row[0],),
            )
            items[row[0]] = {
                m: AdjudicationItem(
                    metric_id=m, outcome=o, score=s, reason=r, sides_with=tuple(json.loads(w))
                )
                for m, o, s, r, w in found
            }
    out = []
    for row in rows:
        values = dict(zip(_FIELDS, row, strict=True))
        out.append(Adjudication(**values, items=items[row[0]]))
    return out


def load(conn: sqlite3.Connection, pk: int) -> Adjudication:
    """One adjudication; :class:`NotFoundError` if there is none."""
    found = load_where(conn, "a.adjudication_pk = ?", (pk,))
    if not found:
        raise NotFoundError(f"no adjudication {pk} in this database")
    return found[0]


def ordered(adjudication: Adjudication, metric_ids: Sequence[str]) -> Adjudication:
    """The adjudication with its items in rubric order."""
    rank = {m: i for i, m in enumerate(metric_ids)}
    items = dict(sorted(adjudication.items.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    return adjudication.model_copy(update={"items": items})


@dataclass(frozen=True)
class _Head:
    pk: int
    run_pk: int
    rater_pk: int
    adjudicator: str
    status: str
    version: int
    rubric_pk: int
    superseded_by: int | None


def _head(conn: sqlite3.Connection, pk: int) -> _Head:
    row = conn.execute(
        "SELECT a.adjudication_pk, a.run_pk, a.rater_pk, ra.name, a.status, a.version,"
        " a.rubric_pk, (SELECT s.adjudication_pk FROM adjudications s"
        " WHERE s.supersedes_pk = a.adjudication_pk)"
        " FROM adjudications a JOIN raters ra ON ra.rater_pk = a.rater_pk"
        " WHERE a.adjudication_pk = ?",
        (pk,),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no adjudication {pk} in this database")
    return _Head(*row)


def _editable(h: _Head, expected_version: int) -> None:
    if h.version != expected_version:
        raise AdjudicationConflictError(h.pk, expected_version, h.version)
    if h.status != "draft":
        raise RatingStateError(
            f"adjudication {h.pk} is {h.status}: it is never edited in place; "
            "supersede it to correct it"
        )


def _bump(conn: sqlite3.Connection, h: _Head, *, at: str, **changes: object) -> None:
    sets = "".join(f", {k} = :{k}" for k in changes)
    conn.execute(
        f"UPDATE adjudications SET version = version + 1, updated_at = :at{sets}"
        " WHERE adjudication_pk = :pk",
        {"at": at, "pk": h.pk, **changes},
    )


def refusal(conn: sqlite3.Connection, run_pk: int, adjudicator: str) -> str | None:
    """Why ``adjudicator`` may not adjudicate the run (a judge, or one of its raters)."""
    rater = ratings.get_rater(conn, adjudicator)
    if rater is None:
        return None
    if rater.kind == "judge":
        return f"{adjudicator} is an automatic judge: only a person adjudicates"
    rated = conn.execute(
        "SELECT 1 FROM ratings WHERE run_pk = ? AND rater_pk = ? LIMIT 1",
        (run_pk, rater.rater_pk),
    ).fetchone()
    if rated:
        return f"{adjudicator} rated this run: an adjudicator must be someone who did not rate it"
    return None


def start(
    db: Database,
    rubrics: RubricRegistry,
    run_pk: int,
    adjudicator: str,
    *,
    study_pk: int | None,
    at: str,
) -> Adjudication:
    """The adjudicator's live adjudication of the run; a new draft if there is none."""
    with write_transaction(db):
        conn = db.conn
        if conn.execute("SELECT 1 FROM runs WHERE run_pk = ?", (run_pk,)).fetchone() is None:
            raise NotFoundError(f"no run {run_pk} in this database")
        refused = refusal(conn, run_pk, adjudicator)
        if refused:
            raise RatingStateError(refused)
        rater = ratings.add_rater(conn, adjudicator, at=at)
        row = conn.execute(
            f"SELECT a.adjudication_pk FROM adjudications a WHERE a.run_pk = ?"
            f" AND a.rater_pk = ? AND {LIVE}",
            (run_pk, rater.rater_pk),
        ).fetchone()
        if row is not None:
            return load(conn, int(row[0]))
        rubric_pk = rubrics.register(at=at)
        cursor = conn.execute(
            "INSERT INTO adjudications (run_pk, rater_pk, rubric_pk, study_pk, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            (run_pk, rater.rater_pk, rubric_pk, study_pk, at, at),
        )
        pk = int(cursor.lastrowid or 0)
        details = {"adjudication_pk": pk, "run_pk": run_pk, "study_pk": study_pk}
        audit.append(conn, [("adjudication_start", rater.name, details)], at=at)
        return load(conn, pk)


def save(
    db: Database,
    rubrics: RubricRegistry,
    pk: int,
    item: AdjudicationItem | None,
    *,
    metric_id: str,
    raters: Sequence[str],
    expected_version: int,
    at: str,
) -> Adjudication:
    """Decide one metric of a draft (``item``), or take the decision back (``None``).

    ``raters`` are the run's raters: a decision may only side with them.
    """
    with write_transaction(db):
        conn = db.conn
        h = _head(conn, pk)
        _editable(h, expected_version)
        rubric = rubrics.get(h.rubric_pk)
        if item is None:
            conn.execute(
                "DELETE FROM adjudication_items WHERE adjudication_pk = ? AND metric_id = ?",
                (pk, metric_id),
            )
            details: dict[str, object] = {"adjudication_pk": pk, "metric_id": metric_id}
        else:
            problems = rubric.validate_item(
                item.metric_id, item.outcome, item.score, item.reason, complete=False
            )
            strangers = [r for r in item.sides_with if r not in raters]
            if strangers:
                problems.append(f"{', '.join(strangers)} did not rate this run")
            if problems:
                raise RatingValidationError(
                    f"adjudication {pk}, {item.metric_id}: {'; '.join(problems)}"
                )
            conn.execute(
                "INSERT INTO adjudication_items (adjudication_pk, metric_id, outcome, score,"
                " reason, sides_with, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (adjudication_pk, metric_id) DO UPDATE SET"
                " outcome = excluded.outcome, score = excluded.score, reason = excluded.reason,"
                " sides_with = excluded.sides_with, updated_at = excluded.updated_at",
                (
                    pk,
                    item.metric_id,
                    item.outcome,
                    item.score,
                    item.reason,
                    json.dumps(list(item.sides_with)),
                    at,
                ),
            )
            details = {"adjudication_pk": pk, **item.model_dump(mode="json")}
        _bump(conn, h, at=at)
        details["version"] = h.version + 1
        audit.append(conn, [("adjudication_save", h.adjudicator, details)], at=at)
        return load(conn, pk)


def problems(adjudication: Adjudication, disputed: Sequence[str]) -> list[tuple[str, str]]:
    """Everything that keeps an adjudication from being submitted, as ``(metric, message)``."""
    found: list[tuple[str, str]] = []
    for metric_id in disputed:
        if metric_id not in adjudication.items:
            found.append((metric_id, "disputed, not decided yet"))
    for metric_id, item in adjudication.items.items():
        if item.outcome == "applicable" and item.score is None:
            found.append((metric_id, "Applicable but no score yet"))
        if not item.reason.strip():
            found.append((metric_id, "a decision needs a reason"))
    if not adjudication.items and not disputed:
        found.append(("-", "nothing is disputed and nothing was decided"))
    return found


def content_sha256(items: Iterable[AdjudicationItem]) -> str:
    """Digest of the decisions, recorded in the audit log on submit (``audit verify``
    recomputes it)."""
    content = {
        i.metric_id: i.model_dump(mode="json") for i in sorted(items, key=lambda i: i.metric_id)
    }
    return hashlib.sha256(audit.canonical(content).encode("utf-8")).hexdigest()


def submit(
    db: Database, pk: int, *, disputed: Sequence[str], expected_version: int, at: str
) -> Adjudication:
    """Draft → submitted once every disputed metric is decided with a reason."""
    with write_transaction(db):
        conn = db.conn
        h = _head(conn, pk)
        _editable(h, expected_version)
        missing = problems(load(conn, pk), disputed)
        if missing:
            raise RatingIncompleteError(pk, missing)
        _bump(conn, h, at=at, status="submitted", submitted_at=at)
        decided = load(conn, pk)
        digest = content_sha256(decided.items.values())
        details = {"adjudication_pk": pk, "run_pk": h.run_pk, "content_sha256": digest}
        audit.append(conn, [("adjudication_submit", h.adjudicator, details)], at=at)
        return decided


def supersede(db: Database, pk: int, adjudicator: str, *, at: str) -> Adjudication:
    """A new draft copying a submitted or signed adjudication, to correct it."""
    with write_transaction(db):
        conn = db.conn
        h = _head(conn, pk)
        if h.adjudicator != adjudicator:
            raise RatingStateError(f"adjudication {pk} is {h.adjudicator}'s: only they correct it")
        if h.status == "draft":
            raise RatingStateError(f"adjudication {pk} is a draft: edit it in place")
        if h.superseded_by is not None:
            raise RatingStateError(f"adjudication {pk} was already superseded")
        old = load(conn, pk)
        cursor = conn.execute(
            "INSERT INTO adjudications (run_pk, rater_pk, rubric_pk, study_pk, created_at,"
            " updated_at, supersedes_pk) SELECT run_pk, rater_pk, rubric_pk, study_pk, ?, ?, ?"
            " FROM adjudications WHERE adjudication_pk = ?",
            (at, at, pk, pk),
        )
        new_pk = int(cursor.lastrowid or 0)
        insert_items(conn, new_pk, old.items.values(), at=at)
        details = {"adjudication_pk": new_pk, "supersedes_pk": pk, "run_pk": h.run_pk}
        audit.append(conn, [("adjudication_supersede", h.adjudicator, details)], at=at)
        return load(conn, new_pk)


def insert_items(
    conn: sqlite3.Connection, pk: int, items: Iterable[AdjudicationItem], *, at: str
) -> None:
    """Write decisions into a draft adjudication (the triggers refuse any other status)."""
    conn.executemany(
        "INSERT INTO adjudication_items (adjudication_pk, metric_id, outcome, score, reason,"
        " sides_with, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (pk, i.metric_id, i.outcome, i.score, i.reason, json.dumps(list(i.sides_with)), at)
            for i in items
        ],
    )


def mark_signed(
    db: Database, pk: int, *, sheet_id: str, sheet_json: str, sha256: str, at: str
) -> Adjudication:
    """Submitted → signed, keeping the signed sheet verbatim; both immutable afterwards."""
    with write_transaction(db):
        conn = db.conn
        h = _head(conn, pk)
        if h.status != "submitted":
            raise RatingStateError(f"adjudication {pk} is {h.status}: only a submitted one signs")
        if h.superseded_by is not None:
            raise RatingStateError(f"adjudication {pk} was superseded: sign the correction")
        if conn.execute(
            "SELECT 1 FROM adjudication_sheets WHERE sheet_id = ?", (sheet_id,)
        ).fetchone():
            raise StoreError(f"a sheet with id {sheet_id!r} is stored already")
        conn.execute(
            "INSERT INTO adjudication_sheets (sheet_id, adjudication_pk, sheet_sha256,"
            " sheet_json, signed_at) VALUES (?, ?, ?, ?, ?)",
            (sheet_id, pk, sha256, sheet_json, at),
        )
        _bump(conn, h, at=at, status="signed", signed_at=at)
        details = {"adjudication_pk": pk, "sheet_id": sheet_id, "sheet_sha256": sha256}
        audit.append(conn, [("adjudication_sign", h.adjudicator, details)], at=at)
        return load(conn, pk)


def signed_sheets(conn: sqlite3.Connection, *, adjudicator: str | None) -> list[tuple[str, str]]:
    """``(sheet_id, sheet_json)`` of every signed adjudication (of one adjudicator)."""
    sql = (
        "SELECT sh.sheet_id, sh.sheet_json FROM adjudication_sheets sh"
        " JOIN adjudications a ON a.adjudication_pk = sh.adjudication_pk"
        " JOIN raters ra ON ra.rater_pk = a.rater_pk"
    )
    params: tuple[str, ...] = ()
    if adjudicator is not None:
        sql, params = sql + " WHERE ra.name = ?", (adjudicator,)
    return list(conn.execute(sql + " ORDER BY sh.signed_at, sh.sheet_id", params))

"""Storing an adjudication sheet collected from another machine as a signed adjudication.

The caller (:mod:`reviewer.collecting.collect`) has verified signature and trust. As for rating
sheets: the run is matched by trajectory sha256, the rubric and the adjudicator's key are
checked, a correction supersedes what it corrects, the same sheet again changes nothing.
An adjudicator who rated the run in this database is refused here as well.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field

from reviewer.adjudication import storage as adjudications
from reviewer.adjudication.model import AdjudicationItem
from reviewer.collecting import storage as collecting
from reviewer.collecting.model import CollectResult
from reviewer.store import audit
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import StoreError
from reviewer.store.rubrics import RubricRegistry


@dataclass(frozen=True)
class CollectedAdjudication(collecting.CollectedSheet):
    """A verified adjudication sheet reduced to what the store records."""

    study: str | None = None
    items: list[AdjudicationItem] = field(default_factory=list)


_SUPERSEDES = "json_extract(json_extract(sheet_json, '$.payload'), '$.supersedes')"


def collect(
    db: Database, rubrics: RubricRegistry, sheet: CollectedAdjudication, *, at: str
) -> CollectResult:
    """Store one verified adjudication sheet; refuses (never raises for) one that does not fit."""
    known = {
        "source": sheet.source,
        "sheet_id": sheet.sheet_id,
        "rater": sheet.rater,
        "run_id": sheet.run_id,
    }
    try:
        with write_transaction(db):
            return _collect(db.conn, rubrics, sheet, known, at=at)
    except (collecting.Refused, sqlite3.IntegrityError, StoreError) as exc:
        return CollectResult(outcome="refused", reason=str(exc), **known)


def _collect(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    sheet: CollectedAdjudication,
    known: dict[str, str],
    *,
    at: str,
) -> CollectResult:
    digest = hashlib.sha256(sheet.sheet_json.encode("utf-8")).hexdigest()
    stored = conn.execute(
        "SELECT sheet_sha256, adjudication_pk FROM adjudication_sheets WHERE sheet_id = ?",
        (sheet.sheet_id,),
    ).fetchone()
    if stored is not None:
        if stored[0] != digest:
            raise collecting.Refused(f"another sheet with id {sheet.sheet_id} is stored already")
        return CollectResult(outcome="unchanged", **known)
    row = conn.execute("SELECT run_pk FROM runs WHERE sha256 = ?", (sheet.trajectory_sha256,))
    run_row = row.fetchone()
    if run_row is None:
        raise collecting.Refused(
            f"unmatched: no run with trajectory sha256 {sheet.trajectory_sha256[:16]}… here"
        )
    run_pk = int(run_row[0])
    rubric_pk = collecting.known_rubric(conn, rubrics, sheet.rubric_sha256, at=at)
    refused = adjudications.refusal(conn, run_pk, sheet.rater)
    if refused:
        raise collecting.Refused(refused)
    # Imported here, as in reviewer.collecting.storage: not on the way to opening a store.
    from reviewer.studies import sheet_checks

    payload = sheet_checks.payload_of(sheet.sheet_json)
    named = sheet_checks.adjudication_sheet_problems(conn, payload, run_pk)
    if named:
        raise collecting.Refused(named[0])
    rater = collecting.bind_rater_key(conn, sheet, at=at)
    later = conn.execute(
        f"SELECT sheet_id FROM adjudication_sheets WHERE {_SUPERSEDES} = ?", (sheet.sheet_id,)
    ).fetchone()
    if later is not None:
        _archive(conn, sheet, digest, None, superseded_by=str(later[0]))
        return CollectResult(outcome="superseded", reason=f"corrected by sheet {later[0]}", **known)
    live = conn.execute(
        f"SELECT a.adjudication_pk FROM adjudications a WHERE a.run_pk = ? AND a.rater_pk = ?"
        f" AND {adjudications.LIVE}",
        (run_pk, rater.rater_pk),
    ).fetchone()
    previous = _previous(conn, sheet, None if live is None else int(live[0]))
    study = conn.execute("SELECT study_pk FROM studies WHERE name = ?", (sheet.study,)).fetchone()
    cursor = conn.execute(
        "INSERT INTO adjudications (run_pk, rater_pk, rubric_pk, study_pk, created_at,"
        " updated_at, supersedes_pk) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (run_pk, rater.rater_pk, rubric_pk, None if study is None else study[0], at, at, previous),
    )
    pk = int(cursor.lastrowid or 0)
    adjudications.insert_items(conn, pk, sheet.items, at=at)
    conn.execute(
        "UPDATE adjudications SET status = 'signed', submitted_at = ?, signed_at = ?,"
        " collected_at = ?, version = version + 1 WHERE adjudication_pk = ?",
        (sheet.signed_at, sheet.signed_at, at, pk),
    )
    _archive(conn, sheet, digest, pk, superseded_by=None)
    details = {
        "adjudication_pk": pk,
        "run_pk": run_pk,
        "sheet_id": sheet.sheet_id,
        "sheet_sha256": digest,
        "source": sheet.source,
        "supersedes_pk": previous,
    }
    audit.append(conn, [("adjudication_collect", sheet.rater, details)], at=at)
    return CollectResult(outcome="stored", **known)


def _previous(
    conn: sqlite3.Connection, sheet: CollectedAdjudication, live: int | None
) -> int | None:
    if sheet.supersedes is None:
        if live is not None:
            raise collecting.Refused(
                f"{sheet.rater} already has adjudication {live} of run {sheet.run_id} here, "
                "and this sheet does not correct it"
            )
        return None
    row = conn.execute(
        "SELECT adjudication_pk FROM adjudication_sheets WHERE sheet_id = ?", (sheet.supersedes,)
    ).fetchone()
    if row is None or row[0] is None:
        if live is not None:
            raise collecting.Refused(
                f"it corrects sheet {sheet.supersedes}, which is not here, while "
                f"{sheet.rater} has adjudication {live} of run {sheet.run_id}"
            )
        return None
    if row[0] != live:
        raise collecting.Refused(f"sheet {sheet.supersedes} was already superseded here")
    return int(row[0])


def _archive(
    conn: sqlite3.Connection,
    sheet: CollectedAdjudication,
    digest: str,
    pk: int | None,
    *,
    superseded_by: str | None,
) -> None:
    conn.execute(
        "INSERT INTO adjudication_sheets (sheet_id, adjudication_pk, sheet_sha256, sheet_json,"
        " source, superseded_by, signed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            sheet.sheet_id,
            pk,
            digest,
            sheet.sheet_json,
            sheet.source,
            superseded_by,
            sheet.signed_at,
        ),
    )

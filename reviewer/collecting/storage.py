"""Storing a sheet collected from another rater's machine as their read-only rating.

The caller (:mod:`reviewer.collecting.collect`) has verified the signature and trust; this
module matches the run by trajectory sha256, checks the rubric and the rater's key, places
the rating in the rater's chain (a correction supersedes what it corrects, also when the
correction arrived first) and stores it signed, with its sheet, in one transaction.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field

from reviewer.collecting.model import CollectResult
from reviewer.evidence import Citation
from reviewer.rubric import RatingItem
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import StoreError
from reviewer.store.models import Rater
from reviewer.store.rubrics import RubricRegistry

# The sheet a stored sheet corrects (the signed payload is a JSON string in the envelope).
_SUPERSEDES = "json_extract(json_extract({col}, '$.payload'), '$.supersedes')"


@dataclass(frozen=True)
class CollectedItem:
    """One metric of a collected sheet: final values, blind values if any, the reason."""

    item: RatingItem
    blind: RatingItem | None = None
    reason: str | None = None
    #: The steps the sheet cites for this metric (stored like the rater's own).
    citations: tuple[Citation, ...] = ()


@dataclass(frozen=True)
class CollectedSheet:
    """What every verified sheet (a rating's or an adjudication's) tells the store: where
    it came from, who signed it with which key, and the run and rubric it is about."""

    source: str
    sheet_id: str
    supersedes: str | None
    sheet_json: str
    rater: str
    public_key: str
    fingerprint: str
    run_id: str
    trajectory_sha256: str
    rubric_sha256: str
    signed_at: str


@dataclass(frozen=True)
class CollectedRating(CollectedSheet):
    """A verified sheet reduced to what the store records."""

    overall_comment: str
    items: list[CollectedItem] = field(default_factory=list)
    study: str | None = None
    blind_submitted_at: str | None = None
    revealed_at: str | None = None


class Refused(Exception):
    """A sheet that does not fit this database (collecting adjudication sheets raises it too)."""


def collect(
    db: Database, rubrics: RubricRegistry, sheet: CollectedRating, *, at: str
) -> CollectResult:
    """Store one verified sheet; never raises for a sheet that does not fit, refuses it."""
    known = {"source": sheet.source, "sheet_id": sheet.sheet_id, "rater": sheet.rater,
             "run_id": sheet.run_id}  # fmt: skip
    try:
        with write_transaction(db):
            return _collect(db.conn, rubrics, sheet, known, at=at)
    except Refused as exc:
        return CollectResult(outcome="refused", reason=str(exc), **known)
    except (sqlite3.IntegrityError, StoreError) as exc:
        return CollectResult(outcome="refused", reason=str(exc), **known)


def _collect(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    sheet: CollectedRating,
    known: dict[str, str],
    *,
    at: str,
) -> CollectResult:
    digest = hashlib.sha256(sheet.sheet_json.encode("utf-8")).hexdigest()
    stored = conn.execute(
        "SELECT sheet_sha256, rating_pk FROM collected_sheets WHERE sheet_id = ?",
        (sheet.sheet_id,),
    ).fetchone()
    local = conn.execute(
        "SELECT sheet_json, rating_pk FROM sheets WHERE sheet_id = ?", (sheet.sheet_id,)
    ).fetchone()
    if stored or local:
        same = stored[0] if stored else hashlib.sha256(local[0].encode()).hexdigest()
        if same != digest:
            raise Refused(f"another sheet with id {sheet.sheet_id} is stored already")
        return CollectResult(outcome="unchanged", rating_pk=(stored or local)[1], **known)
    run = conn.execute("SELECT run_pk FROM runs WHERE sha256 = ?", (sheet.trajectory_sha256,))
    run_row = run.fetchone()
    if run_row is None:
        raise Refused(
            f"unmatched: no run with trajectory sha256 {sheet.trajectory_sha256[:16]}… here"
        )
    run_pk = int(run_row[0])
    rubric_pk = known_rubric(conn, rubrics, sheet.rubric_sha256, at=at)
    first_key = conn.execute(
        "SELECT fingerprint IS NULL FROM raters WHERE name = ?", (sheet.rater,)
    ).fetchone() in (None, (1,))
    rater = bind_rater_key(conn, sheet, at=at)
    later = _superseded_by(conn, sheet.sheet_id)
    _keeps_the_study_rules(conn, sheet, run_pk, later)
    if later is not None:
        # The correction came first: keep this sheet on record, the correction stays live.
        _archive(conn, sheet, digest, None, superseded_by=later, at=at)
        return CollectResult(outcome="superseded", reason=f"corrected by sheet {later}", **known)
    live = ratings.live_pk(conn, run_pk, rater.rater_pk)
    previous = _previous(conn, sheet, live)
    study_pk = None
    if sheet.study is not None:
        row = conn.execute("SELECT study_pk FROM studies WHERE name = ?", (sheet.study,))
        found = row.fetchone()
        study_pk = None if found is None else int(found[0])
    cursor = conn.execute(
        "INSERT INTO ratings (run_pk, rater_pk, rubric_pk, status, version, overall_comment,"
        " created_at, updated_at, supersedes_pk, study_pk) VALUES (?, ?, ?, 'draft', 1, ?, ?, ?,"
        " ?, ?)",
        (run_pk, rater.rater_pk, rubric_pk, sheet.overall_comment, at, at, previous, study_pk),
    )
    pk = int(cursor.lastrowid or 0)
    for c in sheet.items:
        blind = c.blind or RatingItem(metric_id=c.item.metric_id)
        conn.execute(
            "INSERT INTO rating_items (rating_pk, metric_id, outcome, score, comment, updated_at,"
            " blind_outcome, blind_score, blind_comment, revision_reason)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (pk, c.item.metric_id, c.item.outcome, c.item.score, c.item.comment, at,
             blind.outcome, blind.score, blind.comment if c.blind else None, c.reason),
        )  # fmt: skip
        for citation in c.citations:
            ratings.insert_citation(conn, pk, citation, at=at)
    conn.execute(
        "UPDATE ratings SET blind_submitted_at = COALESCE(blind_submitted_at, ?),"
        " revealed_at = COALESCE(revealed_at, ?), collected_at = ?, status = 'signed',"
        " submitted_at = ?, signed_at = ?, version = version + 1 WHERE rating_pk = ?",
        (sheet.blind_submitted_at, sheet.revealed_at, at, sheet.signed_at, sheet.signed_at, pk),
    )
    conn.execute(
        "INSERT INTO sheets (sheet_id, rating_pk, sheet_json, signed_at) VALUES (?, ?, ?, ?)",
        (sheet.sheet_id, pk, sheet.sheet_json, sheet.signed_at),
    )
    _archive(conn, sheet, digest, pk, superseded_by=None, at=at)
    details = {"rating_pk": pk, "run_pk": run_pk, "sheet_id": sheet.sheet_id,
               "sheet_sha256": digest, "source": sheet.source,
               "supersedes_pk": previous}  # fmt: skip
    audit.append(conn, [("collect", rater.name, details)], at=at)
    learned = sheet.fingerprint if first_key else None
    return CollectResult(outcome="stored", rating_pk=pk, learned_key=learned, **known)


def _keeps_the_study_rules(
    conn: sqlite3.Connection, sheet: CollectedRating, run_pk: int, later: str | None
) -> None:
    """Refuse a sheet that breaks its study's rules (:mod:`reviewer.studies.sheet_checks`)."""
    # Imported here: the rules read signed sheets (cryptography), which opening a store,
    # and so the window's first paint, does not need.
    from reviewer.studies import sheet_checks

    payload = sheet_checks.payload_of(sheet.sheet_json)
    problems = sheet_checks.rating_sheet_problems(
        conn, payload, run_pk, corrected_by=sheet_checks.stored_sheet(conn, later)
    )
    if problems:
        raise Refused(problems[0])


def known_rubric(conn: sqlite3.Connection, rubrics: RubricRegistry, sha: str, *, at: str) -> int:
    """The rubric_pk of the sheet's rubric: one on record, or the current one registered."""
    row = conn.execute("SELECT rubric_pk FROM rubrics WHERE sha256 = ?", (sha,)).fetchone()
    if row is not None:
        return int(row[0])
    if sha == rubrics.current.sha256:
        return rubrics.register(at=at)
    raise Refused(f"the sheet's rubric (sha256 {sha[:12]}…) is not known to this database")


def bind_rater_key(conn: sqlite3.Connection, sheet: CollectedSheet, *, at: str) -> Rater:
    """The sheet's rater, learning their key when this database has none; refuses a sheet
    signed with another key than the one on record (rating and adjudication sheets alike)."""
    rater = ratings.add_rater(conn, sheet.rater, at=at)
    if rater.fingerprint is None:
        conn.execute(
            "UPDATE raters SET public_key = ?, fingerprint = ? WHERE rater_pk = ?",
            (sheet.public_key, sheet.fingerprint, rater.rater_pk),
        )
        details = {"name": rater.name, "fingerprint": sheet.fingerprint, "source": sheet.source}
        audit.append(conn, [("rater_key", rater.name, details)], at=at)
    elif rater.fingerprint != sheet.fingerprint:
        raise Refused(
            f"this database knows {rater.name} by key {rater.fingerprint}, "
            f"but the sheet is signed by {sheet.fingerprint}: check with {rater.name} which "
            "key is theirs"
        )
    return rater


def _superseded_by(conn: sqlite3.Connection, sheet_id: str) -> str | None:
    for table, col in (("collected_sheets", "sheet_json"), ("sheets", "sheet_json")):
        row = conn.execute(
            f"SELECT sheet_id FROM {table} WHERE {_SUPERSEDES.format(col=col)} = ?", (sheet_id,)
        ).fetchone()
        if row is not None:
            return str(row[0])
    return None


def _previous(conn: sqlite3.Connection, sheet: CollectedRating, live: int | None) -> int | None:
    """The rating this sheet supersedes in the rater's chain (None: it starts the chain)."""
    if sheet.supersedes is None:
        if live is not None:
            raise Refused(
                f"{sheet.rater} already has rating {live} of run {sheet.run_id} here, "
                "and this sheet does not correct it"
            )
        return None
    row = conn.execute("SELECT rating_pk FROM sheets WHERE sheet_id = ?", (sheet.supersedes,))
    original = row.fetchone()
    if original is None:
        if live is not None:
            raise Refused(
                f"it corrects sheet {sheet.supersedes}, which is not here, while "
                f"{sheet.rater} has rating {live} of run {sheet.run_id}"
            )
        return None
    if original[0] != live:
        raise Refused(f"sheet {sheet.supersedes} was already superseded here (rating {live})")
    return int(original[0])


def _archive(
    conn: sqlite3.Connection,
    sheet: CollectedRating,
    digest: str,
    pk: int | None,
    *,
    superseded_by: str | None,
    at: str,
) -> None:
    conn.execute(
        "INSERT INTO collected_sheets (sheet_id, sheet_sha256, rating_pk, superseded_by, source,"
        " sheet_json, collected_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (sheet.sheet_id, digest, pk, superseded_by, sheet.source, sheet.sheet_json, at),
    )
    if pk is None:
        details = {"sheet_id": sheet.sheet_id, "sheet_sha256": digest,
                   "superseded_by": superseded_by}  # fmt: skip
        audit.append(conn, [("collect_superseded", sheet.rater, details)], at=at)

"""``audit verify``'s rules for signed sheets (the core's :mod:`reviewer.store.integrity` calls
them through the hooks :mod:`reviewer.workspace` gives it).

A signed rating's sheet is checked the same way whether it was signed here or collected
from another rater's database: the signature verifies, the payload equals the rating's
current rows (final values, overall comment, blind values and revision reasons), the sheet
is signed as the rating's rater with a key the log registered to them, it signs the run's
trajectory, and the entry that stored it (``sign`` or ``collect``) names its bytes. Only a
sheet signed here carries this log's head (``audit_head``); a collected one carries the
head of the rater's own database, which this one cannot check.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from reviewer.sheets.sheet import SheetPayload
from reviewer.sheets.verify import verify_sheet
from reviewer.store import audit
from reviewer.store.integrity import Log, RatingState


def sheet_problems(
    where: str,
    pk: int,
    stored: tuple[str, str] | None,
    state: RatingState,
    rater: str,
    run_sha: str | None,
    log: Log,
    conn: sqlite3.Connection,
    *,
    collected: bool,
) -> list[str]:
    """Every way the signed rating ``pk`` disagrees with its sheet ``stored``."""
    if stored is None:
        return [f"{where} is marked signed but has no signed sheet"]
    sheet_id, text = stored
    problems = []
    action, entry = ("collect", log.collects.get(pk)) if collected else ("sign", log.signs.get(pk))
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if entry is None:
        problems.append(f"{where} has a sheet but no sign entry in the audit log")
    elif entry.get("sheet_id") != sheet_id or entry.get("sheet_sha256") != sha:
        problems.append(f"{where}: its sheet is not the one the {action} entry recorded")
    result = verify_sheet(text)
    if not result.ok or result.sheet is None:
        return [*problems, f"{where}: its sheet does not verify ({result.reason})"]
    payload = result.sheet.payload
    if _signed(payload) != _rows(state):
        problems.append(f"{where}: its items differ from the signed sheet {sheet_id}")
    if payload.rater.name != rater:
        problems.append(
            f"{where} belongs to {rater!r} but its sheet is signed as {payload.rater.name!r}"
        )
    if payload.rater.fingerprint not in log.keys.get(rater, []):
        problems.append(f"{where}: its sheet's key was never registered to {rater!r} in the log")
    if run_sha is not None and payload.run.trajectory_sha256 != run_sha:
        problems.append(f"{where}: its sheet signs another trajectory than the run's")
    if not collected:
        problems += _head_problems(where, result.sheet.payload_text, conn)
    return problems


def _signed(payload: SheetPayload) -> tuple[Any, ...]:
    items = {i.metric_id: (i.outcome, i.score, i.comment) for i in payload.items}
    blind = {
        i.metric_id: (i.blind.outcome, i.blind.score, i.blind.comment)
        for i in payload.items
        if i.blind is not None
    }
    reasons = {i.metric_id: i.reason for i in payload.items if i.reason}
    cited = {
        (i.metric_id, c.kind, c.ref, c.step, c.label, c.note)
        for i in payload.items
        for c in i.citations
    }
    return items, payload.overall_comment, blind, reasons, cited


def _rows(state: RatingState) -> tuple[Any, ...]:
    items = {m: (i.outcome, i.score, i.comment) for m, i in state.items.items()}
    blind = {m: (i.outcome, i.score, i.comment) for m, i in state.blind.items()}
    cited = {(c.metric_id, c.kind, c.ref, c.step, c.label, c.note) for c in state.citations}
    return items, state.overall, blind, state.reasons, cited


def _head_problems(where: str, payload_text: str, conn: sqlite3.Connection) -> list[str]:
    # Signed sheets carry the log's head at signing time (``audit_head``): a copy of the
    # head that the database's owner cannot rewrite without the rater's key.
    raw = json.loads(payload_text).get("audit_head")
    if isinstance(raw, dict):
        # Sheet format 2 writes {"entries": N, "hash": H} (reviewer.sheets.sheet.SheetAuditHead).
        raw = [raw.get("entries", raw.get("count")), raw.get("hash")]
    if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[0], int)):
        return []
    if audit.hash_at(conn, raw[0]) != raw[1]:
        return [
            f"{where}: the audit log no longer holds the head its sheet signed (entry {raw[0]})"
        ]
    return []


def archive_problems(conn: sqlite3.Connection, log: Log) -> list[str]:
    """Each collected sheet kept on record verifies and was logged with the same bytes."""
    problems = []
    for sheet_id, sha, text in conn.execute(
        "SELECT sheet_id, sheet_sha256, sheet_json FROM collected_sheets ORDER BY sheet_id"
    ):
        where = f"collected sheet {sheet_id}"
        actual = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if sheet_id not in log.archived:
            problems.append(f"{where} has no collect entry in the audit log")
        elif actual != sha or log.archived[sheet_id] != actual:
            problems.append(f"{where} is not the sheet that was collected (edited after)")
        result = verify_sheet(text)
        if not result.ok:
            problems.append(f"{where} does not verify ({result.reason})")
    return problems

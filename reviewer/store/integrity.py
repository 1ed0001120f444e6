"""``audit verify`` beyond the hash chain: the database's state against its log.

The chain (:func:`reviewer.store.audit.verify`) proves the log was not edited; this module
proves the *tables* still say what the log says happened, which catches direct edits of
the database file with the triggers dropped or the foreign keys off:

* every run has its ``import`` entry with the same file hash;
* every rating has the entry that created it, against the same run, and points at a run,
  a rater and a rubric that exist (``PRAGMA foreign_key_check``: no orphans);
* every submitted or signed rating is complete and its items still hash to the
  ``content_sha256`` its ``submit`` entry recorded;
* every signed rating has its sheet, the sheet's signature verifies
  (:func:`reviewer.sheets.sheet.verify_sheet`), its payload equals the rating's current
  rows, its key was registered to that rater in the log, and its ``sign`` entry names the
  same sheet bytes; a sheet's ``audit_head``, when it has one, is still in the log;
* every rater has its ``rater_add`` entry and the public key the log last recorded;
* the log still reaches the head witnessed outside the database
  (:mod:`reviewer.store.witness`): cutting entries from its end is seen.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

from reviewer.rubric import RatingItem
from reviewer.sheets.keys import KeyStoreError, decode_public_key, fingerprint
from reviewer.sheets.sheet import verify_sheet
from reviewer.store import adjudication_integrity, audit, ratings, witness
from reviewer.store.errors import StoreError
from reviewer.store.rubrics import RubricRegistry


class _Log:
    """What the audit log says happened, indexed by the keys the tables use."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.imports: dict[int, str] = {}
        self.created: dict[int, int] = {}  # rating_pk -> run_pk
        self.submits: dict[int, str] = {}  # rating_pk -> content_sha256
        self.signs: dict[int, dict[str, Any]] = {}
        self.raters: set[str] = set()
        self.keys: dict[str, list[str]] = defaultdict(list)  # name -> fingerprints in order
        for actor, action, text in conn.execute(
            "SELECT actor, action, details FROM audit_log ORDER BY seq"
        ):
            try:
                d = json.loads(text)
            except ValueError:
                continue  # the chain check reports an altered entry
            if not isinstance(d, dict):
                continue
            if action == "import":
                self.imports[d.get("run_pk")] = d.get("sha256")
            elif action in ("rating_start", "supersede"):
                self.created[d.get("rating_pk")] = d.get("run_pk")
            elif action == "submit":
                self.submits[d.get("rating_pk")] = d.get("content_sha256")
                # ratings import and a judge's answers create and submit at once
                if d.get("source") in ("file", "judge"):
                    self.created[d.get("rating_pk")] = d.get("run_pk")
            elif action == "sign":
                self.signs[d.get("rating_pk")] = d
            elif action == "rater_add":
                self.raters.add(str(d.get("name", actor)))
            elif action == "rater_key":
                self.keys[str(d.get("name", actor))].append(str(d.get("fingerprint")))


def check(conn: sqlite3.Connection, rubrics: RubricRegistry, path: Path) -> list[str]:
    """Every disagreement between the tables, the log, the sheets and the witness."""
    log = _Log(conn)
    problems = _witness_problems(conn, path)
    problems += _orphans(conn)
    for run_pk, sha in conn.execute("SELECT run_pk, sha256 FROM runs ORDER BY run_pk"):
        if run_pk not in log.imports:
            problems.append(f"run {run_pk} has no import entry in the audit log")
        elif log.imports[run_pk] != sha:
            problems.append(
                f"run {run_pk}: its file hash differs from the one it was imported with"
            )
    problems += _rater_problems(conn, log)
    problems += _rating_problems(conn, rubrics, log)
    problems += adjudication_integrity.check(conn)
    return problems


def _witness_problems(conn: sqlite3.Connection, path: Path) -> list[str]:
    seen = witness.witnessed(path, audit.hash_at(conn, 1))
    if seen is None:
        return []
    found = audit.hash_at(conn, seen.count)
    end = audit.head(conn).count
    if found is None:
        return [
            f"the audit log ends at entry {end}, but entry {seen.count} was witnessed "
            f"({witness.witness_path()}): entries were cut from its end"
        ]
    if found != seen.hash:
        return [f"audit entry {seen.count} differs from the one witnessed: the log was rewritten"]
    return []


def _orphans(conn: sqlite3.Connection) -> list[str]:
    problems = []
    for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"):
        what = {"ratings": "rating", "rating_items": "an item of a rating", "sheets": "sheet"}
        name = what.get(table, f"{table} row")
        problems.append(f"{name} (row {rowid}) points at a missing {parent} row (deleted?)")
    return problems


def _rater_problems(conn: sqlite3.Connection, log: _Log) -> list[str]:
    problems = []
    for rater in ratings.get_raters(conn):
        if rater.name not in log.raters:
            problems.append(f"rater {rater.name!r} has no rater_add entry in the audit log")
        logged = log.keys.get(rater.name)
        if rater.public_key is None:
            if logged:
                problems.append(f"rater {rater.name!r}: the key the log records was removed")
            continue
        try:
            actual = fingerprint(decode_public_key(rater.public_key))
        except KeyStoreError:
            actual = None
        if actual is None or actual != rater.fingerprint:
            problems.append(
                f"rater {rater.name!r}: the stored public key does not match its fingerprint"
            )
        elif not logged or logged[-1] != actual:
            problems.append(
                f"rater {rater.name!r}: the public key differs from the one in the audit log"
            )
    return problems


def _rating_problems(conn: sqlite3.Connection, rubrics: RubricRegistry, log: _Log) -> list[str]:
    problems: list[str] = []
    names = {pk: name for pk, name in conn.execute("SELECT rater_pk, name FROM raters")}
    items: dict[int, dict[str, RatingItem]] = defaultdict(dict)
    for pk, metric_id, outcome, score, comment in conn.execute(
        "SELECT rating_pk, metric_id, outcome, score, comment FROM rating_items"
    ):
        items[pk][metric_id] = RatingItem(
            metric_id=metric_id, outcome=outcome, score=score, comment=comment
        )
    sheets = {
        pk: (sheet_id, text)
        for sheet_id, pk, text in conn.execute("SELECT sheet_id, rating_pk, sheet_json FROM sheets")
    }
    runs = dict(conn.execute("SELECT run_pk, sha256 FROM runs").fetchall())
    rows = conn.execute(
        "SELECT rating_pk, run_pk, rater_pk, rubric_pk, status, overall_comment FROM ratings"
        " ORDER BY rating_pk"
    ).fetchall()
    for pk, run_pk, rater_pk, rubric_pk, status, overall in rows:
        where = f"rating {pk}"
        if pk not in log.created:
            problems.append(f"{where} has no entry in the audit log that created it")
        elif log.created[pk] != run_pk:
            problems.append(f"{where} now rates run {run_pk}, the log says run {log.created[pk]}")
        if status == "draft":
            if pk in sheets:
                problems.append(f"{where} is a draft but has a signed sheet")
            continue
        try:
            rubric = rubrics.get(rubric_pk)
        except StoreError:
            problems.append(f"{where} uses a rubric that is not stored ({rubric_pk})")
            continue
        current = rubric.empty_items() | items.get(pk, {})
        if rubric.problems(current):
            problems.append(f"{where} is {status} but incomplete (items missing or empty)")
        digest = ratings.content_sha256(current, overall, rubric.sha256)
        if pk not in log.submits:
            problems.append(f"{where} is {status} but the audit log has no submit entry for it")
        elif log.submits[pk] != digest:
            problems.append(f"{where}: its items differ from what was submitted (edited after)")
        if status == "signed":
            rater = names.get(rater_pk, "?")
            problems += _sheet_problems(where, pk, sheets.get(pk), current, overall, rater,
                                        runs.get(run_pk), log, conn)  # fmt: skip
        elif pk in sheets:
            problems.append(f"{where} is {status} but has a signed sheet")
    return problems


def _sheet_problems(
    where: str,
    pk: int,
    stored: tuple[str, str] | None,
    items: dict[str, RatingItem],
    overall: str,
    rater: str,
    run_sha: str | None,
    log: _Log,
    conn: sqlite3.Connection,
) -> list[str]:
    if stored is None:
        return [f"{where} is marked signed but has no signed sheet"]
    sheet_id, text = stored
    problems = []
    entry = log.signs.get(pk)
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if entry is None:
        problems.append(f"{where} has a sheet but no sign entry in the audit log")
    elif entry.get("sheet_id") != sheet_id or entry.get("sheet_sha256") != sha:
        problems.append(f"{where}: its sheet is not the one the sign entry recorded")
    result = verify_sheet(text)
    if not result.ok or result.sheet is None:
        return [*problems, f"{where}: its sheet does not verify ({result.reason})"]
    payload = result.sheet.payload
    signed = {i.metric_id: (i.outcome, i.score, i.comment) for i in payload.items}
    actual = {m: (i.outcome, i.score, i.comment) for m, i in items.items()}
    if signed != actual or payload.overall_comment != overall:
        problems.append(f"{where}: its items differ from the signed sheet {sheet_id}")
    if payload.rater.name != rater:
        problems.append(
            f"{where} belongs to {rater!r} but its sheet is signed as {payload.rater.name!r}"
        )
    if payload.rater.fingerprint not in log.keys.get(rater, []):
        problems.append(f"{where}: its sheet's key was never registered to {rater!r} in the log")
    if run_sha is not None and payload.run.trajectory_sha256 != run_sha:
        problems.append(f"{where}: its sheet signs another trajectory than the run's")
    problems += _sheet_head_problems(where, result.sheet.payload_text, conn)
    return problems


def _sheet_head_problems(where: str, payload_text: str, conn: sqlite3.Connection) -> list[str]:
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

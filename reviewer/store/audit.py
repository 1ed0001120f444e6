"""The append-only audit log, each entry chained to the previous one by hash.

``hash = sha256(json([prev_hash, seq, at, actor, action, details]))`` over the stored text,
with ``prev_hash`` of the first entry :data:`GENESIS`. Triggers reject UPDATE and DELETE;
the chain catches what triggers cannot (a file edited with the triggers dropped, a row
removed from the middle): :func:`verify` recomputes every link.

Entries are appended inside the caller's write transaction, so an action and its entry are
committed together or not at all.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from reviewer.store.models import AuditReport

GENESIS = "0" * 64


class AuditHead(NamedTuple):
    """The end of the chain: how many entries, and the hash of the last one.

    Kept outside the database (the per-user witness, every signed sheet's ``audit_head``)
    it proves how long the log was: a log cut back to an earlier end, with its triggers
    dropped, still verifies as a chain, but no longer reaches the witnessed head.
    """

    # A field named like tuple.count: the log's number of entries, as the witness stores it.
    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose (a stored key)
    hash: str


def head(db: Any) -> AuditHead:
    """The :class:`AuditHead` of the log of ``db`` (a sqlite-utils Database or connection).

    Entries are numbered from 1 without gaps (:func:`verify` holds that), so the last
    entry's ``seq`` is the count.
    """
    conn = getattr(db, "conn", db)
    row = conn.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    return AuditHead(int(row[0]), str(row[1])) if row else AuditHead(0, GENESIS)


def hash_at(conn: sqlite3.Connection, seq: int) -> str | None:
    """The hash of entry ``seq`` (``GENESIS`` for 0), or None if the log has no such entry."""
    if seq == 0:
        return GENESIS
    row = conn.execute("SELECT hash FROM audit_log WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else str(row[0])


def canonical(details: Mapping[str, Any]) -> str:
    """Details as stored and hashed: sorted keys, no whitespace."""
    return json.dumps(details, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(
    prev_hash: str, seq: int, at: str, actor: str | None, action: str, details: str
) -> str:
    """The hash of one entry given its predecessor's hash."""
    material = json.dumps([prev_hash, seq, at, actor, action, details], ensure_ascii=False)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def append(
    conn: sqlite3.Connection,
    entries: Iterable[tuple[str, str | None, Mapping[str, Any]]],
    *,
    at: str,
) -> int:
    """Append ``(action, actor, details)`` entries; returns how many.

    Needs an open write transaction: reading the chain head and inserting after it must not
    interleave with another writer's append.
    """
    if not conn.in_transaction:
        raise RuntimeError("audit entries are appended inside a write transaction")
    head = conn.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    seq, prev = (head[0], head[1]) if head else (0, GENESIS)
    rows = []
    for action, actor, details in entries:
        seq += 1
        text = canonical(details)
        digest = entry_hash(prev, seq, at, actor, action, text)
        rows.append((seq, at, actor, action, text, prev, digest))
        prev = digest
    conn.executemany(
        "INSERT INTO audit_log (seq, at, actor, action, details, prev_hash, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return len(rows)


def verify(conn: sqlite3.Connection) -> AuditReport:
    """Recompute the whole chain; reports the first entry that does not fit."""
    prev = GENESIS
    entries = 0
    expected_seq = 1
    cursor = conn.execute(
        "SELECT seq, at, actor, action, details, prev_hash, hash FROM audit_log ORDER BY seq"
    )
    for seq, at, actor, action, details, prev_hash, digest in cursor:
        entries += 1
        problem = None
        if seq != expected_seq:
            problem = f"entry {expected_seq} is missing (next is {seq})"
        elif prev_hash != prev:
            problem = f"entry {seq} does not follow entry {seq - 1} (prev_hash differs)"
        elif entry_hash(prev, seq, at, actor, action, details) != digest:
            problem = f"entry {seq} ({action}) was altered: its hash does not match its content"
        if problem:
            cursor.close()
            return AuditReport(ok=False, entries=entries, first_bad=seq, message=problem)
        prev = digest
        expected_seq += 1
    return AuditReport(
        ok=True, entries=entries, first_bad=None, message=f"audit chain ok: {entries} entries"
    )

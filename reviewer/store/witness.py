"""The witness of each database's audit head, kept outside the database.

The hash chain proves that no entry was changed or removed from the middle of the log; it
cannot prove that the log was not cut back at its end (triggers dropped, last entries
deleted, the matching rows removed). So after every write transaction that grew the log,
its head (entry count and last hash, :func:`reviewer.store.audit.head`) is recorded in
``audit-heads.json`` in the per-user config folder, keyed by the random id the database
holds (:func:`key_of`; a database older than its id by its absolute path), so a database
moved or copied elsewhere is still checked: ``audit verify`` checks that the log still
reaches that head, and a copy that lost entries says so.

The witness only ever moves forward (a smaller count never overwrites a larger one), so
two processes writing the same database cannot make it go back. It also keeps the hash of
the log's first entry, which names the database: a new database created at the same path
(the old file deleted) starts a new witness instead of raising a false alarm. It is a
convenience, not a lock: someone who can edit the user's config folder can edit it too.
A witness that cannot be written (read-only home, full disk) is skipped silently: losing
it weakens a later check but must never fail the rater's save.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from reviewer import home
from reviewer.store.audit import AuditHead

FILENAME = "audit-heads.json"


def witness_path() -> Path:
    """Where the heads of every database of this user are kept."""
    return home.config_dir() / FILENAME


def _key(where: Path | str) -> str:
    """A key from :func:`key_of` as it is; a path (databases older than their id, and the
    witnesses written for them) as its absolute form."""
    if isinstance(where, str) and where.startswith(_ID_PREFIX):
        return where
    return str(Path(os.path.abspath(where)))


_ID_PREFIX = "database:"


def key_of(conn: sqlite3.Connection, db_path: Path) -> str:
    """What the witness is keyed by: the id stored in the database itself (so that a moved
    or copied database keeps its witness), or its path when it has no id yet."""
    try:
        row = conn.execute("SELECT database_id FROM database_identity").fetchone()
    except sqlite3.Error:
        row = None
    return _key(db_path) if row is None else f"{_ID_PREFIX}{row[0]}"


def _load() -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(witness_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def witnessed(where: Path | str, first: str | None) -> AuditHead | None:
    """The last head recorded for the database ``where`` (:func:`key_of`, or a path) whose
    first audit entry has the hash ``first``; None if there is none (never written here, or
    another database created at that path since: its first entry differs)."""
    entry = _load().get(_key(where))
    if not isinstance(entry, dict):  # none recorded, or a hand-edited file
        return None
    try:
        if entry.get("first") != first:
            return None
        return AuditHead(int(entry["count"]), str(entry["hash"]))
    except (AttributeError, TypeError, KeyError, ValueError):
        return None


def record(where: Path | str, head: AuditHead, first: str | None) -> None:
    """Remember ``head`` for the database ``where`` (:func:`key_of`) unless a longer head
    of the same database (same ``first`` entry hash) is already remembered."""
    with contextlib.suppress(OSError):
        data = _load()
        key = _key(where)
        new = {**head._asdict(), "first": first}
        old = data.get(key)
        if (
            isinstance(old, dict)
            and old.get("first") == first
            and (old == new or not isinstance(old.get("count"), int) or old["count"] > head.count)
        ):
            return
        data[key] = new
        folder = home.ensure_dir(home.config_dir())
        fd, tmp = tempfile.mkstemp(prefix=".audit-heads-", suffix=".json", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=1, sort_keys=True)
                fh.write("\n")
            os.replace(tmp, witness_path())
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

"""The witness of each database's audit head, kept outside the database.

The hash chain proves that no entry was changed or removed from the middle of the log; it
cannot prove that the log was not cut back at its end (triggers dropped, last entries
deleted, the matching rows removed). So after every write transaction that grew the log,
its head (entry count and last hash, :func:`reviewer.store.audit.head`) is recorded in
``audit-heads.json`` in the per-user config folder, keyed by the database's absolute path;
``audit verify`` then checks that the log still reaches that head.

The witness only ever moves forward (a smaller count never overwrites a larger one), so
two processes writing the same database cannot make it go back. It is a convenience, not
a lock: someone who can edit the user's config folder can edit it too. A witness that
cannot be written (read-only home, full disk) is skipped silently: losing it weakens a
later check but must never fail the rater's save.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from reviewer import home
from reviewer.store.audit import AuditHead

FILENAME = "audit-heads.json"


def witness_path() -> Path:
    """Where the heads of every database of this user are kept."""
    return home.config_dir() / FILENAME


def _key(db_path: Path) -> str:
    return str(Path(os.path.abspath(db_path)))


def _load() -> dict[str, dict]:
    try:
        data = json.loads(witness_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def witnessed(db_path: Path) -> AuditHead | None:
    """The last head recorded for ``db_path``, or None (never written here, or moved)."""
    entry = _load().get(_key(db_path))
    try:
        return AuditHead(int(entry["count"]), str(entry["hash"]))  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        return None


def record(db_path: Path, head: AuditHead) -> None:
    """Remember ``head`` for ``db_path`` unless a longer head is already remembered."""
    with contextlib.suppress(OSError):
        data = _load()
        key = _key(db_path)
        old = data.get(key)
        known = isinstance(old, dict) and isinstance(old.get("count"), int)
        if known and (old["count"] > head.count or old == head._asdict()):
            return
        data[key] = head._asdict()
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

"""Rubrics as the database knows them: registered by sha256, read back for old ratings."""

from __future__ import annotations

import sqlite3

from reviewer.rubric import Rubric
from reviewer.store import audit
from reviewer.store.errors import StoreError


class RubricRegistry:
    """The rubrics of one open store: the current one, and any older one a rating used.

    Parsed rubrics are cached per store (never per process): a rubric row is immutable once
    registered, so its parse never goes stale.
    """

    def __init__(self, conn: sqlite3.Connection, current: Rubric) -> None:
        self._conn = conn
        self.current = current
        self.current_pk: int | None = None
        self._cache: dict[int, Rubric] = {}

    def find(self) -> int | None:
        """The key of the current rubric if it is registered already (a read only)."""
        row = self._conn.execute(
            "SELECT rubric_pk FROM rubrics WHERE sha256 = ?", (self.current.sha256,)
        ).fetchone()
        if row is not None:
            self.current_pk = int(row[0])
            self._cache[self.current_pk] = self.current
        return self.current_pk

    def register(self, *, at: str) -> int:
        """Register the current rubric inside the caller's write transaction.

        A rubric whose id and version are stored with other content is refused: changing a
        released rubric in place would change the meaning of the ratings made with it.
        """
        found = self.find()
        if found is not None:
            return found
        rubric = self.current
        clash = self._conn.execute(
            "SELECT sha256 FROM rubrics WHERE rubric_id = ? AND version = ?",
            (rubric.id, rubric.version),
        ).fetchone()
        if clash is not None:
            raise StoreError(
                f"rubric {rubric.id!r} version {rubric.version} differs from the one this "
                f"database recorded (sha256 {clash[0][:12]}…, now {rubric.sha256[:12]}…): "
                "a changed rubric needs a new version number"
            )
        cursor = self._conn.execute(
            "INSERT INTO rubrics (rubric_id, version, sha256, title, definition, registered_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (rubric.id, rubric.version, rubric.sha256, rubric.title, rubric.model_dump_json(), at),
        )
        self.current_pk = int(cursor.lastrowid or 0)
        self._cache[self.current_pk] = rubric
        details = {"rubric_id": rubric.id, "version": rubric.version, "sha256": rubric.sha256}
        audit.append(self._conn, [("rubric_register", None, details)], at=at)
        return self.current_pk

    def get(self, rubric_pk: int) -> Rubric:
        """The rubric stored under ``rubric_pk`` (its stored sha256 is re-checked on parse)."""
        cached = self._cache.get(rubric_pk)
        if cached is not None:
            return cached
        row = self._conn.execute(
            "SELECT definition FROM rubrics WHERE rubric_pk = ?", (rubric_pk,)
        ).fetchone()
        if row is None:
            raise StoreError(f"rubric {rubric_pk} is not in this database")
        rubric = Rubric.model_validate_json(row[0])
        self._cache[rubric_pk] = rubric
        return rubric

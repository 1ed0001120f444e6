"""Opening a review database: path checks, version check, pragmas, migration, rubric.

The order matters: the schema version is read before anything is written, so a database
from a newer a320-review is refused untouched; migrations run in one write transaction, so
a crash half-way leaves the old schema and its data as they were.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reviewer.rubric import Rubric, default_rubric
from reviewer.store import audit
from reviewer.store.connection import (
    Database,
    after_commit,
    check_path,
    configure_for_writing,
    connect,
    utcnow,
    write_transaction,
)
from reviewer.store.errors import SchemaTooNewError, StoreError
from reviewer.store.rubrics import RubricRegistry
from reviewer.store.schema import SCHEMA_VERSION, migrate, user_version
from scoring.paths import shown


def open_database(
    path: Path, *, create: bool, rubric: Rubric | None = None, readonly: bool = False
) -> tuple[Database, RubricRegistry]:
    """A ready connection and its rubric registry; :class:`StoreError` when it cannot be.

    ``readonly`` (the reading verbs): opened with SQLite's ``mode=ro``, nothing migrated or
    registered, so the file is never changed; a database from an older a320-review is
    refused until ``import`` or the window upgrades it.
    """
    check_path(path, create=create, readonly=readonly)
    if readonly:
        return _open_readonly(path, rubric)
    try:
        db = connect(path, create=create)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {shown(path)}: {exc}") from None
    try:
        _witness_heads(db, path)
        registry = RubricRegistry(db.conn, rubric or default_rubric())
        prepare(db, path, registry, create=create)
    except BaseException:
        db.close()
        raise
    return db, registry


def _witness_heads(db: Database, path: Path) -> None:
    """Record the audit head outside the database after each commit that moved it."""
    from reviewer.store import witness  # the user's state folder: a writer's only

    last: list[audit.AuditHead] = []

    def record() -> None:
        now = audit.head(db)
        if not last or last[0] != now:
            witness.record(witness.key_of(db.conn, path), now, audit.hash_at(db.conn, 1))
            last[:] = [now]

    after_commit(db, record)


def _open_readonly(path: Path, rubric: Rubric | None) -> tuple[Database, RubricRegistry]:
    db = None
    try:
        for immutable in (False, True):
            # In a read-only folder SQLite cannot create the WAL index (-shm): the first
            # read fails, and the file is read as immutable instead (nothing can write it).
            try:
                db = connect(path, create=False, readonly=True, immutable=immutable)
                found = identify(db.conn, path, create=False)
                break
            except sqlite3.OperationalError:
                if db is not None:
                    db.close()
                    db = None
                if immutable:
                    raise
        assert db is not None
        if found < SCHEMA_VERSION:
            raise StoreError(
                f"{shown(path)} has schema version {found}, older than this a320-review "
                f"({SCHEMA_VERSION}): run `import` or open the window once to upgrade it"
            )
        registry = RubricRegistry(db.conn, rubric or default_rubric())
        registry.find()
    except sqlite3.Error as exc:
        if db is not None:
            db.close()
        raise StoreError(f"cannot read {shown(path)} as a review database: {exc}") from None
    except BaseException:
        if db is not None:
            db.close()
        raise
    return db, registry


#: Tables every review database has from its first schema version on.
_OWN_TABLES = frozenset({"runs", "audit_log"})


def identify(conn: sqlite3.Connection, path: Path, *, create: bool) -> int:
    """The schema version of a review database at ``path``; refuses anything else.

    An empty file is only taken by a verb that creates (``import``, the window); an SQLite
    file of another application (tables but not ours) is never turned into a review
    database, and a newer schema is left untouched.
    """
    found = user_version(conn)
    tables = {
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(row[0]).startswith("sqlite_")
    }
    if found > SCHEMA_VERSION:
        # Checked before anything writes: a newer program's database stays untouched.
        raise SchemaTooNewError(
            f"{shown(path)} has schema version {found}, newer than this a320-review "
            f"understands ({SCHEMA_VERSION}): upgrade a320-review to open it"
        )
    if tables and not tables >= _OWN_TABLES:
        listed = ", ".join(sorted(tables)[:5])
        raise StoreError(
            f"{shown(path)} is not a review database (an SQLite file with the tables {listed})"
        )
    if not tables and not create:
        raise StoreError(
            f"{shown(path)} is not a review database (it is empty): "
            "`import` runs into a new file to create one"
        )
    return found


def prepare(db: Database, path: Path, registry: RubricRegistry, *, create: bool = True) -> None:
    """Identity and version check, pragmas, migrations and rubric registration, in order."""
    try:
        found = identify(db.conn, path, create=create)
        configure_for_writing(db)
        if found < SCHEMA_VERSION or registry.find() is None:
            at = utcnow()
            with write_transaction(db):
                start, end = migrate(db.conn)
                if end > start:
                    details = {"from": start, "to": end}
                    audit.append(db.conn, [("migrate", None, details)], at=at)
                registry.register(at=at)
    except sqlite3.Error as exc:
        hint = " (is it read-only?)" if "readonly" in str(exc) else ""
        raise StoreError(f"cannot open {shown(path)} as a review database: {exc}{hint}") from None

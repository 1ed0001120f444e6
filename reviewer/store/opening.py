"""Opening a review database: path checks, version check, pragmas, migration, rubric.

The order matters: the schema version is read before anything is written, so a database
from a newer a320-review is refused untouched; migrations run in one write transaction, so
a crash half-way leaves the old schema and its data as they were.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from reviewer.rubric import Rubric, default_rubric
from reviewer.store import audit
from reviewer.store.connection import (
    check_path,
    configure_for_writing,
    connect,
    utcnow,
    write_transaction,
)
from reviewer.store.errors import SchemaTooNewError, StoreError
from reviewer.store.rubrics import RubricRegistry
from reviewer.store.schema import SCHEMA_VERSION, migrate, user_version


def open_database(
    path: Path, *, create: bool, rubric: Rubric | None = None
) -> tuple[sqlite_utils.Database, RubricRegistry]:
    """A ready connection and its rubric registry; :class:`StoreError` when it cannot be."""
    check_path(path, create=create)
    try:
        db = connect(path, create=create)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from None
    try:
        registry = RubricRegistry(db.conn, rubric or default_rubric())
        prepare(db, path, registry)
    except BaseException:
        db.close()
        raise
    return db, registry


def prepare(db: sqlite_utils.Database, path: Path, registry: RubricRegistry) -> None:
    """Version check, pragmas, migrations and rubric registration, in that order."""
    try:
        found = user_version(db.conn)
        if found > SCHEMA_VERSION:
            # Checked before anything writes: a newer program's database stays untouched.
            raise SchemaTooNewError(
                f"{path} has schema version {found}, newer than this a320-review understands "
                f"({SCHEMA_VERSION}): upgrade a320-review to open it"
            )
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
        raise StoreError(f"cannot open {path} as a review database: {exc}{hint}") from None

"""The run list of a review database, read without opening the store: ``a320-review runs``.

Opening the store imports its models and migrates; a read-only listing needs neither when
the file is a review database of this version. Anything else (no such file, another
schema version, a file SQLite cannot read) raises :class:`NotReadHere`, and the caller
opens the store, which reads the file or refuses it with its own message: the listing and
its errors are the same either way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from reviewer.listing.blind import blind_assignments
from reviewer.listing.rows import RunValues
from reviewer.listing.run_values import (
    FirstRows,
    list_first_rows,
    list_run_columns,
    list_run_rows,
    list_run_values,
)

T = TypeVar("T")

#: The schema version these reads are written for: ``reviewer.store.SCHEMA_VERSION`` (not
#: imported, which would import the store; tests/reviewer/test_listing.py holds them equal).
SCHEMA_VERSION = 10

#: Seconds to wait for a writer's lock, as the store does.
_BUSY_TIMEOUT_S = 15.0


class NotReadHere(Exception):
    """This read cannot answer for the file: open the store, which reads it or says why."""


def read_run_values(path: Path, *, rater: str | None) -> list[dict[str, Any]]:
    """:func:`~reviewer.listing.run_values.list_run_values` of the database at ``path``,
    opened read-only (SQLite's ``mode=ro``: nothing is written, nothing migrated) and read
    in one snapshot; :class:`NotReadHere` when the store must open it instead."""
    return _read_only(path, lambda conn: list_run_values(conn, rater=rater))


def read_run_columns(path: Path, *, rater: str | None) -> dict[str, list[Any]]:
    """:func:`read_run_values` as columns, without the paths and reasons
    (:func:`~reviewer.listing.run_values.list_run_columns`): the ``runs`` table."""
    return _read_only(path, lambda conn: list_run_columns(conn, rater=rater))


def read_run_rows(path: Path, *, rater: str | None) -> list[RunValues]:
    """The same list as :func:`read_run_values`, as :class:`RunValues`: the window's first
    screen, read before the store is imported."""
    return _read_only(path, lambda conn: list_run_rows(conn, rater=rater))


def read_first_screen(path: Path, *, rater: str) -> tuple[list[RunValues], frozenset[int]]:
    """The window's first screen, read before the store is imported: the run list
    (:func:`read_run_rows`) and, from the same snapshot, the runs whose scorer may have to
    be hidden from ``rater`` (:func:`~reviewer.listing.blind.blind_assignments`). The window
    hides all of those until the store says which of them are revealed already."""

    def read(conn: sqlite3.Connection) -> tuple[list[RunValues], frozenset[int]]:
        return list_run_rows(conn, rater=rater), frozenset(blind_assignments(conn, rater))

    return _read_only(path, read)


def read_first_page(path: Path, *, rater: str, limit: int) -> tuple[FirstRows, frozenset[int]]:
    """As :func:`read_first_screen`, but only the first ``limit`` rows, with the whole
    list's length and its rows per rating state
    (:func:`~reviewer.listing.run_values.list_first_rows`): what the first screen shows of
    a 50,000-run queue before its first paint; the whole list is read after it."""

    def read(conn: sqlite3.Connection) -> tuple[FirstRows, frozenset[int]]:
        first = list_first_rows(conn, rater=rater, limit=limit)
        return first, frozenset(blind_assignments(conn, rater))

    return _read_only(path, read)


def _read_only(path: Path, read: Callable[[sqlite3.Connection], T]) -> T:
    path = Path(path).expanduser()
    if not path.is_file():
        raise NotReadHere(path)
    try:
        conn = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro",
            uri=True,
            timeout=_BUSY_TIMEOUT_S,
            isolation_level=None,
        )
    except sqlite3.Error as exc:
        raise NotReadHere(path) from exc
    try:
        conn.execute("BEGIN")  # the runs and the ratings from one snapshot
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version != SCHEMA_VERSION:
            raise NotReadHere(path)
        return read(conn)
    except sqlite3.Error as exc:
        # E.g. a read-only folder (no WAL index can be made), or not a database at all.
        raise NotReadHere(path) from exc
    finally:
        conn.close()

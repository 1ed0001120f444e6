"""Opening a connection with the store's settings, and the one write-transaction helper.

Every connection: WAL (readers never block the writer, and the window's import thread can
write while the GUI thread reads), foreign keys on, a busy timeout (two writers queue
instead of failing), ``synchronous=FULL`` (a committed rating survives a power cut, not only
a killed process). Connections are per thread (``check_same_thread``): a worker thread opens
its own store on the same path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import weakref
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.store.errors import DiskFullError, RatingStateError, StoreError
from scoring.paths import shown

if TYPE_CHECKING:
    import sqlite_utils

#: Seconds a writer waits for another writer before giving up with "database is locked".
BUSY_TIMEOUT_S = 15.0


class Database:
    """The store's handle on one SQLite connection: ``conn``, which every read and write
    of the store goes through, and :attr:`utils`, the sqlite-utils handle on the same
    connection for the few writes made through it, made on first use.

    ``import sqlite_utils`` takes a tenth of a second (click, dateutil, pluggy, ...), and
    a store opened to read (the dashboard, ``report``, the reading verbs) never writes.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._utils: sqlite_utils.Database | None = None

    @property
    def utils(self) -> sqlite_utils.Database:
        """sqlite-utils' ``Database`` over :attr:`conn` (loaded without numpy, see
        :mod:`reviewer.store.sqlite_import`)."""
        if self._utils is None:
            from reviewer.store.sqlite_import import database

            self._utils = database(self.conn)
        return self._utils

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def utcnow() -> str:
    """Now, as stored: ISO-8601 UTC with microseconds (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def check_path(path: Path, *, create: bool, readonly: bool = False) -> None:
    """Refuse, with a clear message, a path the store could not open or write."""
    if path.is_dir():
        raise StoreError(f"{shown(path)} is a folder, not a review database")
    if readonly:
        if not path.is_file():
            raise StoreError(
                f"no review database at {shown(path)} (import runs first to create one)"
            )
        return
    if not path.exists():
        if not create:
            raise StoreError(f"no review database at {path} (import runs first to create one)")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder {path.parent}: {exc.strerror}") from None
    # WAL writes two files beside the database, so its folder must be writable too.
    for target in (path if path.exists() else None, path.parent):
        if target is not None and not os.access(target, os.W_OK):
            raise StoreError(f"{target} is read-only: the review database needs to write there")


def connect(
    path: Path, *, create: bool, readonly: bool = False, immutable: bool = False
) -> Database:
    """A configured connection to ``path`` (created when ``create``), schema untouched.

    ``readonly`` opens with ``mode=ro``: SQLite itself refuses every write, so a reading
    verb can neither change nor migrate the file, and a file the user may not write (mode
    0444) is still read. ``immutable`` is for a read-only folder, where SQLite cannot create
    the WAL index beside the file: it reads the file as is, without locks.
    """
    mode = "ro" if readonly else "rwc" if create else "rw"
    extra = "&immutable=1" if immutable else ""
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode={mode}{extra}",
        uri=True,
        timeout=BUSY_TIMEOUT_S,
        # Autocommit at the driver level: transactions are opened explicitly (BEGIN
        # IMMEDIATE), never implicitly by the sqlite3 module before a write.
        isolation_level=None,
    )
    try:
        db = Database(conn)
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        # As sqlite-utils' Database sets it on the connection it is given (it was, on every
        # store's): a trigger's writes fire triggers again, and REPLACE fires delete triggers.
        conn.execute("PRAGMA recursive_triggers = ON")
    except BaseException:
        conn.close()
        raise
    return db


def configure_for_writing(db: Database) -> None:
    """WAL and full sync; done after the schema version check, which must write nothing."""
    mode = db.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise sqlite3.OperationalError(f"cannot switch to WAL (journal mode is {mode})")
    db.conn.execute("PRAGMA synchronous = FULL")


def is_disk_full(exc: BaseException) -> bool:
    """True for SQLite's "database or disk is full" and the OS's ENOSPC."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or (
            "disk is full" in str(exc)
        )
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


#: Called after each COMMIT of a write transaction on that database handle.
_AFTER_COMMIT: weakref.WeakKeyDictionary[Database, Callable[[], None]] = weakref.WeakKeyDictionary()


def after_commit(db: Database, callback: Callable[[], None]) -> None:
    """Run ``callback`` after every committed :func:`write_transaction` on ``db`` (the store
    records its audit head outside the database this way)."""
    _AFTER_COMMIT[db] = callback


@contextlib.contextmanager
def write_transaction(db: Database) -> Iterator[Database]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception.

    IMMEDIATE takes the write lock up front: a deferred transaction that read first could
    find, at its first write, that another connection committed in between, and fail with
    SQLITE_BUSY without waiting; this way the busy timeout applies and the reads inside the
    transaction (version checks, the audit chain head) stay true until COMMIT.
    """
    conn = db.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as exc:
        if not is_disk_full(exc):
            raise
        # Rolled back: this change is not written, every earlier commit is still there.
        raise DiskFullError(
            "the disk holding the review database is full: this change was not saved "
            "(everything saved before is kept); free some space and try again"
        ) from None
    callback = _AFTER_COMMIT.get(db)
    if callback is not None:
        callback()


@contextlib.contextmanager
def read_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A consistent snapshot over several SELECTs (nested use joins the outer transaction)."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


@contextlib.contextmanager
def refused_as_state_error() -> Iterator[None]:
    """A write a trigger refused (a frozen blind rating) as :class:`RatingStateError`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise RatingStateError(str(exc)) from None

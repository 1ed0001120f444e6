"""``OpenedStore``: one open review database, what every store is built on.

Opening (the path checked, the schema migrated or, read-only, only checked; the rubric
registered) and closing, and the connection, path and rubrics the store's methods use;
:class:`~reviewer.store.core.CoreStore` adds runs, raters, ratings, signed sheets and the
audit log, and each feature's store adds its own part.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

from reviewer.rubric import Rubric
from reviewer.store import opening
from reviewer.store.connection import Database
from reviewer.store.rubrics import RubricRegistry

if TYPE_CHECKING:
    import sqlite_utils


class OpenedStore:
    """One open review database: its connection, its path and its rubrics."""

    def __init__(self, db: Database, path: Path, rubrics: RubricRegistry) -> None:
        # Use open() (here or on a subclass): it checks the path, migrates, registers the rubric.
        self._db = db
        self.path = path
        self._rubrics = rubrics
        #: Opened with ``readonly``: SQLite refuses every write on this connection.
        self.readonly = False

    # -- opening and closing -------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        create: bool = True,
        rubric: Rubric | None = None,
        readonly: bool = False,
    ) -> Self:
        """Open (or with ``create``, create) the database at ``path``, migrating it forward.

        :class:`StoreError` with a clear message for a newer schema, a read-only or missing
        path, or a file that is not a review database; the file is left as it was. With
        ``readonly`` nothing is ever written (SQLite's ``mode=ro``): for the reading verbs,
        and for a database the user may only read.
        """
        path = Path(path).expanduser()
        db, registry = opening.open_database(
            path, create=create and not readonly, rubric=rubric, readonly=readonly
        )
        store = cls(db, path, registry)
        store.readonly = readonly
        return store

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType
    ) -> None:
        self.close()

    @property
    def db(self) -> sqlite_utils.Database:
        """The sqlite-utils handle, for read-only exploration and tests (made on first use:
        the store itself reads and writes through the plain connection)."""
        return self._db.utils

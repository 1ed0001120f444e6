"""The ``--db`` option and the store it names: how every store verb opens its database."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reviewer.commands.verbs import CommandError

if TYPE_CHECKING:
    from reviewer.store.core import CoreStore

#: The store class a verb asks for; :func:`open_store` yields one of it.
StoreT = TypeVar("StoreT", bound="CoreStore")


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """The ``--db`` option every store verb takes."""
    parser.add_argument(
        "--db",
        type=Path,
        metavar="DB",
        # The variable's name is spelled out: reviewer.home (pydantic) is not imported to
        # build the parser. tests/reviewer/test_cli_conventions.py keeps the two in step.
        help="review database (default: review.db under the user data folder, "
        "or under $A320_REVIEW_HOME)",
    )


@contextlib.contextmanager
def open_store(
    args: argparse.Namespace,
    store_class: type[StoreT],
    *,
    create: bool,
    readonly: bool | str = False,
) -> Iterator[StoreT]:
    """The store named by ``--db`` (or the default), as ``store_class``, closed on leaving
    the block.

    A feature's verb opens its own feature's store class (which holds what it reads and
    writes), never the composed ``ReviewStore`` above the features: every class opens the
    same database, migrated by the core.

    Any :class:`StoreError` (a refused file, a full disk, a rating in the wrong state)
    becomes a :class:`CommandError`: one line, exit 1, never a traceback.
    Only ``import`` creates a database: a verb that reads must not leave an empty one behind
    when the path has a typo. A verb that only reads passes ``readonly``: it never migrates
    or changes the file, and it can read a database the user may not write. A verb that
    writes only its audit entry (the exports) passes ``"if-unwritable"``: read-only when
    the user may not write the file or its folder.
    """
    from reviewer import home
    from reviewer.store import StoreError

    path = args.db or home.default_db_path()
    if readonly == "if-unwritable":
        readonly = not _writable(path)
    try:
        store = store_class.open(path, create=create, readonly=bool(readonly))
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    with store:
        try:
            yield store
        except StoreError as exc:
            raise CommandError(str(exc)) from None


def _writable(path: Path) -> bool:
    # WAL writes two files beside the database: its folder must be writable as well.
    path = Path(path).expanduser()
    return not path.exists() or (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))

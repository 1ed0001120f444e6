"""``a320-review import``, ``runs`` and ``audit verify``: the review database from a terminal."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from reviewer import home
from reviewer.batch import StderrProgress
from reviewer.cli import CommandError
from reviewer.store import ReviewStore, RunRow, StoreError
from reviewer.tabular import write_rows
from scoring.paths import shown

RUN_COLUMNS = (
    "run_pk",
    "run_id",
    "scenario_id",
    "model",
    "status",
    "scalar",
    "coverage",
    "end_state",
    "unsafe",
    "version",
    "changed",
    "rating",
    "n_ratings",
)


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """The ``--db`` option every store verb takes."""
    parser.add_argument(
        "--db",
        type=Path,
        metavar="DB",
        help="review database (default: review.db under the user data folder, "
        f"or under ${home.HOME_ENV})",
    )


@contextlib.contextmanager
def open_store(
    args: argparse.Namespace, *, create: bool, readonly: bool | str = False
) -> Iterator[ReviewStore]:
    """The store named by ``--db`` (or the default), closed on leaving the block.

    Any :class:`StoreError` (a refused file, a full disk, a rating in the wrong state)
    becomes a :class:`CommandError`: one line, exit 1, never a traceback.
    Only ``import`` creates a database: a verb that reads must not leave an empty one behind
    when the path has a typo. A verb that only reads passes ``readonly``: it never migrates
    or changes the file, and it can read a database the user may not write. A verb that
    writes only its audit entry (the exports) passes ``"if-unwritable"``: read-only when
    the user may not write the file or its folder.
    """
    path = args.db or home.default_db_path()
    if readonly == "if-unwritable":
        readonly = not _writable(path)
    try:
        store = ReviewStore.open(path, create=create, readonly=bool(readonly))
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


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``import``, ``runs`` and ``audit`` verbs."""
    p = subparsers.add_parser(
        "import",
        help="score trajectories and add them to the review database",
        description="Score each trajectory (a file, or every *.jsonl under a folder) and store "
        "it. The same file again is a no-op; a changed file at a stored path becomes a new "
        "version. Exit code 1 when any file is unreadable; the others are still imported.",
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    add_db_option(p)
    p.set_defaults(run=run_import)

    p = subparsers.add_parser("runs", help="list the runs of the review database")
    add_db_option(p)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--rater", help="show this rater's rating state (default: the last rater)")
    p.set_defaults(run=run_runs)

    p = subparsers.add_parser("audit", help="check the audit log of the review database")
    sub = p.add_subparsers(dest="audit_command", metavar="SUBCOMMAND", required=True)
    v = sub.add_parser("verify", help="recompute the hash chain of the audit log")
    add_db_option(v)
    v.set_defaults(run=run_audit_verify)


def run_import(args: argparse.Namespace) -> int:
    """Import the paths; progress on stderr, one summary line on stdout."""
    with open_store(args, create=True) as store:
        try:
            report = store.import_paths(args.paths, progress=StderrProgress("import"))
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        db_path = store.path
    for path, message in report.unreadable:
        print(f"unreadable: {path}: {message}", file=sys.stderr)
    print(f"import: {report.summary()} ({shown(db_path)})")
    return 1 if report.unreadable else 0


def run_runs(args: argparse.Namespace) -> int:
    """One row per run version with the rater's rating state."""
    rater = args.rater or home.last_rater()
    with open_store(args, create=False, readonly=True) as store:
        rows = store.list_runs(rater=rater)
    if args.format == "json":
        dicts = [row.model_dump() for row in rows]
        write_rows(dicts, list(RunRow.model_fields), "json", sys.stdout)
    else:
        table = [
            {
                **row.model_dump(),
                "changed": "changed" if row.superseded_by_version else "",
                "rating": row.rating_state,
            }
            for row in rows
        ]
        write_rows(table, RUN_COLUMNS, "table", sys.stdout)
    print(f"{len(rows)} runs" + (f"; rating state of {rater}" if rater else ""), file=sys.stderr)
    return 0


def run_audit_verify(args: argparse.Namespace) -> int:
    """Exit 0 when the chain verifies, 1 (with the first bad entry) when it does not."""
    with open_store(args, create=False, readonly=True) as store:
        report = store.audit_verify()
    if report.problems:
        for problem in report.problems:
            print(f"problem: {problem}", file=sys.stderr)
        raise CommandError(f"audit verify: {len(report.problems)} problem(s) found")
    if not report.ok:
        raise CommandError(f"audit chain broken: {report.message}")
    print(report.message)
    return 0

"""``a320-review import``, ``runs`` and ``audit verify``: the review database from a terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewer import home
from reviewer.batch import StderrProgress
from reviewer.cli import CommandError
from reviewer.store import ReviewStore, RunRow, StoreError
from reviewer.tabular import write_rows

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


def open_store(args: argparse.Namespace, *, create: bool) -> ReviewStore:
    """The store named by ``--db`` (or the default); a clean error instead of a traceback.

    Only ``import`` creates a database: a verb that reads must not leave an empty one behind
    when the path has a typo.
    """
    path = args.db or home.default_db_path()
    try:
        return ReviewStore.open(path, create=create)
    except StoreError as exc:
        raise CommandError(str(exc)) from None


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
    print(f"import: {report.summary()} ({db_path})")
    return 1 if report.unreadable else 0


def run_runs(args: argparse.Namespace) -> int:
    """One row per run version with the rater's rating state."""
    rater = args.rater or home.last_rater()
    with open_store(args, create=False) as store:
        rows = store.list_runs(rater=rater)
    # A RunRow holds plain values only: its __dict__ is what model_dump() would copy, at a
    # fraction of the cost over 50,000 rows.
    if args.format == "json":
        write_rows([vars(row) for row in rows], list(RunRow.model_fields), "json", sys.stdout)
    else:
        table = [
            {
                **vars(row),
                "changed": "changed" if row.superseded_by_version else "",
                "rating": row.rating_state,
            }
            for row in rows
        ]
        from reviewer.commands.runs_output import write_table

        write_table(table, RUN_COLUMNS, sys.stdout)
    print(f"{len(rows)} runs" + (f"; rating state of {rater}" if rater else ""), file=sys.stderr)
    return 0


def run_audit_verify(args: argparse.Namespace) -> int:
    """Exit 0 when the chain verifies, 1 (with the first bad entry) when it does not."""
    with open_store(args, create=False) as store:
        report = store.audit_verify()
    if not report.ok:
        raise CommandError(f"audit chain broken: {report.message}")
    print(report.message)
    return 0

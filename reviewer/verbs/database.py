"""``a320-review import``, ``runs`` and ``audit verify``: the review database from a terminal.

These verbs open the composed :class:`~reviewer.workspace.ReviewStore` (``audit verify``
checks every feature's rules), so they sit above it, beside the composition.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from reviewer.commands.store_option import add_db_option, open_store
from reviewer.commands.verbs import (
    CommandError,
    Subparsers,
    add_out_option,
    add_verb,
    input_path,
    rater_name_option,
)
from reviewer.tabular import write_rows

if TYPE_CHECKING:
    from reviewer.store import RunRow
    from reviewer.workspace import ReviewStore

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

#: ``RunRow``'s fields, in its order: the keys of ``runs --format json`` (spelled out so
#: that listing imports no model; tests/reviewer/test_listing.py keeps them in step).
RUN_ROW_FIELDS = [
    "run_pk",
    "run_id",
    "path",
    "version",
    "superseded_by_version",
    "scenario_id",
    "model",
    "status",
    "reason",
    "scalar",
    "coverage",
    "end_state",
    "unsafe",
    "rating_state",
    "n_ratings",
    "study",
    "per_run",
    "ratings_in",
    "position",
    "reveal_first",
]


def register(subparsers: Subparsers) -> None:
    """Add the ``import``, ``runs`` and ``audit`` verbs."""
    p = add_verb(
        subparsers,
        "import",
        help="score trajectories and add them to the review database",
        description="Score each trajectory (a file, or every *.jsonl under a folder) and store "
        "it. The same file again is a no-op; a changed file at a stored path becomes a new "
        "version. Exit code 1 when any file is unreadable; the others are still imported.",
        examples=["a320-review import runs/ --db review.db"],
    )
    p.add_argument(
        "paths", nargs="+", type=input_path, metavar="PATH", help="trajectory files or folders"
    )
    add_db_option(p)
    p.set_defaults(run=run_import)

    p = add_verb(
        subparsers,
        "runs",
        help="list the runs of the review database",
        examples=[
            "a320-review runs --db review.db",
            "a320-review runs --format json --rater alice > runs.json",
        ],
    )
    add_db_option(p)
    p.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help="aligned table or JSON (default: table)",
    )
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="show this rater's rating state (default: the last rater)",
    )
    p.add_argument(
        "--study",
        metavar="NAME",
        help="only the study's runs, with how many of their k ratings are in "
        "(with --rater: that rater's queue)",
    )
    add_out_option(p)
    p.set_defaults(run=run_runs)

    p = add_verb(
        subparsers,
        "audit",
        help="check the audit log of the review database",
        examples=["a320-review audit verify --db review.db"],
    )
    sub = p.add_subparsers(
        dest="audit_command", metavar="SUBCOMMAND", required=True, help="what to check"
    )
    v = add_verb(
        sub,
        "verify",
        help="recompute the hash chain of the audit log",
        examples=["a320-review audit verify --db review.db"],
    )
    add_db_option(v)
    add_out_option(v)
    v.set_defaults(run=run_audit_verify)


def run_import(args: argparse.Namespace) -> int:
    """Import the paths; progress on stderr, one summary line on stdout."""
    from reviewer.batch import StderrProgress, unreadable_line
    from reviewer.store import StoreError
    from reviewer.workspace import ReviewStore
    from scoring.paths import shown

    with open_store(args, ReviewStore, create=True) as store:
        try:
            report = store.import_paths(args.paths, progress=StderrProgress("import"))
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        db_path = store.path
    for path, line, reason in report.unreadable_at:
        print(unreadable_line(path, reason, line), file=sys.stderr)
    # The database is named apart: "1 unreadable (review.db)" read as the database unreadable.
    print(f"import: {report.summary()}; database {shown(db_path)}")
    if report.unreadable:
        print(
            f"import: exit code 1 because {len(report.unreadable)} file(s) could not be read (named"
            " above); every readable file was imported",
            file=sys.stderr,
        )
    return 1 if report.unreadable else 0


def run_runs(args: argparse.Namespace) -> int:
    """One row per run version with the rater's rating state."""
    from reviewer import home

    rater = args.rater or home.last_rater()
    if args.study is None and args.format != "json" and _plain_run_table(args, rater):
        return 0
    rows = _plain_run_list(args, rater) if args.study is None else None
    if rows is None:
        from reviewer.workspace import ReviewStore

        with open_store(args, ReviewStore, create=False, readonly=True) as store:
            if args.study is None:
                # Plain dicts of the rows' values: no model per row to build and copy again.
                rows = store.list_run_values(rater=rater)
            else:
                runs = store.list_runs(rater=rater, study=args.study)
                if rater is not None:
                    runs = [_blind_view(store, row, rater) for row in runs]
                # A RunRow holds plain values only: its __dict__ is what model_dump() copies.
                rows = [dict(vars(row)) for row in runs]
    if args.format == "json":
        write_rows(rows, RUN_ROW_FIELDS, "json", sys.stdout)
    else:
        table = rows
        for row in table:  # the rows are ours: two display columns added in place
            row["changed"] = "changed" if row["superseded_by_version"] else ""
            row["rating"] = row["rating_state"]
        from reviewer.commands.runs_output import write_table

        columns = RUN_COLUMNS if args.study is None else (*RUN_COLUMNS, "in", "position")
        if args.study is not None:
            for row in table:
                row["in"] = f"{row['ratings_in']}/{row['per_run']}"
        write_table(table, columns, sys.stdout)
    _say_count(len(rows), rater)
    return 0


def _say_count(n: int, rater: str | None) -> None:
    print(f"{n} runs" + (f"; rating state of {rater}" if rater else ""), file=sys.stderr)


def _plain_run_table(args: argparse.Namespace, rater: str | None) -> bool:
    """The table of the plain run list printed from its columns read straight from the file
    (no dict per row: 50,000 runs); False when the store must open the file instead."""
    from reviewer import home
    from reviewer.commands.runs_output import write_columns
    from reviewer.listing.reader import NotReadHere, read_run_columns

    try:
        columns = read_run_columns(args.db or home.default_db_path(), rater=rater)
    except NotReadHere:
        return False
    # The display columns, as run_runs adds them to the rows of a study's list.
    columns["changed"] = ["changed" if c else "" for c in columns["superseded_by_version"]]
    columns["rating"] = columns["rating_state"]
    write_columns([columns[c] for c in RUN_COLUMNS], RUN_COLUMNS, sys.stdout)
    _say_count(len(columns["run_pk"]), rater)
    return True


def _plain_run_list(args: argparse.Namespace, rater: str | None) -> list[dict[str, Any]] | None:
    """The run list read straight from the file (no store, no models: half of the verb's
    time at 50,000 runs was importing them); None when the store must open it instead, to
    read it or to refuse it with its own message."""
    from reviewer import home
    from reviewer.listing.reader import NotReadHere, read_run_values

    try:
        return read_run_values(args.db or home.default_db_path(), rater=rater)
    except NotReadHere:
        return None


def _blind_view(store: ReviewStore, row: RunRow, rater: str) -> RunRow:
    """The row as ``rater`` may see it: no scorer values before their reveal."""
    if store.rating_state(row.run_pk, rater, study=row.study).scorer_visible:
        return row
    return row.without_scorer()


def run_audit_verify(args: argparse.Namespace) -> int:
    """Exit 0 when the chain verifies, 1 (with the first bad entry) when it does not."""
    from reviewer.workspace import ReviewStore

    with open_store(args, ReviewStore, create=False, readonly=True) as store:
        report = store.audit_verify()
    if report.problems:
        for problem in report.problems:
            print(f"problem: {problem}", file=sys.stderr)
        raise CommandError(f"audit verify: {len(report.problems)} problem(s) found")
    if not report.ok:
        raise CommandError(f"audit chain broken: {report.message}")
    print(report.message)
    return 0

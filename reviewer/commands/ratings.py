"""``a320-review ratings import|export|summary``: ratings in long format, in and out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewer.cli import CommandError, open_output
from reviewer.commands.store_cmds import add_db_option, open_store
from reviewer.rubric import summarize
from reviewer.store import StoreError
from reviewer.tabular import write_rows
from scoring.paths import shown

SUMMARY_COLUMNS = (
    "metric_id",
    "n",
    "n_scored",
    "mean",
    "applicable_rate",
    "not_applicable_rate",
    "not_observed_rate",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``ratings`` verb and its subcommands."""
    p = subparsers.add_parser("ratings", help="import, export and summarise ratings")
    sub = p.add_subparsers(dest="ratings_command", metavar="SUBCOMMAND", required=True)

    i = sub.add_parser(
        "import",
        help="import ratings from a long-format CSV or JSONL (e.g. paper forms)",
        description="Rows of run_id, metric, outcome, score, comment; one submitted rating "
        "per run. Every row is checked against the rubric; on any error, every error is "
        "listed with its line and nothing is imported.",
    )
    i.add_argument("file", type=Path, metavar="FILE")
    i.add_argument("--rater", required=True, help="whose ratings these are")
    i.add_argument("--format", choices=("csv", "jsonl"), help="default: from the suffix")
    add_db_option(i)
    i.set_defaults(run=run_import)

    e = sub.add_parser(
        "export",
        help="export ratings in long format",
        description="One row per rating and metric: each rater's latest submitted or signed "
        "rating of each run, with run, scenario, model, rubric, scorer version and timestamps.",
    )
    e.add_argument("--format", choices=("csv", "jsonl"), default="csv")
    e.add_argument("--out", type=Path, metavar="FILE", help="write here instead of stdout")
    e.add_argument("--rater", help="only this rater's ratings")
    add_db_option(e)
    e.set_defaults(run=run_export)

    s = sub.add_parser(
        "summary",
        help="per-metric means and outcome rates",
        description="Means skip not_applicable and not_observed, whose rates are shown apart.",
    )
    s.add_argument("--format", choices=("table", "json"), default="table")
    s.add_argument("--rater", help="only this rater's ratings")
    add_db_option(s)
    s.set_defaults(run=run_summary)


def run_import(args: argparse.Namespace) -> int:
    """All rows or none; each error on its own line."""
    with open_store(args, create=False) as store:
        try:
            pks = store.import_ratings(args.file, rater=args.rater, fmt=args.format)
        except StoreError as exc:
            raise CommandError(str(exc)) from None
    print(f"ratings import: {len(pks)} submitted ratings of {args.rater} from {shown(args.file)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write the long format to ``--out`` or stdout; the export is audited."""
    with (
        open_store(args, create=False, readonly="if-unwritable") as store,
        open_output(args.out) as out,
    ):
        count = store.export_ratings(out, fmt=args.format, rater=args.rater)
        unrecorded = " (not recorded in the audit log: read-only database)" * store.readonly
    print(f"ratings export: {count} rows{unrecorded}", file=sys.stderr)
    return 0


def run_summary(args: argparse.Namespace) -> int:
    """Per-metric aggregates of the latest decisions."""
    with open_store(args, create=False, readonly=True) as store:
        decided = store.latest_decisions(rater=args.rater)
        rows = [s.model_dump() for s in summarize(decided, rubric=store.rubric())]
    write_rows(rows, SUMMARY_COLUMNS, args.format, sys.stdout)
    print(f"{len(decided)} ratings", file=sys.stderr)
    return 0

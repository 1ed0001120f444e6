"""``a320-review consensus export``: the value the benchmark reports per run and metric."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from reviewer.commands.verbs import Subparsers, UsageError, add_verb


def register(subparsers: Subparsers) -> None:
    """Add the ``consensus`` verb."""
    from reviewer.commands.store_option import add_db_option

    c = add_verb(
        subparsers,
        "consensus",
        help="the reported value of each run and metric, and how it was reached",
        description="The consensus the benchmark reports.",
        examples=[
            "a320-review consensus export --study pilot > c.csv",
        ],
    )
    sub = c.add_subparsers(
        dest="consensus_command", metavar="SUBCOMMAND", required=True, help="what to do"
    )
    p = add_verb(
        sub,
        "export",
        help="write the consensus per run and metric",
        description="Per run and metric rated by people: the reported outcome and score "
        "(adjudicated where adjudicated, else the agreed value: equal outcomes and the median "
        "score) and how it was reached: agreed, adjudicated, single_rater, or open while "
        "still disputed (no value). validity, judge compare, the report and the dashboard "
        "use these same values; every figure leaves the open ones out and says how many.",
        examples=[
            "a320-review consensus export --study pilot > c.csv",
            "a320-review consensus export --format jsonl --out consensus.jsonl",
        ],
    )
    p.add_argument("--study", metavar="NAME", help="only this study's runs and ratings")
    p.add_argument(
        "--format", choices=("csv", "jsonl"), default="csv", help="output format (default: csv)"
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="write here (default: stdout)")
    add_db_option(p)
    p.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    """Write the consensus rows (audited as an export)."""
    from reviewer.adjudication.consensus import CONSENSUS_COLUMNS, consensus_rows
    from reviewer.adjudication.facade import AdjudicationStore
    from reviewer.commands.store_option import open_store
    from reviewer.commands.verbs import open_output
    from reviewer.store import StoreError
    from reviewer.tabular import write_rows

    with open_store(args, AdjudicationStore, create=False) as store:
        try:
            rows = consensus_rows(store, study=args.study)
        except StoreError as exc:
            raise UsageError(str(exc)) from None
        dicts = [r.model_dump() for r in rows]
        with open_output(args.out) as out:
            if args.format == "csv":
                write_rows(dicts, CONSENSUS_COLUMNS, "csv", out)
            else:
                for d in dicts:
                    out.write(json.dumps({c: d[c] for c in CONSENSUS_COLUMNS}) + "\n")
        store.record_export(
            "consensus", {"format": args.format, "rows": len(rows), "study": args.study}
        )
    return 0

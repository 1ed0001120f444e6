"""``a320-review leaderboard``: models ranked with their uncertainty."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewer.commands.verbs import CommandError, Subparsers, UsageError, add_verb, open_output
from reviewer.intervals import RESAMPLES


def register(subparsers: Subparsers) -> None:
    """Add the ``leaderboard`` verb."""
    from reviewer.commands.store_option import add_db_option

    p = add_verb(
        subparsers,
        "leaderboard",
        help="models ranked by the scorer, the humans or a judge, with 95%% intervals",
        description="Rank models by their mean scalar (scorer), mean consensus score "
        "(humans; adjudicated, else agreed; open disputes left out and counted) or a "
        "judge's mean score, averaged over scenarios. Intervals: a bootstrap resampling "
        "scenarios, then runs within them; every pair of models with its difference, "
        "paired by scenario; each model's rank range; pass and dangerous rates with Wilson "
        "intervals (unsafe runs are counted apart, never averaged away); Kendall's tau "
        "between the views and the runs that drive their disagreement. csv writes the "
        "models' table; json and markdown everything.",
        examples=[
            "a320-review leaderboard",
            "a320-review leaderboard --by humans --metric safety --format markdown",
            "a320-review leaderboard --study pilot --by judge:llama3.1 --format json",
        ],
    )
    p.add_argument("--study", metavar="NAME", help="only the study's runs and ratings")
    p.add_argument(
        "--scenario",
        action="append",
        default=[],
        metavar="ID",
        help="only runs of this scenario (repeatable; default: all)",
    )
    p.add_argument(
        "--by",
        default="scorer",
        metavar="VIEW",
        help="scorer (default), humans, or judge:NAME",
    )
    p.add_argument(
        "--metric", metavar="ID", help="humans and judges: one metric (default: their mean)"
    )
    p.add_argument(
        "--safe-only",
        action="store_true",
        help="leave unsafe runs out of the scores (the board says how many)",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=RESAMPLES,
        metavar="N",
        help=f"bootstrap replicates ({RESAMPLES}, as the report's Leaderboard page)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="N", help="bootstrap seed (0)")
    p.add_argument(
        "--format",
        choices=("table", "json", "csv", "markdown"),
        default="table",
        help="output format (default: table)",
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="write here (default: stdout)")
    add_db_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the chosen view's board and the views' agreement, and write them."""
    from reviewer.commands.store_option import open_store
    from reviewer.leaderboard import board, output, source
    from reviewer.store import StoreError

    if not 10 <= args.resamples <= 100_000:
        raise UsageError("--resamples: give a whole number from 10 to 100000")
    if not 0 <= args.seed < 2**63:
        raise UsageError("--seed: give a whole number from 0 to 2**63 - 1")
    by = args.by
    if by not in ("scorer", "humans") and not (by.startswith("judge:") and len(by) > 6):
        raise UsageError(f"--by: {by!r} is not scorer, humans or judge:NAME")
    from reviewer.judge.facade import JudgeStore

    with open_store(args, JudgeStore, create=False, readonly=True) as store:
        try:
            if args.metric is not None and args.metric not in store.rubric().metric_ids:
                raise UsageError(f"--metric: {args.metric!r} is not a metric of the rubric")
            common = {"study": args.study, "scenarios": args.scenario}
            views = {"scorer": source.scorer_values(store, **common)}
            humans = source.human_values(store, metric=args.metric, **common)
            if any(r.value is not None for r in humans.runs) or by == "humans":
                views["humans"] = humans
            names = source.judges(store)
            if by.startswith("judge:") and by[6:] not in names:
                raise UsageError(
                    f"--by: no judge named {by[6:]!r} (judges: {', '.join(names) or 'none'})"
                )
            for name in names:
                views[f"judge:{name}"] = source.judge_values(
                    store, name, metric=args.metric, **common
                )
        except StoreError as exc:
            raise CommandError(str(exc)) from None
    chosen = board.build(
        views[by], resamples=args.resamples, seed=args.seed, safe_only=args.safe_only
    )
    if not chosen.rows:
        raise CommandError(f"leaderboard: no run has a value by {by}: nothing to rank")
    others = [v for name, v in views.items() if name != by]
    agreements = [
        board.agreement(views[by], v, resamples=args.resamples, seed=args.seed) for v in others
    ]
    with open_output(args.out) as out:
        output.write(chosen, agreements, args.format, out)
    print(
        f"leaderboard: {len(chosen.rows)} models by {by}"
        + (f" ({'; '.join(chosen.notes)})" if chosen.notes else ""),
        file=sys.stderr,
    )
    return 0

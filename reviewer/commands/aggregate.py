"""``a320-review aggregate``: ScoreCards grouped per (scenario, model)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.commands.verbs import Subparsers, UsageError, add_out_option, add_verb, input_path
from reviewer.tabular import FORMATS, write_rows

if TYPE_CHECKING:
    from scoring import ScoreCard


def register(subparsers: Subparsers) -> None:
    """Add the ``aggregate`` verb."""
    p = add_verb(
        subparsers,
        "aggregate",
        help="aggregate scores per (scenario, model)",
        description="PATH is trajectories, folders of them, or a JSONL written by "
        "`a320-review score`. Provider-error runs are counted but left out of the means "
        "unless --include-errors. Unreadable files are named on stderr and left out "
        "(exit code 1); a run seen twice (same trajectory bytes) is counted once.",
        examples=[
            "a320-review aggregate runs/ --format csv > groups.csv",
            "a320-review aggregate cards.jsonl --include-errors",
        ],
    )
    p.add_argument(
        "paths",
        nargs="+",
        type=input_path,
        metavar="PATH",
        help="trajectory files, folders of them, or ScoreCard JSONL files",
    )
    p.add_argument("--include-errors", action="store_true", help="fold provider errors in")
    p.add_argument(
        "--format", choices=FORMATS, default="table", help="output format (default: table)"
    )
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes")
    add_out_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Aggregate and print one row per group."""
    from reviewer.batch import DiscoveryError, discover, unreadable_line
    from scoring import GroupRow, aggregate

    problems: list[tuple[str, str]] = []
    try:
        paths = discover(args.paths, problems)
        cards = list(_cards(paths, args.jobs))
    except DiscoveryError as exc:
        raise UsageError(str(exc)) from None
    for where, reason in problems:
        print(unreadable_line(where, reason), file=sys.stderr)
    if not cards and not problems:
        raise UsageError("no trajectories or ScoreCards found under the given paths")
    runs, unreadable, duplicates = _usable(cards)
    for card in unreadable:
        print(unreadable_line(card.path, card.error, card.error_line), file=sys.stderr)
    if duplicates:
        print(
            f"aggregate: {duplicates} run(s) seen twice (a ScoreCard file beside its "
            "trajectories, or the same file under two paths) counted once",
            file=sys.stderr,
        )
    rows = aggregate(runs, include_errors=args.include_errors)
    columns = tuple(GroupRow.model_fields)
    write_rows((r.model_dump() for r in rows), columns, args.format, sys.stdout)
    return 1 if unreadable or problems else 0


def _usable(cards: list[ScoreCard]) -> tuple[list[ScoreCard], list[ScoreCard], int]:
    """(runs to aggregate, unreadable files, duplicates dropped).

    An unreadable file is not a run of any group: it is named on stderr, not averaged.  A
    run is its trajectory's bytes, so the same sha256 twice is counted once.
    """
    runs: list[ScoreCard] = []
    unreadable: list[ScoreCard] = []
    seen: set[str] = set()
    duplicates = 0
    for card in cards:
        if card.status == "unreadable":
            unreadable.append(card)
        elif card.trajectory_sha256 in seen:
            duplicates += 1
        else:
            if card.trajectory_sha256 is not None:
                seen.add(card.trajectory_sha256)
            runs.append(card)
    return runs, unreadable, duplicates


def _cards(paths: list[Path], jobs: int) -> Iterator[ScoreCard]:
    from reviewer.batch import StderrProgress, is_scorecard_file, read_scorecards, score_many

    trajectories = []
    for path in paths:
        if is_scorecard_file(path):
            yield from read_scorecards(path)
        else:
            trajectories.append(path)
    progress = StderrProgress("aggregate")
    lean = score_many(trajectories, jobs=jobs, with_judge_bundle=False, render=lean_card)
    for done, card in enumerate(lean, start=1):
        progress(done, len(trajectories), card.path)
        yield card


def lean_card(card: ScoreCard) -> ScoreCard:
    """The card without its per-command detail: all aggregation reads, cheap to pickle."""
    return card.model_copy(
        update={"commands": [], "required": [], "order_constraints": [], "success_checks": []}
    )

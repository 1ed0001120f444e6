"""``a320-review gui``: the arguments of the review window (run by ``ui.entry``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.cli import CommandError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``gui`` verb."""
    p = subparsers.add_parser("gui", help="open the review window (the default)")
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="trajectories to import")
    p.add_argument("--db", type=Path, help="review database (default: under the user home)")
    p.add_argument("--rater", help="rater name (default: the last one used)")
    p.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE",
        help="render the main window offscreen to a PNG and exit",
    )
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if args.gui_runner is None:
        raise CommandError("the review window is not available from this entry point")
    return args.gui_runner(args)

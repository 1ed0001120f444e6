"""``a320-review gui``: the arguments of the review window (run by ``ui.entry``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.cli import CommandError, add_verb, input_path


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``gui`` verb."""
    p = add_verb(
        subparsers,
        "gui",
        help="open the review window (the default)",
        description="Open the review window on the review database, importing PATHs first. "
        "Without a display, use xvfb-run or --screenshot.",
        examples=[
            "a320-review gui runs/ --rater alice",
            "a320-review gui --screenshot window.png",
        ],
    )
    p.add_argument(
        "paths", nargs="*", type=input_path, metavar="PATH", help="trajectories to import"
    )
    p.add_argument(
        "--db",
        type=Path,
        metavar="DB",
        help="review database (default: under the user home)",
    )
    p.add_argument("--rater", metavar="NAME", help="rater name (default: the last one used)")
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

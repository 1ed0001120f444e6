"""``a320-review gui``: the arguments of the review window (run by ``ui.entry``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.commands.verbs import (
    CommandError,
    GuiRunner,
    Subparsers,
    add_verb,
    input_path,
    rater_name_option,
)


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (e.g. ``1366x768``) as (width, height); argparse reports a bad one."""
    width, sep, height = text.lower().partition("x")
    try:
        size = (int(width), int(height)) if sep else None
    except ValueError:
        size = None
    if size is None or not (320 <= size[0] <= 10000 and 240 <= size[1] <= 10000):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size such as 1366x768 (width x height, 320x240 to 10000x10000)"
        )
    return size


def register(subparsers: Subparsers) -> None:
    """Add the ``gui`` verb."""
    p = add_verb(
        subparsers,
        "gui",
        help="open the review window (the default)",
        description="Open the review window on the review database, importing PATHs first. "
        "Without a display, use xvfb-run or --screenshot.",
        examples=[
            'a320-review gui --rater "A. Martin" runs/',
            "a320-review gui --screenshot window.png --size 1366x768",
            "a320-review gui --screenshot form.png --demo-rating",
        ],
    )
    p.add_argument(
        "paths", nargs="*", type=input_path, metavar="PATH", help="trajectories to import"
    )
    p.add_argument(
        "--db", type=Path, metavar="FILE", help="review database (default: under the user home)"
    )
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="who is rating (default: the last rater on this machine; asked on first start)",
    )
    p.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE",
        help="render the main window offscreen to a PNG and exit",
    )
    p.add_argument(
        "--demo-rating",
        action="store_true",
        help="with --screenshot: fill in part of a rating to show the form in use (off: "
        "the window shows the database's ratings as they are)",
    )
    p.add_argument(
        "--size",
        type=parse_size,
        metavar="WxH",
        help="with --screenshot: the window size in pixels (default 1920x1080)",
    )
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if args.gui_runner is None:
        raise CommandError("the review window is not available from this entry point")
    runner: GuiRunner = args.gui_runner
    return runner(args)

"""The ``a320-review`` command line.

Each verb lives in its own module under :mod:`reviewer.commands` and registers itself through
``register(subparsers)``; its handler takes the parsed arguments and returns an exit code.
The window is not imported here: ``ui.entry`` passes a ``gui`` runner in, so the scoring and
store verbs run on a machine without a display or without Qt at all.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

#: Verb modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "reviewer.commands.gui",
    "reviewer.commands.score",
    "reviewer.commands.aggregate",
    "reviewer.commands.store_cmds",
    "reviewer.commands.ratings",
    "reviewer.commands.signing",
    "reviewer.commands.agreement",
    "reviewer.commands.report",
)

GuiRunner = Callable[[argparse.Namespace], int]
#: ``(signed_sheet, pdf_path) -> None``; Qt draws PDFs, so the entry point supplies it.
PdfRenderer = Callable[[object, Path], None]


class UsageError(Exception):
    """Bad command-line input: printed without a traceback, exit code 2."""


class CommandError(Exception):
    """The command could not do its work (bad file, refused operation): exit code 1."""


@contextlib.contextmanager
def open_output(path: Path | None) -> Iterator[TextIO]:
    """``--out FILE`` for writing, or stdout when no file is given; a clean usage error
    when the file cannot be created."""
    if path is None:
        yield sys.stdout
        return
    try:
        fh = path.open("w", encoding="utf-8", newline="")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    with fh:
        yield fh


def build_parser() -> argparse.ArgumentParser:
    """The full parser, every verb registered."""
    parser = argparse.ArgumentParser(
        prog="a320-review",
        description="Score and review recorded LLM-agent runs of A320 failure procedures. "
        "With no command, opens the review window.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # A verb whose module is not there yet must not break every other verb.
            if exc.name != name:
                raise
            continue
        module.register(subparsers)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    gui: GuiRunner | None = None,
    pdf_renderer: PdfRenderer | None = None,
) -> int:
    """Parse ``argv`` and run the verb; returns the process exit code.

    ``gui`` and ``pdf_renderer`` are injected by ``ui.entry``: the only parts that need Qt.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0].startswith("--") and args_list[0] not in ("--help", "-h")):
        args_list = ["gui", *args_list]
    args = parser.parse_args(args_list)
    args.gui_runner = gui
    args.pdf_renderer = pdf_renderer
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"a320-review {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"a320-review {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `a320-review runs | head`: the reader left; that is not an error of ours.
        # Point stdout at devnull so the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

"""The ``a320-review`` command line.

Each verb lives in its own module and registers itself through ``register(subparsers)``:
a feature's verbs with the feature (``reviewer.studies.verbs``, ``reviewer.adjudication.verbs``,
...), the verbs of the store and the scorer under :mod:`reviewer.commands` (see
:data:`COMMANDS`); its handler takes the parsed arguments and returns an exit code.

The window is not imported here: ``ui.entry`` passes a ``gui`` runner in, so the scoring and
store verbs run on a machine without a display or without Qt at all.

Building the parser imports argparse and the verb modules only: each verb imports the
scorer, the store or Qt inside its handler, so ``--help``, ``--version`` and shell
completion answer at once (tests/reviewer/test_cli_conventions.py checks the imports).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reviewer.commands.verbs import (
    EXAMPLES_HEADING,
    CommandError,
    GuiRunner,
    PdfRenderer,
    UsageError,
)
from reviewer.installation import shadowing_problem

#: Verb modules, in the order ``--help`` lists them.
#: Each command module and the verbs it registers.  A command line that names its verb
#: builds that verb's parser only (the others cost a tenth of ``score``'s start-up); a
#: test holds every module to the verbs listed here.
COMMANDS: dict[str, tuple[str, ...]] = {
    "reviewer.commands.gui": ("gui",),
    "reviewer.commands.score": ("score",),
    "reviewer.commands.aggregate": ("aggregate",),
    "reviewer.commands.store_cmds": ("import", "runs", "audit"),
    "reviewer.exchange.verbs": ("ratings",),
    "reviewer.signing.verbs": ("keygen", "whoami", "sign", "export", "verify"),
    "reviewer.agreement.verbs": ("agreement", "validity"),
    "reviewer.judge.verbs": ("judge",),
    "reviewer.studies.verbs": ("study",),
    "reviewer.collecting.verbs": ("collect",),
    "reviewer.commands.completion": ("completion",),
    "reviewer.results.verbs": ("report",),
    "reviewer.adjudication.verbs": ("adjudicate", "adjudication"),
    "reviewer.adjudication.consensus_verbs": ("consensus",),
    "reviewer.leaderboard.verbs": ("leaderboard",),
    "reviewer.quality.verbs": ("raters",),
}


class _VersionAction(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(f"a320-review {version()}")
        parser.exit()


def version() -> str:
    """The installed a320-review version (``unknown`` when run from a bare source tree)."""
    found = wheel_version(Path(__file__).resolve().parent.parent)
    if found is not None:
        return found
    from importlib import metadata

    try:
        return metadata.version("a320-review")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def wheel_version(site: Path) -> str | None:
    """The version in the name of the one ``a320_review-*.dist-info`` folder in ``site``.

    An installed wheel puts its .dist-info beside the packages: reading the folder name
    spares importlib.metadata (a third of ``--version``'s start-up). Editable installs keep
    it elsewhere, and two such folders (a broken upgrade) are left to importlib.metadata.
    """
    found = list(site.glob("a320_review-*.dist-info"))
    if len(found) != 1:
        return None
    return found[0].name.removeprefix("a320_review-").removesuffix(".dist-info")


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The full parser, every verb registered; with ``verb`` (one of :data:`COMMANDS`),
    the parser of that verb's module alone.  An unknown ``verb`` gets the full parser,
    whose error then lists every verb."""
    modules = [name for name, verbs in COMMANDS.items() if verb in verbs] or list(COMMANDS)
    parser = argparse.ArgumentParser(
        prog="a320-review",
        description="Score and review recorded LLM-agent runs of A320 failure procedures.\n"
        "With no command, opens the review window.",
        epilog=f"{EXAMPLES_HEADING}\n  a320-review score runs/ --out cards.jsonl\n"
        "  a320-review COMMAND --help",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", help="what to do (default: gui); COMMAND --help"
    )
    for name in modules:
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
    problem = shadowing_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (
        args_list[0].startswith("--") and args_list[0] not in ("--help", "-h", "--version")
    ):
        args_list = ["gui", *args_list]
    parser = build_parser(args_list[0])
    try:
        args, extras = parser.parse_known_args(args_list)
    except UsageError as exc:  # from input_path, while parsing
        print(f"{verb_parser(parser, args_list).prog}: error: {exc}", file=sys.stderr)
        return 2
    if extras:
        # Said by the verb's own parser (its usage, "a320-review VERB: error:"), not by the
        # top-level one, whose usage tells nothing about the verb that was mistyped.
        verb_parser(parser, args_list).error(f"unrecognized arguments: {' '.join(extras)}")
    args.gui_runner = gui
    args.pdf_renderer = pdf_renderer
    # `completion` describes every verb: it gets the full parser's builder, not this module.
    args.build_parser = build_parser
    # The full path of the verb that ran ("a320-review ratings import"), so every message
    # names the sub-verb a user typed, not only its group.
    prog = verb_parser(parser, args_list).prog
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `a320-review runs | head`: the reader left; that is not an error of ours.
        # Point stdout at devnull so the interpreter's final flush does not complain.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        # A full disk or a folder gone while writing: one clear line, never a traceback.
        print(f"{prog}: {describe_os_error(exc)}", file=sys.stderr)
        return 1


def verb_parser(parser: argparse.ArgumentParser, args: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the deepest verb named in ``args`` (``ratings import`` → its own)."""
    current = parser
    for token in args:
        if token.startswith("-"):
            continue
        subs = [a for a in current._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or token not in subs[0].choices:
            break
        current = subs[0].choices[token]
    return current


def describe_os_error(exc: OSError) -> str:
    """``cannot write FILE: the disk is full (No space left on device)`` and the like."""
    from scoring.paths import shown  # light, pure; kept out of --help's import path

    where = f" {shown(exc.filename)}" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return f"cannot write{where}: the disk is full ({exc.strerror})"
    return f"cannot complete{where}: {exc.strerror or exc}"

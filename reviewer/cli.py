"""The ``a320-review`` command line.

Each verb lives in its own module and registers itself through ``register(subparsers)``:
a feature's verbs with the feature (``reviewer.verbs.study``, ``reviewer.adjudication.verbs``,
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

from reviewer.commands.verbs import (
    EXAMPLES_HEADING,
    CommandError,
    GuiRunner,
    PdfRenderer,
    Subparsers,
    UsageError,
)
from reviewer.installation import shadowing_problem

#: ``typing`` is a tenth of ``--help``'s own start-up; the checkers know this idiom.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Verb modules, in the order ``--help`` lists them.
#: Each command module and the verbs it registers.  A command line that names its verb
#: builds that verb's parser only (the others cost a tenth of ``score``'s start-up); a
#: test holds every module to the verbs listed here.
COMMANDS: dict[str, tuple[str, ...]] = {
    "reviewer.commands.gui": ("gui",),
    "reviewer.commands.score": ("score",),
    "reviewer.commands.aggregate": ("aggregate",),
    "reviewer.verbs.database": ("import", "runs", "audit"),
    "reviewer.exchange.verbs": ("ratings",),
    "reviewer.signing.verbs": ("keygen", "whoami", "sign", "export", "verify"),
    "reviewer.agreement.verbs": ("agreement", "validity"),
    "reviewer.judge.verbs": ("judge",),
    "reviewer.verbs.study": ("study",),
    "reviewer.collecting.verbs": ("collect",),
    "reviewer.commands.completion": ("completion",),
    "reviewer.results.verbs": ("report",),
    "reviewer.adjudication.verbs": ("adjudicate", "adjudication"),
    "reviewer.adjudication.consensus_verbs": ("consensus",),
    "reviewer.leaderboard.verbs": ("leaderboard",),
    "reviewer.verbs.raters": ("raters",),
}

#: Each verb's one line in ``a320-review --help``, in :data:`COMMANDS`' order. The overview
#: is built from this table alone, without importing any verb module (a third of the
#: start-up of ``--help``); a test holds it to what the modules register.
VERB_HELP: dict[str, str] = {
    "gui": "open the review window (the default)",
    "score": "score trajectories into ScoreCards",
    "aggregate": "aggregate scores per (scenario, model)",
    "import": "score trajectories and add them to the review database",
    "runs": "list the runs of the review database",
    "audit": "check the audit log of the review database",
    "ratings": "import, export and summarise ratings",
    "keygen": "create a rater's signing key pair",
    "whoami": "show a rater's key fingerprint and public key line",
    "sign": "sign a rater's submitted rating of a run",
    "export": "write every signed sheet",
    "verify": "check signed sheets",
    "agreement": "inter-rater agreement: Krippendorff's alpha per metric, rater and pair",
    "validity": "the automatic score against the human consensus",
    "judge": "rate runs with an LLM judge and compare it with the humans",
    "study": "rating studies: raters, assignments, blind protocol, packets",
    "collect": "collect signed sheets from other raters",
    "completion": "print a shell completion script (bash or zsh)",
    "report": "the results charts and tables as a PDF or a self-contained HTML page",
    "adjudicate": "decide one disputed metric of a run, with a reason",
    "adjudication": "list disagreements; submit, sign, correct and export adjudications",
    "consensus": "the reported value of each run and metric, and how it was reached",
    "leaderboard": "models ranked by the scorer, the humans or a judge, with 95%% intervals",
    "raters": "rater quality: accuracy against a reference, bias, drift",
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
    found = path_version(sys.path)
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


def path_version(entries: Sequence[str]) -> str | None:
    """The version of the first ``a320_review-*.dist-info`` folder along ``entries`` (the
    import path), as :mod:`importlib.metadata` finds it for an editable install, without
    importing it (half of ``--version``'s start-up). None when the first folder holding
    one holds two (left to importlib.metadata) or none is found."""
    for entry in entries:
        try:
            names = [n for n in os.listdir(entry or ".") if n.startswith("a320_review-")]
        except OSError:
            continue
        found = [n for n in names if n.endswith(".dist-info")]
        if found:
            if len(found) != 1:
                return None
            return found[0].removeprefix("a320_review-").removesuffix(".dist-info")
    return None


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``$COLUMNS``, else the terminal, else 80),
    without importing shutil, whose bz2 and lzma were a fifth of ``--help``'s start-up."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]  # None: caught below
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns or 80


class _TopFormatter(argparse.RawDescriptionHelpFormatter):
    """The top-level help's formatter, as argparse sizes it (terminal width less 2)."""

    def __init__(self, prog: str, **kwargs: object) -> None:
        kwargs.setdefault("width", terminal_columns() - 2)
        super().__init__(prog, **kwargs)  # type: ignore[arg-type]  # argparse's own keywords


class _NameOnly:
    """A verb in the overview: listed by name and help line, never parsed with (building
    23 real parsers was most of the overview's cost)."""

    def __init__(self, **kwargs: object) -> None:
        pass


def _top_parser(
    parser_class: type = argparse.ArgumentParser,
) -> tuple[argparse.ArgumentParser, Subparsers]:
    """The ``a320-review`` parser with no verb registered yet."""
    parser = argparse.ArgumentParser(
        prog="a320-review",
        description="Score and review recorded LLM-agent runs of A320 failure procedures.\n"
        "With no command, opens the review window.",
        epilog=f"{EXAMPLES_HEADING}\n  a320-review score runs/ --out cards.jsonl\n"
        "  a320-review COMMAND --help",
        formatter_class=_TopFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers: Subparsers = parser.add_subparsers(
        dest="command",
        metavar="COMMAND",
        help="what to do (default: gui); COMMAND --help",
        parser_class=parser_class,
    )
    return parser, subparsers


def overview_parser() -> argparse.ArgumentParser:
    """The parser that answers ``a320-review --help``: every verb by its line in
    :data:`VERB_HELP`, none of the verb modules imported (their own ``--help`` builds
    them). Its help is the full parser's, word for word (a test holds them equal)."""
    parser, subparsers = _top_parser(_NameOnly)
    for name, help in VERB_HELP.items():
        subparsers.add_parser(name, help=help)
    return parser


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The full parser, every verb registered; with ``verb`` (one of :data:`COMMANDS`),
    the parser of that verb's module alone.  An unknown ``verb`` gets the full parser,
    whose error then lists every verb."""
    modules = [name for name, verbs in COMMANDS.items() if verb in verbs] or list(COMMANDS)
    parser, subparsers = _top_parser()
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
    if args_list[0] == "--version":  # what the parser would do, without building it
        print(f"a320-review {version()}")
        raise SystemExit(0)  # as argparse's --version does
    if args_list[0] in ("--help", "-h"):
        overview_parser().parse_args(args_list[:1])  # prints the overview and exits
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
        report_out = getattr(args, "report_out", None)
        if report_out is None:
            return int(args.run(args))
        from contextlib import redirect_stdout

        from reviewer.commands.verbs import open_output

        with open_output(report_out) as out, redirect_stdout(out):
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
    except Exception as exc:
        # SQLite out of room while it reads: a sort or a grouping spills into temporary
        # files in the temporary folder (seen with TMPDIR on a full disk: a traceback).
        from reviewer.store.connection import is_disk_full

        if not is_disk_full(exc):
            raise
        print(f"{prog}: {describe_sqlite_full(exc)}", file=sys.stderr)
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


def describe_sqlite_full(exc: BaseException) -> str:
    """SQLite's "database or disk is full" where no change was being saved: the database's
    disk, or the temporary folder its sorts spill into."""
    import tempfile

    return (
        f"the disk is full ({exc}): SQLite found no room for the database or its temporary "
        f"files in {tempfile.gettempdir()}; nothing was written: free some space and try again"
    )


def describe_os_error(exc: OSError) -> str:
    """``cannot write FILE: the disk is full (No space left on device)`` and the like."""
    from scoring.paths import shown  # light, pure; kept out of --help's import path

    where = f" {shown(exc.filename)}" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return f"cannot write{where}: the disk is full ({exc.strerror})"
    return f"cannot complete{where}: {exc.strerror or exc}"

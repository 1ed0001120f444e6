"""What every verb module builds on: its parser, its argument types, its errors, its output.

A verb module (``reviewer/commands/*.py`` and the features' own) registers its verbs with
:func:`add_verb`, types its file arguments with :func:`input_path` and its rater names with
:func:`rater_name_option`, writes ``--out`` through :func:`open_output`, and raises
:class:`UsageError` (exit 2) or :class:`CommandError` (exit 1); :mod:`reviewer.cli` parses
the command line and turns those into messages and exit codes. Light on purpose: building
the parser imports this module and argparse only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

#: ``typing`` is a twentieth of ``--help``'s start-up and only the checkers need it here
#: (annotations are strings: ``from __future__ import annotations``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO, TypeAlias

GuiRunner = Callable[[argparse.Namespace], int]
#: A verb's handler (``set_defaults(run=...)``): the parsed arguments in, the exit code out.
Handler = Callable[[argparse.Namespace], int]
#: What every verb module's ``register`` receives: the subparsers to add its verbs to.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
#: ``(signed_sheet, pdf_path) -> bytes drawn``; Qt draws PDFs, so the entry point supplies it.
PdfRenderer = Callable[[object, Path], "int | None"]


#: The shape every verb's ``--help`` ends with; see :func:`add_verb`.
EXAMPLES_HEADING = "examples:"


class UsageError(Exception):
    """Bad command-line input: printed without a traceback, exit code 2."""


class CommandError(Exception):
    """The command could not do its work (bad file, refused operation): exit code 1."""


def input_path(value: str) -> Path:
    """``type=`` of every input file or folder argument: a missing one is a usage error.

    Raised as :class:`UsageError` (argparse lets it through), so it is reported before any
    work starts and the same way in every verb:
    ``a320-review VERB: error: no such file or folder: X``, exit code 2.
    """
    path = Path(value)
    # lexists: a symlink that leads nowhere (or to itself) is there; the verb's own reading
    # reports it as an unreadable file with its reason, not as a missing one.
    if not os.path.lexists(path):
        raise UsageError(f"no such file or folder: {value}")
    return path


def rater_name_option(option: str) -> Callable[[str], str]:
    """``type=`` of an option that takes a rater name: the one rule for names
    (:mod:`reviewer.raters`), checked while parsing, so every verb refuses a bad name the
    same way, ``a320-review VERB: error: OPTION: reason`` and exit code 2, before any work
    and before the name is ever printed back."""

    def check(value: str) -> str:
        from reviewer.raters import RaterNameError, check_rater_name  # light: unicodedata

        try:
            return check_rater_name(value)
        except RaterNameError as exc:
            raise UsageError(f"{option}: {exc}") from None

    return check


def rater_names_option(option: str) -> Callable[[str], str]:
    """Like :func:`rater_name_option` for a comma-separated list (``--raters A,B``); the
    text is returned as given, for the verb to split."""
    check = rater_name_option(option)

    def check_all(value: str) -> str:
        for name in value.split(","):
            if name.strip():
                check(name.strip())
        return value

    return check_all


@contextlib.contextmanager
def open_output(path: Path | None) -> Iterator[TextIO]:
    """``--out FILE`` for writing, or stdout when no file is given.

    The file is written through :mod:`reviewer.outfile` (a temporary file renamed into
    place): a file that cannot be created is a usage error, a write that fails (full disk)
    is a :class:`CommandError`, and either way ``FILE`` keeps its earlier content.
    """
    if path is None:
        yield sys.stdout
        return
    from reviewer import outfile

    if outfile.is_stream(path):
        # /dev/stdout, /dev/null or a named pipe: written as a stream, never replaced.
        try:
            fh = path.open("w", encoding="utf-8", newline="")
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror}") from None
        with fh:
            yield fh
        return
    try:
        stream = outfile.open_text(path)
        text = stream.__enter__()
    except OSError as exc:
        raise UsageError(str(exc)) from None
    try:
        yield text
    except outfile.OutputError as exc:
        stream.__exit__(*sys.exc_info())
        raise CommandError(f"{exc}; {path} was left as it was") from None
    except BaseException:
        stream.__exit__(*sys.exc_info())
        raise
    try:
        stream.__exit__(None, None, None)
    except OSError as exc:
        raise CommandError(f"{exc}; {path} was left as it was") from None


def add_out_option(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``--out FILE`` for a verb that prints a report: what it prints on stdout goes to
    ``FILE`` instead, whole or not at all (``reviewer.cli.main`` opens the file with
    :func:`open_output`); messages stay on stderr. Returns ``p``."""
    p.add_argument(
        "--out",
        dest="report_out",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (complete or absent) instead of stdout",
    )
    return p


class VerbHelpFormatter(argparse.HelpFormatter):
    """Wraps the description to the terminal like argparse does, but keeps an epilog that
    starts with :data:`EXAMPLES_HEADING` line for line: the examples are shell lines a
    user pastes."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES_HEADING):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, min(width, 88), indent)


def add_verb(
    subparsers: Subparsers,
    name: str,
    *,
    help: str,
    description: str | None = None,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """The one way to add a verb or a sub-verb: its parser, formatted by
    :class:`VerbHelpFormatter`, whose ``--help`` ends with ``examples``.

    The description (by default ``help`` as a sentence) wraps to the terminal, 88 columns
    at most; the examples are kept line for line, as shell lines a user can paste (an
    example may go on over lines that end in a backslash).
    """
    text = description or help[:1].upper() + help[1:] + "."
    return subparsers.add_parser(
        name,
        help=help,
        description=text,
        formatter_class=VerbHelpFormatter,
        epilog=EXAMPLES_HEADING + "".join(f"\n  {example}" for example in examples),
    )

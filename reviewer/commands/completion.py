"""``a320-review completion bash|zsh``: a shell completion script, written by ``shtab``.

The script is generated from the same parser ``--help`` prints, so it never drifts from the
verbs and options. File and folder arguments (``type=Path`` or ``input_path``) complete as
paths; a ``DIR`` metavar completes folders only.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from pathlib import Path

from reviewer.commands.verbs import Subparsers, UsageError, add_verb, input_path

SHELLS = ("bash", "zsh")


def register(subparsers: Subparsers) -> None:
    """Add the ``completion`` verb."""
    p = add_verb(
        subparsers,
        "completion",
        help="print a shell completion script (bash or zsh)",
        description="Print the completion script for SHELL on stdout. Load it from your "
        "shell's start-up file, or save it where the shell looks for completions.",
        examples=[
            'eval "$(a320-review completion bash)"   # in ~/.bashrc',
            "a320-review completion zsh > ~/.zfunc/_a320-review   # fpath+=(~/.zfunc) in ~/.zshrc",
        ],
    )
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash or zsh")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the script for ``args.shell``."""
    try:
        import shtab
    except ImportError:  # a dependency; only a broken installation lacks it
        raise UsageError("shell completion needs the shtab package: pip install shtab") from None
    build_parser: Callable[[], argparse.ArgumentParser] = args.build_parser
    parser = build_parser()
    for action in _actions(parser):
        if action.type in (Path, input_path):
            # shtab reads a `complete` attribute it asks callers to set on the action.
            action.complete = shtab.DIRECTORY if action.metavar == "DIR" else shtab.FILE  # type: ignore[attr-defined]  # see above
    print(shtab.complete(parser, shell=args.shell), end="")
    return 0


def _actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Every argument of the parser and of its sub-parsers, depth first."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _actions(sub)

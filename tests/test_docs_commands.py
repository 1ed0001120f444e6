"""Every ``a320-review`` command written in the README and docs/ names a verb, subcommand
and options the program has, so an example cannot drift from the parser unnoticed.

docs/team.md is also run as a whole (tests/test_docs_team.py); the other examples name
files a reader has (``runs/``, ``sheets/``), so here they are held to the parser only.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from reviewer.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def command_lines(path: Path) -> list[tuple[int, str]]:
    """``(line number, command)`` of every a320-review command in the file's sh blocks,
    continuation lines joined and comments dropped."""
    out: list[tuple[int, str]] = []
    in_block = False
    pending: tuple[int, str] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            in_block = line.strip() in ("```sh", "```bash", "```console")
            continue
        if not in_block:
            continue
        text = line.split(" # ")[0].split("  #")[0].rstrip()
        if pending is not None:
            start, head = pending
            text = head + " " + text.strip()
            number = start
        if text.endswith("\\"):
            pending = (number, text[:-1].rstrip())
            continue
        pending = None
        for match in re.finditer(r"(?:^|[\s;&|(])a320-review(\s[^;&()`]*)?", text):
            out.append((number, "a320-review" + (match.group(1) or "").rstrip()))
    return out


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


CASES = [(p, n, c) for p in DOCS for n, c in command_lines(p)]


def test_the_docs_have_commands_to_check() -> None:
    assert len(CASES) > 60
    assert {p.name for p, _, _ in CASES} >= {"README.md", "team.md"}


@pytest.mark.parametrize(
    ("path", "number", "command"),
    CASES,
    ids=[f"{p.name}:{n}" for p, n, _ in CASES],
)
def test_a_documented_command_matches_the_parser(path: Path, number: int, command: str) -> None:
    where = f"{path.name}:{number}: {command}"
    words = shlex.split(command.replace("[", " ").replace("]", " "), comments=True)[1:]
    words = [w for w in words if not w.startswith("$") and w != "|"]
    parser = build_parser()
    verbs = _subparsers(parser)
    if not words or words[0].startswith("-"):  # a320-review, --help, --version
        assert set(w for w in words if w.startswith("--")) <= _options(parser), where
        return
    assert words[0] in verbs, f"{where}: no verb {words[0]!r}"
    parser = verbs[words[0]]
    candidates = [parser]
    subs = _subparsers(parser)
    if subs:
        named = [w for w in words[1:] if w in subs or "|" in w]
        alternatives = {a for w in named for a in w.split("|")} & set(subs)
        first = words[1].split("|") if len(words) > 1 else []
        assert set(first) & set(subs) or not first, f"{where}: no subcommand {words[1]!r}"
        candidates = [subs[a] for a in (alternatives or set(first) & set(subs))] or [parser]
    # A subcommand with actions of its own (study gold add|list|remove): theirs count too.
    nested = [n for c in candidates for n in _subparsers(c).values()]
    known = set().union(*(_options(c) for c in candidates + nested))
    for word in words:
        if word.startswith("--"):
            option = word.split("=", 1)[0]
            assert option in known, f"{where}: {words[0]} has no option {option}"

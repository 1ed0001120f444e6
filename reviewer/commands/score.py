"""``a320-review score``: one ScoreCard per trajectory, as JSONL, CSV or a table."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from reviewer.commands.verbs import Subparsers, UsageError, add_verb, input_path, open_output
from reviewer.tabular import csv_writer, write_rows

if TYPE_CHECKING:
    from scoring import ScoreCard


@cache
def columns() -> tuple[str, ...]:
    """The flat columns of the CSV output (the scorer is imported on first use only)."""
    from scoring import VECTOR_FIELDS

    return (
        "path", "run_id", "scenario_id", "model", "status", "reason",
        *VECTOR_FIELDS,
        "scalar", "error",
    )  # fmt: skip


def table_columns() -> tuple[str, ...]:
    """The columns of the table output: the CSV's without the long ones."""
    return tuple(c for c in columns() if c not in ("path", "reason"))


def register(subparsers: Subparsers) -> None:
    """Add the ``score`` verb."""
    p = add_verb(
        subparsers,
        "score",
        help="score trajectories into ScoreCards",
        description="Score each trajectory (a file, or every *.jsonl under a folder). "
        "Exit code 1 when any file is unreadable; the others are still scored.",
        examples=[
            "a320-review score runs/ --out cards.jsonl --jobs 4",
            "a320-review score run.jsonl --format table",
        ],
    )
    p.add_argument(
        "paths", nargs="+", type=input_path, metavar="PATH", help="trajectory files or folders"
    )
    p.add_argument(
        "--format",
        choices=("jsonl", "csv", "table"),
        default="jsonl",
        help="one ScoreCard per line, flat columns, or an aligned table (default: jsonl)",
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="write here instead of stdout")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes")
    p.add_argument(
        "--no-judge-bundle", action="store_true", help="leave the judge bundle out (smaller)"
    )
    p.set_defaults(run=run)


class Scored(NamedTuple):
    """One file's result as the worker hands it back: what the parent needs, no more."""

    path: str
    status: str
    error_line: int | None
    error: str | None
    payload: Any  # a JSON line (jsonl) or a flat row (csv, table)


def render(cards: list[ScoreCard], *, fmt: str) -> tuple[list[Scored], bytes]:
    """A chunk of cards in the output format; runs in the scoring worker.

    JSONL comes back as one piece of bytes for the whole chunk (the parent writes it as it
    is), the flat formats as one row per card.
    """
    if fmt == "jsonl":
        # The serialiser's bytes, straight: model_dump_json would decode them to str and the
        # output would encode them again.
        lines = b"".join(
            card.__pydantic_serializer__.to_json(card, by_alias=True) + b"\n" for card in cards
        )
        return [Scored(c.path, c.status, c.error_line, c.error, None) for c in cards], lines
    include = set(columns() if fmt == "csv" else table_columns())
    rows = [
        Scored(c.path, c.status, c.error_line, c.error, c.model_dump(include=include))
        for c in cards
    ]
    return rows, b""


def run(args: argparse.Namespace) -> int:
    """Score every file and write the cards; returns 1 if any was unreadable."""
    from reviewer.batch import (
        DiscoveryError,
        StderrProgress,
        fewer_collections,
        score_chunks,
        unreadable_line,
    )
    from reviewer.file_stream import FoundFiles

    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    problems: list[tuple[str, str]] = []
    try:
        # A folder is streamed, not listed: memory stays flat however many files it holds.
        paths = FoundFiles(args.paths, problems)
    except DiscoveryError as exc:
        raise UsageError(str(exc)) from None
    for where, reason in problems:
        print(unreadable_line(where, reason), file=sys.stderr)
    if not paths and not problems:
        raise UsageError("no *.jsonl trajectory found under the given paths")
    progress = StderrProgress("score")
    results = score_chunks(
        paths,
        jobs=args.jobs,
        with_judge_bundle=not args.no_judge_bundle,
        render_chunk=partial(render, fmt=args.format),
        total=len(paths),
    )
    unreadable = 0
    with fewer_collections(), open_output(args.out) as out:
        for done, result in enumerate(_write(results, args.format, out), start=1):
            progress(done, len(paths), result.path)
            if result.status == "unreadable":
                unreadable += 1
                print(
                    unreadable_line(result.path, result.error, result.error_line),
                    file=sys.stderr,
                )
    unreadable += len(problems)
    total = len(paths) + len(problems)
    print(
        f"score: {total} files, {total - unreadable} read, {unreadable} unreadable",
        file=sys.stderr,
    )
    return 1 if unreadable else 0


def _write(chunks: Iterator[tuple[list[Scored], bytes]], fmt: str, out: TextIO) -> Iterator[Scored]:
    # JSONL and CSV stream (memory stays flat over 10,000 files); the table has to see every
    # row to align its columns, so it keeps the small flat rows only.
    if fmt == "jsonl":
        binary = getattr(out, "buffer", None)
        for results, lines in chunks:
            if binary is not None:
                binary.write(lines)
            else:  # a text-only stream (e.g. io.StringIO)
                out.write(lines.decode("utf-8"))
            yield from results
        if binary is not None:
            binary.flush()
    elif fmt == "csv":
        writer = csv_writer(out)
        cols = columns()
        writer.writerow(cols)
        for results, _ in chunks:
            for result in results:
                writer.writerow([result.payload.get(c) for c in cols])
                yield result
    else:
        rows = []
        for results, _ in chunks:
            for result in results:
                rows.append(result.payload)
                yield result
        write_rows(rows, table_columns(), "table", out)

"""Scoring many files: discovery, parallel scoring in a stable order, progress.

Used by the ``score`` and ``aggregate`` verbs and by the store's import.  Results come back
in the order of the sorted paths whatever ``jobs`` is, so two runs of the same command give
byte-identical output.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from scoring import ScoreCard, score_file

Progress = Callable[[int, int, str], None]
#: Files handed to a worker at a time: large enough to amortise the IPC, small enough to
#: keep progress smooth and memory flat.
CHUNK = 16


class DiscoveryError(ValueError):
    """A path given on the command line that does not exist."""


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """Files given as is; folders searched recursively for ``*.jsonl``; sorted, deduplicated."""
    found: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.update(p for p in path.rglob("*.jsonl") if p.is_file())
        elif path.is_file():
            found.add(path)
        else:
            raise DiscoveryError(f"no such file or folder: {path}")
    return sorted(found)


def score_many(
    paths: Sequence[Path],
    *,
    jobs: int = 1,
    with_judge_bundle: bool = True,
    render: Callable[[ScoreCard], Any] | None = None,
) -> Iterator[Any]:
    """Score ``paths`` in order, in ``jobs`` processes; yields ``render(card)`` per path
    (the card itself without ``render``).

    ``render`` runs in the worker: handing back a JSON line or a small row is far cheaper
    than pickling a whole card, which made two processes slower than one.  It must be a
    picklable top-level function (or a ``functools.partial`` of one).
    """
    work = partial(_score, with_judge_bundle=with_judge_bundle, render=render)
    if jobs <= 1 or len(paths) < 2 * CHUNK:
        yield from map(work, paths)
        return
    with _context(render).Pool(jobs) as pool:
        yield from pool.imap(work, paths, chunksize=CHUNK)


def _context(render: Callable[[ScoreCard], Any] | None) -> multiprocessing.context.BaseContext:
    """How workers start, the cheapest way that is safe in this process.

    Importing the scorer costs a fresh worker about 0.2 s of CPU, as much as scoring 200
    files, and delays the first card by 0.3-0.6 s. On Linux, in a process without Qt (the
    command line), workers are forked: they start with the scorer already imported and the
    first card arrives in ~0.05 s. A process with Qt loaded is never forked (a forked child
    of a process with Qt's threads is unsafe): its workers come from a fork server that
    imports the scorer once. ``spawn`` is the fallback (macOS, Windows).
    """
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "PySide6" not in sys.modules and "fork" in methods:
        return multiprocessing.get_context("fork")
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    modules = ["scoring", __name__]
    if render is not None:
        modules.append(getattr(render, "func", render).__module__)
    context.set_forkserver_preload(modules)
    return context


def _score(
    path: Path, *, with_judge_bundle: bool, render: Callable[[ScoreCard], Any] | None
) -> Any:
    card = score_file(path, with_judge_bundle=with_judge_bundle)
    return card if render is None else render(card)


def is_scorecard_file(path: Path) -> bool:
    """True when ``path`` is a JSONL of ScoreCards (written by ``score``), not a trajectory."""
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
        head = json.loads(first)
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and "scorer_version" in head and "status" in head


def read_scorecards(path: Path) -> Iterator[ScoreCard]:
    """The ScoreCards of a JSONL written by ``score --format jsonl``."""
    with path.open("rb") as fh:
        for number, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    yield ScoreCard.model_validate_json(line)
                except ValueError as exc:
                    raise DiscoveryError(f"{path}:{number}: not a ScoreCard ({exc})") from None


class StderrProgress:
    """Throttled progress lines on stderr: at most one a second, and a last one at the end."""

    def __init__(self, verb: str, *, stream=None, min_total: int = 20, interval: float = 1.0):
        self.verb = verb
        self.stream = stream or sys.stderr
        self.min_total = min_total
        self.interval = interval
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int, total: int, current: str) -> None:
        if total < self.min_total:
            return
        now = time.monotonic()
        if done < total and now - self.last < self.interval:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(f"{self.verb}: {done}/{total} files ({rate:.0f}/s)\n")
        self.stream.flush()

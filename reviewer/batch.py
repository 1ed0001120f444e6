"""Scoring many files: discovery, parallel scoring in a stable order, progress.

Used by the ``score`` and ``aggregate`` verbs and by the store's import.  Results come back
in the order of the sorted paths whatever ``jobs`` is, so two runs of the same command give
byte-identical output.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import itertools
import json
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from scoring import ScoreCard, score_file
from scoring.paths import shown, shown_from_here

if TYPE_CHECKING:
    import multiprocessing.context

Progress = Callable[[int, int, str], None]
#: Files handed to a worker at a time: large enough to amortise the IPC, small enough to
#: keep progress smooth and memory flat.
CHUNK = 16


class DiscoveryError(ValueError):
    """A path given on the command line that does not exist."""


#: ``(path as shown, reason)`` for what discovery met but could not use.
Problem = tuple[str, str]


def file_problem(path: object, line: int | None, reason: str) -> str:
    """The one shape of a problem in an input file: ``FILE:LINE: reason`` (``FILE: reason``
    when no line applies), as compilers print it and editors jump to it."""
    return f"{path}:{line}: {reason}" if line else f"{path}: {reason}"


def unreadable_line(path: str | Path, reason: str | None, line: int | None = None) -> str:
    """The line every verb prints for a file it could not use, whether discovery met it or
    the parser refused it: ``unreadable: FILE:LINE: reason``, FILE in one form
    (:func:`scoring.paths.shown_from_here`)."""
    return f"unreadable: {file_problem(shown_from_here(path), line, reason or 'unreadable')}"


def discover(paths: Iterable[str | Path], problems: list[Problem] | None = None) -> list[Path]:
    """Files given as is; folders searched recursively for ``*.jsonl``; sorted, deduplicated.

    A path given that does not exist raises :class:`DiscoveryError`. What a folder holds but
    cannot be read (a subfolder without permission, a FIFO or a socket named ``*.jsonl``, a
    symlink loop) is appended to ``problems`` as ``(path, reason)``, so it is reported like
    an unreadable file; without ``problems`` the first one raises. Nothing is ever opened
    here: a FIFO would block the reader forever.
    """
    found: set[Path] = set()
    met: list[Problem] = []
    for raw in paths:
        path = raw if isinstance(raw, Path) else Path(raw)
        try:
            info = path.stat()
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                met.append((shown(path), "a symlink loop"))
                continue
            raise DiscoveryError(f"no such file or folder: {shown(path)}") from None
        if stat.S_ISDIR(info.st_mode):
            found.update(walk(path, met, {(info.st_dev, info.st_ino)}))
        elif stat.S_ISREG(info.st_mode):
            found.add(path)
        else:
            met.append((shown(path), _not_regular(info.st_mode)))
    if problems is None and met:
        raise DiscoveryError(f"{met[0][0]}: {met[0][1]}")
    if problems is not None:
        problems.extend(met)
    return sorted(found, key=path_order)


def path_order(path: str | Path) -> list[str]:
    """The key that sorts paths as Paths sort (part by part, a root before any name, in
    the platform's case rules) without a Path comparison per step: a tenth of the cost."""
    parts = os.path.normcase(str(path)).split(os.sep)
    if not parts[0]:
        parts[0] = os.sep  # an absolute path's root
    return parts


def walk(folder: Path, met: list[Problem], visited: set[tuple[int, int]]) -> Iterator[Path]:
    """``*.jsonl`` under ``folder``, in name order: symlinked folders followed once
    (``visited`` stops loops), every failure recorded in ``met``. :func:`discover` collects
    it; :class:`reviewer.file_stream.FoundFiles` streams it to the scorer."""
    try:
        with os.scandir(folder) as it:
            names: list[str] = []
            special: dict[str, os.DirEntry[str]] = {}
            for entry in it:
                names.append(entry.name)
                if not _plain_trajectory(entry):
                    special[entry.name] = entry
    except OSError as exc:
        met.append((shown(folder), f"cannot read the folder: {exc.strerror or exc}"))
        return
    names.sort(key=os.path.normcase)  # path_order's case rules (the name itself on POSIX)
    base = str(folder)
    for name in names:
        found = special.get(name)
        if found is None:
            yield Path(os.path.join(base, name))
            continue
        entry = found
        path = Path(entry.path)
        wanted = name.endswith(".jsonl")
        is_link = False
        try:
            is_link = entry.is_symlink()
            info = entry.stat(follow_symlinks=True)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                met.append((shown(path), "a symlink loop"))
            elif wanted or not is_link:
                met.append((shown(path), f"cannot read: {exc.strerror or exc}"))
            continue  # a dangling symlink that is not a trajectory: nothing to import
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            if key in visited:
                if is_link:
                    met.append((shown(path), "a symlink loop (the folder is already searched)"))
                continue
            visited.add(key)
            yield from walk(path, met, visited)
        elif wanted and stat.S_ISREG(info.st_mode):
            yield path
        elif wanted:
            met.append((shown(path), _not_regular(info.st_mode)))


def _plain_trajectory(entry: os.DirEntry[str]) -> bool:
    """A ``*.jsonl`` regular file, not a symlink: the folder listing says so, no stat."""
    if not entry.name.endswith(".jsonl"):
        return False
    try:
        return not entry.is_symlink() and entry.is_file(follow_symlinks=False)
    except OSError:
        return False  # looked at again, the careful way, where its reason is recorded


def _not_regular(mode: int) -> str:
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"not a regular file ({kind}): not read"


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
    yield from _in_order(work, paths, jobs=jobs, chunksize=CHUNK, worth=2 * CHUNK, render=render)


@contextlib.contextmanager
def fewer_collections(gen0: int = 50_000) -> Iterator[None]:
    """Let the cyclic garbage collector run rarely while a batch is scored.

    Scoring allocates hundreds of container objects per file and frees them by reference
    counting (a batch's collections find next to no cycles), yet the collector's default
    threshold walks them every 700 allocations: ~10% of a whole ``score`` process's CPU.
    ``gc.freeze`` also moves what the imports built out of every later collection, so
    forked workers do not copy the parent's pages by touching them. Both are undone on
    exit (verbs also run inside other processes, e.g. the tests).
    """
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(gen0, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def score_chunks(
    paths: Iterable[Path],
    *,
    jobs: int = 1,
    with_judge_bundle: bool = True,
    render_chunk: Callable[[list[ScoreCard]], Any],
    size: int = CHUNK,
    total: int | None = None,
) -> Iterator[Any]:
    """Score ``paths`` in order, ``size`` files at a time; yields ``render_chunk(cards)`` per
    chunk, in order.

    For output the worker can finish in one piece (a JSONL slice as bytes): the parent then
    receives and writes one object per chunk instead of one per card, which was most of its
    CPU with ``--jobs 2`` while both workers wanted both CPUs. ``render_chunk`` must be
    picklable, as for :func:`score_many`.

    ``paths`` may be a stream (:class:`reviewer.file_stream.FoundFiles`) with ``total``
    its length: one process then holds one chunk of paths at a time, not all of them.
    """
    count = len(paths) if total is None else total  # type: ignore[arg-type]  # sized without total
    work = partial(_score_chunk, with_judge_bundle=with_judge_bundle, render_chunk=render_chunk)
    chunks = _chunked(iter(paths), size)
    n_chunks = -(-count // size)
    yield from _in_order(
        work, chunks, jobs=jobs, chunksize=1, worth=2, render=render_chunk, count=n_chunks
    )


def _chunked(paths: Iterator[Path], size: int) -> Iterator[list[Path]]:
    """Consecutive lists of ``size`` paths (the last one shorter), as they come."""
    while chunk := list(itertools.islice(paths, size)):
        yield chunk


def _in_order(
    work: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    jobs: int,
    chunksize: int,
    worth: int,
    render: Callable[..., Any] | None,
    count: int | None = None,
) -> Iterator[Any]:
    """``map(work, items)``, in a pool of ``jobs`` workers when there are at least ``worth``
    items (fewer are not worth a pool's start-up); ``count`` is the length of an iterator."""
    if jobs <= 1 or (len(items) if count is None else count) < worth:  # type: ignore[arg-type]  # sized without count
        yield from map(work, items)
        return
    with _context(render).Pool(jobs) as pool:
        yield from pool.imap(work, items, chunksize=chunksize)


def _context(render: Callable[..., Any] | None) -> multiprocessing.context.BaseContext:
    """How workers start, the cheapest way that is safe in this process.

    Importing the scorer costs a fresh worker about 0.2 s of CPU, as much as scoring 200
    files, and delays the first card by 0.3-0.6 s. On Linux, in a process without Qt (the
    command line), workers are forked: they start with the scorer already imported and the
    first card arrives in ~0.05 s. A process with Qt loaded is never forked (a forked child
    of a process with Qt's threads is unsafe): its workers come from a fork server that
    imports the scorer once. ``spawn`` is the fallback (macOS, Windows).
    """
    # Imported here: one process (--jobs 1, the default) never needs it, and it is 10 ms of
    # every start-up.
    import multiprocessing

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


def _score_chunk(
    paths: Sequence[Path],
    *,
    with_judge_bundle: bool,
    render_chunk: Callable[[list[ScoreCard]], Any],
) -> Any:
    return render_chunk([score_file(p, with_judge_bundle=with_judge_bundle) for p in paths])


def is_scorecard_file(path: Path) -> bool:
    """True when ``path`` is a JSONL of ScoreCards (written by ``score``), not a trajectory."""
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
        head = json.loads(first)
    except (OSError, ValueError, RecursionError):
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

    def __init__(
        self,
        verb: str,
        *,
        stream: TextIO | None = None,
        min_total: int = 20,
        interval: float = 1.0,
    ) -> None:
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

"""The trajectories under one folder as a stream, in :func:`reviewer.batch.discover`'s order.

``discover`` returns every path at once, sorted: about a kilobyte held per file before the
first one is scored (50 MB at 50,000 files, most of ``score``'s peak memory). A folder walked
depth first with each folder's entries in name order yields the files already in that
order (:func:`reviewer.batch.path_order` compares part by part, and a folder's files and
subfolders are parts of it), so one folder can be streamed: it is walked once to count its
files and report what it cannot use, up front as before, and again as it is scored. What
the stream holds is the names of the folders being walked, not every path found.

Several paths on the command line can overlap (``score runs runs/a``) and must be merged,
sorted and deduplicated: they still go through ``discover``.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from reviewer.batch import Problem, _not_regular, discover
from scoring.paths import shown


class FoundFiles:
    """The ``*.jsonl`` files under ``paths`` (:func:`discover`'s rules and order),
    iterable as many times as needed; ``len`` is the count found up front.

    ``problems`` gets what the walk met but cannot use, as with :func:`discover`, whose
    :class:`~reviewer.batch.DiscoveryError` a missing path raises here too.
    """

    def __init__(self, paths: Iterable[str | Path], problems: list[Problem]) -> None:
        given = [p if isinstance(p, Path) else Path(p) for p in paths]
        self._folder: tuple[Path, tuple[int, int]] | None = None
        self._files: list[Path] | None = None
        if len(given) == 1:
            try:
                info = given[0].stat()
            except OSError:
                info = None  # discover says why, the same way as for several paths
            if info is not None and stat.S_ISDIR(info.st_mode):
                self._folder = (given[0], (info.st_dev, info.st_ino))
        if self._folder is None:
            self._files = discover(given, problems)
            self.total = len(self._files)
        else:
            self.total = sum(1 for _ in self._walk(problems))

    def __len__(self) -> int:
        return self.total

    def __iter__(self) -> Iterator[Path]:
        if self._files is not None:
            return iter(self._files)
        return self._walk([])  # the problems were reported when the files were counted

    def _walk(self, met: list[Problem]) -> Iterator[Path]:
        assert self._folder is not None
        folder, key = self._folder
        return _walk(folder, met, {key})


def _walk(folder: Path, met: list[Problem], visited: set[tuple[int, int]]) -> Iterator[Path]:
    """``*.jsonl`` under ``folder`` in sorted order: ``reviewer.batch._walk``'s rules (its
    messages, symlinked folders followed once), yielding instead of collecting."""
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
            yield from _walk(path, met, visited)
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

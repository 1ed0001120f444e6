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

import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from reviewer.batch import Problem, discover, walk


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
        return walk(folder, met, {key})

"""Pictures drawn side by side in processes forked from this one, with nothing between
them that a worker's death can leave locked (the HTML report's charts).

``concurrent.futures.ProcessPoolExecutor`` did this until a worker killed while it sent a
picture back (a few hundred kB, several writes to the result pipe under a lock the workers
share) hung the report for good: the executor's thread waited in ``recv`` for the rest of a
message no one would send (the pipe never ends: this process and the other worker hold its
writing end), the other worker waited for the lock the dead one held, and both workers
outlived a report killed in turn. Here:

- the pictures to draw are one byte each in a pipe written whole and closed before the
  fork: a worker takes the next by reading one byte, and stops at the end of the pipe;
- a worker writes each picture to a file of its own (an unnamed temporary file) as one
  record, then its number (one byte: one atomic write) to a pipe this process reads to
  follow progress; that pipe ends once every worker has ended, however it ended;
- a record cut short by a death is not read, so a picture is either whole or missing, and
  :func:`draw_forked` says which are missing and why; the caller draws those itself;
- a worker whose caller has died fails on its next byte (a pipe no one reads) and ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from reviewer.results.cores import ended

#: A record in a worker's file: the picture's number and length, then the picture.
_HEADER = struct.Struct("<II")


@dataclass
class Drawn:
    """What the workers drew: ``pictures`` by number; ``failure`` is why some are missing
    ("" when none is)."""

    pictures: dict[int, bytes] = field(default_factory=dict)
    failure: str = ""


def draw_forked(
    draw: Callable[[int], bytes],
    count: int,
    workers: int,
    arrived: Callable[[int], None] = lambda _i: None,
    order: Sequence[int] = (),
    here: Sequence[int] = (),
) -> Drawn:
    """``draw(i)`` for ``i`` in ``range(count)`` in ``workers`` forked processes, each
    taking the next picture when done with one; ``arrived(i)`` as each one comes back.
    ``order`` is the order they are taken in (default: 0, 1, ...); pictures it leaves out
    are taken after it.

    The pictures ``here`` are drawn by this process, in that order, once the workers are
    begun (while they draw the others): those that need what only this process may wait
    for (the report's pages that show what another worker makes). What such a ``draw``
    raises is raised once the workers are stopped (killed: their pictures are of no use).

    Returns once every worker has ended. A worker that is killed, or raises, loses the
    picture it was drawing; the others go on. Only for a process that may fork (one thread):
    the caller decides that.
    """
    if not 0 < count <= 255:
        raise ValueError("draw_forked: from 1 to 255 pictures (one byte each)")
    mine = list(dict.fromkeys(i for i in here if 0 <= i < count))
    taken = list(dict.fromkeys(i for i in order if 0 <= i < count and i not in mine))
    taken += [i for i in range(count) if i not in {*taken, *mine}]
    drawn = Drawn()
    try:
        todo_r, todo_w = os.pipe()
    except OSError as exc:
        return Drawn(failure=_not_started(exc))
    try:
        os.write(todo_w, bytes(taken))  # fewer bytes than a pipe holds
        done_r, done_w = os.pipe()
    except OSError as exc:
        os.close(todo_r)
        return Drawn(failure=_not_started(exc))
    finally:
        os.close(todo_w)  # before any fork: the workers see the pipe end
    files: list[BinaryIO] = []
    pids: list[int] = []
    failures: list[str] = []
    try:
        for _ in range(workers):
            try:  # no temporary file, no process: fewer workers, or none
                own = tempfile.TemporaryFile()  # noqa: SIM115 (closed below)
                files.append(own)
                pid = os.fork()
            except OSError as exc:
                failures.append(_not_started(exc))
                break
            if pid == 0:  # the worker: never returns
                code = 1
                try:
                    os.close(done_r)
                    _work(draw, todo_r, done_w, own.fileno())
                    code = 0
                finally:
                    os._exit(code)
            pids.append(pid)
        os.close(done_w)
        done_w = -1
        for i in mine:
            drawn.pictures[i] = draw(i)
            arrived(i)
        while block := os.read(done_r, 256):
            for i in block:
                arrived(i)
        while pids:
            _pid, status = os.waitpid(pids[0], 0)
            pids.pop(0)
            failure = ended(status, "a chart worker")
            if failure:
                failures.append(failure)
        for file in files:
            drawn.pictures.update(_records(file))  # never one of ``mine``: not in the pipe
    finally:
        for pid in pids:  # left early (an interruption): the workers end with this call
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        for fd in (todo_r, done_r, done_w):
            if fd >= 0:
                os.close(fd)
        for file in files:
            file.close()
    if len(drawn.pictures) < count:
        drawn.failure = "; ".join(dict.fromkeys(failures)) or "a chart worker lost a picture"
    return drawn


def _not_started(exc: OSError) -> str:
    return f"a chart worker could not be started ({exc.strerror or exc})"


def _work(draw: Callable[[int], bytes], todo: int, done: int, file: int) -> None:
    while taken := os.read(todo, 1):
        picture = draw(taken[0])
        _write_all(file, _HEADER.pack(taken[0], len(picture)) + picture)
        os.write(done, taken)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _records(file: BinaryIO) -> dict[int, bytes]:
    """The whole records of a worker's file (a last one cut short is left out)."""
    file.seek(0)
    data = file.read()
    found: dict[int, bytes] = {}
    at = 0
    while at + _HEADER.size <= len(data):
        index, size = _HEADER.unpack_from(data, at)
        start = at + _HEADER.size
        if start + size > len(data):
            break
        found[index] = data[start : start + size]
        at = start + size
    return found

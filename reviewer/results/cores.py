"""The report's workers: whether one would run beside this process or only take turns
with it, one begun with what it hands back, and why one failed (:func:`ended`, said in
one line by the report for its chart workers and its rater-quality worker alike).

The report makes the rater quality and the leaderboard in workers while it draws, when a
core is free for them: with none, a worker only queues for a core and costs its fork.
"""

from __future__ import annotations

import os
import pickle
import signal
import tempfile
from collections.abc import Callable
from typing import Any


def a_core_to_spare() -> bool:
    """More cores this process may use than processes running now, itself included.

    Read from the kernel's count of runnable tasks at this instant (``/proc/loadavg``'s
    fourth field), not the one-minute load average: that average still counts the
    processes that just ended (a report run right after another found no core free on an
    idle machine and drew everything alone). Elsewhere, the load average."""
    cores = _usable_cores()
    running = _running_now()
    if running is None:
        try:
            return cores - os.getloadavg()[0] >= 1
        except OSError:
            return False
    return cores - running >= 1


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _running_now() -> int | None:
    """The runnable tasks this instant (this process among them), or None unread."""
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            fields = fh.read().split()
        return int(fields[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return None


def forked(work: Callable[[], Any]) -> Callable[[], tuple[Any, int]]:
    """``work()`` begun in a forked worker (the caller checked :func:`a_core_to_spare` and
    that ``os.fork`` exists), and ``collect()``, which waits for it and gives ``(result,
    status)``: ``result`` is None when the worker handed nothing back (it raised, or was
    killed: ``status`` tells), and the caller then does the work itself. Called once.

    The result comes back pickled in an unnamed file, not a pipe: the worker never waits
    on the caller, and nothing is left behind whatever the caller does next."""
    handed = tempfile.TemporaryFile()  # noqa: SIM115 (closed by collect)
    pid = os.fork()
    if pid == 0:  # the worker: never returns, and leaves the parent's files to the parent
        code = 1
        try:
            pickle.dump(work(), handed, protocol=pickle.HIGHEST_PROTOCOL)
            handed.flush()
            code = 0
        finally:
            os._exit(code)

    def collect() -> tuple[Any, int]:
        with handed:
            _pid, status = os.waitpid(pid, 0)
            handed.seek(0)
            blob = handed.read() if status == 0 else b""
        return (pickle.loads(blob) if blob else None), status

    return collect


def ended(status: int, worker: str) -> str:
    """Why ``worker`` ("a chart worker"), which ended with ``status`` (``os.waitpid``'s),
    failed, as the start of a line; "" if it did not fail."""
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return ""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{worker} was killed ({name})"
    return f"{worker} failed (exit code {code})"

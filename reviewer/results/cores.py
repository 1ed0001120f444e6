"""Whether a forked worker would run beside this process or only take turns with it.

The report makes the rater quality and the leaderboard in workers while it draws, when a
core is free for them: with none, a worker only queues for a core and costs its fork.
"""

from __future__ import annotations

import os


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

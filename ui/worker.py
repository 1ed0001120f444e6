"""Running long work off the GUI thread.

A :class:`Task` runs a plain function on the global QThreadPool and reports back through
Qt signals, which Qt delivers on the GUI thread.  The function never touches a widget: it
gets a :class:`TaskContext` to report progress and to ask whether it was cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class TaskContext:
    """What the work function may use: progress reporting and the cancel flag."""

    def __init__(self, signals: TaskSignals) -> None:
        self._signals = signals
        self._cancelled = threading.Event()

    def progress(self, done: int, total: int, text: str) -> None:
        """Report progress (delivered to the GUI thread as ``progressed``)."""
        self._signals.progressed.emit(done, total, text)

    def cancelled(self) -> bool:
        """True once the user asked to cancel."""
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Ask the work to stop at its next check."""
        self._cancelled.set()


class TaskSignals(QObject):
    """Signals of a Task; lives on the GUI thread so its slots run there."""

    progressed = Signal(int, int, str)
    finished = Signal(object)
    failed = Signal(str)


class Task(QRunnable):
    """One function run on a pool thread."""

    def __init__(self, work: Callable[[TaskContext], Any]) -> None:
        super().__init__()
        self.signals = TaskSignals()
        self.context = TaskContext(self.signals)
        self._work = work
        # The controller keeps its own reference until `finished`; Qt must not delete the
        # wrapper under Python's feet.
        self.setAutoDelete(False)

    def run(self) -> None:
        """Qt calls this on the pool thread."""
        try:
            result = self._work(self.context)
        except Exception as exc:  # any failure must reach the user, not kill the thread
            # Our own errors (TrajectoryError, StoreError) already read as sentences.
            self.signals.failed.emit(str(exc) or type(exc).__name__)
            return
        self.signals.finished.emit(result)


class TaskRunner:
    """Starts tasks on a pool, and keeps each one referenced until it has reported back.

    The one start/finish plumbing of the controller and the results loader: the slots are
    connected before the task starts, so no report can arrive unheard.
    """

    def __init__(self, pool: QThreadPool | None = None) -> None:
        self.pool = pool or QThreadPool.globalInstance()
        self._tasks: set[Task] = set()

    def start(self, work, finished, failed, progressed=None) -> Task:
        """Run ``work`` on the pool; ``finished(result)``, ``failed(message)`` and
        ``progressed(done, total, text)`` are called on the GUI thread."""
        task = Task(work)
        self._tasks.add(task)
        task.signals.finished.connect(finished)
        task.signals.failed.connect(failed)
        if progressed is not None:
            task.signals.progressed.connect(progressed)
        task.signals.finished.connect(lambda _=None: self._tasks.discard(task))
        task.signals.failed.connect(lambda _=None: self._tasks.discard(task))
        self.pool.start(task)
        return task

    def wait_idle(self, msecs: int = 30000) -> bool:
        """Block until the pool's work is done (shutdown, tests, the screenshot mode)."""
        return self.pool.waitForDone(msecs)

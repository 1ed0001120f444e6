"""Running long work off the GUI thread.

A :class:`Task` runs a plain function on the global QThreadPool and reports back through
Qt signals, which Qt delivers on the GUI thread.  The function never touches a widget: it
gets a :class:`TaskContext` to report progress and to ask whether it was cancelled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal


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

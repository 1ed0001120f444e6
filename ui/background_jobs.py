"""The controller's long jobs: reading the queue, importing trajectories, collecting sheets.

A part the controller owns (:attr:`ui.controller.ReviewController.jobs`). Each job runs on a
pool thread with a store connection of its own (a SQLite connection belongs to the thread
that opened it) and reports back on the GUI thread through this object's signals; the
controller re-reads what changed and tells the window.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from reviewer.listing.rows import RunValues
from reviewer.workspace import ReviewStore
from ui.worker import Task, TaskContext, TaskRunner


class BackgroundJobs(QObject):
    """One import and one collect at a time, each cancellable or refused while running."""

    import_started = Signal()
    import_progressed = Signal(int, int, str)
    imported = Signal(object)  # ImportReport
    import_failed = Signal(str)
    collect_progressed = Signal(int, int, str)
    collected = Signal(list)  # list[CollectResult], one per sheet file
    collect_failed = Signal(str)
    #: For the rater: a job refused (one of its kind is running), or why one failed.
    message = Signal(str)

    def __init__(self, db_path: Path, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._runner = runner
        self._import_task: Task | None = None
        self._collect_task: Task | None = None

    def read_rows(
        self,
        read: Callable[[ReviewStore], list[RunValues]],
        finished: Callable[[list[RunValues]], None],
        failed: Callable[[str], None],
    ) -> None:
        """Read the queue's rows with ``read`` on a pool thread, from a read-only
        connection of its own (a connection belongs to its thread)."""
        db_path = self._db_path

        def work(_ctx: TaskContext) -> list[RunValues]:
            with ReviewStore.open(db_path, create=False, readonly=True) as store:
                return read(store)

        self._runner.start(work, finished, failed)

    # -- import --------------------------------------------------------------------------
    def import_paths(self, paths: list[Path]) -> None:
        """Import files or folders on a pool thread, with progress; cancellable."""
        if self._import_task is not None:
            self.message.emit("An import is already running.")
            return
        db_path = self._db_path

        def work(ctx: TaskContext) -> Any:
            with ReviewStore.open(db_path) as store:
                return store.import_paths(paths, progress=ctx.progress, cancelled=ctx.cancelled)

        def finished(report: Any) -> None:
            self._import_task = None
            self.imported.emit(report)

        def failed(message: str) -> None:
            self._import_task = None
            self.message.emit(f"Import failed: {message}")
            self.import_failed.emit(message)

        self._import_task = self._runner.start(work, finished, failed, self.import_progressed.emit)
        self.import_started.emit()

    def cancel_import(self) -> None:
        """Ask a running import to stop after the current file (what is done stays)."""
        if self._import_task is not None:
            self._import_task.context.cancel()

    def import_running(self) -> bool:
        """True while an import is running."""
        return self._import_task is not None

    # -- collecting sheets ---------------------------------------------------------------
    def collect(self, paths: list[Path], *, trust: Path | None, require_trusted: bool) -> None:
        """Verify and store sheets on a pool thread, with progress."""
        if self._collect_task is not None:
            self.message.emit("Sheets are being collected already.")
            return
        db_path = self._db_path

        def work(ctx: TaskContext) -> Any:  # a pool thread: its own connection, no widget
            from reviewer.collecting.collect import TrustList, collect

            trusted = TrustList.load(trust) if trust is not None else None
            with ReviewStore.open(db_path) as store:
                return collect(store, paths, trust=trusted, require_trusted=require_trusted,
                               progress=ctx.progress)  # fmt: skip

        def finished(results: list) -> None:
            self._collect_task = None
            self.collected.emit(results)

        def failed(message: str) -> None:
            self._collect_task = None
            self.message.emit(f"Collect failed: {message}")
            self.collect_failed.emit(message)

        self._collect_task = self._runner.start(
            work, finished, failed, self.collect_progressed.emit
        )

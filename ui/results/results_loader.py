"""Gathering results and writing reports off the GUI thread.

The worker opens its own connection (a SQLite connection belongs to the thread that opened
it), reads a :class:`~reviewer.results.data.ResultsData` once and hands it back as a
value; the window only draws it. No matplotlib here: the report writer is imported inside
the worker function.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal

from reviewer.workspace import ReviewStore
from ui.worker import Task, TaskContext, TaskRunner

#: Fewer resamples than the report's 1,000: the window's interval is a preview, redrawn
#: after every rating, and the report states the seeded full one.
WINDOW_RESAMPLES = 300


class ResultsLoader(QObject):
    """Loads results (``loaded``/``load_failed``) and exports reports (``exported``...)."""

    loading = Signal()
    loaded = Signal(object)  # ResultsData
    load_failed = Signal(str)
    export_progressed = Signal(int, int, str)
    exported = Signal(str)  # what was written
    export_failed = Signal(str)

    def __init__(
        self, db_path: Path, *, pool: QThreadPool | None = None, parent=None, viewer=None
    ) -> None:
        super().__init__(parent)
        self.db_path = db_path
        #: Who is looking (a callable: the rater at the window can change): runs still in
        #: their blind phase are left out (:mod:`reviewer.studies.visibility`).
        self.viewer = viewer or (lambda: None)
        self._runner = TaskRunner(pool)
        self._running = False
        self._pending: tuple[str | None] | None = None  # a load asked for while one runs
        self._export: Task | None = None

    def load(self, scenario: str | None = None) -> None:
        """Gather the results of ``scenario`` (all for ``None``); a request made while one
        runs is kept and run after it, so the last request always wins."""
        if self._running:
            self._pending = (scenario,)
            return
        self._running = True
        self.loading.emit()
        db_path, viewer = self.db_path, self.viewer()

        def work(_ctx: TaskContext):
            from reviewer.results.source import gather

            with ReviewStore.open(db_path, create=False) as store:
                scenarios = [scenario] if scenario else []
                return gather(store, scenarios=scenarios, resamples=WINDOW_RESAMPLES, viewer=viewer)

        self._runner.start(work, self._loaded, self._load_failed)

    def _next(self) -> bool:
        self._running = False
        if self._pending is None:
            return False
        (scenario,), self._pending = self._pending, None
        self.load(scenario)
        return True

    def _loaded(self, data) -> None:
        if not self._next():
            self.loaded.emit(data)

    def _load_failed(self, message: str) -> None:
        if not self._next():
            self.load_failed.emit(message)

    def export(self, path: Path, fmt: str, scenario: str | None = None) -> bool:
        """Write the report of ``scenario`` to ``path``; False when one is already running."""
        if self._export is not None:
            return False
        db_path, viewer = self.db_path, self.viewer()

        def work(ctx: TaskContext) -> str:
            from reviewer.results.raters_source import with_quality
            from reviewer.results.report import write_report
            from reviewer.results.source import gather

            with ReviewStore.open(db_path, create=False) as store:
                data = gather(store, scenarios=[scenario] if scenario else [], viewer=viewer)
                data = with_quality(store, data, viewer=viewer)  # the Raters page
            count = write_report(data, path, fmt, ctx.progress)
            return f"Report written: {path} ({count} {'pages' if fmt == 'pdf' else 'charts'})"

        def done(message: str) -> None:
            self._export = None
            self.exported.emit(message)

        def failed(message: str) -> None:
            self._export = None
            self.export_failed.emit(f"Report not written: {message}")

        self._export = self._runner.start(work, done, failed, self.export_progressed.emit)
        return True

    def busy(self) -> bool:
        """True while a load or an export runs."""
        return self._running or self._export is not None

    def wait_idle(self, msecs: int = 30000) -> bool:
        """Block until pool work is done (tests, shutdown)."""
        return self._runner.wait_idle(msecs)

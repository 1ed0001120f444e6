"""Gathering results and writing reports off the GUI thread.

The worker opens its own connection (a SQLite connection belongs to the thread that opened
it), reads a :class:`~reviewer.results.data.ResultsData` once and hands it back as a
value; the window only draws it. No matplotlib and no statistics here: they are imported inside
the worker functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThreadPool, Signal

from reviewer.workspace import ReviewStore
from ui.worker import Task, TaskContext, TaskRunner

if TYPE_CHECKING:  # the statistics are imported on the worker, not with the window
    from reviewer.results.live import LiveResults

#: Fewer resamples than the report's 1,000: the window's interval is a preview, filled in
#: after every rating once the point values are shown, and the report states the full one.
WINDOW_RESAMPLES = 300


class ResultsLoader(QObject):
    """Loads results (``loaded``/``load_failed``) and exports reports (``exported``...).

    A load emits ``loaded`` twice: first the point values, then the same data with its
    bootstrap intervals (agreement's alpha, the leaderboard), computed after the figures
    are shown. It keeps the :class:`~reviewer.results.live.LiveResults` it read, so
    :meth:`update_runs` (a rating of those runs was submitted) re-reads those runs only.
    """

    loading = Signal()
    loaded = Signal(object)  # ResultsData
    load_failed = Signal(str)
    export_progressed = Signal(int, int, str)
    exported = Signal(str)  # what was written
    export_failed = Signal(str)

    def __init__(
        self,
        db_path: Path,
        *,
        pool: QThreadPool | None = None,
        parent=None,
        viewer=None,
        study=None,
    ) -> None:
        super().__init__(parent)
        self.db_path = db_path
        #: Who is looking (a callable: the rater at the window can change): runs still in
        #: their blind phase are left out (:mod:`reviewer.studies.visibility`).
        self.viewer = viewer or (lambda: None)
        #: The study the window shows (a callable; ``None``: every run): its runs and the
        #: ratings made within it, as ``report --study``, and its gold as a reference.
        self.study = study or (lambda: None)
        self._runner = TaskRunner(pool)
        self._running = False
        # A request made while one runs: (scenario, runs to update or None for a full load).
        self._pending: tuple[str | None, frozenset[int] | None] | None = None
        self._export: Task | None = None
        self._live: LiveResults | None = None
        # (scenario, viewer, study): what the kept results were read for.
        self._live_for: tuple[str | None, str | None, str | None] | None = None

    def load(self, scenario: str | None = None) -> None:
        """Gather the results of ``scenario`` (all for ``None``); a request made while one
        runs is kept and run after it, so the last request always wins."""
        self._request(scenario, None)

    def update_runs(self, run_pks: set[int], scenario: str | None = None) -> None:
        """A rating of ``run_pks`` was submitted: update those runs' part of the results
        (a full load when nothing of this selection is kept yet)."""
        self._request(scenario, frozenset(run_pks))

    def _request(self, scenario: str | None, runs: frozenset[int] | None) -> None:
        if self._running:
            pending = self._pending
            if pending is not None and pending[0] == scenario and runs is not None:
                # Two updates of the same selection: one update of both runs; a full
                # load asked for stays a full load.
                runs = None if pending[1] is None else pending[1] | runs
            self._pending = (scenario, runs)
            return
        self._running = True
        self.loading.emit()
        db_path, viewer, study = self.db_path, self.viewer(), self.study()
        live = self._live if self._live_for == (scenario, viewer, study) else None

        def work(_ctx: TaskContext):
            from reviewer.results.live import LiveResults

            with ReviewStore.open(db_path, create=False) as store:
                if live is not None and runs is not None and live.update(store, runs):
                    target = live
                else:
                    scenarios = [scenario] if scenario else []
                    target = LiveResults(store, study=study, scenarios=scenarios, viewer=viewer)
                return target, target.data()

        def done(result) -> None:
            target, data = result
            self._live, self._live_for = target, (scenario, viewer, study)
            if self._next():
                return
            self.loaded.emit(data)
            self._fill_intervals(target, data)

        self._runner.start(work, done, self._load_failed)

    def _fill_intervals(self, live: LiveResults, data) -> None:
        """The bootstrap, after the point values are shown; dropped for a newer request."""
        self._running = True  # one task at a time: an update waits for the bootstrap

        def work(_ctx: TaskContext):
            return live.with_intervals(data, seed=0, resamples=WINDOW_RESAMPLES)

        def done(full) -> None:
            if not self._next():
                self.loaded.emit(full)

        self._runner.start(work, done, self._load_failed)

    def _next(self) -> bool:
        self._running = False
        if self._pending is None:
            return False
        (scenario, runs), self._pending = self._pending, None
        self._request(scenario, runs)
        return True

    def _load_failed(self, message: str) -> None:
        self._live = None  # half updated, perhaps: read everything next time
        if not self._next():
            self.load_failed.emit(message)

    def export(self, path: Path, fmt: str, scenario: str | None = None) -> bool:
        """Write the report of ``scenario`` to ``path``; False when one is already running."""
        if self._export is not None:
            return False
        db_path, viewer, study = self.db_path, self.viewer(), self.study()

        def work(ctx: TaskContext) -> str:
            from reviewer.results.raters_source import with_quality
            from reviewer.results.report import write_report
            from reviewer.results.source import gather

            with ReviewStore.open(db_path, create=False) as store:
                data = gather(store, study=study, scenarios=[scenario] if scenario else [],
                              viewer=viewer)  # fmt: skip
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

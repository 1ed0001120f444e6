"""The review controller: owns the store, the opened run and its rating; widgets talk to it.

Signals state facts in the past tense (``run_opened``, ``rating_saved``); its slots are
the intents widgets emit.  Everything slow (reading a trajectory, importing a folder) runs
on a pool thread; everything touching the store runs here, on the GUI thread, because a
SQLite connection belongs to the thread that opened it (an import opens its own). Its parts:
:mod:`ui.study_flow`, :mod:`ui.citation_flow` and :mod:`ui.background_jobs`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal

from reviewer.listing.rows import RunValues
from reviewer.rubric import RatingItem
from reviewer.store import ConflictError, Rating, StoreError
from reviewer.store.errors import RatingIncompleteError
from reviewer.workspace import ReviewStore
from scoring import ScoreCard, Trajectory
from ui.background_jobs import BackgroundJobs
from ui.citation_flow import CitationFlow
from ui.opened_run import OpenedRun, RunRequest, load_run
from ui.study_flow import BLIND_SUBMITTED, StudyFlow, problems_text
from ui.worker import TaskRunner


class ReviewController(QObject):
    """Services and state behind the review window."""

    runs_changed = Signal(list)  # list[RunValues]
    run_loading = Signal(int)
    run_opened = Signal(object)  # OpenedRun
    run_failed = Signal(int, str)  # run_pk, message naming file and line
    rating_changed = Signal(object)  # Rating | None: pushed back into the form
    rating_saved = Signal(object)
    rating_submitted = Signal(object)
    rating_refused = Signal(str)  # a save or submit that did not happen, and why
    import_started = Signal()
    import_progressed = Signal(int, int, str)
    import_finished = Signal(object)  # ImportReport, or None when it failed
    message_posted = Signal(str)
    scorer_revealed = Signal(object)  # OpenedRun: the blind rating froze, the scorer shows
    collect_progressed = Signal(int, int, str)
    collect_finished = Signal(list)  # list[CollectResult], one per sheet file
    collect_failed = Signal(str)  # why nothing was collected (e.g. an unreadable trust list)
    rater_changed = Signal(str)
    ratings_changed = Signal()  # a rating was submitted or signed, or runs were imported
    run_left_queue = Signal(int)  # run_pk: the study chosen does not list the open run

    def __init__(
        self,
        store: ReviewStore,
        rater: str,
        *,
        pool: QThreadPool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.rater = rater
        self.store.ensure_rater(rater)
        self._runner = TaskRunner(pool)
        self._open_token = 0
        self._runs_token = 0
        self._refused = False  # an edit was refused since the rater last saw the rating
        self.current: OpenedRun | None = None
        self.rating: Rating | None = None
        #: The study selection and the blind protocol's steps.
        self.studies = StudyFlow(store, lambda: self.rater, parent=self)
        self.studies.selection_changed.connect(lambda: self._follow_queue(self.reload_runs()))
        #: Citations of steps as evidence, written through :meth:`save_draft`.
        self.evidence = CitationFlow(
            self, store, refuse=self.rating_refused.emit, say=self.message_posted.emit
        )
        #: Import and collect, each on a pool thread with a connection of its own.
        self.jobs = BackgroundJobs(store.path, self._runner, parent=self)
        self.last_import_roots: list[Path] = []
        self._connect_jobs()

    def _connect_jobs(self) -> None:
        # Slots run in the order they were connected: the queue is read again before the
        # window hears that an import or a collect finished.
        jobs = self.jobs
        jobs.message.connect(self.message_posted)
        jobs.import_started.connect(self.import_started)
        jobs.import_progressed.connect(self.import_progressed)
        jobs.imported.connect(lambda _report: self.reload_runs())
        jobs.imported.connect(self.import_finished)
        jobs.imported.connect(lambda _report: self.ratings_changed.emit())
        jobs.import_failed.connect(lambda _text: self.import_finished.emit(None))
        jobs.collect_progressed.connect(self.collect_progressed)
        jobs.collected.connect(lambda _results: self.studies.reload_studies())
        jobs.collected.connect(lambda _results: self.reload_runs())
        jobs.collected.connect(self.collect_finished)
        jobs.collect_failed.connect(self.collect_failed)

    # -- who is rating ------------------------------------------------------------------
    def rater_names(self) -> list[str]:
        """Names of the raters already in the database, for the "who is rating" question."""
        return [r.name for r in self.store.raters()]

    def switch_rater(self, name: str) -> bool:
        """Rate as ``name`` from now on (registered if new); the queue and the open run are
        shown again for that rater. False, with the reason posted, for a refused name."""
        try:
            self.store.ensure_rater(name)
        except (StoreError, ValueError) as exc:
            self.message_posted.emit(f"Rater not changed: {exc}")
            return False
        self.rater = name.strip()
        self.rater_changed.emit(self.rater)
        run_pk = self.current.run_pk if self.current is not None else None
        self.reload_runs()
        if run_pk is not None:
            self.open_run(run_pk)
        return True

    # -- runs ----------------------------------------------------------------------------
    def reload_runs(self) -> list[RunValues]:
        """Re-read the run list and announce it."""
        self._runs_token += 1  # a list still loading in the background is now stale
        # The queue's rows as this rater may see them (read here, on the GUI thread).
        rows = self.studies.as_seen(self.studies.row_reader()(self.store))
        self.runs_changed.emit(rows)
        return rows

    def show_runs(self, rows: list[RunValues]) -> list[RunValues]:
        """Announce ``rows`` read without this store (the first screen, a pool thread) as
        this rater may see them; a list still loading is stale."""
        self._runs_token += 1
        rows = self.studies.as_seen(rows)
        self.runs_changed.emit(rows)
        return rows

    def load_runs_in_background(self, then: Callable[[list], None] | None = None) -> None:
        """Read the run list on a pool thread; ``runs_changed`` (then ``then(rows)``) follows.

        For start-up: the window paints at once instead of after 50,000 rows are read. The
        read uses a read-only connection of its own (a connection belongs to its thread).
        A :meth:`reload_runs` meanwhile wins: the older list is dropped when it arrives.
        """
        self._runs_token += 1
        token = self._runs_token  # a reload meanwhile makes this list stale

        def done(rows: list[RunValues]) -> None:
            if token != self._runs_token:
                return
            # Blanked here, on the GUI thread's store, like every other list of rows: a
            # blind rater's queue never shows a score, not even for a moment at start-up.
            rows = self.show_runs(rows)
            if then is not None:
                then(rows)

        def failed(message: str) -> None:
            if token == self._runs_token:  # say so, and fall back to reading it here
                self.message_posted.emit(f"The run list could not be read in the background: "
                                         f"{message}")  # fmt: skip
                rows = self.reload_runs()
                if then is not None:
                    then(rows)

        self.jobs.read_rows(self.studies.row_reader(), done, failed)

    def open_run(self, run_pk: int) -> None:
        """Load run ``run_pk``; ``run_opened`` or ``run_failed`` follows."""
        self._open_token += 1
        token = self._open_token
        try:
            detail = self.store.get_run(run_pk)
        except StoreError as exc:
            self.run_failed.emit(run_pk, str(exc))
            return
        rating = self.store.live_rating(run_pk, self.rater)
        state = self.studies.state(run_pk)
        team = self.studies.team_view(run_pk, state, rating)
        asked = RunRequest(run_pk, detail, self.store.rubric(), rating, state, team)
        # Until the new run is shown nothing is editable: an edit now would land on the run
        # being left while the queue already shows the next one.
        self.current, self.rating, self._refused = None, None, False
        self.run_loading.emit(run_pk)

        def done(loaded: tuple[Trajectory, ScoreCard, str | None]) -> None:
            if token != self._open_token:
                return  # the rater moved on before this one loaded
            self.rating, self.current = rating, asked.opened(loaded)
            self.run_opened.emit(self.current)

        def failed(message: str) -> None:
            if token == self._open_token:
                self.current, self.rating = None, None
                self.run_failed.emit(run_pk, message)

        self._runner.start(lambda _ctx: load_run(detail.path, detail.scorecard), done, failed)

    # -- studies (the selector above the queue, the blind protocol) ---------------------
    def _follow_queue(self, rows: list[RunValues]) -> None:
        """The open run follows the queue the selector chose: a run the new queue does not
        list is announced (``run_left_queue``), and the window opens the queue's first run
        or closes it: a run the queue does not show would be rated outside its study."""
        if self.current is not None and self.current.run_pk not in {r.run_pk for r in rows}:
            self.run_left_queue.emit(self.current.run_pk)

    def close_run(self) -> None:
        """Close the open run: nothing is shown, nothing can be saved to it, and a load
        still in flight is dropped when it arrives."""
        self._open_token += 1
        self.current, self.rating = None, None

    def _blind_step(self) -> bool:
        """Ctrl+Enter in the blind phase: freeze the blind rating, then reveal the scorer.
        True when this was a blind step (done or refused), False for an ordinary submit."""
        step = self.studies.blind_step(self.current, self.rating)
        if step is None or self.current is None:
            return False
        self.rating, refused = step
        if refused is not None:
            self.rating_refused.emit(refused)
            return True
        self._refresh_team()
        self.current = replace(self.current, editable=True)
        self.reload_runs()  # the queue shows its score now
        self.scorer_revealed.emit(self.current)
        self.message_posted.emit(BLIND_SUBMITTED)
        return True

    def _refresh_team(self) -> None:
        """Re-read the study around the open run (after a reveal or a submit)."""
        if self.current is not None:
            self.current = self.studies.refreshed(self.current, self.rating)

    def save_reason(self, metric_id: str, reason: str) -> None:
        """Autosave why a metric was revised after the reveal."""

        def write(rating: Rating) -> Rating:
            saved = self.store.save_revision_reason(
                rating.rating_pk, metric_id, reason, expected_version=rating.version
            )
            if self.current is not None:
                # The rating pane is pushed this view again (a conflict, a correction):
                # it must hold the reason as saved, not as it was when the run opened.
                self.current = self.studies.with_reason(self.current, metric_id, reason)
            return saved

        self.save_draft(write)

    # -- rating --------------------------------------------------------------------------
    def save_item(
        self, metric_id: str, outcome: str | None, score: int | None, comment: str
    ) -> None:
        """Autosave one metric of the current draft (created on the first edit)."""
        self.save_draft(
            lambda r: self.store.save_item(
                r.rating_pk,
                metric_id,
                outcome=outcome,
                score=score,
                comment=comment,
                expected_version=r.version,
            ),
            empty=outcome is None and score is None and not comment.strip(),
        )

    def save_overall_comment(self, text: str) -> None:
        """Autosave the overall comment."""
        self.save_draft(
            lambda r: self.store.save_overall_comment(
                r.rating_pk, text, expected_version=r.version
            ),
            empty=not text.strip(),
        )

    def save_draft(self, write: Callable[[Rating], Rating], *, empty: bool = False) -> bool:
        """Write one edit to the open run's draft (started by the first edit); True when it
        was saved, False when it was refused (and ``rating_refused`` said why)."""
        if self.current is None or not self.current.editable:
            self.rating_refused.emit("This rating is read-only.")
            return False
        if empty and self.rating is None:
            # A stray key then Backspace: nothing to keep, so no draft is started (an
            # empty draft would list the run as "Draft" with nothing in it).
            return False
        try:
            if self.rating is None:
                self.rating = self.studies.start_rating(self.current)
            self.rating = write(self.rating)
        except ConflictError as exc:
            self._refused = True
            self.rating = self.store.live_rating(self.current.run_pk, self.rater)
            self.rating_refused.emit(f"Not saved: {exc}. The latest version is now shown.")
            self.rating_changed.emit(self.rating)
            return False
        except (StoreError, ValueError) as exc:
            self._refused = True
            self.rating_refused.emit(f"Not saved: {exc}")
            return False
        self._refused = False
        self.rating_saved.emit(self.rating)
        return True

    def submit(self) -> bool:
        """Submit the current rating; True when it was submitted."""
        if self.current is None or self.rating is None:
            self.rating_refused.emit("Nothing to submit: rate at least one metric first.")
            return False
        if self._refused:
            # The rater's last edit did not reach the store (a conflict, a refused value):
            # what would be submitted is not what they decided. Show it; the next try submits.
            self._refused = False
            self.rating_refused.emit(
                "Not submitted: your last edit was not saved (see the message before). "
                "Check the rating as shown, then submit again."
            )
            return False
        if self._blind_step():
            return False  # the blind rating froze and the scorer shows: the rater revises now
        try:
            self.rating = self.studies.submit(self.current, self.rating)
        except RatingIncompleteError as exc:
            self.rating_refused.emit(f"Not submitted — {problems_text(exc)}")
            return False
        except StoreError as exc:
            self.rating_refused.emit(f"Not submitted: {exc}")
            return False
        if self.studies.in_study(self.current):
            self._refresh_team()  # submitted: the others' ratings may show now
            self.reload_runs()  # one more of the k ratings is in
        self._set_current_rating(self.rating, editable=False)
        self.rating_submitted.emit(self.rating)
        self.ratings_changed.emit()
        return True

    def correct(self) -> None:
        """Start a correction of a submitted or signed rating: a superseding draft."""
        if self.current is None or self.rating is None or self.rating.status == "draft":
            return
        try:
            self.rating = self.store.supersede(self.rating.rating_pk, rater=self.rater)
        except StoreError as exc:
            self.rating_refused.emit(str(exc))
            return
        self._set_current_rating(self.rating, editable=self.current.warning is None)
        self.rating_changed.emit(self.rating)
        self.message_posted.emit("Correction started: a new draft that supersedes the old rating.")

    def rating_history(self) -> list[Rating]:
        """Every version of the open run's rating by this rater, oldest first."""
        if self.current is None:
            return []
        return self.store.rating_history(self.current.run_pk, self.rater)

    def corrected_rating(self, rating: Rating | None) -> Rating | None:
        """The rating that ``rating`` (a correction draft) supersedes, else None."""
        if rating is None or rating.status != "draft" or rating.supersedes_pk is None:
            return None
        try:
            return self.store.get_rating(rating.supersedes_pk)
        except StoreError:
            return None

    def rating_was_signed(self) -> None:
        """Reload the current rating after a signing attempt: the store says what it is."""
        if self.current is None:
            return
        self.rating = self.store.live_rating(self.current.run_pk, self.rater)
        editable = self.rating is not None and self.rating.status == "draft"
        self._set_current_rating(self.rating, editable=editable)
        self.rating_changed.emit(self.rating)
        self.ratings_changed.emit()

    def _set_current_rating(self, rating: Rating | None, *, editable: bool) -> None:
        if self.current is not None:
            self.current = replace(self.current, rating=rating, editable=editable)

    def items(self) -> dict[str, RatingItem]:
        """The current rating's items, empty ones for unrated metrics."""
        items = dict(self.store.rubric().empty_items())
        if self.rating is not None:
            items.update(self.rating.items)
        return items

    # -- import and collect (on pool threads), and waiting for them ---------------------
    def import_paths(self, paths: list[Path]) -> None:
        """Import files or folders on a pool thread, with progress; cancellable."""
        if not self.jobs.import_running():
            self.last_import_roots = list(paths)  # what paths in the report are relative to
        self.jobs.import_paths(paths)

    def cancel_import(self) -> None:
        """Ask a running import to stop after the current file (what is done stays)."""
        self.jobs.cancel_import()

    def collect_sheets(
        self, paths: list[Path], *, trust: Path | None, require_trusted: bool
    ) -> None:
        """File → Collect sheets…: verify and store sheets on a pool thread, with progress."""
        self.jobs.collect(paths, trust=trust, require_trusted=require_trusted)

    def wait_idle(self, msecs: int = 30000) -> bool:
        """Block until pool work is done (for shutdown and the screenshot mode)."""
        return self._runner.wait_idle(msecs)

"""The review controller: owns the store, the opened run and its rating; widgets talk to it.

Signals state facts in the past tense (``run_opened``, ``rating_saved``); its slots are
the intents widgets emit.  Everything slow (reading a trajectory, importing a folder) runs
on a pool thread; everything touching the store runs here, on the GUI thread, because a
SQLite connection belongs to the thread that opened it (an import opens its own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal

from reviewer.evidence import NOTE_CHARS, Citation
from reviewer.rubric import RatingItem, Rubric
from reviewer.store import ConflictError, Rating, StoreError
from reviewer.store.errors import RatingIncompleteError
from reviewer.store.models import RaterRunState
from reviewer.workspace import ReviewStore
from scoring import ScoreCard, Trajectory, read_trajectory, score_trajectory
from scoring.steps import event_ref, required_ref
from ui.study_flow import StudyFlow, TeamView
from ui.worker import Task, TaskContext, TaskRunner


@dataclass(frozen=True)
class OpenedRun:
    """Everything the window shows for one run."""

    run_pk: int
    run_id: str
    path: str
    trajectory: Trajectory
    card: ScoreCard
    rubric: Rubric
    rating: Rating | None  # None until the rater's first edit creates the draft
    editable: bool
    warning: str | None = None
    state: RaterRunState | None = None  # within a study: the phase, control arm, visibility
    team: TeamView = field(
        default_factory=TeamView
    )  # blind values, reasons, the others' ratings the rater may see

    @property
    def scorer_visible(self) -> bool:
        """False while the automatic score must stay hidden (blind phase 1)."""
        return self.state is None or self.state.scorer_visible


def _load(path: str, card: ScoreCard) -> tuple[Trajectory, ScoreCard, str | None]:
    traj = read_trajectory(path)
    if traj.sha256 == card.trajectory_sha256:
        return traj, card, None
    # The file changed since import: show what the file says now, and say so.
    return (
        traj,
        score_trajectory(traj),
        (
            "This file changed since it was imported: the ScoreCard shown is a fresh score of "
            "the new content. Re-import it to rate the new version."
        ),
    )


class ReviewController(StudyFlow, QObject):
    """Services and state behind the review window."""

    runs_changed = Signal(list)  # list[RunRow]
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
    studies_changed = Signal(list)  # list[Study], for the selector above the queue
    study_changed = Signal(object)  # str | None: the study the queue shows
    scorer_revealed = Signal(object)  # OpenedRun: the blind rating froze, the scorer shows
    collect_progressed = Signal(int, int, str)
    collect_finished = Signal(list)  # list[CollectResult], one per sheet file
    collect_failed = Signal(str)  # why nothing was collected (e.g. an unreadable trust list)
    rater_changed = Signal(str)
    ratings_changed = Signal()  # a rating was submitted or signed, or runs were imported
    run_left_queue = Signal(int)  # run_pk: the study chosen does not list the open run

    def __init__(
        self, store: ReviewStore, rater: str, *, pool: QThreadPool | None = None, parent=None
    ):
        super().__init__(parent)
        self.store = store
        self.rater = rater
        self.store.ensure_rater(rater)
        self._runner = TaskRunner(pool)
        self._import_task: Task | None = None
        self._open_token = 0
        self._runs_token = 0
        self._refused = False  # an edit was refused since the rater last saw the rating
        self.current: OpenedRun | None = None
        self.rating = None
        self._init_studies()
        self.last_import_roots: list[Path] = []

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
    def reload_runs(self) -> list:
        """Re-read the run list and announce it."""
        self._runs_token += 1  # a list still loading in the background is now stale
        rows = self._list_rows()
        self.runs_changed.emit(rows)
        return rows

    def load_runs_in_background(self, then: Callable[[list], None] | None = None) -> None:
        """Read the run list on a pool thread; ``runs_changed`` (then ``then(rows)``) follows.

        For start-up: the window paints at once instead of after 50,000 rows are read. The
        read uses a read-only connection of its own (a connection belongs to its thread).
        A :meth:`reload_runs` meanwhile wins: the older list is dropped when it arrives.
        """
        self._runs_token += 1
        token, db_path = self._runs_token, self.store.path
        read = self._row_reader()

        def work(_ctx: TaskContext) -> list:
            with ReviewStore.open(db_path, create=False, readonly=True) as store:
                return read(store)

        def done(rows: list) -> None:
            if token != self._runs_token:
                return
            # Blanked here, on the GUI thread's store, like every other list of rows: a
            # blind rater's queue never shows a score, not even for a moment at start-up.
            rows = self._as_seen(rows)
            self.runs_changed.emit(rows)
            if then is not None:
                then(rows)

        def failed(message: str) -> None:
            if token == self._runs_token:  # say so, and fall back to reading it here
                self.message_posted.emit(f"The run list could not be read in the background: "
                                         f"{message}")  # fmt: skip
                rows = self.reload_runs()
                if then is not None:
                    then(rows)

        self._start(work, done, failed)

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
        state = self._state(run_pk)
        team = self._team_view(run_pk, state, rating)
        rubric = self.store.rubric()
        # Until the new run is shown nothing is editable: an edit now would land on the run
        # being left while the queue already shows the next one.
        self.current, self.rating, self._refused = None, None, False
        self.run_loading.emit(run_pk)

        def done(result) -> None:
            if token != self._open_token:
                return  # the rater moved on before this one loaded
            traj, card, warning = result
            editable = warning is None and (rating is None or rating.status == "draft")
            editable = editable and state.phase != "sealed"  # frozen until the reveal
            self.rating = rating
            self.current = OpenedRun(
                run_pk,
                detail.run_id,
                detail.path,
                traj,
                card,
                rubric,
                rating,
                editable,
                warning,
                state,
                team,
            )
            self.run_opened.emit(self.current)

        def failed(message: str) -> None:
            if token == self._open_token:
                self.current, self.rating = None, None
                self.run_failed.emit(run_pk, message)

        self._start(lambda _ctx: _load(detail.path, detail.scorecard), done, failed)

    # -- rating --------------------------------------------------------------------------
    def save_item(self, metric_id: str, outcome, score, comment: str) -> None:
        """Autosave one metric of the current draft (created on the first edit)."""
        self._save(
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
        self._save(
            lambda r: self.store.save_overall_comment(
                r.rating_pk, text, expected_version=r.version
            ),
            empty=not text.strip(),
        )

    def _save(self, write, *, empty: bool = False) -> None:
        if self.current is None or not self.current.editable:
            self.rating_refused.emit("This rating is read-only.")
            return
        if empty and self.rating is None:
            # A stray key then Backspace: nothing to keep, so no draft is started (an
            # empty draft would list the run as "Draft" with nothing in it).
            return
        try:
            if self.rating is None:
                self.rating = self._start_rating()
            self.rating = write(self.rating)
        except ConflictError as exc:
            self._refused = True
            self.rating = self.store.live_rating(self.current.run_pk, self.rater)
            self.rating_refused.emit(f"Not saved: {exc}. The latest version is now shown.")
            self.rating_changed.emit(self.rating)
            return
        except (StoreError, ValueError) as exc:
            self._refused = True
            self.rating_refused.emit(f"Not saved: {exc}")
            return
        self._refused = False
        self.rating_saved.emit(self.rating)

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
            self.rating = self._final_submit(self.rating)
        except RatingIncompleteError as exc:
            lines = "; ".join(f"{m}: {msg}" for m, msg in exc.problems)
            self.rating_refused.emit(f"Not submitted — {lines}")
            return False
        except StoreError as exc:
            self.rating_refused.emit(f"Not submitted: {exc}")
            return False
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

    @staticmethod
    def is_empty(rating: Rating | None) -> bool:
        """A draft with nothing in it (every edit undone): shown as not rated."""
        if rating is None:
            return True
        if rating.status != "draft" or rating.overall_comment.strip() or rating.citations:
            return False
        return all(
            i.outcome is None and i.score is None and not i.comment.strip()
            for i in rating.items.values()
        )

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

    def _set_current_rating(self, rating, *, editable: bool) -> None:
        if self.current is not None:
            self.current = replace(self.current, rating=rating, editable=editable)

    # -- evidence ------------------------------------------------------------------------
    def citations(self) -> tuple[Citation, ...]:
        """The steps the current rating cites (none before its first edit)."""
        return self.rating.citations if self.rating is not None else ()

    def toggle_citation(self, metric_id: str, kind: str, ref: int) -> None:
        """E: cite a timeline event or ground-truth action for ``metric_id``, or un-cite it."""
        if self.current is None or not self.current.editable:
            self.rating_refused.emit("This rating is read-only.")
            return
        try:
            target = (
                event_ref(self.current.trajectory, ref)
                if kind == "event"
                else required_ref(self.current.card, ref)
            )
        except IndexError as exc:
            self.rating_refused.emit(f"Not cited: {exc}")
            return
        was = {c.key for c in self.citations()}
        citation = Citation.of(metric_id, target)
        self._save(
            lambda r: self.store.toggle_citation(r.rating_pk, citation, expected_version=r.version)
        )
        if self.rating is not None and not self._refused:
            done = "removed" if citation.key in was else "cited"
            title = self.current.rubric.metric(metric_id).title
            self.message_posted.emit(f"Evidence for {title}: {done} {target.label}")

    def uncite(self, metric_id: str, kind: str, ref: int) -> None:
        """Remove one cited step of the current draft."""
        self._save(
            lambda r: self.store.uncite(
                r.rating_pk, metric_id, kind=kind, ref=ref, expected_version=r.version
            )
        )

    def set_citation_note(self, metric_id: str, kind: str, ref: int, note: str) -> None:
        """Give a cited step a short note (an empty one removes it)."""
        old = next((c for c in self.citations() if c.key == (metric_id, kind, ref)), None)
        if old is None:
            return
        if len(note) > NOTE_CHARS or "\n" in note:
            self.rating_refused.emit(
                f"Note not saved: one line of at most {NOTE_CHARS} characters."
            )
            return
        new = old.model_copy(update={"note": note.strip()})
        self._save(lambda r: self.store.cite(r.rating_pk, new, expected_version=r.version))

    def items(self) -> dict[str, RatingItem]:
        """The current rating's items, empty ones for unrated metrics."""
        rubric = self.store.rubric()
        items = dict(rubric.empty_items())
        if self.rating is not None:
            items.update(self.rating.items)
        return items

    # -- import --------------------------------------------------------------------------
    def import_paths(self, paths: list[Path]) -> None:
        """Import files or folders on a pool thread, with progress; cancellable."""
        if self._import_task is not None:
            self.message_posted.emit("An import is already running.")
            return
        db_path = self.store.path
        self.last_import_roots = list(paths)  # what paths in the report are relative to

        def work(ctx: TaskContext):
            with ReviewStore.open(db_path) as store:
                return store.import_paths(paths, progress=ctx.progress, cancelled=ctx.cancelled)

        def finished(report) -> None:
            self._import_task = None
            self.reload_runs()
            self.import_finished.emit(report)
            self.ratings_changed.emit()

        def failed(message: str) -> None:
            self._import_task = None
            self.message_posted.emit(f"Import failed: {message}")
            self.import_finished.emit(None)

        self._import_task = self._start(work, finished, failed, self.import_progressed.emit)
        self.import_started.emit()

    def cancel_import(self) -> None:
        """Ask a running import to stop after the current file (what is done stays)."""
        if self._import_task is not None:
            self._import_task.context.cancel()

    def import_running(self) -> bool:
        """True while an import is running."""
        return self._import_task is not None

    # -- plumbing ------------------------------------------------------------------------
    def _start(self, work, finished, failed, progressed=None) -> Task:
        return self._runner.start(work, finished, failed, progressed)

    def wait_idle(self, msecs: int = 30000) -> bool:
        """Block until pool work is done (for shutdown and the screenshot mode)."""
        return self._runner.wait_idle(msecs)

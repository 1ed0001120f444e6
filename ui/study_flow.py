"""The study side of the review controller: which study the queue shows, what the scorer may
show for each run, the blind protocol's steps and the revision reasons.

A part the controller owns (:attr:`ui.controller.ReviewController.studies`). It holds the
study selection, which the window's study selector sets here and which the controller's
queue follows (``selection_changed``), and asks the store; it holds no opened run: the
controller passes it the run and the rating it works on, keeps what comes back, and tells
the window.
The store decides every rule (who may see what, when a blind rating freezes, when a revision
needs a reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from reviewer.gold.facade import Feedback
from reviewer.listing.rows import RunValues
from reviewer.store import StoreError
from reviewer.store.errors import RatingIncompleteError
from reviewer.store.models import Rating
from reviewer.studies.rows import RaterRunState
from reviewer.workspace import ReviewStore
from ui.opened_run import OpenedRun, TeamView

BLIND_SUBMITTED = (
    "Blind rating submitted and frozen. The automatic score is shown now: confirm or "
    "revise each metric (a change needs a reason), then Ctrl+Enter submits the final rating."
)


def problems_text(exc: RatingIncompleteError) -> str:
    """The store's list of what is missing, on one line."""
    return "; ".join(f"{metric}: {message}" for metric, message in exc.problems)


class StudyFlow(QObject):
    """Studies, "My queue", scorer visibility and the blind protocol, for one rater.

    ``rater`` is asked each time: the controller's rater can be switched.
    """

    studies_changed = Signal(list)  # list[Study], for the selector above the queue
    study_changed = Signal(object)  # str | None: the study the queue shows
    selection_changed = Signal()  # another study or "My queue": the queue is read again

    def __init__(
        self, store: ReviewStore, rater: Callable[[], str], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self._rater = rater
        self.study: str | None = None  # the study the queue shows; None: all runs
        self.my_queue = True  # within a study: only the rater's assignments, in order
        self.scorer_hidden: frozenset[int] = frozenset()  # runs listed with the score blanked
        self._row_study: dict[int, str | None] = {}

    # -- the study selector --------------------------------------------------------------
    def reload_studies(self) -> list:
        """Re-read the studies and announce them (the selector above the queue); a chosen
        study that no longer exists falls back to all runs."""
        found = self.store.studies()
        if self.study is not None and self.study not in {s.name for s in found}:
            self.study = None
        self.studies_changed.emit(found)
        return found

    def set_study(self, name: str | None) -> None:
        """Show ``name``'s runs in the queue (None: every run); "My queue" by default."""
        if name == self.study:
            return
        self.study, self.my_queue = name, True
        self.study_changed.emit(name)
        self.selection_changed.emit()

    def set_my_queue(self, mine: bool) -> None:
        """Within a study: the rater's own queue (True) or every run of the study."""
        if mine != self.my_queue:
            self.my_queue = mine
            self.selection_changed.emit()

    def row_reader(self) -> Callable[[ReviewStore], list[RunValues]]:
        """What lists the queue's rows from a store: the selection taken now, so a worker
        thread can read with its own store while the selection moves on. Plain rows, not
        models: the queue holds 50,000 of them."""
        rater, study, my_queue = self._rater(), self.study, self.my_queue
        if study is None:
            return lambda store: store.list_run_rows(rater=rater)
        return lambda store: [
            RunValues.of(row)
            for row in store.list_runs(rater=rater, study=study, assigned_only=my_queue)
        ]

    def as_seen(self, rows: list[RunValues]) -> list[RunValues]:
        """``rows`` as this rater may see them: the scorer's values are blanked on every run
        whose automatic score is still hidden from them (blind phase 1)."""
        self._row_study = {row.run_pk: row.study for row in rows}
        blind = self._blind_assignments()
        hidden = {
            row.run_pk
            for row in rows
            if row.run_pk in blind and not self.state(row.run_pk).scorer_visible
        }
        self.scorer_hidden = frozenset(hidden)
        return [row.without_scorer() if row.run_pk in hidden else row for row in rows]

    def _blind_assignments(self) -> set[int]:
        """Runs the rater is assigned in a blind study outside its control arm: the only
        runs whose scorer can be hidden (so a 10,000-run queue asks about a few)."""
        from reviewer.studies.visibility import blind_assignments

        return set(blind_assignments(self.store, self._rater()))

    def state(self, run_pk: int) -> RaterRunState:
        """The rater's view of a run, within the study it was listed in (if any)."""
        return self.store.rating_state(run_pk, self._rater(), study=self._row_study.get(run_pk))

    # -- the blind protocol --------------------------------------------------------------
    def start_rating(self, opened: OpenedRun) -> Rating:
        """The draft a first edit creates: within the run's study if the rater is assigned."""
        state = opened.state
        if state is not None and state.study is not None and state.assigned:
            return self.store.start_study_rating(state.study, opened.run_pk, self._rater())
        return self.store.start_rating(opened.run_pk, self._rater())

    @staticmethod
    def blind_phase(opened: OpenedRun | None) -> str | None:
        """ "blind" or "sealed" while Ctrl+Enter freezes and reveals rather than submits."""
        state = opened.state if opened is not None else None
        return state.phase if state is not None and state.phase in ("blind", "sealed") else None

    def blind_step(
        self, opened: OpenedRun | None, rating: Rating | None
    ) -> tuple[Rating, str | None] | None:
        """Ctrl+Enter in the blind phase: freeze the blind rating (if not frozen yet), then
        reveal the scorer. None for an ordinary submit; else the rating as it stands now,
        and why the step was refused (None when the scorer is revealed)."""
        phase = self.blind_phase(opened)
        if phase is None or rating is None:
            return None
        try:
            if phase == "blind":
                rating = self.store.submit_blind(rating.rating_pk, expected_version=rating.version)
            return self.store.reveal(rating.rating_pk, expected_version=rating.version), None
        except RatingIncompleteError as exc:
            return rating, f"Blind rating not submitted — {problems_text(exc)}"
        except StoreError as exc:
            return rating, f"Not submitted: {exc}"

    def gold_feedback(self, opened: OpenedRun | None, rating: Rating | None) -> Feedback | None:
        """The reference of the open run if it is a gold run the rater has submitted (the
        final phase); None otherwise: never before the submit, never in the blind phase."""
        if opened is None or rating is None or rating.status == "draft":
            return None
        return self.store.gold_feedback(opened.run_pk, self._rater())

    @staticmethod
    def in_study(opened: OpenedRun | None) -> bool:
        """The open run was opened within a study (its final submit checks the reasons)."""
        return opened is not None and opened.state is not None and opened.state.study is not None

    def submit(self, opened: OpenedRun | None, rating: Rating) -> Rating:
        """The ordinary submit; within a study it also checks the revision reasons."""
        if self.in_study(opened):
            return self.store.submit_final(rating.rating_pk, expected_version=rating.version)
        return self.store.submit(rating.rating_pk, expected_version=rating.version)

    @staticmethod
    def with_reason(opened: OpenedRun, metric_id: str, reason: str) -> OpenedRun:
        """``opened`` holding the reason as saved (the pane is pushed this view again)."""
        team = opened.team
        reasons = {**team.reasons, metric_id: reason}
        return replace(opened, team=replace(team, reasons=reasons))

    def team_view(self, run_pk: int, state: RaterRunState, rating: Rating | None) -> TeamView:
        """The blind values and reasons (after the reveal) and what the rater may see of the
        other raters' ratings of the run."""
        rater = self._rater()
        blind, reasons = {}, {}
        if rating is not None and state.phase == "revealed":
            values = self.store.blind_values(rating.rating_pk)
            blind, reasons = dict(values.items), dict(values.reasons)
        if not self.store.may_see_others(run_pk, rater):
            return TeamView(blind, reasons)
        found = self.store.visible_ratings(run_pk, rater)
        others = tuple(r for r in found if r.rater != rater)
        judges = frozenset(r.name for r in self.store.raters() if r.kind == "judge")
        return TeamView(blind, reasons, True, others, judges & {r.rater for r in others})

    def refreshed(self, opened: OpenedRun, rating: Rating | None) -> OpenedRun:
        """``opened`` with the study around it read again (after a reveal or a submit)."""
        state = self.state(opened.run_pk)
        team = self.team_view(opened.run_pk, state, rating)
        return replace(opened, state=state, team=team, rating=rating)

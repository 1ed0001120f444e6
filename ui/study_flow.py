"""The study half of the review controller: which study the queue shows, what the scorer
may show for each run, the blind protocol's steps, revision reasons and collecting sheets.

A mixin of :class:`ui.controller.ReviewController` (whose signals it emits), so that the
controller stays one screenful per concern. The store decides every rule (who may see
what, when a blind rating freezes, when a revision needs a reason); this module only asks
it and tells the window, which passes "scorer visible" on to each pane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.store import ReviewStore, StoreError
from reviewer.store.errors import RatingIncompleteError
from reviewer.store.models import RaterRunState, Rating, RunRow

if TYPE_CHECKING:
    from ui.controller import OpenedRun

BLIND_SUBMITTED = (
    "Blind rating submitted and frozen. The automatic score is shown now: confirm or "
    "revise each metric (a change needs a reason), then Ctrl+Enter submits the final rating."
)


@dataclass(frozen=True)
class TeamView:
    """What the rating pane shows of the study around one run, read when the run opens (and
    after a reveal or a submit), so the window never asks the store itself."""

    blind: dict = field(default_factory=dict)  # metric -> frozen blind item, once revealed
    reasons: dict[str, str] = field(default_factory=dict)
    others_allowed: bool = False  # the rater submitted theirs: others' ratings may show
    others: tuple[Rating, ...] = ()
    judges: frozenset[str] = frozenset()  # which of the others are LLM judges, not people


def problems_text(exc: RatingIncompleteError) -> str:
    """The store's list of what is missing, on one line."""
    return "; ".join(f"{metric}: {message}" for metric, message in exc.problems)


class StudyFlow:
    """Studies, "My queue", scorer visibility and the blind protocol, on the controller.

    Expects the controller's ``store``, ``rater``, ``current``, ``rating`` and signals.
    """

    store: ReviewStore
    rater: str
    current: OpenedRun | None
    rating: Rating | None

    def _init_studies(self) -> None:
        self.study: str | None = None  # the study the queue shows; None: all runs
        self.my_queue = True  # within a study: only the rater's assignments, in order
        self.scorer_hidden: frozenset[int] = frozenset()  # runs listed with the score blanked
        self._row_study: dict[int, str | None] = {}
        self._collect_task: Any = None

    # -- the study selector --------------------------------------------------------------
    def reload_studies(self) -> list:
        """Re-read the studies and announce them (the selector above the queue)."""
        found = self.store.studies()
        if self.study is not None and self.study not in {s.name for s in found}:
            self.study = None
        self.studies_changed.emit(found)  # type: ignore[attr-defined]
        return found

    def set_study(self, name: str | None) -> None:
        """Show ``name``'s runs in the queue (None: every run); "My queue" by default."""
        if name == self.study:
            return
        self.study, self.my_queue = name, True
        self.study_changed.emit(name)  # type: ignore[attr-defined]
        self._follow_queue(self.reload_runs())  # type: ignore[attr-defined]

    def set_my_queue(self, mine: bool) -> None:
        """Within a study: the rater's own queue (True) or every run of the study."""
        if mine != self.my_queue:
            self.my_queue = mine
            self._follow_queue(self.reload_runs())  # type: ignore[attr-defined]

    def _follow_queue(self, rows: list[RunRow]) -> None:
        """The open run follows the queue the selector chose: a run the new queue does not
        list is announced (``run_left_queue``), and the window opens the queue's first run
        or, with none to show, closes it. A rating form for a run the rater cannot see in
        the queue would be rated outside the study it seems to belong to."""
        if self.current is not None and self.current.run_pk not in {r.run_pk for r in rows}:
            self.run_left_queue.emit(self.current.run_pk)  # type: ignore[attr-defined]

    def close_run(self) -> None:
        """Close the open run: nothing is shown, nothing can be saved to it, and a load
        still in flight is dropped when it arrives."""
        self._open_token += 1  # type: ignore[attr-defined]
        self.current, self.rating = None, None

    def _list_rows(self) -> list[RunRow]:
        """The queue's rows as this rater may see them (read here, on the GUI thread)."""
        return self._as_seen(self._row_reader()(self.store))

    def _row_reader(self) -> Callable[[ReviewStore], list[RunRow]]:
        """What lists the queue's rows from a store: the selection taken now, so a worker
        thread can read with its own store while the selection moves on."""
        rater, study, my_queue = self.rater, self.study, self.my_queue
        if study is None:
            return lambda store: store.list_runs(rater=rater)
        return lambda store: store.list_runs(rater=rater, study=study, assigned_only=my_queue)

    def _as_seen(self, rows: list[RunRow]) -> list[RunRow]:
        """``rows`` as this rater may see them: the scorer's values are blanked on every run
        whose automatic score is still hidden from them (blind phase 1)."""
        self._row_study = {row.run_pk: row.study for row in rows}
        blind = self._blind_assignments()
        hidden = {
            row.run_pk
            for row in rows
            if row.run_pk in blind and not self._state(row.run_pk).scorer_visible
        }
        self.scorer_hidden = frozenset(hidden)
        return [row.without_scorer() if row.run_pk in hidden else row for row in rows]

    def _blind_assignments(self) -> set[int]:
        """Runs the rater is assigned in a blind study outside its control arm: the only
        runs whose scorer can be hidden (so a 10,000-run queue asks about a few)."""
        from reviewer.studies.visibility import blind_assignments

        return set(blind_assignments(self.store, self.rater))

    def _state(self, run_pk: int) -> RaterRunState:
        """The rater's view of a run, within the study it was listed in (if any)."""
        return self.store.rating_state(run_pk, self.rater, study=self._row_study.get(run_pk))

    # -- the blind protocol --------------------------------------------------------------
    def _start_rating(self) -> Rating:
        """The draft a first edit creates: within the run's study if the rater is assigned."""
        assert self.current is not None
        state = self.current.state
        if state is not None and state.study is not None and state.assigned:
            return self.store.start_study_rating(state.study, self.current.run_pk, self.rater)
        return self.store.start_rating(self.current.run_pk, self.rater)

    def _blind_step(self) -> bool:
        """Ctrl+Enter in the blind phase: freeze the blind rating, then reveal the scorer.
        True when this was a blind step (done or refused), False for an ordinary submit."""
        state = self.current.state if self.current is not None else None
        if state is None or self.rating is None or state.phase not in ("blind", "sealed"):
            return False
        try:
            rating = self.rating
            if state.phase == "blind":
                rating = self.store.submit_blind(rating.rating_pk, expected_version=rating.version)
                self.rating = rating
            self.rating = self.store.reveal(rating.rating_pk, expected_version=rating.version)
        except RatingIncompleteError as exc:
            self.rating_refused.emit(f"Blind rating not submitted — {problems_text(exc)}")  # type: ignore[attr-defined]
            return True
        except StoreError as exc:
            self.rating_refused.emit(f"Not submitted: {exc}")  # type: ignore[attr-defined]
            return True
        self._after_reveal()
        return True

    def _after_reveal(self) -> None:
        assert self.current is not None and self.rating is not None
        self._refresh_team()
        self.current = replace(self.current, editable=True)
        self.reload_runs()  # type: ignore[attr-defined]  # the queue shows its score now
        self.scorer_revealed.emit(self.current)  # type: ignore[attr-defined]
        self.message_posted.emit(BLIND_SUBMITTED)  # type: ignore[attr-defined]

    def _final_submit(self, rating: Rating) -> Rating:
        """The ordinary submit; within a study it also checks the revision reasons."""
        state = self.current.state if self.current is not None else None
        if state is not None and state.study is not None:
            self.rating = self.store.submit_final(rating.rating_pk, expected_version=rating.version)
            self._refresh_team()  # submitted: the others' ratings may show now
            self.reload_runs()  # type: ignore[attr-defined]  # one more of the k ratings is in
            return self.rating
        return self.store.submit(rating.rating_pk, expected_version=rating.version)

    def save_reason(self, metric_id: str, reason: str) -> None:
        """Autosave why a metric was revised after the reveal."""

        def write(rating: Rating) -> Rating:
            saved = self.store.save_revision_reason(
                rating.rating_pk, metric_id, reason, expected_version=rating.version
            )
            if self.current is not None:
                # The rating pane is pushed this view again (a conflict, a correction):
                # it must hold the reason as saved, not as it was when the run opened.
                team = self.current.team
                reasons = {**team.reasons, metric_id: reason}
                self.current = replace(self.current, team=replace(team, reasons=reasons))
            return saved

        self._save(write)  # type: ignore[attr-defined]

    def _team_view(self, run_pk: int, state: RaterRunState, rating: Rating | None) -> TeamView:
        """The blind values and reasons (after the reveal) and what the rater may see of the
        other raters' ratings of the run."""
        blind, reasons = {}, {}
        if rating is not None and state.phase == "revealed":
            values = self.store.blind_values(rating.rating_pk)
            blind, reasons = dict(values.items), dict(values.reasons)
        if not self.store.may_see_others(run_pk, self.rater):
            return TeamView(blind, reasons)
        found = self.store.visible_ratings(run_pk, self.rater)
        others = tuple(r for r in found if r.rater != self.rater)
        judges = frozenset(r.name for r in self.store.raters() if r.kind == "judge")
        return TeamView(blind, reasons, True, others, judges & {r.rater for r in others})

    def _refresh_team(self) -> None:
        """Re-read the study around the open run (after a reveal or a submit)."""
        if self.current is not None:
            state = self._state(self.current.run_pk)
            team = self._team_view(self.current.run_pk, state, self.rating)
            self.current = replace(self.current, state=state, team=team, rating=self.rating)

    # -- collecting sheets ---------------------------------------------------------------
    def collect_sheets(
        self, paths: list[Path], *, trust: Path | None, require_trusted: bool
    ) -> None:
        """File → Collect sheets…: verify and store sheets on a pool thread, with progress."""
        if self._collect_task is not None:
            self.message_posted.emit("Sheets are being collected already.")  # type: ignore[attr-defined]
            return
        db_path = self.store.path

        def work(ctx):  # runs on a pool thread: its own connection, never a widget
            from reviewer.studies.collect import TrustList, collect

            trusted = TrustList.load(trust) if trust is not None else None
            with ReviewStore.open(db_path) as store:
                return collect(store, paths, trust=trusted, require_trusted=require_trusted,
                               progress=ctx.progress)  # fmt: skip

        def finished(results) -> None:
            self._collect_task = None
            self.reload_studies()
            self.reload_runs()  # type: ignore[attr-defined]
            self.collect_finished.emit(results)  # type: ignore[attr-defined]

        def failed(message: str) -> None:
            self._collect_task = None
            self.message_posted.emit(f"Collect failed: {message}")  # type: ignore[attr-defined]
            self.collect_failed.emit(message)  # type: ignore[attr-defined]

        self._collect_task = self._start(work, finished, failed, self.collect_progressed.emit)  # type: ignore[attr-defined]

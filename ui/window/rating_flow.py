"""The rating pane's intents and the rating's facts, for the window: evidence cited and
shown, submit and next, a correction and its banner, the history, a save or a change shown
in the form and the queue.

A part of :class:`ui.main_window.MainWindow` (composed, as its other parts in
:mod:`ui.window`): it is given the panes, the controller and the window's dialog seams, and
holds no review state of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from reviewer.store import Rating
    from ui.controller import ReviewController
    from ui.queue.queue_panel import QueuePanel
    from ui.rating.rubric_form import RubricForm
    from ui.run.run_view import RunView
    from ui.window.status import WindowStatus
    from ui.window.studies import StudyWiring


class DialogSeams(Protocol):
    """The window's dialogs, which tests replace: read at each use."""

    @property
    def confirm(self) -> Callable[[QWidget, str, str], bool]: ...

    @property
    def ask_note(self) -> Callable[[QWidget, str, str], str | None]: ...


class RatingFlow(QObject):
    """Connects the rating form's intents and the controller's rating facts (see module)."""

    def __init__(
        self,
        parent: QWidget,
        seams: DialogSeams,
        *,
        controller: ReviewController,
        rubric: RubricForm,
        run_view: RunView,
        queue: QueuePanel,
        status: WindowStatus,
        studies: StudyWiring,
    ) -> None:
        super().__init__(parent)
        self._parent, self._seams = parent, seams
        self.controller, self.rubric, self.run_view = controller, rubric, run_view
        self.queue, self.status, self.studies = queue, status, studies
        rubric.submit_requested.connect(self.submit_and_next)
        rubric.cite_requested.connect(self.cite)
        rubric.evidence_note_requested.connect(self.edit_note)
        controller.rating_saved.connect(self.rating_saved)
        controller.rating_changed.connect(self.rating_changed)
        controller.rating_submitted.connect(self.rating_changed)

    def rating_saved(self, rating: Rating) -> None:
        from ui.opened_run import is_empty

        self.rubric.mark_saved(rating)
        self.show_evidence()
        # An emptied draft is not a draft: the queue lists the run as still to rate.
        state = "unrated" if is_empty(rating) else rating.status
        self.queue.update_rating_state(rating.run_pk, state)

    def rating_changed(self, rating: Rating | None) -> None:
        opened = self.controller.current
        self.rubric.set_rating(rating, self.controller.items(), bool(opened and opened.editable))
        self.show_correction(rating)
        self.show_evidence()
        if opened is not None:
            self.studies.show_phase(opened)  # a submit lets the rater see the others' ratings
        if rating is not None:
            self.queue.update_rating_state(rating.run_pk, rating.status)

    def show_evidence(self) -> None:
        """Push the current rating's cited steps to the form (chips) and the run view."""
        opened, cited = self.controller.current, self.controller.evidence.citations()
        titles = {m.id: m.title for m in opened.rubric.metrics} if opened else {}
        self.rubric.set_citations(cited)
        self.run_view.set_cited(cited, titles)

    def cite(self, metric_id: str) -> None:
        target = self.run_view.citable_target()
        if target is None:
            self.status.say(
                "E cites a step: first select an event in the timeline or a required action "
                "in the ground truth (setup, final, optional and forbidden rows are not cited)."
            )
            return
        self.controller.evidence.toggle(metric_id, *target)

    def edit_note(self, metric_id: str, kind: str, ref: int) -> None:
        cited = [c for c in self.controller.evidence.citations() if c.key == (metric_id, kind, ref)]
        if cited:
            note = self._seams.ask_note(self._parent, cited[0].label, cited[0].note)
            if note is not None:
                self.controller.evidence.set_note(metric_id, kind, ref, note)

    def submit_and_next(self) -> None:
        """Submit the rating; on success, open the next run still to rate."""
        self.rubric.flush()
        if self.controller.submit():
            self.status.say("Rating submitted.")
            if self.queue.select_next_unrated() is None:
                self.status.say("Rating submitted. Every run in the queue is rated.")

    def correct(self) -> None:
        """Ctrl+E: after a confirmation, start a correction and give the keys to the list."""
        rating = self.controller.rating
        if rating is None or rating.status == "draft":
            self.status.say("Correct: only a submitted or signed rating can be corrected.")
            return
        text = (
            f"Correct your {rating.status} rating of this run?\n\nA new draft starts from it "
            f"and supersedes it once submitted. The {rating.status} rating stays on record."
        )
        if not self._seams.confirm(self._parent, "Correct rating", text):
            return
        self.controller.correct()
        self.rubric.focus_metrics()

    def show_history(self) -> None:
        """Ctrl+H: every version of the open run's rating, read-only."""
        opened = self.controller.current
        if opened is None:
            return
        versions = self.controller.rating_history()
        if not versions:
            self.status.say("History: this run has no rating yet.")
            return
        from ui.rating.history_dialog import HistoryDialog

        HistoryDialog(self._parent, opened.rubric, versions).open()

    def show_correction(self, rating: Rating | None) -> None:
        """The banner of a correction: what it corrects, and what stays valid meanwhile."""
        old = self.controller.corrected_rating(rating)
        if old is None:
            self.rubric.set_banner(None)
            return
        when = (old.signed_at or old.submitted_at or old.updated_at).astimezone()
        stays = (
            "the signed sheet stays valid until this correction is signed"
            if old.status == "signed"
            else "it stays the decision on record until this correction is submitted"
        )
        self.rubric.set_banner(
            f"Correcting the {old.status} rating of {when:%Y-%m-%d %H:%M}; {stays}. "
            "Earlier versions: Rating → History (Ctrl+H)."
        )

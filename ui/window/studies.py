"""The window's part in studies: the study selector's wiring, "scorer visible" passed to
each pane, the blind phase and reveal in the rating pane, and File → Collect sheets….

Like the window, it wires intents to the controller and facts to the panes; the panes
never import each other and never learn why the scorer is hidden, only that it is.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from reviewer.listing.rows import RunValues
from ui.controller import ReviewController
from ui.opened_run import OpenedRun
from ui.queue.queue_panel import QueuePanel
from ui.rating.rubric_form import RubricForm
from ui.run.run_view import RunView
from ui.run.scorecard_panel import ScorecardPanel
from ui.sheets.collect_dialog import CollectDialog

NOT_IN_QUEUE = (
    "The run that was open is not in this queue, and the queue shows no run to open: "
    "choose a run, or another study."
)


class StudyWiring:
    """Studies, blind phases and collecting, between the controller and the panes.

    ``close_run(run_pk, why)`` clears the panes when the queue no longer lists the open
    run and shows none to open instead (the window's own way of showing a failure).
    """

    def __init__(
        self,
        parent: QWidget,
        controller: ReviewController,
        *,
        queue: QueuePanel,
        rubric: RubricForm,
        run_view: RunView,
        scorecard: ScorecardPanel,
        close_run: Callable[[int, str], None],
    ) -> None:
        self._parent = parent
        self._controller = controller
        self._queue = queue
        self._rubric = rubric
        self._run_view = run_view
        self._scorecard = scorecard
        self._close_run = close_run
        self.collect_dialog: CollectDialog | None = None
        c, studies = controller, controller.studies
        c.runs_changed.connect(self._runs_changed)
        studies.studies_changed.connect(queue.studies.set_studies)
        studies.study_changed.connect(queue.studies.set_study)
        queue.studies.study_chosen.connect(studies.set_study)
        queue.studies.my_queue_toggled.connect(studies.set_my_queue)
        rubric.reason_edited.connect(c.save_reason)
        c.scorer_revealed.connect(self._scorer_revealed)
        c.run_left_queue.connect(self._run_left_queue)

    def _runs_changed(self, rows: list[RunValues]) -> None:
        # Which runs' Score and Safety the rater may not see yet, before the rows show.
        self._queue.set_scorer_hidden(self._controller.studies.scorer_hidden)
        self._queue.set_rows(rows)

    def _run_left_queue(self, run_pk: int) -> None:
        """Another study (or "My queue") no longer lists the open run: open the queue's first
        shown run, or clear the panes and say why."""
        self._rubric.flush()  # the last comment typed belongs to the run it was typed on
        if self._queue.next_run() is not None:
            return  # selecting it opened it (run_selected)
        self._controller.close_run()
        self._close_run(run_pk, NOT_IN_QUEUE)

    def set_scorer_visible(self, visible: bool) -> None:
        """Blind phase 1 hides everything the scorer decided, pane by pane."""
        self._run_view.set_scorer_visible(visible)
        self._scorecard.set_scorer_visible(visible)

    def show_phase(self, opened: OpenedRun) -> None:
        """The rating pane's phase of a blind study, and the others' ratings it may show."""
        phase = opened.state.phase if opened.state is not None else "open"
        team = opened.team
        self._rubric.set_phase(phase, team.blind, team.reasons)
        self._rubric.others.show_others(
            allowed=team.others_allowed,
            ratings=team.others,
            metric_ids=opened.rubric.metric_ids,
            judges=team.judges,
            team=opened.state is not None and opened.state.study is not None,
        )

    def _scorer_revealed(self, opened: OpenedRun) -> None:
        self.set_scorer_visible(True)
        self._rubric.set_rating(opened.rating, self._controller.items(), opened.editable)
        self.show_phase(opened)
        self._rubric.focus_metrics()

    def collect(self) -> None:
        """File → Collect sheets…: the dialog asks, the controller collects off the GUI
        thread, the dialog shows each sheet's fate."""
        dialog = CollectDialog(self._parent)
        c = self._controller
        dialog.collect_requested.connect(
            lambda paths, trust, required: c.collect_sheets(
                paths, trust=trust, require_trusted=required
            )
        )
        c.collect_progressed.connect(dialog.show_progress)
        c.collect_finished.connect(dialog.show_results)
        c.collect_failed.connect(dialog.show_failure)
        dialog.finished.connect(lambda _r: self._disconnect_collect(dialog))
        self.collect_dialog = dialog
        dialog.open()

    def _disconnect_collect(self, dialog: CollectDialog) -> None:
        c = self._controller
        c.collect_progressed.disconnect(dialog.show_progress)
        c.collect_finished.disconnect(dialog.show_results)
        c.collect_failed.disconnect(dialog.show_failure)
        dialog.deleteLater()

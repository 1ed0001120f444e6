"""The main window's part in studies: the study selector's wiring, "scorer visible" passed
to each pane, the blind phase and reveal in the rating pane, and File → Collect sheets….

A mixin of :class:`ui.main_window.MainWindow`, so that the window stays one screenful per
concern. Like the window, it wires intents to the controller and facts to the panes; the
panes never import each other and never learn why the scorer is hidden, only that it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.sheets.collect_dialog import CollectDialog

NOT_IN_QUEUE = (
    "The run that was open is not in this queue, and the queue shows no run to open: "
    "choose a run, or another study."
)

if TYPE_CHECKING:
    from ui.controller import OpenedRun


class StudyWindow:
    """Studies, blind phases and collecting, on the main window."""

    def _connect_studies(self) -> None:
        c = self.controller
        c.runs_changed.connect(self._runs_changed)
        c.studies_changed.connect(self.queue.studies.set_studies)
        c.study_changed.connect(self.queue.studies.set_study)
        self.queue.studies.study_chosen.connect(c.set_study)
        self.queue.studies.my_queue_toggled.connect(c.set_my_queue)
        self.rubric.reason_edited.connect(c.save_reason)
        c.scorer_revealed.connect(self._scorer_revealed)
        c.run_left_queue.connect(self._run_left_queue)

    def _runs_changed(self, rows: list) -> None:
        # Which runs' Score and Safety the rater may not see yet, before the rows show.
        self.queue.set_scorer_hidden(self.controller.scorer_hidden)
        self.queue.set_rows(rows)

    def _run_left_queue(self, run_pk: int) -> None:
        """Another study (or "My queue") no longer lists the open run: open the queue's first
        shown run, or clear the panes and say why."""
        self.rubric.flush()  # the last comment typed belongs to the run it was typed on
        if self.queue.next_run() is not None:
            return  # selecting it opened it (run_selected)
        self.controller.close_run()
        self._show_failure(run_pk, NOT_IN_QUEUE)

    def _set_scorer_visible(self, visible: bool) -> None:
        """Blind phase 1 hides everything the scorer decided, pane by pane."""
        self.run_view.set_scorer_visible(visible)
        self.scorecard.set_scorer_visible(visible)

    def _show_phase(self, opened: OpenedRun) -> None:
        phase = opened.state.phase if opened.state is not None else "open"
        team = opened.team
        self.rubric.set_phase(phase, team.blind, team.reasons)
        self.rubric.others.show_others(
            allowed=team.others_allowed,
            ratings=team.others,
            metric_ids=opened.rubric.metric_ids,
            judges=team.judges,
            team=opened.state is not None and opened.state.study is not None,
        )

    def _scorer_revealed(self, opened: OpenedRun) -> None:
        self._set_scorer_visible(True)
        self.rubric.set_rating(opened.rating, self.controller.items(), opened.editable)
        self._show_phase(opened)
        self.rubric.focus_metrics()

    def _collect(self) -> None:
        """File → Collect sheets…: the dialog asks, the controller collects off the GUI
        thread, the dialog shows each sheet's fate."""
        dialog = CollectDialog(self)
        c = self.controller
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
        c = self.controller
        c.collect_progressed.disconnect(dialog.show_progress)
        c.collect_finished.disconnect(dialog.show_results)
        c.collect_failed.disconnect(dialog.show_failure)
        dialog.deleteLater()

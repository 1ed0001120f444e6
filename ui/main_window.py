"""The review window: queue | run view | ScoreCard and rubric, with menus and shortcuts.

The window wires widgets' intents to the controller's slots and the controller's facts to
the widgets; it holds no review state of its own and never calls the store directly. Its
menus and shortcuts (:mod:`ui.menu_window`), status bar and rater (:mod:`ui.status_window`),
results dashboard (:mod:`ui.dashboard_window`) and studies (:mod:`ui.study_window`) are
mixins, one concern each.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ui.adjudication_wiring import AdjudicationWiring
from ui.controller import OpenedRun, ReviewController
from ui.dashboard_window import DashboardWindow
from ui.layout_state import WindowLayout, first_start_size, keep_panes, share_width
from ui.menu_window import MenuWindow
from ui.queue.queue_panel import QueuePanel
from ui.rater_dialog import AskRater, ask_rater
from ui.rating.history_dialog import HistoryDialog
from ui.rating.rubric_form import RubricForm
from ui.run.import_problems import ImportProblemsDock
from ui.run.run_view import RunView
from ui.run.scorecard_panel import ScorecardPanel
from ui.status_window import StatusWindow
from ui.study_window import StudyWindow


class MainWindow(StudyWindow, MenuWindow, StatusWindow, DashboardWindow, QMainWindow):
    """The a320-review main window."""

    def __init__(
        self, controller: ReviewController, *, signer=None, verifier=None, key_manager=None
    ) -> None:
        super().__init__()
        self.controller = controller
        self._signer = signer  # callable(window) -> None, injected by ui.app
        #: (parent, title, text) -> bool; a dialog by default, replaced by tests.
        self.confirm = _confirm
        self.ask_rater: AskRater = ask_rater
        #: (parent, step label, current note) -> new note or None; a dialog, or a test's.
        self.ask_note = _ask_note
        self._key_manager = key_manager
        self._verifier = verifier
        self.setWindowTitle(f"a320-review — {controller.rater}")

        self.queue = QueuePanel()
        self.scorecard = ScorecardPanel()
        self.run_view = RunView(under_procedure=_titled("ScoreCard", self.scorecard))
        self.rubric = RubricForm()
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(self.queue)
        main.addWidget(self.run_view)
        # The rating pane scrolls vertically rather than set the window's minimum height:
        # on a 1280×720 screen the submit button is a scroll away, never off-screen.
        rating = QScrollArea()
        rating.setWidget(_titled("Rating", self.rubric))
        rating.setWidgetResizable(True)
        rating.setFrameShape(QFrame.Shape.NoFrame)
        rating.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rating_scroll = rating
        main.addWidget(rating)
        main.setStretchFactor(1, 1)
        self.splitter = main
        self.layout_state = WindowLayout()
        self._sized = False
        self.setCentralWidget(main)
        self.problems = ImportProblemsDock(self)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems)
        self.problems.hide()
        self._build_status_bar()
        self._build_actions()
        self._connect()
        self._build_results()
        self.adjudication = AdjudicationWiring(self)  # Rating → Adjudicate this run (Ctrl+J)

    # -- construction --------------------------------------------------------------------
    def _connect(self) -> None:
        c = self.controller
        # A comment still in its debounce belongs to the run it was typed for: send it first.
        self.queue.run_selected.connect(lambda _pk: self.rubric.flush())
        self.queue.run_selected.connect(c.open_run)
        self.rubric.item_edited.connect(c.save_item)
        self.rubric.overall_comment_edited.connect(c.save_overall_comment)
        self.rubric.submit_requested.connect(self.submit_and_next)
        self.queue.filter_finished.connect(self.rubric.focus_metrics)
        # Evidence: the form asks, the run view knows the selection, the controller writes.
        self.rubric.cite_requested.connect(self._cite)
        self.rubric.evidence_show_requested.connect(self.run_view.show_citation)
        self.rubric.evidence_remove_requested.connect(c.uncite)
        self.rubric.evidence_note_requested.connect(self._edit_note)
        self._connect_studies()
        c.run_loading.connect(self._run_loading)
        c.run_opened.connect(self._show_run)
        c.run_failed.connect(self._show_failure)
        c.rating_saved.connect(self._rating_saved)
        c.rating_changed.connect(self._rating_changed)
        c.rating_submitted.connect(self._rating_changed)
        c.rating_refused.connect(self._say)
        c.message_posted.connect(self._say)
        c.import_started.connect(self._import_started)
        c.import_progressed.connect(self._import_progressed)
        c.import_finished.connect(self._import_finished)
        c.rater_changed.connect(self._show_rater)

    # -- facts from the controller -------------------------------------------------------
    def _run_loading(self, _run_pk: int) -> None:
        self.run_view.show_loading("Loading run…")
        # Read-only until the new run arrives (pending text was flushed on selection).
        self.rubric.set_rating(None, {}, False)

    def _show_run(self, opened: OpenedRun) -> None:
        card = opened.card
        title = f"{card.scenario_id} · {card.model} · {opened.run_id}"
        self._set_scorer_visible(opened.scorer_visible)
        self.run_view.show_run(title, opened.trajectory, card, opened.warning)
        self.scorecard.show_card(card, opened.trajectory)
        self.rubric.set_rubric(opened.rubric)
        self.rubric.set_rating(opened.rating, self.controller.items(), opened.editable)
        self._show_phase(opened)
        # A new run starts with the keys on the metric list: whatever had the focus (a
        # comment of the last run, the filter), the next key rates, it never types.
        self._show_correction(opened.rating)
        self._show_evidence()
        self.rubric.focus_metrics()

    def _show_failure(self, run_pk: int, message: str) -> None:
        self.run_view.show_error(message)
        self.scorecard.show_card(None)
        self.rubric.set_rating(None, {}, False)
        self.rubric.set_citations(())
        self._say(message)

    def _rating_saved(self, rating) -> None:
        self.rubric.mark_saved(rating)
        self._show_evidence()
        # An emptied draft is not a draft: the queue lists the run as still to rate.
        state = "unrated" if self.controller.is_empty(rating) else rating.status
        self.queue.update_rating_state(rating.run_pk, state)

    def _rating_changed(self, rating) -> None:
        opened = self.controller.current
        self.rubric.set_rating(rating, self.controller.items(), bool(opened and opened.editable))
        self._show_correction(rating)
        self._show_evidence()
        if opened is not None:
            self._show_phase(opened)  # a submit lets the rater see the others' ratings
        if rating is not None:
            self.queue.update_rating_state(rating.run_pk, rating.status)

    def _show_evidence(self) -> None:
        """Push the current rating's cited steps to the form (chips) and the run view."""
        opened, cited = self.controller.current, self.controller.citations()
        titles = {m.id: m.title for m in opened.rubric.metrics} if opened else {}
        self.rubric.set_citations(cited)
        self.run_view.set_cited(cited, titles)

    def _cite(self, metric_id: str) -> None:
        target = self.run_view.citable_target()
        if target is None:
            self._say(
                "E cites a step: first select an event in the timeline or a required action "
                "in the ground truth (setup, final, optional and forbidden rows are not cited)."
            )
            return
        self.controller.toggle_citation(metric_id, *target)

    def _edit_note(self, metric_id: str, kind: str, ref: int) -> None:
        cited = [c for c in self.controller.citations() if c.key == (metric_id, kind, ref)]
        if cited:
            note = self.ask_note(self, cited[0].label, cited[0].note)
            if note is not None:
                self.controller.set_citation_note(metric_id, kind, ref, note)

    # -- intents -------------------------------------------------------------------------
    def submit_and_next(self) -> None:
        """Submit the rating; on success, open the next run still to rate."""
        self.rubric.flush()
        if self.controller.submit():
            self._say("Rating submitted.")
            if self.queue.select_next_unrated() is None:
                self._say("Rating submitted. Every run in the queue is rated.")

    def correct(self) -> None:
        """Ctrl+E: after a confirmation, start a correction and give the keys to the list."""
        rating = self.controller.rating
        if rating is None or rating.status == "draft":
            self._say("Correct: only a submitted or signed rating can be corrected.")
            return
        text = (
            f"Correct your {rating.status} rating of this run?\n\nA new draft starts from it "
            f"and supersedes it once submitted. The {rating.status} rating stays on record."
        )
        if not self.confirm(self, "Correct rating", text):
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
            self._say("History: this run has no rating yet.")
            return
        HistoryDialog(self, opened.rubric, versions).open()

    def _show_correction(self, rating) -> None:
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

    def showEvent(self, event) -> None:
        """Share the width once the window knows its real size: the run view gets most."""
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            # Never narrower than the form: the scroll area scrolls up and down only.
            inner = self.rating_scroll.widget().minimumSizeHint().width()
            bar = self.rating_scroll.verticalScrollBar().sizeHint().width()
            self.rating_scroll.setMinimumWidth(inner + bar)
            if not self.layout_state.restore_splitters(self):
                self._share_width()

    def reset_layout(self) -> None:
        """Share the room among the panes as on a first start (View → Reset layout)."""
        self._share_width()
        self.run_view.reset_layout()

    def _share_width(self) -> None:
        keep_panes(self.splitter)
        rating = self.rating_scroll.minimumSizeHint().width()
        share_width(self.splitter, self.queue.natural_width(), rating)

    def fit_to_screen(self) -> None:
        """First start: a size from the available screen; later: the last geometry."""
        if not self.layout_state.restore_geometry(self):
            first_start_size(self)

    def closeEvent(self, event) -> None:
        """Flush a pending comment edit before the window goes: no typed word is lost.
        A running import stops after its current file (what it stored stays)."""
        self.rubric.flush()
        self.controller.cancel_import()
        self.layout_state.save(self)
        super().closeEvent(event)


def _ask_note(parent: QWidget, label: str, note: str) -> str | None:
    text, ok = QInputDialog.getText(
        parent, "Evidence note", f"A short note on {label} (one line):", text=note
    )
    return text if ok else None


def _confirm(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text)
    return answer == QMessageBox.StandardButton.Yes


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.addWidget(QLabel(title, objectName="panelTitle"))
    layout.addWidget(widget, 1)
    return box

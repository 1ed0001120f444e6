"""The review window: queue | run view | ScoreCard and rubric, with menus and shortcuts.

The window is the composition root of its parts: it builds the panes, then each part with
what it needs (:mod:`ui.window`: menus and shortcuts, status bar, import, rater and signing,
studies, results dashboard, adjudication), and connects them. It wires the rating pane's
intents to the controller's slots and the controller's facts to the panes; it holds no
review state of its own and never calls the store directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QFrame, QMainWindow, QScrollArea, QSplitter, QWidget

from ui.layout_state import WindowLayout, first_start_size, keep_panes, share_width
from ui.queue.queue_panel import QueuePanel
from ui.run.import_problems import ImportProblemsDock
from ui.window.early_keys import EarlyKeys
from ui.window.frames import ask_note, confirm, titled
from ui.window.menus import WindowIntents, WindowMenus
from ui.window.pane_forwarders import RatingKeysOf, RunStepsOf, tab_order_as_built
from ui.window.status import WindowStatus

if TYPE_CHECKING:
    # The first screen is built before the store is imported (ui.app): the controller, the
    # store's types and the parts around them come with attach().
    from ui.controller import ReviewController
    from ui.opened_run import OpenedRun
    from ui.window.identity import WindowAction

#: What the status bar says while the first screen waits for the review database.
OPENING = "Opening the review database…"
#: The rating pane's width on the first screen, before the form is built (:meth:`MainWindow.
#: build_panes`): about the form's own, so the panes do not move when it comes. Only the
#: first paint of a first start uses it; the form's real width shares the room after.
RATING_WIDTH_GUESS = 496


class MainWindow(QMainWindow):
    """The a320-review main window."""

    def __init__(
        self,
        controller: ReviewController | None = None,
        *,
        rater: str | None = None,
        signer: WindowAction | None = None,
        verifier: WindowAction | None = None,
        key_manager: WindowAction | None = None,
    ) -> None:
        """The panes, menus and status bar; with ``controller``, the parts around it too
        (:meth:`attach`). Without, the first screen: ``rater``'s window, its queue filled
        by :meth:`QueuePanel.set_rows`, blank panes where the run view and the rating form
        go (:meth:`build_panes`, right after the first paint), attached once the store is
        open (ui.app)."""
        super().__init__()
        #: (parent, title, text) -> bool; a dialog by default, replaced by tests.
        self.confirm = confirm
        #: (parent, step label, current note) -> new note or None; a dialog, or a test's.
        self.ask_note = ask_note
        self._attached = False

        # Made in its parent, the window's tree top down: under the application's style
        # sheet a widget moved into another is polished again with all it holds (the queue,
        # then the whole splitter by setCentralWidget).
        main = QSplitter(Qt.Orientation.Horizontal, self)
        self.queue = QueuePanel(main)
        main.addWidget(self.queue)
        # The rating pane scrolls vertically rather than set the window's minimum height:
        # on a 1280×720 screen the submit button is a scroll away, never off-screen.
        rating = QScrollArea()
        rating.setWidgetResizable(True)
        rating.setFrameShape(QFrame.Shape.NoFrame)
        rating.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rating_scroll = rating
        self.splitter = main
        self._panes_built = False
        #: The splitter's sizes at the first show, before the saved layout (first screen).
        self._first_share: list[int] = []
        if controller is not None:
            self._build_panes()
        else:
            # The first screen: no run is open, so the run view and the rating form (and
            # their modules) come right after the first paint (build_panes); meanwhile
            # blank panes of their size keep the splitter's share.
            main.addWidget(QWidget())
            blank = QWidget()
            blank.setMinimumWidth(RATING_WIDTH_GUESS - 8)  # (titled's margins: 4 + 4)
            self._rating_box = titled("Rating", blank)
            rating.setWidget(self._rating_box)
            main.addWidget(rating)
        main.setStretchFactor(1, 1)
        self.layout_state = WindowLayout()
        self._sized = False
        self.setCentralWidget(main)
        self.problems = ImportProblemsDock(self)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems)
        self.problems.hide()
        self.status = WindowStatus(self.statusBar(), cancel_import=self._cancel_import)
        self._show_rater(controller.rater if controller is not None else rater or "")
        # The menus and their keys from the start; a window-wide intent waits for attach().
        self.menus = WindowMenus(
            self,
            RatingKeysOf(self),
            RunStepsOf(self),
            self.queue,
            WindowIntents(
                import_files=self._when_ready(lambda: self.importing.import_files()),
                import_folder=self._when_ready(lambda: self.importing.import_folder()),
                verify=self._when_ready(lambda: self.identity.verify()),
                collect=self._when_ready(lambda: self.studies.collect()),
                switch_rater=self._when_ready(lambda: self.identity.switch_rater()),
                quit=self.close,
                submit_and_next=self._when_ready(self.submit_and_next),
                sign=self._when_ready(lambda: self.identity.sign()),
                correct=self._when_ready(self.correct),
                show_history=self._when_ready(self.show_history),
                signing_key=self._when_ready(lambda: self.identity.signing_key()),
                reset_layout=self.reset_layout,
            ),
        )
        #: The first screen's rating keys, kept until the first run is open (ui.app).
        self.early_keys: EarlyKeys | None = None
        if controller is not None:
            self.attach(controller, signer=signer, verifier=verifier, key_manager=key_manager)
        else:
            self.early_keys = EarlyKeys(self)
            # The first screen's keys go to the window itself. Left to Qt, the focus went
            # to the first combo box, which the early keys leave alone (a key there is its
            # own), and the rating keys a rater typed at once were lost; on the queue, Qt
            # makes its first row current on focus, a pick that opened that run instead
            # of the next one to rate.
            self.setFocus(Qt.FocusReason.OtherFocusReason)
            self.status.say(OPENING)

    def _build_panes(self) -> None:
        """The run view, the ScoreCard and the rating form, in the splitter's middle and
        right; once (the first screen has blank panes there until :meth:`build_panes`)."""
        from ui.rating.rubric_form import RubricForm
        from ui.run.run_view import RunView
        from ui.run.scorecard_panel import ScorecardPanel

        self._panes_built = True
        self.scorecard = ScorecardPanel()
        self.run_view = RunView(under_procedure=titled("ScoreCard", self.scorecard))
        self.rubric = RubricForm()
        self._rating_box = titled("Rating", self.rubric)
        main = self.splitter
        if main.count() < 2:
            main.addWidget(self.run_view)
            self.rating_scroll.setWidget(self._rating_box)
            main.addWidget(self.rating_scroll)
            return
        blank = main.replaceWidget(1, self.run_view)
        if blank is not None:
            blank.deleteLater()
        main.setStretchFactor(1, 1)  # (it is the pane's size policy: the new pane's now)
        if self._first_share:
            # Laid out once at the width the window's first show gave the middle (before
            # the saved layout), as when it is built with the window: a table's stretching
            # column keeps the width it was last given room for (the timeline's scroll bar
            # would differ on a narrow run view). The splitter's own sizes are left alone:
            # the queue, moved and drawn over, kept a corner pixel a shade darker.
            self.run_view.resize(self._first_share[1], self.run_view.height())
        self.rating_scroll.setWidget(self._rating_box)  # (the blank one goes with it)
        tab_order_as_built(self, (self.queue, self.run_view, self.rating_scroll))

    def build_panes(self) -> None:
        """The first screen's run view and rating form, in place of its blank panes, and
        the room shared again as at the window's first show (the saved layout restored):
        right after the first paint, before any input is handled (:meth:`attach` calls it
        too). Once; later calls do nothing."""
        if self._panes_built:
            return
        self._build_panes()
        if self._sized:
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self._size_panes()

    def attach(
        self,
        controller: ReviewController,
        *,
        signer: WindowAction | None = None,
        verifier: WindowAction | None = None,
        key_manager: WindowAction | None = None,
    ) -> None:
        """Build the parts around ``controller`` and connect them: from now on the window
        rates, imports, signs. Once, after the store is open."""
        from ui.window.adjudication import AdjudicationWiring
        from ui.window.dashboard import ResultsDashboard
        from ui.window.gold_feedback import GoldFeedback
        from ui.window.identity import RaterIdentity
        from ui.window.importing import ImportFlow
        from ui.window.studies import StudyWiring

        self.build_panes()
        self.controller = c = controller
        self._show_rater(c.rater)
        self.identity = RaterIdentity(
            self,
            c,
            self.status,
            before_switch=self.rubric.flush,
            signer=signer,
            verifier=verifier,
            key_manager=key_manager,
        )
        self.importing = ImportFlow(
            self, c, self.status, self.problems, then=self._open_first_to_rate
        )
        self.studies = StudyWiring(
            self,
            c,
            queue=self.queue,
            rubric=self.rubric,
            run_view=self.run_view,
            scorecard=self.scorecard,
            close_run=self._show_failure,
        )
        self._connect()
        self.dashboard = ResultsDashboard(self, c, self.queue, self.status, self.menus)
        # Rating → Gold reference… (Ctrl+Shift+G): feedback after a gold run's final submit.
        self.gold = GoldFeedback(self, c, self.status, self.menus)
        # Rating → Adjudicate this run (Ctrl+J): its pane takes the rating pane's place.
        self.adjudication = AdjudicationWiring(
            self,
            c,
            splitter=self.splitter,
            rating_scroll=self.rating_scroll,
            rubric=self.rubric,
            queue=self.queue,
            rating_menu=self.menus.rating_menu,
            rating_actions=self.menus.rating_actions,
            say=self.status.say,
        )
        self._attached = True
        if self.early_keys is not None:  # after _show_run: the new run's metrics have the keys
            c.run_opened.connect(self.early_keys.release)
            c.run_failed.connect(self.early_keys.release)
        if self.statusBar().currentMessage() == OPENING:
            self.statusBar().clearMessage()

    @property
    def panes_built(self) -> bool:
        """The run view and the rating form are there (:meth:`build_panes`)."""
        return self._panes_built

    @property
    def attached(self) -> bool:
        """The window rates: the store is open and the parts are built (:meth:`attach`)."""
        return self._attached

    def _when_ready(self, intent: Callable[[], object]) -> Callable[[], None]:
        """``intent``, or, before :meth:`attach`, a word that the database is opening."""

        def run() -> None:
            if self._attached:
                intent()
            else:
                self.status.say(OPENING)

        return run

    def _cancel_import(self) -> None:
        if self._attached:
            self.controller.cancel_import()

    # -- construction --------------------------------------------------------------------
    def _connect(self) -> None:
        c = self.controller
        from ui.window.rating_flow import RatingFlow

        self.rating_flow = RatingFlow(
            self, self, controller=c, rubric=self.rubric, run_view=self.run_view,
            queue=self.queue, status=self.status, studies=self.studies,
        )  # fmt: skip
        # A comment still in its debounce belongs to the run it was typed for: send it first.
        self.queue.run_selected.connect(lambda _pk: self.rubric.flush())
        self.queue.run_selected.connect(c.open_run)
        self.rubric.item_edited.connect(c.save_item)
        self.rubric.overall_comment_edited.connect(c.save_overall_comment)
        self.queue.filter_finished.connect(self.rubric.focus_metrics)
        # Evidence: the form asks, the run view knows the selection, the controller writes.
        self.rubric.evidence_show_requested.connect(self.run_view.show_citation)
        self.rubric.evidence_remove_requested.connect(c.evidence.uncite)
        c.run_loading.connect(self._run_loading)
        c.run_opened.connect(self._show_run)
        c.run_failed.connect(self._show_failure)
        c.rating_refused.connect(self.status.say)
        c.message_posted.connect(self.status.say)
        c.rater_changed.connect(self._show_rater)

    def _show_rater(self, name: str) -> None:
        self.status.show_rater(name)
        self.setWindowTitle(f"a320-review — {name}")

    def _open_first_to_rate(self) -> None:
        """After an import: with no run open, open the first one still to rate."""
        if self.queue.current_run_pk() is None:
            self.queue.select_next_unrated()

    # -- facts from the controller -------------------------------------------------------
    def _run_loading(self, _run_pk: int) -> None:
        self.run_view.show_loading("Loading run…")
        # Read-only until the new run arrives (pending text was flushed on selection).
        self.rubric.set_rating(None, {}, False)

    def _show_run(self, opened: OpenedRun) -> None:
        card = opened.card
        title = f"{card.scenario_id} · {card.model} · {opened.run_id}"
        self.studies.set_scorer_visible(opened.scorer_visible)
        self.run_view.show_run(title, opened.trajectory, card, opened.warning)
        self.scorecard.show_card(card, opened.trajectory)
        self.rubric.set_rubric(opened.rubric)
        self.rubric.set_rating(opened.rating, self.controller.items(), opened.editable)
        self.studies.show_phase(opened)
        # A new run starts with the keys on the metric list: whatever had the focus (a
        # comment of the last run, the filter), the next key rates, it never types.
        self.rating_flow.show_correction(opened.rating)
        self.rating_flow.show_evidence()
        self.rubric.focus_metrics()

    def _show_failure(self, run_pk: int, message: str) -> None:
        self.run_view.show_error(message)
        self.scorecard.show_card(None)
        self.rubric.set_rating(None, {}, False)
        self.rubric.set_citations(())
        self.status.say(message)

    # -- intents (the menus' and the tests'; the rating flow does them) --------------------
    def submit_and_next(self) -> None:
        """Submit the rating; on success, open the next run still to rate."""
        self.rating_flow.submit_and_next()

    def correct(self) -> None:
        """Ctrl+E: after a confirmation, start a correction."""
        self.rating_flow.correct()

    def show_history(self) -> None:
        """Ctrl+H: every version of the open run's rating, read-only."""
        self.rating_flow.show_history()

    def showEvent(self, event: QShowEvent) -> None:
        """Share the width once the window knows its real size: the run view gets most."""
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            self._first_share = self.splitter.sizes() if not self._panes_built else []
            self._size_panes()

    def _size_panes(self) -> None:
        """The rating pane's least width, and the saved layout or a first start's share."""
        # Never narrower than the form: the scroll area scrolls up and down only.
        inner = self._rating_box.minimumSizeHint().width()
        bar = self.rating_scroll.verticalScrollBar().sizeHint().width()
        self.rating_scroll.setMinimumWidth(inner + bar)
        if not self.layout_state.restore_splitters(self):
            self._share_width()

    def reset_layout(self) -> None:
        """Share the room among the panes as on a first start (View → Reset layout)."""
        self._share_width()
        if self._panes_built:
            self.run_view.reset_layout()

    def _share_width(self) -> None:
        keep_panes(self.splitter)
        rating = self.rating_scroll.minimumSizeHint().width()
        share_width(self.splitter, self.queue.natural_width(), rating)

    def fit_to_screen(self) -> None:
        """First start: a size from the available screen; later: the last geometry."""
        if not self.layout_state.restore_geometry(self):
            first_start_size(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Flush a pending comment edit before the window goes: no typed word is lost.
        A running import stops after its current file (what it stored stays)."""
        if self._panes_built:
            self.rubric.flush()
        self._cancel_import()
        self.layout_state.save(self)
        super().closeEvent(event)

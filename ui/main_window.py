"""The review window: queue | run view | ScoreCard and rubric, with menus and shortcuts.

The window wires widgets' intents to the controller's slots and the controller's facts to
the widgets; it holds no review state of its own and never calls the store directly.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewer import home
from reviewer.sheets import keys
from ui.adjudication_wiring import SHORTCUT_HELP as ADJUDICATION_SHORTCUT
from ui.adjudication_wiring import AdjudicationWiring
from ui.controller import OpenedRun, ReviewController
from ui.layout_state import WindowLayout, initial_size
from ui.queue.queue_panel import QueuePanel
from ui.rater_dialog import AskRater, ask_rater
from ui.rating.history_dialog import HistoryDialog
from ui.rating.rubric_form import RubricForm
from ui.results.results_loader import ResultsLoader
from ui.run.import_problems import ImportProblemsDock
from ui.run.run_view import RunView
from ui.run.scorecard_panel import ScorecardPanel
from ui.study_window import StudyWindow

#: (keys, what they do) for the help dialog; the actions below are built from the same keys.
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("0 1 2 3", "score the current metric (sets it Applicable); next metric when done"),
    ("N", "current metric: Not applicable"),
    ("O", "current metric: Not observed"),
    ("A", "current metric: Applicable"),
    ("J / K", "next / previous metric"),
    ("C / Enter", "write the current metric's comment (the only way in from the keys)"),
    ("Esc", "leave a comment: the keys rate again (next metric when it was needed)"),
    ("E", "cite the selected timeline event or ground-truth action as evidence (again: remove)"),
    ("] / [", "next / previous event in the timeline"),
    ("} / {", "next / previous agent turn"),
    ("Ctrl+Enter", "submit the rating and open the next unrated run"),
    (
        "Ctrl+Enter (blind study)",
        "submit the blind rating (frozen for good) and show the automatic score; "
        "once revised, submit the final rating",
    ),
    ("C (after the reveal)", "on a revised metric: write why it changed (Esc returns)"),
    ("Ctrl+Down / Ctrl+Up", "next / previous run in the queue"),
    ("Ctrl+F", "filter the run queue (Enter or Esc: back to the metrics)"),
    ("Ctrl+Shift+S", "sign the submitted rating and export its sheet"),
    ("Ctrl+E", "correct a submitted or signed rating (asks first; a superseding draft)"),
    ("Ctrl+H", "history: earlier versions of this rating, read-only"),
    ("Ctrl+I / Ctrl+Shift+I", "import files / a folder"),
    ("Ctrl+Shift+V", "verify a signed sheet"),
    ("Ctrl+Shift+D", "the results dashboard (charts, agreement, validity)"),
    ("F1", "this help"),
    ADJUDICATION_SHORTCUT,
)


class MainWindow(StudyWindow, QMainWindow):
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
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        # A rater name is user text: plain, never HTML.
        self.rater_label = QLabel()
        self.rater_label.setTextFormat(Qt.TextFormat.PlainText)
        self.rater_label.setToolTip("Change it with File → Switch rater…")
        self._show_rater(self.controller.rater)
        self.progress = QProgressBar(maximumWidth=220, textVisible=True)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel import", clicked=self.controller.cancel_import)
        self.cancel_button.hide()
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.rater_label)

    def _action(self, menu, text: str, keys, slot, *, window_wide: bool = True) -> QAction:
        action = QAction(text, self)
        if keys:
            seqs = [QKeySequence(k) for k in (keys if isinstance(keys, tuple) else (keys,))]
            action.setShortcuts(seqs)
        if window_wide:
            # Window-wide, yet text fields still get their letters: they accept the
            # ShortcutOverride for printable keys, so typing "3" in a comment types a 3.
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        if menu is not None:
            menu.addAction(action)
        return action

    def _build_actions(self) -> None:
        menus = self.menuBar()
        file = menus.addMenu("&File")
        self._action(file, "Import files…", "Ctrl+I", self._import_files)
        self._action(file, "Import folder…", "Ctrl+Shift+I", self._import_folder)
        file.addSeparator()
        self._action(file, "Verify sheet…", "Ctrl+Shift+V", self._verify)
        self._action(file, "Collect sheets…", None, self._collect)
        self._action(file, "Switch rater…", None, self.switch_rater)
        file.addSeparator()
        self._action(file, "Quit", QKeySequence.StandardKey.Quit, self.close)

        rate = menus.addMenu("&Rating")
        for score in range(4):
            self._action(
                rate,
                f"Score {score}",
                str(score),
                lambda _=False, s=score: self.rubric.score_current(s),
            )
        self._action(
            rate, "Not applicable", "N", lambda: self.rubric.set_current_outcome("not_applicable")
        )
        self._action(
            rate, "Not observed", "O", lambda: self.rubric.set_current_outcome("not_observed")
        )
        self._action(rate, "Applicable", "A", lambda: self.rubric.set_current_outcome("applicable"))
        self._action(rate, "Next metric", "J", self.rubric.next_metric)
        self._action(rate, "Previous metric", "K", self.rubric.prev_metric)
        self._action(rate, "Comment on metric", "C", self.rubric.focus_comment)
        self._action(rate, "Cite selected step as evidence", "E", self.rubric.request_cite)
        rate.addSeparator()
        self._action(rate, "Submit and next", ("Ctrl+Return", "Ctrl+Enter"), self.submit_and_next)
        self.sign_action = self._action(rate, "Sign and export…", "Ctrl+Shift+S", self._sign)
        self._action(rate, "Correct (supersede)…", "Ctrl+E", self.correct)
        self._action(rate, "History…", "Ctrl+H", self.show_history)
        self._action(rate, "Signing key…", None, self._signing_key)

        nav = menus.addMenu("&Navigate")
        self._action(nav, "Next event", "]", lambda: self.run_view.step(1))
        self._action(nav, "Previous event", "[", lambda: self.run_view.step(-1))
        self._action(nav, "Next agent turn", "}", lambda: self.run_view.step_turn(1))
        self._action(nav, "Previous agent turn", "{", lambda: self.run_view.step_turn(-1))
        self._action(nav, "Next run", "Ctrl+Down", lambda: self.queue.next_run())
        self._action(nav, "Previous run", "Ctrl+Up", lambda: self.queue.next_run(step=-1))
        self._action(nav, "Filter runs", QKeySequence.StandardKey.Find, self.queue.focus_filter)

        self.view_menu = menus.addMenu("&View")
        self._action(self.view_menu, "Reset layout", None, self.reset_layout)

        help_menu = menus.addMenu("&Help")
        self._action(help_menu, "Keyboard shortcuts", "F1", self.show_help)

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

    def _say(self, text: str) -> None:
        self.statusBar().showMessage(text, 15000)

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

    def switch_rater(self) -> None:
        """File → Switch rater…: rate as someone else (names in the database offered)."""
        self.rubric.flush()  # the last comment belongs to the rater who typed it
        name = self.ask_rater(self, self.controller.rater_names(), self.controller.rater)
        if name and name != self.controller.rater and self.controller.switch_rater(name):
            home.remember_rater(self.controller.rater)
            self._say(f"Now rating as {self.controller.rater}.")

    def _show_rater(self, name: str) -> None:
        # Say before Ctrl+Shift+S that signing needs a key, and where to make one.
        no_key = "" if keys.has_key(name) else " · no signing key yet (Rating → Signing key…)"
        self.rater_label.setText(f"Rater: {name}{no_key}")
        self.setWindowTitle(f"a320-review — {name}")

    def _signing_key(self) -> None:
        if self._key_manager is not None:
            self._key_manager(self)
            self._show_rater(self.controller.rater)

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

    def _sign(self) -> None:
        if self._signer is None:
            self._say("Signing is not available.")
            return
        self._signer(self)
        self._show_rater(self.controller.rater)  # signing may have created the key

    def _verify(self) -> None:
        if self._verifier is not None:
            self._verifier(self)

    def _import_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Import trajectories", "", "Trajectories (*.jsonl)"
        )
        if files:
            self.controller.import_paths([Path(f) for f in files])

    def _import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Import a folder of trajectories")
        if folder:
            self.controller.import_paths([Path(folder)])

    def _import_started(self) -> None:
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self._say("Importing…")

    def _import_progressed(self, done: int, total: int, current: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done}/{total}")

    def _import_finished(self, report) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        if report is None:
            return
        text = (
            f"Imported {report.added} new, {report.new_versions} changed, "
            f"{report.unchanged} unchanged, {len(report.unreadable)} unreadable"
            + (" — cancelled" if report.cancelled else "")
        )
        self._say(text)
        self.problems.show_report(report, self.controller.last_import_roots)
        if self.queue.current_run_pk() is None:
            self.queue.select_next_unrated()

    def show_help(self) -> None:
        """List every shortcut."""
        rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        box = QMessageBox(self)
        box.setWindowTitle("Keyboard shortcuts")
        box.setText(f"<table cellpadding='3'>{rows}</table>")
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.open()

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
        """Share the width among the panes as on a first start (View → Reset layout)."""
        self._share_width()

    def _share_width(self) -> None:
        width = self.splitter.width()
        # The rating form at its natural width; the queue a fifth; the rest to the run.
        rating = self.rating_scroll.minimumSizeHint().width()
        # The queue at the width its columns want, within 30 % of the window.
        queue = max(min(self.queue.natural_width() or width, int(width * 0.3)), 240)
        self.splitter.setSizes([queue, max(width - queue - rating, 0), rating])

    def fit_to_screen(self) -> None:
        """First start: a size from the available screen; later: the last geometry."""
        if not self.layout_state.restore_geometry(self):
            self.resize(initial_size(self.screen().availableGeometry().size()))

    def closeEvent(self, event) -> None:
        """Flush a pending comment edit before the window goes: no typed word is lost.
        A running import stops after its current file (what it stored stays)."""
        self.rubric.flush()
        self.controller.cancel_import()
        self.layout_state.save(self)
        super().closeEvent(event)

    # -- results dashboard ---------------------------------------------------------------
    def _build_results(self) -> None:
        """View → Results dashboard and File → Export report…; the window itself (and
        matplotlib with it) is built on first use."""
        self.results_loader = ResultsLoader(self.controller.store.path, parent=self)
        self.results_window = None
        menus = self.menuBar()
        self._action(self.view_menu, "Results dashboard", "Ctrl+Shift+D", self.show_results)
        file_menu = menus.actions()[0].menu()
        export = self._action(None, "Export report…", None, self.export_report)
        file_menu.insertAction([a for a in file_menu.actions() if a.isSeparator()][-1], export)
        loader = self.results_loader
        loader.export_progressed.connect(self._import_progressed)
        loader.exported.connect(self._export_finished)
        loader.export_failed.connect(self._export_finished)

    def show_results(self) -> None:
        """Open (or raise) the results dashboard."""
        if self.results_window is None:
            from ui.results.results_window import ResultsWindow

            window = ResultsWindow(self.results_loader, self, viewer=self.controller.rater)
            window.run_requested.connect(self.open_run_from_results)
            window.filter_requested.connect(self._filter_from_results)
            window.export_requested.connect(self.export_report)
            self.controller.ratings_changed.connect(window.mark_stale)
            self.results_window = window
        self.results_window.show()
        self.results_window.raise_()
        self.results_window.activateWindow()

    def open_run_from_results(self, run_pk: int) -> None:
        """Open a run clicked on the dashboard; a queue filter hiding it is cleared."""
        if not self.queue.select_run(run_pk):
            self.queue.show_only({})
            if not self.queue.select_run(run_pk):
                self.controller.open_run(run_pk)  # not in the queue (an older version)
        self.raise_()
        self.activateWindow()

    def _filter_from_results(self, facets: dict, label: str) -> None:
        self.queue.show_only(facets)
        self._say(f"Queue: the runs of {label}.")
        self.raise_()

    def export_report(self) -> None:
        """Ask where, then write the results report on a worker thread, with progress."""
        path, _ = QFileDialog.getSaveFileName(
            self, "Export report", "results.pdf", "PDF (*.pdf);;HTML page (*.html)"
        )
        if path:
            self.start_export(Path(path))

    def start_export(self, path: Path) -> None:
        """Write the report to ``path`` (PDF, or HTML for an .html name)."""
        fmt = "html" if path.suffix.lower() in (".html", ".htm") else "pdf"
        window = self.results_window
        scenario = window.selected_scenario() if window is not None else None
        if not self.results_loader.export(path, fmt, scenario):
            self._say("A report is already being written.")
            return
        self.progress.setRange(0, 0)
        self.progress.show()
        self._say(f"Writing {path.name}…")

    def _export_finished(self, message: str) -> None:
        self.progress.hide()
        self._say(message)


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

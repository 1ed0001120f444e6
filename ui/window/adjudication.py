"""Wiring the adjudication view into the main window (Rating → Adjudicate this run, Ctrl+J).

The adjudication pane takes the rating pane's place beside the run view, which keeps
showing the trajectory, the ground truth and the ScoreCard. While it is shown the rating
keys decide adjudications instead: the window's rating actions are disabled (a score key
must never start a rating of a run its adjudicator may not rate), and the pane handles the
keys itself. The queue's "Needs adjudication" filter is fed from here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFrame, QMainWindow, QMenu, QScrollArea, QSplitter, QWidget

from reviewer import home
from reviewer.store import StoreError
from ui.adjudication.adjudication_pane import AdjudicationPane
from ui.adjudication_control import AdjudicationController, AdjudicationView
from ui.controller import ReviewController
from ui.opened_run import OpenedRun
from ui.sheets.sign_flow import SignFlow, sheets_dir
from ui.window.menus import ADJUDICATE_KEY, SIGN_KEY

if TYPE_CHECKING:
    # Signing (cryptography) is imported when an adjudication is first signed.
    from reviewer.adjudication.signing import WrittenAdjudication


class RatingPane(Protocol):
    """What the adjudication view asks of the rating pane it takes the place of."""

    def flush(self) -> None: ...
    def focus_metrics(self) -> None: ...


class AdjudicationQueue(Protocol):
    """The queue's "Needs adjudication" filter, fed from here."""

    def set_needs_adjudication(self, run_pks: set[int] | frozenset[int]) -> None: ...


class AdjudicationWiring(QObject):
    """The adjudication pane, its controller and its menu entry, in one main window.

    It is given the window (its actions, and its closing), the splitter it adds its pane
    to, the rating pane it replaces there, the Rating menu (and its key-bound actions, which
    it disables while shown) and a way to tell the rater something.
    """

    def __init__(
        self,
        window: QMainWindow,
        controller: ReviewController,
        *,
        splitter: QSplitter,
        rating_scroll: QWidget,
        rubric: RatingPane,
        queue: AdjudicationQueue,
        rating_menu: QMenu,
        rating_actions: Callable[[], list[QAction]],
        say: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self._controller = c = controller
        self._splitter = splitter
        self._rating_scroll = rating_scroll
        self._rubric = rubric
        self._queue = queue
        self._rating_actions = rating_actions
        self._say = say
        self.control = AdjudicationController(c.store, lambda: c.rater, parent=self)
        self.pane = AdjudicationPane()
        scroll = QScrollArea()
        scroll.setWidget(self.pane)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.hide()
        self.scroll = scroll
        splitter.addWidget(scroll)
        self._disabled: list[QAction] = []

        self.action = QAction("Adjudicate this run", window)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence(ADJUDICATE_KEY))
        self.action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.action.setAutoRepeat(False)  # held down, it would toggle the view on and off
        self.action.toggled.connect(self.set_active)
        window.addAction(self.action)
        #: Keys and the folder dialog, as for signing a rating (tests replace its dialogs).
        self.sign_flow = SignFlow(c)
        self.sign_action = QAction("Sign adjudication…", window)
        self.sign_action.setShortcut(QKeySequence(SIGN_KEY))
        self.sign_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.sign_action.setAutoRepeat(False)
        self.sign_action.triggered.connect(lambda: self.sign())
        window.addAction(self.sign_action)
        rating_menu.addSeparator()
        rating_menu.addAction(self.action)
        rating_menu.addAction(self.sign_action)

        self.pane.decision_edited.connect(self.control.decide)
        self.pane.submit_requested.connect(self.control.submit)
        self.control.opened.connect(self.pane.set_view)
        self.control.decision_saved.connect(self.pane.set_view)
        self.control.submitted.connect(self._submitted)
        self.control.refused.connect(say)
        c.run_opened.connect(self._run_opened)
        c.runs_changed.connect(lambda _rows: self.refresh_queue())
        c.rater_changed.connect(lambda _name: self._run_opened(c.current))
        # Back to the rating pane before the window saves its splitters: a layout saved
        # with the rating pane hidden would start the next session with it collapsed.
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close and self.active:
            self.action.setChecked(False)
        return super().eventFilter(watched, event)

    @property
    def active(self) -> bool:
        return self.action.isChecked()

    def set_active(self, on: bool) -> None:
        """Show the adjudication pane (the open run's) or the rating pane again."""
        current = self._controller.current
        if on and current is None:
            self._say("Adjudicate: open a run first.")
            self.action.setChecked(False)
            return
        self._rubric.flush()
        self.pane.flush()
        if on:
            self._disabled = [
                a for a in self._rating_actions() if a is not self.action and a.isEnabled()
            ]
            for a in self._disabled:
                a.setEnabled(False)
        else:
            for a in self._disabled:
                a.setEnabled(True)
            self._disabled = []
        self._rating_scroll.setVisible(not on)
        self.scroll.setVisible(on)
        if on:
            self._run_opened(current)
            sizes = self._splitter.sizes()
            total = sum(sizes)
            # The grid needs room for one column per rater (about 45 %); the queue gives up
            # width before the run view does.
            queue = min(sizes[0], int(total * 0.18))
            pane = int(total * 0.45)
            self._splitter.setSizes([queue, total - queue - pane, 0, pane])
            self.pane.focus_grid()
        else:
            self._rubric.focus_metrics()

    def _run_opened(self, opened: OpenedRun | None) -> None:
        if self.active and opened is not None:
            self.control.open_run(opened.run_pk, opened.run_id)

    def _submitted(self, view: AdjudicationView) -> None:
        self.pane.set_view(view)
        self._say(f"Adjudication of {view.run_id} submitted.")
        self.refresh_queue()

    def sign(self) -> WrittenAdjudication | None:
        """Rating → Sign adjudication…: sign the submitted adjudication of the open run and
        write its adjudication sheet; returns what was written (None when not signed)."""
        view, flow, w = self.control.view, self.sign_flow, self.window
        done = view.adjudication if view is not None and self.active else None
        if view is None or done is None or done.status != "submitted":
            self._say("Sign adjudication needs a submitted adjudication: submit it first.")
            return None
        key = flow.rater_key(w)
        if key is None:
            return None
        text = (
            f"Sign your adjudication of {view.run_id} as {key.rater} (key {key.fingerprint})?"
            "\nA signed adjudication is locked: corrections supersede it."
        )
        if flow.confirm(w, text) is None:
            return None
        folder = flow.choose_dir(w, str(home.ensure_dir(sheets_dir())))
        if folder is None:
            return None
        from reviewer.adjudication.signing import AdjudicationSigner
        from reviewer.signing.service import SigningError

        try:
            written = AdjudicationSigner(self.control.store).sign(view.run_pk, key, Path(folder))
        except (SigningError, StoreError, OSError) as exc:
            self._say(f"Not signed: {exc}")
            return None
        self.control.open_run(view.run_pk, view.run_id)
        self._say(f"Signed the adjudication of {view.run_id}: wrote {written.path.name}.")
        return written

    def refresh_queue(self) -> None:
        """Tell the queue which runs still need adjudication."""
        self._queue.set_needs_adjudication(self.control.needs_adjudication())

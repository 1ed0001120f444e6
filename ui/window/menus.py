"""The main window's menus, their actions and shortcuts, and the shortcut help (F1).

The one table of keys the help lists sits beside the actions built from the same keys, so
the two cannot drift apart. The actions call the panes' intents (through the small
protocols below) and the window's (:class:`WindowIntents`); other parts add their own
entries with :meth:`WindowMenus.action`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

#: Rating → Adjudicate this run, and sign it (ui.window.adjudication binds them).
ADJUDICATE_KEY = "Ctrl+J"
SIGN_KEY = "Ctrl+Shift+J"

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
    (
        "Ctrl+F",
        "filter the run queue (Enter: back to the metrics, on a shown run; Esc: back as is)",
    ),
    ("Ctrl+Shift+S", "sign the submitted rating and export its sheet"),
    ("Ctrl+E", "correct a submitted or signed rating (asks first; a superseding draft)"),
    ("Ctrl+H", "history: earlier versions of this rating, read-only"),
    ("Ctrl+Shift+G", "after the final submit of a gold run: its reference beside your rating"),
    ("Ctrl+I / Ctrl+Shift+I", "import files / a folder"),
    ("Ctrl+Shift+V", "verify a signed sheet"),
    ("Ctrl+Shift+D", "the results dashboard (charts, agreement, validity)"),
    ("F1", "this help"),
    (
        f"{ADJUDICATE_KEY} / {SIGN_KEY}",
        "adjudicate this run / back to rating (keys as when rating); sign the adjudication",
    ),
)


#: One key, several keys, or a standard key of the platform.
Keys = str | tuple[str, ...] | QKeySequence.StandardKey | None
Slot = Callable[[], object]
_T = TypeVar("_T")


def _bound(slot: Callable[[_T], None], value: _T) -> Slot:
    """``slot(value)`` as a slot of no argument: an action's ``checked`` is not passed on."""
    return lambda: slot(value)


class RatingKeys(Protocol):
    """The rating pane's keyboard intents the Rating menu binds."""

    def score_current(self, score: int) -> None: ...
    def set_current_outcome(self, outcome: str) -> None: ...
    def next_metric(self) -> None: ...
    def prev_metric(self) -> None: ...
    def focus_comment(self) -> None: ...
    def request_cite(self) -> None: ...


class RunSteps(Protocol):
    """The run view's steps through the timeline the Navigate menu binds."""

    def step(self, delta: int) -> None: ...
    def step_turn(self, delta: int) -> None: ...


class QueueSteps(Protocol):
    """The queue's moves the Navigate menu binds."""

    def next_run(self, predicate: None = None, *, step: int = 1) -> int | None: ...
    def focus_filter(self) -> None: ...


@dataclass(frozen=True)
class WindowIntents:
    """What the menus' window-wide entries do, each provided by the part that owns it."""

    import_files: Slot
    import_folder: Slot
    verify: Slot
    collect: Slot
    switch_rater: Slot
    quit: Slot
    submit_and_next: Slot
    sign: Slot
    correct: Slot
    show_history: Slot
    signing_key: Slot
    reset_layout: Slot


class WindowMenus:
    """The menu bar, the window-wide shortcuts and the F1 help, on ``host``."""

    def __init__(
        self,
        host: QMainWindow,
        rating: RatingKeys,
        run: RunSteps,
        queue: QueueSteps,
        intents: WindowIntents,
    ) -> None:
        self._host = host
        bar = host.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.rating_menu = bar.addMenu("&Rating")
        self.navigate_menu = bar.addMenu("&Navigate")
        self.view_menu = bar.addMenu("&View")
        self.help_menu = bar.addMenu("&Help")
        self._build(rating, run, queue, intents)

    def action(
        self,
        menu: QMenu | None,
        text: str,
        keys: Keys,
        slot: Slot,
        *,
        window_wide: bool = True,
        repeat: bool = True,
    ) -> QAction:
        """An action of the window, bound to ``keys`` and listed in ``menu`` (if any)."""
        # (Not QAction(text, host): telling that call from QAction(icon, text) builds
        # QIcon's enums, which the first screen needs not.)
        action = QAction(self._host)
        action.setText(text)
        # A deciding key held down must not decide again (ui.rating_keys): no repeat.
        action.setAutoRepeat(repeat)
        if keys:
            seqs = [QKeySequence(k) for k in (keys if isinstance(keys, tuple) else (keys,))]
            action.setShortcuts(seqs)
        if window_wide:
            # Window-wide, yet text fields still get their letters: they accept the
            # ShortcutOverride for printable keys, so typing "3" in a comment types a 3.
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        self._host.addAction(action)
        if menu is not None:
            menu.addAction(action)
        return action

    def rating_actions(self) -> list[QAction]:
        """The Rating menu's actions bound to keys (scores, outcomes, submit, correct...)."""
        return [a for a in self.rating_menu.actions() if a.shortcuts()]

    def _build(
        self, rubric: RatingKeys, run: RunSteps, queue: QueueSteps, intents: WindowIntents
    ) -> None:
        file, act = self.file_menu, self.action
        act(file, "Import files…", "Ctrl+I", intents.import_files)
        act(file, "Import folder…", "Ctrl+Shift+I", intents.import_folder)
        file.addSeparator()
        act(file, "Verify sheet…", "Ctrl+Shift+V", intents.verify)
        act(file, "Collect sheets…", None, intents.collect)
        act(file, "Switch rater…", None, intents.switch_rater)
        file.addSeparator()
        act(file, "Quit", QKeySequence.StandardKey.Quit, intents.quit)

        rate = self.rating_menu
        for score in range(4):
            act(
                rate,
                f"Score {score}",
                str(score),
                _bound(rubric.score_current, score),
                repeat=False,
            )
        for outcome, text, key in (
            ("not_applicable", "Not applicable", "N"),
            ("not_observed", "Not observed", "O"),
            ("applicable", "Applicable", "A"),
        ):
            act(
                rate,
                text,
                key,
                _bound(rubric.set_current_outcome, outcome),
                repeat=False,
            )
        act(rate, "Next metric", "J", rubric.next_metric)
        act(rate, "Previous metric", "K", rubric.prev_metric)
        act(rate, "Comment on metric", "C", rubric.focus_comment, repeat=False)
        act(rate, "Cite selected step as evidence", "E", rubric.request_cite, repeat=False)
        rate.addSeparator()
        act(
            rate,
            "Submit and next",
            ("Ctrl+Return", "Ctrl+Enter"),
            intents.submit_and_next,
            repeat=False,
        )
        self.sign_action = act(rate, "Sign and export…", "Ctrl+Shift+S", intents.sign, repeat=False)
        act(rate, "Correct (supersede)…", "Ctrl+E", intents.correct, repeat=False)
        act(rate, "History…", "Ctrl+H", intents.show_history)
        act(rate, "Signing key…", None, intents.signing_key)

        nav = self.navigate_menu
        act(nav, "Next event", "]", lambda: run.step(1))
        act(nav, "Previous event", "[", lambda: run.step(-1))
        act(nav, "Next agent turn", "}", lambda: run.step_turn(1))
        act(nav, "Previous agent turn", "{", lambda: run.step_turn(-1))
        act(nav, "Next run", "Ctrl+Down", lambda: queue.next_run())
        act(nav, "Previous run", "Ctrl+Up", lambda: queue.next_run(step=-1))
        act(nav, "Filter runs", QKeySequence.StandardKey.Find, queue.focus_filter)

        act(self.view_menu, "Reset layout", None, intents.reset_layout)
        act(self.help_menu, "Keyboard shortcuts", "F1", self.show_help)

    def show_help(self) -> None:
        """List every shortcut."""
        from PySide6.QtWidgets import QMessageBox  # its enums are built on first use: not at start

        rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        box = QMessageBox(self._host)
        box.setWindowTitle("Keyboard shortcuts")
        box.setText(f"<table cellpadding='3'>{rows}</table>")
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.open()

"""The main window's menus, their actions and shortcuts, and the shortcut help (F1).

A mixin of :class:`ui.main_window.MainWindow`, like :mod:`ui.study_window`: the one table
of keys the help lists sits beside the actions built from the same keys, so the two cannot
drift apart. The actions call the panes' intents and the window's own slots.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMessageBox

from ui.adjudication_wiring import SHORTCUT_HELP as ADJUDICATION_SHORTCUT

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
    ("Ctrl+I / Ctrl+Shift+I", "import files / a folder"),
    ("Ctrl+Shift+V", "verify a signed sheet"),
    ("Ctrl+Shift+D", "the results dashboard (charts, agreement, validity)"),
    ("F1", "this help"),
    ADJUDICATION_SHORTCUT,
)


class MenuWindow:
    """The menu bar, the window-wide shortcuts and the F1 help, on the main window."""

    def _action(
        self, menu, text: str, keys, slot, *, window_wide: bool = True, repeat: bool = True
    ) -> QAction:
        action = QAction(text, self)
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
                repeat=False,
            )
        for outcome, text, key in (
            ("not_applicable", "Not applicable", "N"),
            ("not_observed", "Not observed", "O"),
            ("applicable", "Applicable", "A"),
        ):
            self._action(
                rate,
                text,
                key,
                lambda _=False, o=outcome: self.rubric.set_current_outcome(o),
                repeat=False,
            )
        self._action(rate, "Next metric", "J", self.rubric.next_metric)
        self._action(rate, "Previous metric", "K", self.rubric.prev_metric)
        self._action(rate, "Comment on metric", "C", self.rubric.focus_comment, repeat=False)
        self._action(
            rate, "Cite selected step as evidence", "E", self.rubric.request_cite, repeat=False
        )
        rate.addSeparator()
        self._action(
            rate,
            "Submit and next",
            ("Ctrl+Return", "Ctrl+Enter"),
            self.submit_and_next,
            repeat=False,
        )
        self.sign_action = self._action(
            rate, "Sign and export…", "Ctrl+Shift+S", self._sign, repeat=False
        )
        self._action(rate, "Correct (supersede)…", "Ctrl+E", self.correct, repeat=False)
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

    def show_help(self) -> None:
        """List every shortcut."""
        rows = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in SHORTCUTS)
        box = QMessageBox(self)
        box.setWindowTitle("Keyboard shortcuts")
        box.setText(f"<table cellpadding='3'>{rows}</table>")
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.open()

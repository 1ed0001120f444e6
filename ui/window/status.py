"""The status bar: the controller's messages, the progress of an import or an export, and
who is rating (and whether they can sign yet)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from reviewer.sheets import key_files

#: How long a message stays in the status bar (ms).
MESSAGE_MS = 15000


class WindowStatus:
    """The status bar's widgets; the import's Cancel button calls ``cancel_import``."""

    def __init__(self, bar: QStatusBar, *, cancel_import: Callable[[], None]) -> None:
        self._bar = bar
        # Each made in the bar, in the bar's order: a widget moved into another is polished
        # again under the application's stylesheet.
        self.progress = QProgressBar(bar)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        # (Not QPushButton(text, bar): telling that call from QPushButton(icon, text, bar)
        # builds QIcon's enums, which the first screen needs not.)
        self.cancel_button = QPushButton(bar)
        self.cancel_button.setText("Cancel import")
        self.cancel_button.clicked.connect(cancel_import)
        self.cancel_button.hide()
        # A rater name is user text: plain, never HTML.
        self.rater_label = QLabel(bar)
        self.rater_label.setTextFormat(Qt.TextFormat.PlainText)
        self.rater_label.setToolTip("Change it with File → Switch rater…")
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.rater_label)

    def say(self, text: str) -> None:
        """Show ``text`` for a while (it replaces the last message)."""
        self._bar.showMessage(text, MESSAGE_MS)

    def show_rater(self, name: str) -> None:
        # Say before Ctrl+Shift+S that signing needs a key, and where to make one.
        no_key = "" if key_files.has_key(name) else " · no signing key yet (Rating → Signing key…)"
        self.rater_label.setText(f"Rater: {name}{no_key}")

    def show_busy(self, *, cancellable: bool = False) -> None:
        """A job started whose length is not known yet; an import can be cancelled."""
        self.progress.setRange(0, 0)
        self.progress.show()
        if cancellable:
            self.cancel_button.show()

    def show_progress(self, done: int, total: int, _current: str = "") -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done}/{total}")

    def hide_progress(self, *, cancellable: bool = False) -> None:
        """The job ended; ``cancellable``: it was the import, whose Cancel goes too."""
        self.progress.hide()
        if cancellable:
            self.cancel_button.hide()

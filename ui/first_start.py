"""The first start's rater question, on screen before the window is even imported.

Importing the window (Qt widgets, the store, the scorer) takes seconds on a laptop. A
new rater who starts typing their name meanwhile once lost the first keys: "Lou Laptop"
became "Laptop". So the question is shown first, from this light module, and the rest
is imported behind it: keys typed while it loads wait in the window system's queue for
the dialog, which takes them as soon as the event loop runs. The names already in the
database are offered once the store can be read, without touching what was typed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QWidget

from ui.rater_dialog import PROMPT


class RaterPrompt(QInputDialog):
    """The "Who is rating?" dialog, shown early and asked later (see :meth:`ask`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rater")
        self.setLabelText(PROMPT)
        self.setComboBoxEditable(True)
        self.setComboBoxItems([])
        self.setTextValue("")

    def line_edit(self) -> QLineEdit | None:
        """Where typed keys go (the editable combo box's line)."""
        return self.findChild(QLineEdit)

    def show_now(self) -> None:
        """Put the dialog on screen and give it the keys, before anything slow runs."""
        self.show()
        self.raise_()
        self.activateWindow()
        edit = self.line_edit()
        if edit is not None:
            edit.setFocus()
        QApplication.processEvents()

    def ask(self, _parent: QWidget | None, names: Sequence[str], current: str) -> str | None:
        """:data:`ui.rater_dialog.AskRater`: offer ``names`` and wait for the answer. Keys
        typed so far stay the name being typed; keys still queued (and an Enter among
        them) are taken by the dialog's own loop, after what was typed, never lost."""
        typed = self.textValue() or current
        choices = list(dict.fromkeys([current, *names] if current else names))
        self.setComboBoxItems(choices)  # the list to pick from; the line stays as typed
        self.setTextValue(typed)
        accepted = self.exec() == QInputDialog.DialogCode.Accepted
        name = self.textValue().strip()
        return name if accepted and name else None


def early_prompt(explicit_rater: str | None) -> RaterPrompt | None:
    """On a first start with a display, the rater question on screen now; else None."""
    if explicit_rater or not _has_display():
        return None
    from reviewer import home  # light: no store, no scorer

    if home.last_rater():
        return None
    QApplication.instance() or QApplication(sys.argv[:1])
    prompt = RaterPrompt()
    prompt.show_now()
    return prompt


def _has_display() -> bool:
    # As ui.app._no_display: without one, Qt would abort; ui.app says why instead.
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

"""Issue 25: the first start never loses a key. The rater question is on screen before the
window is imported; keys typed while the rest loads (queued, not yet delivered) end up in
the name, and the names offered later do not overwrite what was typed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from ui.first_start import RaterPrompt, early_prompt


def _queue_keys(widget, text: str) -> None:
    """Post key presses as the window system queues them: delivered only once the event
    loop runs again."""
    for char in text:
        key = Qt.Key.Key_Space if char == " " else Qt.Key(ord(char.upper()))
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            event = QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, char)
            QApplication.postEvent(widget, event)


def test_keys_typed_before_the_names_are_known_stay_the_name(qtbot):
    prompt = RaterPrompt()
    qtbot.addWidget(prompt)
    edit = prompt.line_edit()
    # Typed into the dialog before it is even shown, and more while the window loads.
    _queue_keys(edit, "Lou ")
    prompt.show_now()
    _queue_keys(edit, "Laptop")
    QTimer.singleShot(0, prompt.accept)  # Enter, once everything typed has arrived
    assert prompt.ask(None, ["A. Martin", "B. Okafor"], "") == "Lou Laptop"


def test_the_names_are_offered_and_enter_typed_early_still_answers(qtbot):
    prompt = RaterPrompt()
    qtbot.addWidget(prompt)
    prompt.show_now()
    edit = prompt.line_edit()
    _queue_keys(edit, "B. Okafor")
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        enter = QKeyEvent(kind, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "\r")
        QApplication.postEvent(edit, enter)
    assert prompt.ask(None, ["A. Martin"], "") == "B. Okafor"
    assert prompt.comboBoxItems() == ["A. Martin"]


def test_a_known_rater_gets_no_early_question():
    from reviewer import home

    home.remember_rater("A. Martin")
    assert early_prompt(None) is None
    assert early_prompt("B. Okafor") is None

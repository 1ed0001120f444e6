"""Rating keys typed on the first screen, before the first run is open, kept for it.

The window is painted before the store is open (:func:`ui.app.first_screen`), and a rater
who knows the keys starts scoring at once: 0–3, A / N / O and J / K, typed before the run
is on screen, would score nothing (no run is open yet) and be lost. From the window's
first paint (no key reaches it before, and an application-wide filter watching the
start's every event made that paint slower: :mod:`ui.window.first_paint`) until the first
run opens, this filter keeps them (and keeps them from acting as the menus' shortcuts); then
it hands them, in order, to the widget with the focus, which is the new run's metric list
(:meth:`ui.main_window.MainWindow._show_run`). Keys typed into a text box (the queue's
filter) are left alone, and so is everything with Ctrl or Alt (the menus say the
database is still opening) and every key that moves (a click in the queue works already).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from ui.rating_keys import DIGITS, OUTCOME_KEYS
from ui.window.first_paint import after_first_paint

#: The keys kept: those that rate the current metric, or move between metrics.
KEPT = frozenset({*DIGITS, *OUTCOME_KEYS, Qt.Key.Key_J, Qt.Key.Key_K})
_HELD = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)


class EarlyKeys(QObject):
    """Keeps the rating keys typed in ``window`` until :meth:`release`."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._keys: list[tuple[int, Qt.KeyboardModifier, str]] = []
        self._active = True
        self._listening = False
        after_first_paint(window, self._listen)  # before what ui.app starts then

    def _listen(self) -> None:
        app = QApplication.instance()
        if self._active and app is not None:
            app.installEventFilter(self)
            self._listening = True

    @property
    def listening(self) -> bool:
        """Whether the application's key events are watched now (from the first paint on
        until :meth:`release`)."""
        return self._listening and self._active

    @property
    def kept(self) -> int:
        """How many keys wait for the first run."""
        return len(self._keys)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if not (isinstance(event, QKeyEvent) and self._wanted(watched, event)):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # not a menu shortcut now: the key press comes here next
        else:
            self._keys.append((event.key(), event.modifiers(), event.text()))
        return True

    def _wanted(self, watched: QObject, event: QKeyEvent) -> bool:
        if not self._active or not isinstance(watched, QWidget):
            return False
        if isinstance(watched, _text_classes()):
            return False
        if watched.window() is not self._window or event.isAutoRepeat():
            return False
        return event.key() in KEPT and not event.modifiers() & _HELD

    def release(self) -> None:
        """The first run is open: stop keeping keys, and give those kept to the widget with
        the focus, in the order they were typed. Once; later calls do nothing."""
        if not self._active:
            return
        self._active = False
        app = QApplication.instance()
        if app is not None and self._listening:
            app.removeEventFilter(self)
        target = QApplication.focusWidget()
        keys, self._keys = self._keys, []
        if target is None or target.window() is not self._window:
            return
        for key, modifiers, text in keys:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.postEvent(target, QKeyEvent(kind, key, modifiers, text))


@cache
def _text_classes() -> tuple[type[QWidget], ...]:
    """The widgets whose keys are their own (text), looked up when a key first comes: the
    first screen has no text box but the filter (the rating form's come later), and
    PySide builds a class's enums when it is first touched."""
    from PySide6.QtWidgets import (
        QAbstractSpinBox,
        QComboBox,
        QLineEdit,
        QPlainTextEdit,
        QTextEdit,
    )

    return (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QComboBox)

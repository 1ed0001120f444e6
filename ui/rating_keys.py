"""The rating keys, shared by the panes that rate with them (rubric form, adjudication).

0–3 score the current metric, A / N / O set its outcome, Enter opens its comment and
Ctrl+Enter submits. One table, so rating and adjudicating answer the same keys.

A key held down repeats, and a repeat is never a decision: a 2 held a little long would
score the metrics after it too, and an Enter still down from the rater dialog reached the
new window as a repeat and opened the comment, so the next keys typed text (found under
Xvfb). Repeats of these keys do nothing (:func:`is_held`); moving between metrics, events
and runs still repeats.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

DIGITS = {Qt.Key.Key_0: 0, Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3}
OUTCOME_KEYS = {
    Qt.Key.Key_A: "applicable",
    Qt.Key.Key_N: "not_applicable",
    Qt.Key.Key_O: "not_observed",
}
ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
#: Keys that decide something (a value, the comment, a submit): never acted on repeat.
DECIDING_KEYS = frozenset({*DIGITS, *OUTCOME_KEYS, *ENTER_KEYS, Qt.Key.Key_C, Qt.Key.Key_E})


def is_held(event: QKeyEvent) -> bool:
    """An automatic repeat of a deciding key: to be swallowed, not acted on."""
    return event.isAutoRepeat() and event.key() in DECIDING_KEYS


def is_submit(event: QKeyEvent) -> bool:
    """Ctrl+Enter (either Enter key)."""
    return bool(
        event.key() in ENTER_KEYS and event.modifiers() & Qt.KeyboardModifier.ControlModifier
    )

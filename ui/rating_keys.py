"""The rating keys, shared by the panes that rate with them (rubric form, adjudication).

0–3 score the current metric, A / N / O set its outcome, Enter opens its comment and
Ctrl+Enter submits. One table, so rating and adjudicating answer the same keys.
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


def is_submit(event: QKeyEvent) -> bool:
    """Ctrl+Enter (either Enter key)."""
    return bool(
        event.key() in ENTER_KEYS and event.modifiers() & Qt.KeyboardModifier.ControlModifier
    )

"""After a blind study's reveal: the current metric's blind value beside its value now, and
the reason a revision needs.

Split from the rubric form so each file keeps one job: this one shows one metric's
revision; :mod:`ui.rating.rubric_form` owns the state and emits the edits.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from ui.rating.metric_editor import set_text
from ui.rating.rubric_model import OUTCOME_LABELS, SCORE_LABELS

REASON_PLACEHOLDER = "Why did you change your blind rating? (C to type, Esc returns)"
UNCHANGED = "Unchanged from your blind rating: confirmed as it is."


def describe(item: Any) -> str:
    """``Applicable · 2 Standard`` / ``Not observed``: an item in words."""
    if item is None or item.outcome is None:
        return "not rated"
    text = OUTCOME_LABELS.get(item.outcome, str(item.outcome))
    if item.score is not None:
        text += f" · {item.score} {SCORE_LABELS.get(item.score, '')}".rstrip()
    return text


class RevisionBox(QFrame):
    """Blind value, value now and the reason field of one metric (shown after the reveal)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("revisionBox")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.summary = QLabel(self)
        self.summary.setObjectName("revisionSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.reason = QPlainTextEdit(self)
        self.reason.setObjectName("revisionReason")
        self.reason.setPlaceholderText(REASON_PLACEHOLDER)
        self.reason.setTabChangesFocus(True)
        self.reason.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)
        layout.addWidget(self.summary)
        layout.addWidget(self.reason)

    def show_metric(self, blind: Any, now: Any, reason: str, *, revised: bool, text: bool) -> None:
        """One metric's revision; ``text=False`` leaves the reason box alone (typing)."""
        if blind is None:
            self.summary.setText("")
            self.reason.hide()
            return
        if revised:
            self.summary.setText(f"Blind: {describe(blind)}   →   now: {describe(now)}")
        else:
            self.summary.setText(f"Blind: {describe(blind)}. {UNCHANGED}")
        # The reason belongs to a revision: a confirmed metric has nothing to explain.
        self.reason.setVisible(revised or bool(reason))
        if text:
            set_text(self.reason, reason)

    def set_editable(self, editable: bool) -> None:
        self.reason.setReadOnly(not editable)

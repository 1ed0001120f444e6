"""The rubric form's Submit button and status line: what is left to do, and what is saved.

A part of :class:`ui.rating.rubric_form.RubricForm`: it owns the button and the status line
and is given the form's rubric model. Submit is enabled only when the rating is complete
(or, sealed, to reveal); its tooltip lists what is still to do, and the status line says the
rating's state and last save. The form tells it the rest (:class:`FormState`) at each refresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from ui.rating.rubric_model import RubricModel
from ui.theme import plain_tooltip


@dataclass(frozen=True)
class FormState:
    """What the Submit button and the status line show besides the model's checks."""

    editable: bool
    phase: str  # a blind study's phase: open | blind | sealed | revealed
    status: str | None  # the rating's status; None before its first edit
    saved_at: datetime | None


class SubmitStatus:
    """The Submit button's state and tooltip, and the status line."""

    def __init__(self, parent: QWidget, model: RubricModel) -> None:
        self._model = model
        self.label = QLabel(parent)
        self.label.setObjectName("ratingStatus")
        # A long status ("Not rated yet … 7 of 7 metrics to do") wraps instead of widening
        # the form past the rating pane, which has no horizontal scroll bar.
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.button = QPushButton("Submit and next (Ctrl+Enter)", parent)
        self.button.setAutoDefault(False)

    def refresh(self, state: FormState) -> None:
        """Both, from the model's checks and ``state``."""
        problems = self._model.problems()
        self.button.setEnabled(
            bool(state.editable and not problems and self._model.rowCount())
            or state.phase == "sealed"  # frozen, and Ctrl+Enter reveals
        )
        if state.phase == "sealed":
            tip = "Your blind rating is frozen: show the automatic score and revise."
        elif not state.editable:
            tip = "This rating cannot be edited."
        elif problems:
            rubric = self._model.rubric()
            titles = {m.id: m.title for m in rubric.metrics} if rubric else {}
            lines = [f"• {titles.get(m, m)}: {message}" for m, message in problems]
            tip = "Still to do before submitting:\n" + "\n".join(lines)
        elif state.phase == "blind":
            tip = "Freeze your blind rating for good, then see the automatic score."
        else:
            tip = "Submit this rating and open the next unrated run."
        self.button.setToolTip(plain_tooltip(tip))
        self.refresh_status(state)

    def refresh_status(self, state: FormState) -> None:
        """The status line alone (a save changes nothing else)."""
        status = state.status
        if status == "signed":
            text = "Signed: read-only"
        elif status == "submitted":
            text = "Submitted"
        elif status == "draft" and state.saved_at is not None:
            text = f"Draft — saved {state.saved_at.astimezone():%H:%M:%S}"
        elif status == "draft":
            text = "Draft"
        else:
            text = "Not rated yet — your first edit starts a draft"
        todo = {m for m, _ in self._model.problems()}
        if state.editable and todo:
            text += f" · {len(todo)} of {self._model.rowCount()} metrics to do"
        self.label.setText(text)

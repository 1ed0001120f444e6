"""The rubric form's keyboard when the form itself has the focus.

A part of :class:`ui.rating.rubric_form.RubricForm`: an event filter on the form's metric
table and text boxes, and the key map for the form alone. The window binds 0–3, N / O / A,
J / K, C and E to the form's intents as window-wide shortcuts; without a window (the form
alone, or the table focused) this part reads the same keys and calls the same intents
(:class:`RatingIntents`), so the rating keys never become text or keyboard search. It is
given the form's rubric model, whose row shows the metric being commented.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QTableView
from shiboken6 import isValid

from ui.rating.rubric_model import RubricModel
from ui.rating_keys import DIGITS, ENTER_KEYS, OUTCOME_KEYS, is_held, is_submit

_TEXT_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.FocusOut)
_FOCUS_EVENTS = (QEvent.Type.FocusIn, QEvent.Type.FocusOut)


class RatingIntents(Protocol):
    """What the keys do on the form: its public intents."""

    def score_current(self, score: int) -> None: ...
    def set_current_outcome(self, outcome: str) -> None: ...
    def next_metric(self) -> None: ...
    def prev_metric(self) -> None: ...
    def focus_comment(self) -> None: ...
    def request_cite(self) -> None: ...
    def request_submit(self) -> None: ...
    def flush(self) -> None: ...
    def focus_metrics(self) -> None: ...
    def current_metric_id(self) -> str | None: ...


class FormKeys(QObject):
    """Rating keys on the metric table; Esc, Ctrl+Enter and focus changes in the boxes.

    ``comment`` is the current metric's comment box; ``texts`` every text box of the form
    (the comment among them), each of which sends its edit when the focus leaves it.
    """

    def __init__(
        self,
        form: RatingIntents,
        model: RubricModel,
        *,
        table: QTableView,
        comment: QPlainTextEdit,
        texts: tuple[QPlainTextEdit, ...],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._owner = parent
        self._form = form
        self._model = model
        self._table = table
        self._comment = comment
        self._texts = texts
        for watched in (table, *texts):
            watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isValid(self._owner):
            # The form is being destroyed and its widgets with it (a focus leaving one):
            # nothing is left to flush or move.
            return False
        kind, form = event.type(), self._form
        if watched is self._comment and kind in _FOCUS_EVENTS:
            # The metric row says it is being commented, as the focus frame does the box.
            commenting = kind == QEvent.Type.FocusIn
            self._model.set_commenting(form.current_metric_id() if commenting else None)
        if watched in self._texts and kind in _TEXT_EVENTS:
            if kind == QEvent.Type.FocusOut:
                form.flush()  # e.g. a click on the run queue, before it switches run
            elif isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
                form.flush()
                form.focus_metrics()
                # The comment was what this metric still needed: go on to the next, as a
                # score that needs no comment does (a rater going back presses K).
                metric_id = form.current_metric_id()
                needs_more = metric_id is not None and self._model.problem_of(metric_id) is not None
                if watched is self._comment and not needs_more:
                    form.next_metric()
                return True
            elif isinstance(event, QKeyEvent) and is_submit(event):
                form.request_submit()
                return True
        elif watched is self._table and isinstance(event, QKeyEvent):
            if kind != QEvent.Type.KeyPress:
                return False
            # The view would take letters and digits for keyboard search; here they rate,
            # and Enter opens the comment.
            if is_held(event):
                return True
            if self.rating_key(event):
                return True
            if event.key() in ENTER_KEYS:
                form.focus_comment()
                return True
        return False

    def rating_key(self, event: QKeyEvent) -> bool:
        """The window's rating keys, for when no window binds them (the form alone)."""
        form = self._form
        if is_held(event):
            return True
        if is_submit(event):
            form.request_submit()
            return True
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = Qt.Key(event.key())
        if key in DIGITS:
            form.score_current(DIGITS[key])
        elif key in OUTCOME_KEYS:
            form.set_current_outcome(OUTCOME_KEYS[key])
        elif key == Qt.Key.Key_J:
            form.next_metric()
        elif key == Qt.Key.Key_K:
            form.prev_metric()
        elif key == Qt.Key.Key_C:
            form.focus_comment()
        elif key == Qt.Key.Key_E:
            form.request_cite()
        else:
            return False
        return True

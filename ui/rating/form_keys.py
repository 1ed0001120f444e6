"""The rubric form's keyboard: the API the window binds, and the keys when the form has focus.

A mixin of :class:`ui.rating.rubric_form.RubricForm`, like :mod:`ui.rating.revision_flow`.
The window binds 0–3, N / O / A, J / K, C and E to the methods here as window-wide
shortcuts; without a window (the form alone, or the table focused) the form reads the
same keys itself, so the rating keys never become text or keyboard search.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

from ui.rating_keys import DIGITS, ENTER_KEYS, OUTCOME_KEYS, is_held, is_submit

_TEXT_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.FocusOut)


class FormKeys:
    """Rating keys and their actions, on the rubric form."""

    def score_current(self, score: int) -> None:
        """Score the current metric; then ask for the comment it needs, or move on."""
        if self._editable and self.current_metric_id() is not None:
            self._edit("applicable", score)
            self._after_key()

    def set_current_outcome(self, outcome: str) -> None:
        """Set the current metric's outcome (N/A and not observed clear the score)."""
        if self._editable and self.current_metric_id() is not None:
            self._on_outcome_clicked(outcome)
            self._after_key()

    def next_metric(self) -> None:
        self._select_row(self.table.currentIndex().row() + 1)

    def prev_metric(self) -> None:
        self._select_row(max(self.table.currentIndex().row() - 1, 0))

    def focus_comment(self) -> None:
        """Put the caret in the current metric's comment (C); Esc comes back."""
        metric_id = self.current_metric_id()
        if self.model.is_revised(metric_id) and not self.model.reason(metric_id).strip():
            # What a revised metric needs first is its reason: C asks for it.
            self.focus_reason()
            return
        if metric_id is not None and self._editable:
            self.editor.comment.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def request_cite(self) -> None:
        """E: ask to cite the selected step for the current metric (again: remove it)."""
        metric_id = self.current_metric_id()
        if metric_id is not None:
            self.cite_requested.emit(metric_id)

    def focus_metrics(self) -> None:
        """Give the keys back to the metric list (after a new run, a submit, Esc...)."""
        self.flush()
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def is_typing(self) -> bool:
        """True while a comment box of this form has the keyboard focus."""
        return self.editor.comment.hasFocus() or self.overall.hasFocus()

    def request_submit(self) -> None:
        """Send pending edits, then ask to submit (only when the rating is complete)."""
        self.flush()
        if self.submit_button.isEnabled():
            self.submit_requested.emit()

    def _after_key(self) -> None:
        # One comment model: focus enters a comment box only when the rater presses C
        # (or Enter, or clicks it). A metric that still needs its comment stays current and
        # the editor says "press C": a key pressed as a command never becomes text.
        if self.model.problem_of(self.current_metric_id()) is None:
            self.next_metric()

    # ---- keys when the form itself has focus ----------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.editor.comment and kind in (
            QEvent.Type.FocusIn,
            QEvent.Type.FocusOut,
        ):
            # The metric row says it is being commented, as the focus frame does the box.
            commenting = kind == QEvent.Type.FocusIn
            self.model.set_commenting(self.current_metric_id() if commenting else None)
        if watched in (self.editor.comment, self.overall, self.revision.reason) and (
            kind in _TEXT_EVENTS
        ):
            if kind == QEvent.Type.FocusOut:
                self.flush()  # e.g. a click on the run queue, before it switches run
            elif event.key() == Qt.Key.Key_Escape:
                self.flush()
                self.focus_metrics()
                # The comment was what this metric still needed: go on to the next, as a
                # score that needs no comment does (a rater going back presses K).
                metric_id = self.current_metric_id()
                if watched is self.editor.comment and self.model.problem_of(metric_id) is None:
                    self.next_metric()
                return True
            elif is_submit(event):
                self.request_submit()
                return True
        elif watched is self.table and kind == QEvent.Type.KeyPress:
            # The view would take letters and digits for keyboard search; here they rate,
            # and Enter opens the comment.
            if is_held(event):
                return True
            if self._rating_key(event):
                return True
            if event.key() in ENTER_KEYS:
                self.focus_comment()
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._rating_key(event):
            super().keyPressEvent(event)

    def _rating_key(self, event: QKeyEvent) -> bool:
        """The window's rating keys, for when no window binds them (the form alone)."""
        if is_held(event):
            return True
        if is_submit(event):
            self.request_submit()
            return True
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = event.key()
        if key in DIGITS:
            self.score_current(DIGITS[key])
        elif key in OUTCOME_KEYS:
            self.set_current_outcome(OUTCOME_KEYS[key])
        elif key == Qt.Key.Key_J:
            self.next_metric()
        elif key == Qt.Key.Key_K:
            self.prev_metric()
        elif key == Qt.Key.Key_C:
            self.focus_comment()
        elif key == Qt.Key.Key_E:
            self.request_cite()
        else:
            return False
        return True

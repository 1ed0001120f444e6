"""The rubric form's pending edits: comments go out after a pause in typing.

A mixin of :class:`ui.rating.rubric_form.RubricForm`, like :mod:`ui.rating.revision_flow`.
Each comment box emits its text once the rater stops typing for
:data:`COMMENT_DEBOUNCE_MS`, and at once when the focus leaves it, the metric changes or
the window asks (:meth:`PendingEdits.flush`): no typed word is lost or sent to the wrong
run.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

COMMENT_DEBOUNCE_MS = 400


class PendingEdits:
    """Debounced comment and overall-comment edits, on the rubric form."""

    def _init_pending(self) -> None:
        # Comment edits go out after a pause in typing; these say what is still unsent.
        self._pending_comment: str | None = None  # its metric id
        self._pending_overall = False
        self._comment_timer = single_shot(self, self._flush_comment)
        self._overall_timer = single_shot(self, self._flush_overall)

    def flush(self) -> None:
        """Emit the comment edits still waiting for their debounce."""
        self._flush_comment()
        self._flush_overall()
        self._flush_reason()

    def _on_comment_changed(self) -> None:
        metric_id = self.current_metric_id()
        if metric_id is not None and self._editable:
            self._apply_local(metric_id, comment=self.editor.comment.toPlainText())
            self._pending_comment = metric_id
            self._comment_timer.start()

    def _flush_comment(self) -> None:
        self._comment_timer.stop()
        metric_id, self._pending_comment = self._pending_comment, None
        item = None if metric_id is None else self.model.item(metric_id)
        if item is not None:
            self.item_edited.emit(metric_id, item.outcome, item.score, item.comment)

    def _on_overall_changed(self) -> None:
        if self._editable:
            self._pending_overall = True
            self._overall_timer.start()

    def _flush_overall(self) -> None:
        self._overall_timer.stop()
        if self._pending_overall:
            self._pending_overall = False
            self.overall_comment_edited.emit(self.overall.toPlainText())

    def _drop_pending(self) -> None:
        self._reason_timer.stop()
        self._pending_reason = None
        self._comment_timer.stop()
        self._overall_timer.stop()
        self._pending_comment = None
        self._pending_overall = False


def single_shot(parent: QObject, slot) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(COMMENT_DEBOUNCE_MS)
    timer.timeout.connect(slot)
    return timer

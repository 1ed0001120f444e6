"""The rubric form's pending edits: comments go out after a pause in typing.

A part of :class:`ui.rating.rubric_form.RubricForm`. Each comment box (a metric's comment,
the overall comment, a revision reason) is sent once the rater stops typing for
:data:`COMMENT_DEBOUNCE_MS`, and at once when the focus leaves it, the metric changes or
the window asks (:meth:`PendingEdits.flush`): no typed word is lost or sent to the wrong
run. This part keeps the timers and what is still unsent; the form says how to send it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

COMMENT_DEBOUNCE_MS = 400


class PendingEdits:
    """Debounced comment, overall-comment and revision-reason edits.

    ``send_comment(metric_id)``, ``send_overall()`` and ``send_reason(metric_id)`` emit
    the edit as the form holds it now; ``parent`` owns the timers.
    """

    def __init__(
        self,
        parent: QObject,
        *,
        send_comment: Callable[[str], None],
        send_overall: Callable[[], None],
        send_reason: Callable[[str], None],
    ) -> None:
        self._send_comment = send_comment
        self._send_overall = send_overall
        self._send_reason = send_reason
        # What is still unsent: a metric id for a comment or a reason.
        self.comment: str | None = None
        self.overall = False
        self.reason: str | None = None
        self._comment_timer = single_shot(parent, self.flush_comment)
        self._overall_timer = single_shot(parent, self.flush_overall)
        self._reason_timer = single_shot(parent, self.flush_reason)

    def comment_typed(self, metric_id: str) -> None:
        self.comment = metric_id
        self._comment_timer.start()

    def overall_typed(self) -> None:
        self.overall = True
        self._overall_timer.start()

    def reason_typed(self, metric_id: str) -> None:
        self.reason = metric_id
        self._reason_timer.start()

    def flush(self) -> None:
        """Send the edits still waiting for their debounce."""
        self.flush_comment()
        self.flush_overall()
        self.flush_reason()

    def flush_comment(self) -> None:
        self._comment_timer.stop()
        metric_id, self.comment = self.comment, None
        if metric_id is not None:
            self._send_comment(metric_id)

    def flush_overall(self) -> None:
        self._overall_timer.stop()
        if self.overall:
            self.overall = False
            self._send_overall()

    def flush_reason(self) -> None:
        self._reason_timer.stop()
        metric_id, self.reason = self.reason, None
        if metric_id is not None:
            self._send_reason(metric_id)

    def forget_comment(self) -> None:
        """The comment went out with another edit: nothing of it is left to send."""
        self._comment_timer.stop()
        self.comment = None

    def drop(self) -> None:
        """Forget everything unsent (another run is shown: it was not typed for it)."""
        self._reason_timer.stop()
        self.reason = None
        self._comment_timer.stop()
        self._overall_timer.stop()
        self.comment = None
        self.overall = False


def single_shot(parent: QObject, slot: Callable[[], None]) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(COMMENT_DEBOUNCE_MS)
    timer.timeout.connect(slot)
    return timer

"""The rubric form's part in a blind study: the phase (blind, sealed, revealed), the banner
and Submit caption of each, and after the reveal the revision box with its reason.

A mixin of :class:`ui.rating.rubric_form.RubricForm` (which declares ``reason_edited``),
so that the form stays one screenful per concern. The store decides the rules; this only
shows the phase it is told and emits reasons as intents, debounced like comments.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel

from ui.rating.revision_box import RevisionBox

#: What the phase banner says in each phase of a blind study (open: no banner).
PHASE_BANNERS = {
    "blind": "Blind rating: the automatic score is hidden. Ctrl+Enter submits your blind "
    "rating, which is then frozen for good, and shows the automatic score.",
    "sealed": "Your blind rating is frozen. Ctrl+Enter shows the automatic score.",
    "revealed": "Revealed: confirm or revise; a change needs a reason "
    "(C on a revised metric). Ctrl+Enter submits the final rating.",
}
SUBMIT_TEXTS = {
    "blind": "Submit blind rating (Ctrl+Enter)",
    "sealed": "Show the automatic score (Ctrl+Enter)",
    "revealed": "Submit final rating (Ctrl+Enter)",
}


class RevisionFlow:
    """Phase banner, Submit caption and revision reasons, on the rubric form."""

    def _init_revision(self, reason_timer: QTimer) -> None:
        self._phase = "open"  # a blind study's phase: open | blind | sealed | revealed
        self._pending_reason: str | None = None  # its metric id
        self._reason_timer = reason_timer
        self.revision = RevisionBox(self)  # type: ignore[arg-type]
        self.revision.reason.textChanged.connect(self._on_reason_changed)
        self.revision.reason.installEventFilter(self)  # type: ignore[arg-type]
        self.revision.hide()
        self.phase_banner = QLabel(self)
        self.phase_banner.setObjectName("banner")
        self.phase_banner.setProperty("kind", "info")
        self.phase_banner.setWordWrap(True)
        self.phase_banner.hide()

    def set_phase(self, phase: str, blind: dict[str, Any], reasons: dict[str, str]) -> None:
        """A blind study's phase for the shown rating, with the blind values and reasons
        once revealed ("open": an ordinary rating). Never emits."""
        self._phase = phase
        pending, text = self._pending_reason, self.revision.reason.toPlainText()
        self.model.set_blind(blind if phase == "revealed" else {}, reasons)
        if pending is not None:
            self.model.set_reason(pending, text)  # not sent yet: newer than the store's
        self.phase_banner.setText(PHASE_BANNERS.get(phase, ""))
        self.submit_button.setText(SUBMIT_TEXTS.get(phase, "Submit and next (Ctrl+Enter)"))
        self._select_row(self._start_row(self.current_metric_id()))
        self._apply_editable()
        # A submitted rating is past every phase: no call to act stays on screen.
        self.phase_banner.setVisible(
            phase in PHASE_BANNERS and (self._editable or phase == "sealed")
        )

    def phase(self) -> str:
        return self._phase

    def focus_reason(self) -> None:
        """Put the caret in the current metric's revision reason (after the reveal)."""
        if self._phase == "revealed" and self._editable and self.current_metric_id():
            self.revision.reason.show()
            self.revision.reason.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _forget_phase(self) -> None:
        self._phase = "open"
        self.model.set_blind({}, {})
        self.phase_banner.hide()
        self.submit_button.setText("Submit and next (Ctrl+Enter)")

    def set_banner(self, text: str | None) -> None:
        """Show ``text`` above the metrics (a correction in progress), or hide it."""
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))

    def _on_reason_changed(self) -> None:
        metric_id = self.current_metric_id()
        if metric_id is not None and self._editable and self._phase == "revealed":
            self.model.set_reason(metric_id, self.revision.reason.toPlainText())
            self._pending_reason = metric_id
            self._reason_timer.start()
            self._refresh_editor(comment=False)  # the problem line and Submit, at once

    def _flush_reason(self) -> None:
        self._reason_timer.stop()
        metric_id, self._pending_reason = self._pending_reason, None
        if metric_id is not None:
            self.reason_edited.emit(metric_id, self.model.reason(metric_id))

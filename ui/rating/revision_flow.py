"""The rubric form's part in a blind study: the phase (blind, sealed, revealed), the banner
and Submit caption of each, and after the reveal the revision box with its reason.

A part of :class:`ui.rating.rubric_form.RubricForm`, given the form to parent its widgets.
The store decides the rules; this only shows the phase it is told. The form lays out its
widgets (:attr:`RevisionFlow.banner`, :attr:`RevisionFlow.box`), captions its Submit button
with :attr:`RevisionFlow.submit_text` and sends the reasons typed.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

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
SUBMIT_TEXT = "Submit and next (Ctrl+Enter)"


class RevisionFlow:
    """Phase banner, Submit caption and the revision box of a blind study."""

    def __init__(self, parent: QWidget) -> None:
        self.phase = "open"  # a blind study's phase: open | blind | sealed | revealed
        self.box = RevisionBox(parent)
        self.box.hide()
        self.banner = QLabel(parent)
        self.banner.setObjectName("banner")
        self.banner.setProperty("kind", "info")
        self.banner.setWordWrap(True)
        self.banner.hide()

    def set_phase(self, phase: str) -> None:
        """Say what ``phase`` means and what Ctrl+Enter does in it."""
        self.phase = phase
        self.banner.setText(PHASE_BANNERS.get(phase, ""))

    def show_banner(self, editable: bool) -> None:
        # A submitted rating is past every phase: no call to act stays on screen.
        phase = self.phase
        self.banner.setVisible(phase in PHASE_BANNERS and (editable or phase == "sealed"))

    def forget(self) -> None:
        """Another run is shown: an ordinary rating until told otherwise."""
        self.phase = "open"
        self.banner.hide()

    @property
    def submit_text(self) -> str:
        """What the Submit button says: what Ctrl+Enter does in this phase."""
        return SUBMIT_TEXTS.get(self.phase, SUBMIT_TEXT)

    @property
    def revealed(self) -> bool:
        """After the reveal: the revision box shows, and revised metrics need a reason."""
        return self.phase == "revealed"

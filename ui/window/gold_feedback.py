"""Rating → Gold reference… (Ctrl+Shift+G): feedback on a gold run, after the final submit.

The controller's study flow asks the store, which answers only once the rater's rating of the run is
submitted (never in the blind phase, never before); a run that is not gold, or a
database without references (a rater's own, joined from a packet), has nothing to show.
After a submit that has a reference behind it, the status bar says the key.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from ui.controller import ReviewController
from ui.rating.gold_dialog import GoldReferenceDialog
from ui.window.menus import WindowMenus
from ui.window.status import WindowStatus

KEY = "Ctrl+Shift+G"  # listed in ui.window.menus.SHORTCUTS (F1)
NOTHING = (
    "Gold reference: nothing to show (only a gold run you have submitted has one; on your own"
    " database it comes with the owner's next packet)."
)


class GoldFeedback:
    """The gold reference dialog and its menu entry, for one main window."""

    def __init__(
        self,
        window: QMainWindow,
        controller: ReviewController,
        status: WindowStatus,
        menus: WindowMenus,
    ) -> None:
        self._window = window
        self._controller = controller
        self._status = status
        self.dialog: GoldReferenceDialog | None = None
        menus.action(menus.rating_menu, "Gold reference…", KEY, self.show_reference)
        controller.rating_submitted.connect(self._submitted)

    def show_reference(self) -> None:
        """Open the reference of the open run, if the rater may see it now."""
        c = self._controller
        opened, feedback = c.current, c.studies.gold_feedback(c.current, c.rating)
        if opened is None or feedback is None:
            self._status.say(NOTHING)
            return
        self.dialog = GoldReferenceDialog(
            self._window, opened.rubric, self._controller.rating, feedback
        )
        self.dialog.open()

    def _submitted(self, _rating: object) -> None:
        c = self._controller
        if c.studies.gold_feedback(c.current, c.rating) is not None:
            self._status.say(f"A gold run: {KEY} shows its reference beside your rating.")

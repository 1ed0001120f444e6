"""Who rates, and their signature: File → Switch rater…, Rating → Sign and export…,
Rating → Signing key… and File → Verify sheet….

The signing dialogs themselves are :class:`ui.sheets.sign_flow.SignFlow`'s; the composition
root hands its actions in as callables (``signer`` and the others, each given the window to
parent its dialogs). This part calls them and keeps the status bar's rater line true:
signing or the key dialog may have created the rater's key.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from reviewer import home
from ui.controller import ReviewController
from ui.rater_dialog import AskRater, ask_rater
from ui.window.status import WindowStatus

#: A window action that opens dialogs parented to the given widget.
WindowAction = Callable[[QWidget], object]


class RaterIdentity:
    """Switching rater, and the signing actions, for one window."""

    def __init__(
        self,
        parent: QWidget,
        controller: ReviewController,
        status: WindowStatus,
        *,
        before_switch: Callable[[], None],
        signer: WindowAction | None = None,
        verifier: WindowAction | None = None,
        key_manager: WindowAction | None = None,
    ) -> None:
        self._parent = parent
        self._controller = controller
        self._status = status
        self._before_switch = before_switch
        self._signer = signer
        self._verifier = verifier
        self._key_manager = key_manager
        #: (parent, names, current) -> the chosen name or None; a dialog, or a test's.
        self.ask_rater: AskRater = ask_rater

    def switch_rater(self) -> None:
        """File → Switch rater…: rate as someone else (names in the database offered)."""
        self._before_switch()  # the last comment belongs to the rater who typed it
        c = self._controller
        name = self.ask_rater(self._parent, c.rater_names(), c.rater)
        if name and name != c.rater and c.switch_rater(name):
            home.remember_rater(c.rater)
            self._status.say(f"Now rating as {c.rater}.")

    def signing_key(self) -> None:
        """Rating → Signing key…: show the rater's key, or create one."""
        if self._key_manager is not None:
            self._key_manager(self._parent)
            self._status.show_rater(self._controller.rater)

    def sign(self) -> None:
        """Ctrl+Shift+S: sign the submitted rating and export its sheet."""
        if self._signer is None:
            self._status.say("Signing is not available.")
            return
        self._signer(self._parent)
        self._status.show_rater(self._controller.rater)  # signing may have created the key

    def verify(self) -> None:
        """Ctrl+Shift+V: the Verify sheet dialog."""
        if self._verifier is not None:
            self._verifier(self._parent)

"""The instant a window is first painted: what waits for it starts then, not sooner.

A window system shows a new window some time after ``show()``, and Qt paints it then; work
started before would keep it blank until that work is done (seen under X: the first screen
painted after the store had opened, a second after it was shown). And work that watches
every event (an application-wide event filter) makes that first paint slower for nothing:
no key reaches a window before it is on the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


def on_first_paint(window: QWidget, then: Callable[[], None]) -> None:
    """Call ``then`` while ``window``'s first paint event is delivered (before it paints),
    once. Only ``window``'s own events are watched, until then."""

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if watched is window and event.type() == QEvent.Type.Paint:
                window.removeEventFilter(self)
                self.deleteLater()
                then()
            return False

    window.installEventFilter(FirstPaint(window))


def after_first_paint(window: QWidget, then: Callable[[], None], *, wait_ms: int = 2000) -> None:
    """Call ``then`` from the event loop once ``window`` is painted on the screen, or after
    ``wait_ms`` if it never is (a minimized window). Not sooner (see the module)."""
    done: list[bool] = []

    def go() -> None:
        if not done:
            done.append(True)
            then()

    on_first_paint(window, lambda: QTimer.singleShot(0, go))  # after this paint is on screen
    QTimer.singleShot(wait_ms, go)

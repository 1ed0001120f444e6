"""The instant a window is first painted: what waits for it starts then, not sooner.

A window system shows a new window some time after ``show()``, and Qt paints it then; work
started before would keep it blank until that work is done (seen under X: the first screen
painted after the store had opened, a second after it was shown). Work that watches every
event (an application-wide event filter) waits too: each object it is shown is made a
Python object, and each class seen for the first time builds its enums (PySide 6.12), some
twenty milliseconds of the first paint for nothing, since no key reaches a window before
it is on the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

_WAITING = "_a320_first_paint"  # the window's one _FirstPaint, while it waits


class _FirstPaint(QObject):
    """What waits for one window's first paint, called in the order it was given."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self.waiting: list[Callable[[], None]] = []
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Paint:
            self._window.removeEventFilter(self)
            setattr(self._window, _WAITING, None)
            waiting, self.waiting = self.waiting, []
            for then in waiting:
                QTimer.singleShot(0, then)  # after this paint is on the screen, in order
        return False


def after_first_paint(window: QWidget, then: Callable[[], None], *, wait_ms: int = 2000) -> None:
    """Call ``then`` from the event loop once ``window`` is painted on the screen, or after
    ``wait_ms`` if it never is (a minimized window); once. Not sooner (see the module).
    Calls waiting for the same paint come in the order they were asked for."""
    done: list[bool] = []

    def go() -> None:
        if not done:
            done.append(True)
            then()

    spy = getattr(window, _WAITING, None)
    if spy is None:
        spy = _FirstPaint(window)
        setattr(window, _WAITING, spy)
    spy.waiting.append(go)
    QTimer.singleShot(wait_ms, go)

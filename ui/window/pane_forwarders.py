"""The panes built after the first paint: the menus' keys for them, and the Tab order.

The menus exist on the first screen; the rating form and the run view come with
:meth:`ui.main_window.MainWindow.build_panes`. These forwarders give the menus their
targets now and reach the panes once they are built (before, a key does nothing here: the
first screen's :class:`~ui.window.early_keys.EarlyKeys` keeps the rating keys for the first
run).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from ui.rating.rubric_form import RubricForm
    from ui.run.run_view import RunView


class BuiltLater(Protocol):
    """What the forwarders read of the window."""

    @property
    def panes_built(self) -> bool: ...

    rubric: RubricForm
    run_view: RunView


class RatingKeysOf:
    """The Rating menu's keys, for ``window``'s rating form once it is built (before, the
    first screen's :class:`~ui.window.early_keys.EarlyKeys` keeps them for the first run)."""

    def __init__(self, window: BuiltLater) -> None:
        self._window = window

    def _form(self) -> RubricForm | None:
        return self._window.rubric if self._window.panes_built else None

    def score_current(self, score: int) -> None:
        if form := self._form():
            form.score_current(score)

    def set_current_outcome(self, outcome: str) -> None:
        if form := self._form():
            form.set_current_outcome(outcome)

    def next_metric(self) -> None:
        if form := self._form():
            form.next_metric()

    def prev_metric(self) -> None:
        if form := self._form():
            form.prev_metric()

    def focus_comment(self) -> None:
        if form := self._form():
            form.focus_comment()

    def request_cite(self) -> None:
        if form := self._form():
            form.request_cite()


class RunStepsOf:
    """The Navigate menu's steps, for ``window``'s run view once it is built."""

    def __init__(self, window: BuiltLater) -> None:
        self._window = window

    def step(self, delta: int) -> None:
        if self._window.panes_built:
            self._window.run_view.step(delta)

    def step_turn(self, delta: int) -> None:
        if self._window.panes_built:
            self._window.run_view.step_turn(delta)


def tab_order_as_built(window: QWidget, panes: Sequence[QWidget]) -> None:
    """Tab goes through ``panes`` in order, then the rest, as in a window built whole:
    panes built later join the focus chain at its end."""

    def pane_of(widget: QWidget) -> int:
        return next(
            (i for i, p in enumerate(panes) if p is widget or p.isAncestorOf(widget)),
            len(panes),
        )

    chain: list[QWidget] = []
    widget = window.nextInFocusChain()
    while widget is not None and widget is not window:
        if widget.focusPolicy() != Qt.FocusPolicy.NoFocus:
            chain.append(widget)
        widget = widget.nextInFocusChain()
    ordered = sorted(chain, key=pane_of)  # (stable: each pane's own order stays)
    for first, second in pairwise(ordered):
        QWidget.setTabOrder(first, second)

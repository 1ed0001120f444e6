"""The ScoreCard in one strip above the trajectory: the scalar, the safety gate and the
vector, always in sight, whatever tab the ground truth shares its place with.

On a 1366×768 laptop the full ScoreCard page is a tab beside the ground truth; the strip
keeps the numbers a rater compares against in view meanwhile (issue: the ScoreCard panel
was once collapsed to nothing and nothing said it was there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from ui.run.scorecard_panel import BAD, GOOD, HIDDEN_NOTE, MUTED, STATUS_NOTES

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from scoring import ScoreCard


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def strip_html(card: ScoreCard) -> str:
    """Scalar, gate and vector of ``card`` as one short rich-text paragraph."""
    if card.scalar is None:
        scalar = "<b>Scalar —</b>"
        note = STATUS_NOTES.get(card.status, "no end state")
        scalar += f" <span style='color:{MUTED}'>({note.split(':')[0]})</span>"
    else:
        scalar = f"<b>Scalar {_num(card.scalar)}</b>"
    if card.safety_dangerous is None:
        gate = ""
    elif card.safety_dangerous:
        gate = f"<span style='color:{BAD}'><b>■&nbsp;gate&nbsp;CLOSED</b></span>"
    else:
        gate = f"<span style='color:{GOOD}'>■&nbsp;gate&nbsp;open</span>"
    passed = {True: "yes", False: "no", None: "—"}[card.all_passed]
    vector = [
        ("coverage", _num(card.coverage)),
        ("order", _num(card.order)),
        ("end_state", _num(card.end_state)),
        ("all_passed", passed),
        ("dangerous", _count(card.safety_dangerous)),
        ("anti", _count(card.safety_anti_procedure)),
        ("extraneous", _count(card.extraneous)),
    ]
    # Non-breaking inside each pair: the strip wraps between pairs, never inside one.
    pairs = " · ".join(f"{name}&nbsp;<b>{value}</b>" for name, value in vector)
    return f"{scalar} &nbsp;{gate}&nbsp; {pairs}"


def _count(value: int | None) -> str:
    return "—" if value is None else str(value)


class ScoreStrip(QLabel):
    """One or two lines: the ScoreCard's scalar, safety gate and vector."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("scoreStrip")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)  # built from numbers and fixed words
        self.setToolTip("The ScoreCard in short; the whole card is on the ScoreCard tab")
        # The strip never sets the pane's minimum width: it wraps between its pairs.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hide()

    def show_card(self, card: ScoreCard | None, *, hidden: bool = False) -> None:
        """Show ``card`` in short; ``hidden`` (blind phase 1) shows only the note."""
        if card is None:
            self.clear()
            self.hide()
            return
        self.setText(HIDDEN_NOTE if hidden else strip_html(card))
        self.show()

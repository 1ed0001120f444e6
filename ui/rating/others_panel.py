"""Other raters' ratings of the open run, shown only once the rater has submitted their own.

The controller asks the store (``may_see_others``, ``visible_ratings``) and hands this panel
what the rater may see; the panel never decides visibility itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from ui.rating.rubric_model import value_text

HIDDEN_TEXT = "Other raters' ratings of this run stay hidden until you submit yours."


def rating_line(rating: Any, metric_ids: Sequence[str], *, judge: bool = False) -> str:
    """``bob (signed): 2 2 N/A 3 …  · cites 3.0, GT:1`` — one rater's rating in the
    rubric's metric order, with the steps it cites; an LLM judge is labelled as a model."""
    values = [value_text(rating.items[m]) if m in rating.items else "—" for m in metric_ids]
    who = (
        f"{rating.rater} (LLM judge, {rating.status})"
        if judge
        else (f"{rating.rater} ({rating.status})")
    )
    line = f"{who}: " + "  ".join(values)
    steps = list(dict.fromkeys(c.step for c in getattr(rating, "citations", ())))
    return line + (f"  · cites {', '.join(steps)}" if steps else "")


class OthersPanel(QLabel):
    """A few plain-text lines: the other raters' ratings, or why they are hidden."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("othersPanel")
        self.setTextFormat(Qt.TextFormat.PlainText)  # rater names are user text
        self.setWordWrap(True)
        self.hide()

    def show_others(
        self,
        *,
        allowed: bool,
        ratings: Sequence[Any],
        metric_ids: Sequence[str],
        team: bool,
        judges: frozenset[str] = frozenset(),
    ) -> None:
        """``allowed``: the rater submitted theirs; ``team``: the run is in a study, where
        saying that ratings are hidden means something."""
        if not allowed:
            self.setText(HIDDEN_TEXT)
            self.setVisible(team)
            return
        if not ratings:
            self.setText("")
            self.hide()
            return
        lines = [rating_line(r, metric_ids, judge=r.rater in judges) for r in ratings]
        self.setText("Other raters:\n" + "\n".join(lines))
        self.show()

"""The editor of one rubric metric: question, outcome, 0–3 scale with anchors, comment.

Split from the rubric form so each file keeps one job: this one shows and edits a single
metric; :mod:`ui.rating.rubric_form` walks through the metrics and talks to the controller.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.rating.rubric_model import REVISION_PROBLEM, SCORE_LABELS, WARNING_COLOUR

COMMENT_PLACEHOLDER = (
    "Required for a score of 0 or 3 and for Not observed: what evidence was missing?"
)
_OUTCOME_BUTTONS = (
    ("applicable", "Applicable (A)"),
    ("not_applicable", "Not applicable (N)"),
    ("not_observed", "Not observed (O)"),
)
_ANCHOR_HINT = "Hover a score or press 0–3 to see what it means for this metric."
_OUTCOME_HINTS = {
    "not_applicable": "Not applicable: this competency does not arise in this run; no score.",
    "not_observed": "Not observed: the run does not show enough to judge it; no score. "
    "Say in the comment what evidence was missing.",
}


class MetricEditor(QFrame):
    """Outcome, score and comment of one metric. Emits clicks; the form owns the state."""

    outcome_clicked = Signal(str)
    score_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._metric: Any = None
        self._item: Any = None
        self._editable = False
        self.title = _label(self, "metricTitle", point_delta=2, bold=True)
        self.position = _label(self, "metricPosition")
        self.position.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.question = _label(self, "metricQuestion", point_delta=1, wrap=True)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.outcomes = QButtonGroup(self)
        outcome_row = QHBoxLayout()
        outcome_row.setSpacing(6)
        for i, (_, text) in enumerate(_OUTCOME_BUTTONS):
            button = _choice_button(self, text)
            self.outcomes.addButton(button, i)
            outcome_row.addWidget(button)
        outcome_row.addStretch(1)
        self.outcomes.idClicked.connect(lambda i: self.outcome_clicked.emit(_OUTCOME_BUTTONS[i][0]))

        self.scores = QButtonGroup(self)
        score_row = QHBoxLayout()
        score_row.setSpacing(6)
        for score, text in SCORE_LABELS.items():
            button = _ScoreButton(self, f"{score}\n{text}")
            button.installEventFilter(self)  # hover shows the anchor
            self.scores.addButton(button, score)
            score_row.addWidget(button)
        score_row.addStretch(1)
        _same_size(self.scores.buttons())
        self.scores.idClicked.connect(self.score_clicked)

        self.anchor = _label(self, "anchorText", wrap=True)
        self.anchor.setTextFormat(Qt.TextFormat.RichText)  # its rubric text is escaped
        # Fixed heights: the panes must not shift as anchors and problems come and go.
        self.anchor.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 2)
        self.anchor.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.comment = QPlainTextEdit(self)
        self.comment.setPlaceholderText(COMMENT_PLACEHOLDER)
        self.comment.setTabChangesFocus(True)
        self.comment.setToolTip("Esc returns to the metric list")
        self.comment.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 14)
        self.problem = _label(self, "metricProblem", wrap=True)
        palette = self.problem.palette()
        palette.setColor(QPalette.ColorRole.WindowText, WARNING_COLOUR)
        self.problem.setPalette(palette)
        policy = self.problem.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # the form must not jump as problems come and go
        self.problem.setSizePolicy(policy)
        self.problem.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.problem.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.position)
        # No captions: the buttons name themselves, which keeps the editor narrow enough
        # for a side panel.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(8)
        layout.addLayout(heading)
        layout.addWidget(self.question)
        layout.addSpacing(2)
        layout.addLayout(outcome_row)
        layout.addLayout(score_row)
        layout.addWidget(self.anchor)
        layout.addWidget(self.comment)
        layout.addWidget(self.problem)

    def show_metric(
        self, metric: Any, item: Any, problem: str | None, *, position, comment: bool
    ) -> None:
        """Push one metric's state into the editors, signals blocked; ``comment=False``
        leaves the comment box alone (the rater is typing in it)."""
        self._metric, self._item = metric, item
        self.title.setText(metric.title if metric else "")
        self.question.setText(metric.question if metric else "")
        self.position.setText(f"Metric {position[0]} of {position[1]}" if metric else "")
        outcome = getattr(item, "outcome", None)
        ids = [o for o, _ in _OUTCOME_BUTTONS]
        _check_only(self.outcomes, ids.index(outcome) if outcome in ids else None)
        _check_only(self.scores, getattr(item, "score", None))
        if comment:
            set_text(self.comment, getattr(item, "comment", "") or "")
        self._show_anchor(getattr(item, "score", None))
        # Read-only ratings are settled: a rater cannot act on a problem there.
        self.problem.setVisible(problem is not None and metric is not None and self._editable)
        self.problem.setText(problem_text(problem, item))

    def set_editable(self, editable: bool) -> None:
        self._editable = editable
        for button in (*self.outcomes.buttons(), *self.scores.buttons()):
            button.setEnabled(editable)
        self.comment.setReadOnly(not editable)
        self.comment.setPlaceholderText(COMMENT_PLACEHOLDER if editable else "No comment.")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Enter:
            # Installed on the score buttons only (any other object would be -1: no anchor).
            button = watched if isinstance(watched, QAbstractButton) else None
            self._show_anchor(self.scores.id(button) if button is not None else -1)
        elif event.type() == QEvent.Type.Leave:
            self._show_anchor(getattr(self._item, "score", None))
        return super().eventFilter(watched, event)

    def _show_anchor(self, score: int | None) -> None:
        if self._metric is None or score is None or score < 0:
            outcome = getattr(self._item, "outcome", None)
            hint = _OUTCOME_HINTS.get(outcome or "", _ANCHOR_HINT) if self._metric else ""
            self.anchor.setText(hint)
            self.anchor.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            return
        text = f"<b>{score} · {SCORE_LABELS[score]}</b> — {escape(self._metric.anchors[score])}"
        self.anchor.setText(text)
        self.anchor.setForegroundRole(QPalette.ColorRole.WindowText)


def problem_text(problem: str | None, item: Any) -> str:
    """What the editor says a metric still needs, with the key that does it."""
    if getattr(item, "outcome", None) is None:
        return "Not rated yet: press 0–3, N or O."
    if problem is not None and "needs evidence" in problem:
        # The rubric's evidence rule (reviewer.rubric.Rubric.evidence_problem).
        return "⚠ Evidence needed — select the step in the timeline or ground truth, press E"
    if problem == REVISION_PROBLEM:
        return "⚠ Revised from your blind rating — press C to give the reason."
    needs_comment = getattr(item, "score", None) is not None or item.outcome == "not_observed"
    if needs_comment and not (getattr(item, "comment", "") or "").strip():
        return f"⚠ Comment needed — press C to write it ({problem})"
    return f"⚠ {problem}"


def _label(parent: QWidget, name: str, *, point_delta: int = 0, bold=False, wrap=False) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() + point_delta)
    font.setBold(bold)
    label.setFont(font)
    label.setWordWrap(wrap)
    # Rubric text comes from a file: plain unless a label opts into markup (the anchor).
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def _choice_button(parent: QWidget, text: str) -> QPushButton:
    button = QPushButton(text, parent)
    button.setCheckable(True)
    button.setAutoDefault(False)
    # Keys rate, so a click must not pull focus away from the metric list or the comment.
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


class _ScoreButton(QPushButton):
    """A checkable button whose text wraps (a QPushButton's own text never does)."""

    def __init__(self, parent: QWidget, text: str) -> None:
        super().__init__(parent)
        self.setCheckable(True)
        self.setAutoDefault(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAccessibleName(text.replace("\n", " "))
        self.caption = QLabel(text, self)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setWordWrap(True)
        self.caption.setForegroundRole(QPalette.ColorRole.ButtonText)
        self.caption.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.caption)


def _same_size(buttons: list) -> None:
    # One width and height for the whole scale: it reads as one scale, not four buttons.
    bold = QFont(buttons[0].font())
    bold.setBold(True)
    metrics = QFontMetrics(bold)
    words = [w for b in buttons for w in b.caption.text().split()]
    # A narrow scale leaves the run view its room on a 1366-px laptop.
    width = max(metrics.horizontalAdvance(w) for w in words) + 16
    inner = width - 12
    height = max(
        metrics.boundingRect(0, 0, inner, 1000, Qt.TextFlag.TextWordWrap, b.caption.text()).height()
        for b in buttons
    )
    for button in buttons:
        button.setFixedSize(width, height + 10)


def _check_only(group: QButtonGroup, button_id: int | None) -> None:
    # An exclusive group cannot uncheck its last button: lift exclusivity for the update.
    group.setExclusive(False)
    for button in group.buttons():
        checked = group.id(button) == button_id
        button.blockSignals(True)
        button.setChecked(checked)
        button.blockSignals(False)
        # The choice stays legible when disabled (read-only) and on dark themes: the
        # palette's own highlight, plus bold so it does not rest on colour alone.
        palette = (button.parentWidget() or button).palette()
        if checked:
            palette.setColor(QPalette.ColorRole.Button, palette.color(QPalette.ColorRole.Highlight))
            highlighted = palette.color(QPalette.ColorRole.HighlightedText)
            palette.setColor(QPalette.ColorRole.ButtonText, highlighted)
        button.setPalette(palette)
        font = button.font()
        font.setBold(checked)
        button.setFont(font)
    group.setExclusive(True)


def set_text(edit: QPlainTextEdit, text: str) -> None:
    """Put ``text`` in ``edit`` without emitting, and only if it differs."""
    # Re-setting identical text would move the cursor of a rater who is typing.
    if edit.toPlainText() != text:
        edit.blockSignals(True)
        edit.setPlainText(text)
        edit.blockSignals(False)

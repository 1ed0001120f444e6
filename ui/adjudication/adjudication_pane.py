"""The adjudication pane: the grid metric × rater, the current metric's detail, and the
decision editor, driven from the keyboard like the rating form.

Keys while the grid has the focus: 0–3 decide a score (Applicable), N / O / A the outcome,
J / K the next / previous metric, C or Enter write the reason, Esc leaves the reason (and
goes on to the next metric still to decide), Ctrl+Enter submits. Widgets emit intents; the
controller saves.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ui.adjudication.grid_model import AdjudicationGridModel, value_text
from ui.rating_keys import DIGITS, ENTER_KEYS, OUTCOME_KEYS, is_held, is_submit

OUTCOME_LABELS = {"applicable": "Applicable", "not_applicable": "Not applicable",
                  "not_observed": "Not observed"}  # fmt: skip
Decision = tuple[str | None, int | None, str]


class AdjudicationPane(QWidget):
    """Decides the disputed metrics of one run. Signals are intents."""

    decision_edited = Signal(str, object, object, str)  # metric_id, outcome, score, reason
    submit_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: Any = None
        self.editable = False
        self.decisions: dict[str, Decision] = {}
        self.model = AdjudicationGridModel(self)

        self.title = QLabel()
        self.title.setObjectName("panelTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.banner = QLabel(wordWrap=True)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setObjectName("adjudicationBanner")
        self.grid = QTableView(self)
        self.grid.setModel(self.model)
        self.grid.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setWordWrap(True)
        self.grid.verticalHeader().hide()
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid.horizontalHeader().setHighlightSections(False)
        self.grid.selectionModel().currentRowChanged.connect(lambda *_: self._refresh_editor())
        self.grid.installEventFilter(self)

        self.detail = QLabel(wordWrap=True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.decision_label = QLabel()
        self.decision_label.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QHBoxLayout()
        self.outcome_buttons: dict[str, QPushButton] = {}
        for outcome, label in OUTCOME_LABELS.items():
            button = _toggle(label)
            button.clicked.connect(lambda _=False, o=outcome: self.set_current_outcome(o))
            self.outcome_buttons[outcome] = button
            buttons.addWidget(button)
        scores = QHBoxLayout()
        self.score_buttons: list[QPushButton] = []
        for score in range(4):
            button = _toggle(str(score))
            button.clicked.connect(lambda _=False, s=score: self.score_current(s))
            self.score_buttons.append(button)
            scores.addWidget(button)
        self.reason = QPlainTextEdit(self)
        self.reason.setPlaceholderText("Reason for the decision (C to write, Esc to leave)")
        self.reason.setTabChangesFocus(True)
        self.reason.setMaximumHeight(self.fontMetrics().height() * 5)
        self.reason.installEventFilter(self)
        self.todo = QLabel(wordWrap=True)
        self.todo.setTextFormat(Qt.TextFormat.PlainText)
        self.submit_button = QPushButton("Submit adjudication (Ctrl+Enter)")
        self.submit_button.clicked.connect(self.request_submit)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        layout.addWidget(self.grid, 3)
        layout.addWidget(self.detail)
        layout.addWidget(self.decision_label)
        layout.addLayout(buttons)
        layout.addLayout(scores)
        layout.addWidget(self.reason)
        layout.addWidget(self.todo)
        layout.addWidget(self.submit_button)

    # ---- what the controller tells ------------------------------------------------------
    def set_view(self, view: Any) -> None:
        """Show an AdjudicationView (``None``: nothing open)."""
        keep = self.current_metric_id()
        self.view = view
        self.editable = bool(view is not None and view.editable)
        items = view.adjudication.items if view is not None and view.adjudication else {}
        self.decisions = {m: (i.outcome, i.score, i.reason) for m, i in items.items()}
        self.model.set_view(view, self.decisions)
        if view is None:
            self.title.setText("Adjudication")
            self.banner.setText("")
        else:
            state = view.adjudication.status if view.adjudication else "not started"
            self.title.setText(f"Adjudication of {view.run_id} by {view.adjudicator} ({state})")
            self.banner.setText(view.refusal or "")
        self.banner.setVisible(bool(self.banner.text()))
        row = self.model.row_of(keep) if keep else None
        if row is None and view is not None:
            row = next((self.model.row_of(m) for m in view.disputed), 0)
        if row is not None and self.model.rowCount():
            self.grid.selectRow(row)
        self._refresh_editor()

    # ---- keyboard intents (the window's actions call these too) ---------------------------
    def current_metric_id(self) -> str | None:
        index = self.grid.currentIndex()
        metric = self.model.metric_at(index.row()) if index.isValid() else None
        return None if metric is None else metric.id

    def score_current(self, score: int) -> None:
        self._decide("applicable", score)

    def set_current_outcome(self, outcome: str) -> None:
        metric_id = self.current_metric_id()
        keep = self.decisions.get(metric_id or "", (None, None, ""))[1]
        self._decide(outcome, keep if outcome == "applicable" else None)

    def next_metric(self, step: int = 1) -> None:
        row = self.grid.currentIndex().row() + step
        if 0 <= row < self.model.rowCount():
            self.grid.selectRow(row)

    def focus_reason(self) -> None:
        if self.editable and self.current_metric_id() in self.decisions:
            self.reason.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_grid(self) -> None:
        self.grid.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def request_submit(self) -> None:
        self.flush()
        self.submit_requested.emit()

    def flush(self) -> None:
        """Send the reason being typed, if it changed."""
        metric_id = self.current_metric_id()
        if metric_id is None or metric_id not in self.decisions or not self.editable:
            return
        outcome, score, reason = self.decisions[metric_id]
        text = self.reason.toPlainText()
        if text != reason:
            self._emit(metric_id, (outcome, score, text))

    def still_to_do(self) -> list[str]:
        """Disputed metrics without a decision, and decisions without a reason."""
        if self.view is None:
            return []
        todo = [m for m in self.view.disputed if m not in self.decisions]
        todo += [f"{m} (reason)" for m, d in self.decisions.items() if not d[2].strip()]
        return todo

    # ---- internals ------------------------------------------------------------------------
    def _decide(self, outcome: str, score: int | None) -> None:
        metric_id = self.current_metric_id()
        if metric_id is None or not self.editable:
            return
        self.flush()
        reason = self.decisions.get(metric_id, (None, None, ""))[2]
        self._emit(metric_id, (outcome, score, reason))
        self._refresh_editor()

    def _emit(self, metric_id: str, decision: Decision) -> None:
        self.decisions[metric_id] = decision
        self.model.set_decision(metric_id, decision)
        self.decision_edited.emit(metric_id, *decision)

    def _refresh_editor(self) -> None:
        metric_id = self.current_metric_id()
        dispute = self.model.dispute(metric_id) if metric_id else None
        lines = []
        for value in dispute.values if dispute else ():
            text = f"{value.rater}: {_long(value.outcome, value.score)}"
            if value.blind_outcome is not None:
                text += f" (blind: {_long(value.blind_outcome, value.blind_score)})"
            if value.reason:
                text += f" — revised because: {value.reason}"
            if value.comment:
                text += f" — “{value.comment}”"
            lines.append(text)
        self.detail.setText("\n".join(lines) or "No rater rated this metric.")
        outcome, score, reason = self.decisions.get(metric_id or "", (None, None, ""))
        status = dispute.status.replace("_", " ") if dispute else ""
        self.decision_label.setText(f"Decision: {value_text(outcome, score)}   [{status}]")
        for name, button in self.outcome_buttons.items():
            button.setChecked(outcome == name)
            button.setEnabled(self.editable)
        for n, button in enumerate(self.score_buttons):
            button.setChecked(outcome == "applicable" and score == n)
            button.setEnabled(self.editable)
        self.reason.blockSignals(True)
        self.reason.setPlainText(reason)
        self.reason.blockSignals(False)
        self.reason.setReadOnly(not self.editable or outcome is None)
        self.todo.setText(self._todo_text())
        self.submit_button.setEnabled(self.editable)

    def _todo_text(self) -> str:
        """What is left to decide; a submitted or signed adjudication says so instead (it
        read "Ready to submit." after its submit)."""
        adjudication = self.view.adjudication if self.view is not None else None
        if not self.editable:
            return f"{adjudication.status.capitalize()}." if adjudication else ""
        todo = self.still_to_do()
        return "Still to do: " + ", ".join(todo) if todo else "Ready to submit."

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.reason:
            if kind == QEvent.Type.FocusOut:
                self.flush()
            elif not isinstance(event, QKeyEvent) or kind != QEvent.Type.KeyPress:
                pass
            elif event.key() == Qt.Key.Key_Escape:
                self.flush()
                self.focus_grid()
                self._next_to_do()
                return True
            elif is_submit(event):
                self.request_submit()
                return True
        elif (
            watched is self.grid
            and isinstance(event, QKeyEvent)
            and kind in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
        ):
            # The grid takes the rating keys itself (also over window shortcuts): here they
            # decide, and Enter opens the reason.
            if not self._is_pane_key(event):
                return super().eventFilter(watched, event)
            event.accept()
            if kind == QEvent.Type.KeyPress and not is_held(event):
                self._pane_key(event)
            return True
        return super().eventFilter(watched, event)

    def _next_to_do(self) -> None:
        if self.view is None:
            return
        current = self.current_metric_id()
        todo = [
            m
            for m in self.view.disputed
            if m not in self.decisions or not self.decisions[m][2].strip()
        ]
        if current in self.decisions and self.decisions[current][2].strip() and todo:
            self.grid.selectRow(self.model.row_of(todo[0]) or 0)

    @staticmethod
    def _is_pane_key(event: QKeyEvent) -> bool:
        if is_submit(event):
            return True
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        return event.key() in DIGITS or event.key() in OUTCOME_KEYS or event.key() in (
            Qt.Key.Key_J, Qt.Key.Key_K, Qt.Key.Key_C, *ENTER_KEYS)  # fmt: skip

    def _pane_key(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        if is_submit(event):
            self.request_submit()
        elif key in DIGITS:
            self.score_current(DIGITS[key])
        elif key in OUTCOME_KEYS:
            self.set_current_outcome(OUTCOME_KEYS[key])
        elif key in (Qt.Key.Key_J, Qt.Key.Key_K):
            self.next_metric(1 if key == Qt.Key.Key_J else -1)
        else:
            self.focus_reason()


def _toggle(text: str) -> QPushButton:
    """A checkable button the keys leave alone (the grid keeps the focus)."""
    button = QPushButton(text)
    button.setCheckable(True)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return button


def _long(outcome: str | None, score: int | None) -> str:
    label = OUTCOME_LABELS.get(outcome or "", "—")
    return label if score is None else f"{label} {score}"

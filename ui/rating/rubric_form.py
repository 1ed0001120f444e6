"""The rubric form: every metric at a glance, and an editor for the current one.

Built for raters who score hundreds of runs from the keyboard: 0–3 score, N / O set the
outcome, J / K move between metrics, E cites the selected step as evidence. The form keeps
a local copy of the items so its checks answer at once, and emits every edit as an intent
(``item_edited``); it never saves.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
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

from reviewer.evidence import Citation
from reviewer.evidence import counts as evidence_counts
from reviewer.rubric import RatingItem
from ui.rating.evidence_chips import EvidenceChips
from ui.rating.metric_editor import MetricEditor, set_text
from ui.rating.others_panel import OthersPanel
from ui.rating.revision_flow import RevisionFlow
from ui.rating.rubric_model import Column, RubricModel
from ui.theme import plain_tooltip

COMMENT_DEBOUNCE_MS = 400
READ_ONLY_NOTE = "Submitted ratings are corrected by superseding them."
_DIGITS = {Qt.Key.Key_0: 0, Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3}
_OUTCOME_KEYS = {
    Qt.Key.Key_A: "applicable",
    Qt.Key.Key_N: "not_applicable",
    Qt.Key.Key_O: "not_observed",
}
_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_TEXT_EVENTS = (QEvent.Type.KeyPress, QEvent.Type.FocusOut)


class RubricForm(RevisionFlow, QWidget):
    """Rates one run against a rubric. Signals are intents; the controller saves."""

    item_edited = Signal(str, object, object, str)  # metric_id, outcome, score, comment
    overall_comment_edited = Signal(str)
    submit_requested = Signal()
    cite_requested = Signal(str)  # metric_id: cite (or uncite) the selected step for it
    evidence_show_requested = Signal(str, int)  # kind, ref: show the cited step
    evidence_note_requested = Signal(str, str, int)  # metric_id, kind, ref
    evidence_remove_requested = Signal(str, str, int)  # metric_id, kind, ref
    reason_edited = Signal(str, str)  # metric_id, why it was revised after the reveal

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = RubricModel(self)
        self._citations: tuple[Citation, ...] = ()
        self._rating: Any = None
        self._editable = False
        self._saved_at: datetime | None = None
        # Comment edits go out after a pause in typing; these say what is still unsent.
        self._pending_comment: str | None = None  # its metric id
        self._pending_overall = False
        self._comment_timer = _single_shot(self, self._flush_comment)
        self._overall_timer = _single_shot(self, self._flush_overall)

        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        for column in (Column.METRIC, Column.OUTCOME, Column.SCORE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # What is left to do matters as much as the comment: they share the spare width.
        header.setSectionResizeMode(Column.COMMENT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(Column.CHECK, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.table.installEventFilter(self)

        self.editor = MetricEditor(self)
        self.editor.outcome_clicked.connect(self._on_outcome_clicked)
        self.editor.score_clicked.connect(lambda score: self._edit("applicable", score))
        self.editor.comment.textChanged.connect(self._on_comment_changed)
        self.editor.comment.installEventFilter(self)
        self.editor.comment.setObjectName("metricComment")
        self.evidence = EvidenceChips(self)
        self.evidence.show_requested.connect(self.evidence_show_requested)
        self.evidence.note_requested.connect(self.evidence_note_requested)
        self.evidence.remove_requested.connect(self.evidence_remove_requested)

        self._init_revision(_single_shot(self, self._flush_reason))
        overall_label = QLabel("Overall comment", self)
        overall_label.setObjectName("fieldLabel")
        self.overall = QPlainTextEdit(self)
        self.overall.setPlaceholderText("Anything about the run as a whole (optional)")
        self.overall.setTabChangesFocus(True)
        self.overall.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        self.overall.textChanged.connect(self._on_overall_changed)
        self.overall.installEventFilter(self)

        # A correction says so above everything, so a rater never mistakes it for a first
        # rating (issue: Ctrl+E once started a correction with no sign of it).
        self.banner = QLabel(self)
        self.banner.setObjectName("banner")
        self.banner.setProperty("kind", "correction")
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.hide()
        self.note = QLabel(READ_ONLY_NOTE, self)
        # The shared stylesheet's info banner (resources/style.qss).
        self.note.setObjectName("banner")
        self.note.setProperty("kind", "info")
        self.note.setWordWrap(True)
        self.status = QLabel(self)
        self.status.setObjectName("ratingStatus")
        self.submit_button = QPushButton("Submit and next (Ctrl+Enter)", self)
        self.submit_button.setAutoDefault(False)
        self.submit_button.clicked.connect(self.request_submit)

        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.submit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.banner)
        layout.addWidget(self.phase_banner)
        layout.addWidget(self.table)
        layout.addWidget(self.editor)
        layout.addWidget(self.evidence)
        layout.addWidget(self.revision)
        layout.addWidget(overall_label)
        layout.addWidget(self.overall)
        layout.addWidget(self.note)
        layout.addLayout(bottom)
        self.others = OthersPanel(self)
        layout.addWidget(self.others)
        layout.addStretch(1)
        self._apply_editable()

    # ---- state in ---------------------------------------------------------------------
    def set_rubric(self, rubric: Any) -> None:
        """Show ``rubric``'s metrics, read-only until :meth:`set_rating`; showing the same
        rubric again (same sha256) changes nothing."""
        current = self.model.rubric()
        if current is not None and getattr(current, "sha256", None) == rubric.sha256:
            return
        self._drop_pending()
        self._rating = None
        self._editable = False
        self.model.set_rating(rubric, {}, False)
        self._fit_table()
        self._select_row(0)
        self._apply_editable()

    def set_rating(self, rating: Any, items: dict[str, Any], editable: bool) -> None:
        """Show one rating (``None``: the run has none yet). Never emits.

        A comment still waiting for its debounce is kept when the same run's rating is
        pushed again (the controller echoing a save), and dropped when another run's is: call
        :meth:`flush` *before* switching runs so it reaches the run it was typed for.
        """
        same_run = rating is not None and _run_of(rating) == _run_of(self._rating)
        if not same_run:
            self._drop_pending()
            self._citations = ()  # the window pushes the new run's with set_citations
            self.model.set_evidence({})
            self._forget_phase()  # the window sets the new run's phase next
        pending, text = self._pending_comment, self.editor.comment.toPlainText()
        current = self.current_metric_id() if same_run else None
        self._rating, self._editable = rating, editable
        self._saved_at = getattr(rating, "updated_at", None)
        self.model.set_rating(self.model.rubric(), items, editable)
        if pending is not None:
            # The local text is newer than the store's: it has not been sent yet.
            self._apply_local(pending, comment=text)
        self._select_row(self._start_row(current))
        if not self._pending_overall:
            set_text(self.overall, getattr(rating, "overall_comment", "") or "")
        self._apply_editable()

    def mark_saved(self, rating: Any) -> None:
        """The controller saved an edit: note the rating (a first edit created it) and its
        time in the status line, leaving the editors and anything pending alone."""
        self._rating = rating
        self._saved_at = getattr(rating, "updated_at", None) or datetime.now().astimezone()
        self._refresh_status()

    def set_citations(self, citations: Any) -> None:
        """Show the current rating's cited steps (chips, the evidence rule). Never emits."""
        self._citations = tuple(citations)
        self.model.set_evidence(dict(evidence_counts(self._citations)))
        self._refresh_editor(comment=False)

    # ---- keyboard API (the window binds these; the form handles them when focused) -----
    def score_current(self, score: int) -> None:
        """Score the current metric; then ask for the comment it needs, or move on."""
        if self._editable and self.current_metric_id() is not None:
            self._edit("applicable", score)
            self._after_key()

    def set_current_outcome(self, outcome: str) -> None:
        """Set the current metric's outcome (N/A and not observed clear the score)."""
        if self._editable and self.current_metric_id() is not None:
            self._on_outcome_clicked(outcome)
            self._after_key()

    def next_metric(self) -> None:
        self._select_row(self.table.currentIndex().row() + 1)

    def prev_metric(self) -> None:
        self._select_row(max(self.table.currentIndex().row() - 1, 0))

    def current_metric_id(self) -> str | None:
        index = self.table.currentIndex()
        return self.model.metric_at(index.row()).id if index.isValid() else None

    def focus_comment(self) -> None:
        """Put the caret in the current metric's comment (C); Esc comes back."""
        metric_id = self.current_metric_id()
        if self.model.is_revised(metric_id) and not self.model.reason(metric_id).strip():
            # What a revised metric needs first is its reason: C asks for it.
            self.focus_reason()
            return
        if metric_id is not None and self._editable:
            self.editor.comment.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def request_cite(self) -> None:
        """E: ask to cite the selected step for the current metric (again: remove it)."""
        metric_id = self.current_metric_id()
        if metric_id is not None:
            self.cite_requested.emit(metric_id)

    def focus_metrics(self) -> None:
        """Give the keys back to the metric list (after a new run, a submit, Esc...)."""
        self.flush()
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def is_typing(self) -> bool:
        """True while a comment box of this form has the keyboard focus."""
        return self.editor.comment.hasFocus() or self.overall.hasFocus()

    def request_submit(self) -> None:
        """Send pending edits, then ask to submit (only when the rating is complete)."""
        self.flush()
        if self.submit_button.isEnabled():
            self.submit_requested.emit()

    def flush(self) -> None:
        """Emit the comment edits still waiting for their debounce."""
        self._flush_comment()
        self._flush_overall()
        self._flush_reason()

    # ---- edits ----------------------------------------------------------------------------
    def _on_outcome_clicked(self, outcome: str) -> None:
        item = self.model.item(self.current_metric_id())
        # Only "applicable" can keep a score; N/A and not observed clear it.
        keep = item.score if item is not None and outcome == "applicable" else None
        self._edit(outcome, keep)

    def _edit(self, outcome: Any, score: Any) -> None:
        metric_id = self.current_metric_id()
        if metric_id is None or not self._editable:
            return
        comment = self.editor.comment.toPlainText()
        # This emission carries the comment too: nothing is left pending.
        self._comment_timer.stop()
        self._pending_comment = None
        self._apply_local(metric_id, outcome=outcome, score=score, comment=comment)
        self.item_edited.emit(metric_id, outcome, score, comment)

    def _on_comment_changed(self) -> None:
        metric_id = self.current_metric_id()
        if metric_id is not None and self._editable:
            self._apply_local(metric_id, comment=self.editor.comment.toPlainText())
            self._pending_comment = metric_id
            self._comment_timer.start()

    def _flush_comment(self) -> None:
        self._comment_timer.stop()
        metric_id, self._pending_comment = self._pending_comment, None
        item = None if metric_id is None else self.model.item(metric_id)
        if item is not None:
            self.item_edited.emit(metric_id, item.outcome, item.score, item.comment)

    def _on_overall_changed(self) -> None:
        if self._editable:
            self._pending_overall = True
            self._overall_timer.start()

    def _flush_overall(self) -> None:
        self._overall_timer.stop()
        if self._pending_overall:
            self._pending_overall = False
            self.overall_comment_edited.emit(self.overall.toPlainText())

    def _drop_pending(self) -> None:
        self._reason_timer.stop()
        self._pending_reason = None
        self._comment_timer.stop()
        self._overall_timer.stop()
        self._pending_comment = None
        self._pending_overall = False

    def _apply_local(self, metric_id: str, **changes: Any) -> None:
        old = self.model.item(metric_id) or RatingItem(metric_id=metric_id)
        self.model.set_item(metric_id, RatingItem(**(old.model_dump() | changes)))
        self._refresh_editor(comment=False)

    def _after_key(self) -> None:
        # One comment model: focus enters a comment box only when the rater presses C
        # (or Enter, or clicks it). A metric that still needs its comment stays current and
        # the editor says "press C": a key pressed as a command never becomes text.
        if self.model.problem_of(self.current_metric_id()) is None:
            self.next_metric()

    # ---- view refresh ---------------------------------------------------------------------
    def _start_row(self, metric_id: str | None) -> int:
        if metric_id is not None:
            return self.model.row_of(metric_id) or 0
        # A newly shown run opens at the first metric that still needs something.
        todo = [m for m, _ in self.model.problems()]
        rows = [self.model.row_of(m) for m in todo]
        return min((r for r in rows if r is not None), default=0)

    def _select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(row, Column.METRIC))

    def _on_current_row(self, _current, _previous) -> None:
        # Leaving a metric sends its comment now, so the edit is never attributed late.
        if self._pending_comment not in (None, self.current_metric_id()):
            self._flush_comment()
        if self._pending_reason not in (None, self.current_metric_id()):
            self._flush_reason()
        self._refresh_editor(comment=True)

    def _fit_table(self) -> None:
        # All metrics at a glance: the table is exactly as tall as its rows.
        rows = self.model.rowCount()
        height = self.table.horizontalHeader().sizeHint().height()
        height += rows * self.table.verticalHeader().defaultSectionSize()
        self.table.setFixedHeight(height + 2 * self.table.frameWidth())

    def _refresh_editor(self, *, comment: bool) -> None:
        metric_id = self.current_metric_id()
        row = self.table.currentIndex().row()
        self.editor.show_metric(
            self.model.metric_at(row) if metric_id else None,
            self.model.item(metric_id) if metric_id else None,
            self.model.problem_of(metric_id) if metric_id else None,
            position=(row + 1, self.model.rowCount()),
            comment=comment,
        )
        item = self.model.item(metric_id) if metric_id else None
        self.evidence.show_metric(
            metric_id, item, self.model.rubric(), self._citations, editable=self._editable
        )
        self.revision.setVisible(self._phase == "revealed" and metric_id is not None)
        if metric_id is not None:
            self.revision.show_metric(
                self.model.blind_item(metric_id),
                self.model.item(metric_id),
                self.model.reason(metric_id),
                revised=self.model.is_revised(metric_id),
                text=comment and self._pending_reason != metric_id,
            )
        self._refresh_submit()

    def _refresh_submit(self) -> None:
        problems = self.model.problems()
        self.submit_button.setEnabled(
            bool(self._editable and not problems and self.model.rowCount())
            or self._phase == "sealed"  # frozen, and Ctrl+Enter reveals
        )
        if self._phase == "sealed":
            tip = "Your blind rating is frozen: show the automatic score and revise."
        elif not self._editable:
            tip = "This rating cannot be edited."
        elif problems:
            rubric = self.model.rubric()
            titles = {m.id: m.title for m in rubric.metrics} if rubric else {}
            lines = [f"• {titles.get(m, m)}: {message}" for m, message in problems]
            tip = "Still to do before submitting:\n" + "\n".join(lines)
        elif self._phase == "blind":
            tip = "Freeze your blind rating for good, then see the automatic score."
        else:
            tip = "Submit this rating and open the next unrated run."
        self.submit_button.setToolTip(plain_tooltip(tip))
        self._refresh_status()

    def _refresh_status(self) -> None:
        status = getattr(self._rating, "status", None)
        if status == "signed":
            text = "Signed: read-only"
        elif status == "submitted":
            text = "Submitted"
        elif status == "draft" and self._saved_at is not None:
            text = f"Draft — saved {self._saved_at.astimezone():%H:%M:%S}"
        elif status == "draft":
            text = "Draft"
        else:
            text = "Not rated yet — your first edit starts a draft"
        todo = {m for m, _ in self.model.problems()}
        if self._editable and todo:
            text += f" · {len(todo)} of {self.model.rowCount()} metrics to do"
        self.status.setText(text)

    def _apply_editable(self) -> None:
        self.editor.set_editable(self._editable)
        self.revision.set_editable(self._editable)
        self.overall.setReadOnly(not self._editable)
        sealed = self._phase == "sealed"  # not read-only for good: the banner says why
        self.note.setVisible(self._rating is not None and not self._editable and not sealed)
        self._fit_table()
        self._refresh_editor(comment=True)

    def changeEvent(self, event: QEvent) -> None:
        # A stylesheet or font applied after construction changes the header's height.
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            QTimer.singleShot(0, self, self._fit_table)  # after the header has re-polished too
        super().changeEvent(event)

    def showEvent(self, event) -> None:
        self._fit_table()
        super().showEvent(event)

    # ---- keys when the form itself has focus ----------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.editor.comment and kind in (
            QEvent.Type.FocusIn,
            QEvent.Type.FocusOut,
        ):
            # The metric row says it is being commented, as the focus frame does the box.
            commenting = kind == QEvent.Type.FocusIn
            self.model.set_commenting(self.current_metric_id() if commenting else None)
        if watched in (self.editor.comment, self.overall, self.revision.reason) and (
            kind in _TEXT_EVENTS
        ):
            if kind == QEvent.Type.FocusOut:
                self.flush()  # e.g. a click on the run queue, before it switches run
            elif event.key() == Qt.Key.Key_Escape:
                self.flush()
                self.focus_metrics()
                # The comment was what this metric still needed: go on to the next, as a
                # score that needs no comment does (a rater going back presses K).
                metric_id = self.current_metric_id()
                if watched is self.editor.comment and self.model.problem_of(metric_id) is None:
                    self.next_metric()
                return True
            elif _is_submit(event):
                self.request_submit()
                return True
        elif watched is self.table and kind == QEvent.Type.KeyPress:
            # The view would take letters and digits for keyboard search; here they rate,
            # and Enter opens the comment.
            if self._rating_key(event):
                return True
            if event.key() in _ENTER_KEYS:
                self.focus_comment()
                return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._rating_key(event):
            super().keyPressEvent(event)

    def _rating_key(self, event: QKeyEvent) -> bool:
        """The window's rating keys, for when no window binds them (the form alone)."""
        if _is_submit(event):
            self.request_submit()
            return True
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = event.key()
        if key in _DIGITS:
            self.score_current(_DIGITS[key])
        elif key in _OUTCOME_KEYS:
            self.set_current_outcome(_OUTCOME_KEYS[key])
        elif key == Qt.Key.Key_J:
            self.next_metric()
        elif key == Qt.Key.Key_K:
            self.prev_metric()
        elif key == Qt.Key.Key_C:
            self.focus_comment()
        elif key == Qt.Key.Key_E:
            self.request_cite()
        else:
            return False
        return True


def _is_submit(event: QKeyEvent) -> bool:
    return bool(
        event.key() in _ENTER_KEYS and event.modifiers() & Qt.KeyboardModifier.ControlModifier
    )


def _single_shot(parent: QObject, slot) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(COMMENT_DEBOUNCE_MS)
    timer.timeout.connect(slot)
    return timer


def _run_of(rating: Any) -> Any:
    return getattr(rating, "run_pk", None)

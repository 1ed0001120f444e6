"""The rubric form: every metric at a glance, and an editor for the current one.

Built for raters who score hundreds of runs from the keyboard: 0–3 score, N / O set the
outcome, J / K move between metrics, E cites the selected step as evidence. The form keeps
a local copy of the items so its checks answer at once, and emits every edit as an intent
(``item_edited``); it never saves. Its parts: the keys when it has the focus
(:mod:`ui.rating.form_keys`), the debounce of typed text (:mod:`ui.rating.pending_edits`),
the Submit button and status line (:mod:`ui.rating.submit_status`) and a blind study's
phase (:mod:`ui.rating.revision_flow`).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ui.rating.evidence_chips import EvidenceChips
from ui.rating.form_keys import FormKeys
from ui.rating.metric_editor import MetricEditor, set_text
from ui.rating.metric_table import MetricTable
from ui.rating.others_panel import OthersPanel
from ui.rating.pending_edits import PendingEdits
from ui.rating.revision_flow import RevisionFlow
from ui.rating.rubric_model import RubricModel
from ui.rating.submit_status import FormState, SubmitStatus

if TYPE_CHECKING:  # the store's types are imported after the first screen, not by it
    from reviewer.evidence import Citation

READ_ONLY_NOTE = "Submitted ratings are corrected by superseding them."


class RubricForm(QWidget):
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
        self.pending = PendingEdits(
            self,
            send_comment=self._send_comment,
            send_overall=lambda: self.overall_comment_edited.emit(self.overall.toPlainText()),
            send_reason=lambda m: self.reason_edited.emit(m, self.model.reason(m)),
        )

        self.table = MetricTable(self.model, self.fontMetrics().height() + 8, self)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)

        self.editor = MetricEditor(self)
        self.editor.outcome_clicked.connect(self._on_outcome_clicked)
        self.editor.score_clicked.connect(lambda score: self._edit("applicable", score))
        self.editor.comment.textChanged.connect(self._on_comment_changed)
        self.editor.comment.setObjectName("metricComment")
        self.evidence = EvidenceChips(self)
        self.evidence.show_requested.connect(self.evidence_show_requested)
        self.evidence.note_requested.connect(self.evidence_note_requested)
        self.evidence.remove_requested.connect(self.evidence_remove_requested)

        self.revision_flow = RevisionFlow(self)
        self.revision = self.revision_flow.box
        self.phase_banner = self.revision_flow.banner
        self.revision.reason.textChanged.connect(self._on_reason_changed)
        overall_label = QLabel("Overall comment", self)
        overall_label.setObjectName("fieldLabel")
        self.overall = QPlainTextEdit(self)
        self.overall.setPlaceholderText("Anything about the run as a whole (optional)")
        self.overall.setTabChangesFocus(True)
        self.overall.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        self.overall.textChanged.connect(self._on_overall_changed)

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
        self.submit_status = SubmitStatus(self, self.model)
        self.status = self.submit_status.label
        self.submit_button = self.submit_status.button
        self.submit_button.clicked.connect(self.request_submit)
        self.keys = FormKeys(
            self,
            self.model,
            table=self.table,
            comment=self.editor.comment,
            texts=(self.editor.comment, self.overall, self.revision.reason),
            parent=self,
        )

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
        self.pending.drop()
        self._rating = None
        self._editable = False
        self.model.set_rating(rubric, {}, False)
        self.table.fit()
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
            self.pending.drop()
            self._citations = ()  # the window pushes the new run's with set_citations
            self.model.set_evidence({})
            # An ordinary rating until the window sets the new run's phase (next).
            self.revision_flow.forget()
            self.model.set_blind({}, {})
            self.submit_button.setText(self.revision_flow.submit_text)
        pending, text = self.pending.comment, self.editor.comment.toPlainText()
        current = self.current_metric_id() if same_run else None
        self._rating, self._editable = rating, editable
        self._saved_at = getattr(rating, "updated_at", None)
        self.model.set_rating(self.model.rubric(), items, editable)
        if pending is not None:
            # The local text is newer than the store's: it has not been sent yet.
            self._apply_local(pending, comment=text)
        self._select_row(self.table.start_row(current))
        if not self.pending.overall:
            set_text(self.overall, getattr(rating, "overall_comment", "") or "")
        self._apply_editable()

    def mark_saved(self, rating: Any) -> None:
        """The controller saved an edit: note the rating (a first edit created it) and its
        time in the status line, leaving the editors and anything pending alone."""
        self._rating = rating
        self._saved_at = getattr(rating, "updated_at", None) or datetime.now().astimezone()
        self.submit_status.refresh_status(self._state())

    def set_citations(self, citations: Any) -> None:
        """Show the current rating's cited steps (chips, the evidence rule). Never emits."""
        from reviewer.evidence import counts as evidence_counts  # (see TYPE_CHECKING above)

        self._citations = tuple(citations)
        self.model.set_evidence(dict(evidence_counts(self._citations)))
        self._refresh_editor(comment=False)

    def current_metric_id(self) -> str | None:
        return self.table.current_metric_id()

    def flush(self) -> None:
        """Emit the comment edits still waiting for their debounce."""
        self.pending.flush()

    # ---- the keyboard's intents (the window binds them; FormKeys too) ---------------------
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

    def _after_key(self) -> None:
        # One comment model: focus enters a comment box only when the rater presses C
        # (or Enter, or clicks it). A metric that still needs its comment stays current and
        # the editor says "press C": a key pressed as a command never becomes text.
        metric_id = self.current_metric_id()
        if metric_id is None or self.model.problem_of(metric_id) is None:
            self.next_metric()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.keys.rating_key(event):
            super().keyPressEvent(event)

    # ---- a blind study's phase ------------------------------------------------------------
    def set_phase(self, phase: str, blind: dict[str, Any], reasons: dict[str, str]) -> None:
        """A blind study's phase for the shown rating, with the blind values and reasons
        once revealed ("open": an ordinary rating). Never emits."""
        self.revision_flow.set_phase(phase)
        pending, text = self.pending.reason, self.revision.reason.toPlainText()
        self.model.set_blind(blind if phase == "revealed" else {}, reasons)
        if pending is not None:
            self.model.set_reason(pending, text)  # not sent yet: newer than the store's
        self.submit_button.setText(self.revision_flow.submit_text)
        self._select_row(self.table.start_row(self.current_metric_id()))
        self._apply_editable()
        self.revision_flow.show_banner(self._editable)

    def focus_reason(self) -> None:
        """Put the caret in the current metric's revision reason (after the reveal)."""
        if self.revision_flow.revealed and self._editable and self.current_metric_id():
            self.revision.reason.show()
            self.revision.reason.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def set_banner(self, text: str | None) -> None:
        """Show ``text`` above the metrics (a correction in progress), or hide it."""
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))

    # ---- typed text, sent after a pause ---------------------------------------------------
    def _on_comment_changed(self) -> None:
        metric_id = self.current_metric_id()
        if metric_id is not None and self._editable:
            self._apply_local(metric_id, comment=self.editor.comment.toPlainText())
            self.pending.comment_typed(metric_id)

    def _send_comment(self, metric_id: str) -> None:
        item = self.model.item(metric_id)
        if item is not None:
            self.item_edited.emit(metric_id, item.outcome, item.score, item.comment)

    def _on_overall_changed(self) -> None:
        if self._editable:
            self.pending.overall_typed()

    def _on_reason_changed(self) -> None:
        metric_id = self.current_metric_id()
        if metric_id is not None and self._editable and self.revision_flow.revealed:
            self.model.set_reason(metric_id, self.revision.reason.toPlainText())
            self.pending.reason_typed(metric_id)
            self._refresh_editor(comment=False)  # the problem line and Submit, at once

    def _state(self) -> FormState:
        status = getattr(self._rating, "status", None)
        return FormState(self._editable, self.revision_flow.phase, status, self._saved_at)

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
        self.pending.forget_comment()
        self._apply_local(metric_id, outcome=outcome, score=score, comment=comment)
        self.item_edited.emit(metric_id, outcome, score, comment)

    def _apply_local(self, metric_id: str, **changes: Any) -> None:
        from reviewer.rubric import RatingItem  # (see TYPE_CHECKING above)

        old = self.model.item(metric_id) or RatingItem(metric_id=metric_id)
        self.model.set_item(metric_id, RatingItem(**(old.model_dump() | changes)))
        self._refresh_editor(comment=False)

    # ---- view refresh ---------------------------------------------------------------------
    def _select_row(self, row: int) -> None:
        self.table.select_row(row)

    def _on_current_row(self, _current, _previous) -> None:
        # Leaving a metric sends its comment now, so the edit is never attributed late.
        if self.pending.comment not in (None, self.current_metric_id()):
            self.pending.flush_comment()
        if self.pending.reason not in (None, self.current_metric_id()):
            self.pending.flush_reason()
        self._refresh_editor(comment=True)

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
        self.revision.setVisible(self.revision_flow.revealed and metric_id is not None)
        if metric_id is not None:
            self.revision.show_metric(
                self.model.blind_item(metric_id),
                self.model.item(metric_id),
                self.model.reason(metric_id),
                revised=self.model.is_revised(metric_id),
                text=comment and self.pending.reason != metric_id,
            )
        self.submit_status.refresh(self._state())

    def _apply_editable(self) -> None:
        self.editor.set_editable(self._editable)
        self.revision.set_editable(self._editable)
        self.overall.setReadOnly(not self._editable)
        sealed = self.revision_flow.phase == "sealed"  # not read-only for good: the banner says why
        self.note.setVisible(self._rating is not None and not self._editable and not sealed)
        self.table.fit()
        self._refresh_editor(comment=True)

    def changeEvent(self, event: QEvent) -> None:
        # A stylesheet or font applied after construction changes the header's height.
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            QTimer.singleShot(0, self, self.table.fit)  # after the header has re-polished too
        super().changeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        self.table.fit()
        super().showEvent(event)


def _run_of(rating: Any) -> Any:
    return getattr(rating, "run_pk", None)

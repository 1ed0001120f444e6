"""The rubric form: every metric at a glance, and an editor for the current one.

Built for raters who score hundreds of runs from the keyboard: 0–3 score, N / O set the
outcome, J / K move between metrics, E cites the selected step as evidence. The form keeps
a local copy of the items so its checks answer at once, and emits every edit as an intent
(``item_edited``); it never saves.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
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
from ui.rating.form_keys import FormKeys
from ui.rating.metric_editor import MetricEditor, set_text
from ui.rating.others_panel import OthersPanel
from ui.rating.pending_edits import PendingEdits, single_shot
from ui.rating.revision_flow import RevisionFlow
from ui.rating.rubric_model import Column, RubricModel
from ui.rating.submit_status import SubmitStatus

READ_ONLY_NOTE = "Submitted ratings are corrected by superseding them."


class RubricForm(FormKeys, PendingEdits, SubmitStatus, RevisionFlow, QWidget):
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
        self._init_pending()

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

        self._init_revision(single_shot(self, self._flush_reason))
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
        # A long status ("Not rated yet … 7 of 7 metrics to do") wraps instead of widening
        # the form past the rating pane, which has no horizontal scroll bar.
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
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

    def current_metric_id(self) -> str | None:
        index = self.table.currentIndex()
        return self.model.metric_at(index.row()).id if index.isValid() else None

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

    def _apply_local(self, metric_id: str, **changes: Any) -> None:
        old = self.model.item(metric_id) or RatingItem(metric_id=metric_id)
        self.model.set_item(metric_id, RatingItem(**(old.model_dump() | changes)))
        self._refresh_editor(comment=False)

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


def _run_of(rating: Any) -> Any:
    return getattr(rating, "run_pk", None)

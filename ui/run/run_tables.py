"""The run view's two tables: the timeline and the ground-truth tree, set up for reading.

Column widths, resize modes and header order are chosen so that the verdict and "This
run" stay in view on a narrow pane; the run view connects their selection.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QTreeView,
)

from ui.run.procedure_model import ProcedureModel
from ui.run.timeline_model import (
    COL_CLASS,
    COL_DETAILS,
    COL_EVENT,
    COL_STEP,
    COL_TIME,
    TimelineModel,
)
from ui.theme import STYLES

ROW_HEIGHT = 22


def make_timeline_view(model: TimelineModel) -> QTableView:
    """The timeline table: fixed row heights and column widths, so 5,000 calls open at once."""
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setWordWrap(False)
    view.setShowGrid(False)
    view.setAlternatingRowColors(False)
    # Fixed row heights and column widths: no per-row measuring, so 5,000 calls open at once.
    vh = view.verticalHeader()
    vh.hide()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(ROW_HEIGHT)
    hh = view.horizontalHeader()
    hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    fit_timeline_columns(view, narrow=False)
    hh.setSectionResizeMode(COL_DETAILS, QHeaderView.ResizeMode.Stretch)
    # Class is shown before Details: on a narrow pane the verdict stays in view and
    # the details are cut instead (they are in full below the timeline).
    hh.moveSection(hh.visualIndex(COL_CLASS), hh.visualIndex(COL_DETAILS))
    return view


def make_procedure_view(model: ProcedureModel) -> QTreeView:
    """The ground-truth tree, with "This run" kept in view beside each action."""
    view = QTreeView()
    view.setModel(model)
    view.setUniformRowHeights(True)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    # The action (control = value) is shown whole: four hyd-blue actions once all read
    # "hyd_epu…". "This run" fits its text and comes second, so it stays in view; the
    # rationale takes the rest, and is in every row's tooltip.
    header = view.header()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    return view


def fit_timeline_columns(view: QTableView, *, narrow: bool) -> None:
    """Step, time, event and class at the width of their texts (a narrow pane gets the
    tight fit), so Details, which stretches, keeps the rest and stays readable."""
    metrics = view.fontMetrics()
    pad = 10 if narrow else 24
    texts = sorted((s.column_text for s in STYLES.values()), key=metrics.horizontalAdvance)
    # Narrow: as wide as all but the longest class ("⚠ anti-proce…" still reads apart).
    classes = metrics.horizontalAdvance(texts[-2] if narrow else texts[-1])
    widths = {
        # The step column leaves room for the evidence marker beside "12.3".
        COL_STEP: metrics.horizontalAdvance("12.3") + pad + 16,
        COL_TIME: metrics.horizontalAdvance("t+ (s)") + pad + 12,  # a bold header
        COL_EVENT: metrics.horizontalAdvance("list_controls") + pad,
        COL_CLASS: classes + 20 + pad,  # its icon, then its words
    }
    for column, width in widths.items():
        view.setColumnWidth(column, width)


class ElidedTitle(QLabel):
    """A one-line title cut in the middle at the pane's edge (the scenario at its start
    and the run id's end both stay), whole in its tooltip. ``text()`` stays whole."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def visible_text(self) -> str:
        """The text as drawn at the label's width."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, width)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            self.palette(),
            self.isEnabled(),
            self.visible_text(),
            self.foregroundRole(),
        )

"""The rubric form's metric list: every metric at a glance, one row each, no scrolling.

A part of :class:`ui.rating.rubric_form.RubricForm`: the view of its :class:`RubricModel`,
as tall as its rows, which says which metric is current and where a run starts.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QWidget

from ui.rating.rubric_model import OUTCOME_LABELS, Column, RubricModel

#: What the Check of every metric not yet rated says (``reviewer.rubric``'s first problem):
#: the shortest to-do, which the column always shows whole (at 1280×720 it read "no outco…").
NO_OUTCOME = "no outcome"


class MetricTable(QTableView):
    """One row per metric, sized to show them all; keys are the form's (FormKeys)."""

    def __init__(self, model: RubricModel, row_height: int, parent: QWidget | None = None):
        super().__init__(parent)
        self._model = model
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(row_height)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(Column.SCORE, QHeaderView.ResizeMode.ResizeToContents)
        # As wide as its widest label from the start: grown to contents, the first "Not
        # applicable" took its width from the comment and the check after they were shared.
        header.setSectionResizeMode(Column.OUTCOME, QHeaderView.ResizeMode.Fixed)
        # The metric's name as wide as it needs, short of leaving the comment and the check
        # less than their titles (:meth:`_share`); a name cut short keeps its tooltip.
        header.setSectionResizeMode(Column.METRIC, QHeaderView.ResizeMode.Fixed)
        # What is left to do matters as much as the comment: they share the spare width.
        header.setSectionResizeMode(Column.COMMENT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(Column.CHECK, QHeaderView.ResizeMode.Stretch)

    def current_metric_id(self) -> str | None:
        index = self.currentIndex()
        return self._model.metric_at(index.row()).id if index.isValid() else None

    def start_row(self, metric_id: str | None) -> int:
        """The row of ``metric_id``; for a newly shown run (None), the first metric that
        still needs something."""
        if metric_id is not None:
            return self._model.row_of(metric_id) or 0
        todo = [m for m, _ in self._model.problems()]
        rows = [self._model.row_of(m) for m in todo]
        return min((r for r in rows if r is not None), default=0)

    def select_row(self, row: int) -> None:
        if 0 <= row < self._model.rowCount():
            self.setCurrentIndex(self._model.index(row, Column.METRIC))

    def fit(self) -> None:
        # All metrics at a glance: the table is exactly as tall as its rows.
        rows = self._model.rowCount()
        self._share()
        height = self.horizontalHeader().sizeHint().height()
        height += rows * self.verticalHeader().defaultSectionSize()
        self.setFixedHeight(height + 2 * self.frameWidth())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._share()

    def _share(self) -> None:
        # The stretched comment and check columns may not shrink below their titles (at
        # 1280×720 "Comment" read "ommen"), nor the check below "no outcome" (it read
        # "no outco…"): the metric's name gives way first.
        header = self.horizontalHeader()
        outcome = max(
            header.sectionSizeFromContents(Column.OUTCOME).width(),
            *(self.cell_width(label) for label in OUTCOME_LABELS.values()),
        )
        header.resizeSection(Column.OUTCOME, outcome)
        titles = max(
            self.cell_width(NO_OUTCOME),
            *(header.sectionSizeFromContents(c).width() for c in (Column.COMMENT, Column.CHECK)),
        )
        wanted = max(
            self.sizeHintForColumn(Column.METRIC),
            header.sectionSizeFromContents(Column.METRIC).width(),
        )
        others = outcome + header.sectionSize(Column.SCORE)
        room = self.viewport().width() - others - 2 * titles
        header.resizeSection(Column.METRIC, max(titles, min(wanted, room)))

    def cell_width(self, text: str) -> int:
        """The width a cell needs to show ``text`` whole, as ``sizeHintForColumn`` counts it:
        the style's text margin each side, and the grid line."""
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self)
        grid = 1 if self.showGrid() else 0
        text_width = math.ceil(QFontMetricsF(self.font()).horizontalAdvance(text))
        return text_width + 2 * (margin + 1) + grid

"""The run view's two tables: the timeline and the ground-truth tree, set up for reading.

Column widths, resize modes and header order are chosen so that the verdict and "This
run" stay in view on a narrow pane; the run view connects their selection.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QTreeView

from ui.run.procedure_model import ProcedureModel
from ui.run.timeline_model import COL_CLASS, COL_DETAILS, TimelineModel

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
    # The step column leaves room for the evidence marker beside "12.3".
    for column, width in enumerate((62, 52, 90, 300, 150)):
        view.setColumnWidth(column, width)
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
    # "This run" is what a rater reads: it fits its text and comes second, so it stays
    # in view; the action's name is cut at 150 px (in full in the tooltip) and the
    # rationale takes the rest, and is in every row's tooltip.
    header = view.header()
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    view.setColumnWidth(0, 150)
    return view

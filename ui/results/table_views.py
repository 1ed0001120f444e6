"""The Agreement and Validity views: the command's tables, in the window.

Tables of runs open a run on double-click (``run_requested``); everything else is read.
"""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer.results.data import ResultsData
from ui.results.agreement_models import (
    INTERVAL_COLUMN,
    MetricAlphaModel,
    PairMatrixModel,
    RaterModel,
    RunSpread,
    SpreadModel,
)
from ui.results.alpha_delegate import AlphaBarDelegate
from ui.results.rows_model import RowRole, RowsModel, RunRole, SortRole
from ui.results.side_by_side import SideBySideModel, may_see
from ui.results.validity_models import (
    DisagreementModel,
    RankingModel,
    RankRow,
    ValidityMetricModel,
)

WIDEST = 50  # runs listed in "widest disagreement"


def _table(model, *, sortable: bool = True) -> QTableView:
    view = QTableView()
    if sortable:
        proxy = QSortFilterProxyModel(view)
        proxy.setSourceModel(model)
        proxy.setSortRole(SortRole)
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the report's order until asked
    else:
        view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.verticalHeader().hide()
    return view


def _section(title: str, view: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(2, 2, 2, 2)
    layout.addWidget(QLabel(f"<b>{title}</b>"))
    layout.addWidget(view, 1)
    return box


class _RunTables(QWidget):
    """Shared by both views: double-click on a row of a run table opens the run."""

    run_requested = Signal(int)

    def _openable(self, view: QTableView) -> None:
        view.doubleClicked.connect(self._open)

    def _open(self, index) -> None:
        run = index.data(RunRole)
        if run is not None:
            self.run_requested.emit(int(run))


class AgreementView(_RunTables):
    """Alpha per metric (interval as a bar), raters, the pair matrix, the widest gaps."""

    def __init__(self, parent: QWidget | None = None, *, viewer: str | None = None) -> None:
        super().__init__(parent)
        self.viewer = viewer  # the rater at the window: the blind rule is theirs
        self._data: ResultsData | None = None
        self.metrics = MetricAlphaModel(self)
        self.raters = RaterModel(self)
        self.pairs = PairMatrixModel(self)
        self.spread = SpreadModel(self)
        self.metric_view = _table(self.metrics)
        self.metric_view.setItemDelegateForColumn(INTERVAL_COLUMN, AlphaBarDelegate(self))
        self.spread_view = _table(self.spread)
        self._openable(self.spread_view)
        self.spread_view.selectionModel().currentRowChanged.connect(self._show_ratings)
        self.side_by_side = SideBySideModel(self)
        side = QTableView()
        side.setModel(self.side_by_side)
        side.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.side_note = QLabel("Select a run to see every rater's rating side by side.")
        self.side_note.setWordWrap(True)
        self.side_note.setTextFormat(Qt.TextFormat.PlainText)  # it names the run (file text)
        side_box = QWidget()
        side_layout = QVBoxLayout(side_box)
        side_layout.setContentsMargins(2, 2, 2, 2)
        side_layout.addWidget(self.side_note)
        side_layout.addWidget(side, 1)
        self.empty = QLabel("No submitted ratings yet: agreement needs two raters on a run.")
        split = QSplitter()
        split.setOrientation(split.orientation().Vertical)
        split.addWidget(
            _section("Alpha per metric (bar: 95% interval; lines 0.667, 0.8)", self.metric_view)
        )
        middle = QSplitter()
        middle.addWidget(_section("Raters", _table(self.raters)))
        middle.addWidget(
            _section("Pairs: exact agreement (runs both rated)", _table(self.pairs, sortable=False))
        )
        split.addWidget(middle)
        bottom = QSplitter()
        bottom.addWidget(
            _section("Runs with the widest disagreement (double-click opens)", self.spread_view)
        )
        bottom.addWidget(side_box)
        split.addWidget(bottom)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(split, 1)

    def set_data(self, data: ResultsData) -> None:
        """Show the agreement of ``data``."""
        self._data = data
        self.side_by_side.set_run([], [])
        report = data.agreement
        self.empty.setVisible(report is None)
        self.metrics.set_rows(report.metrics if report else [])
        self.raters.set_rows(report.raters if report else [])
        raters = [r.rater for r in report.raters] if report else []
        self.pairs.set_pairs(raters, report.pairs if report else [])
        runs = {str(r.run_pk): r for r in data.runs}
        rows = [
            RunSpread(run.run_pk, run.run_id, run.scenario_id, run.model, n, gap)
            for key, (n, gap) in data.rater_spread.items()
            if (run := runs.get(key)) is not None
        ]
        rows.sort(key=lambda s: (-s.widest, -s.raters, s.run_pk))
        self.spread.set_rows(rows[:WIDEST])

    def _show_ratings(self, current, _previous=None) -> None:
        run = current.data(RunRole) if current.isValid() else None
        if run is None or self._data is None:
            self.side_by_side.set_run([], [])
            return
        key = str(run)
        records = self._data.records_of(key)
        if not may_see(self.viewer, records):
            self.side_by_side.set_run([], [])
            self.side_note.setText(
                "Rate this run yourself (submit) to see the other raters' ratings: "
                "until then they could sway yours."
            )
            return
        self.side_by_side.set_run(self._data.metrics, records)
        row = current.data(RowRole)
        self.side_note.setText(f"Every rater's rating of run {row.run_id or run}, side by side:")


class ValidityView(_RunTables):
    """Rho per metric, the models ranked both ways, the runs where they differ most."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.metrics = ValidityMetricModel(self)
        self.rankings = RankingModel(self)
        self.disagreements = DisagreementModel(self)
        self.disagreement_view = _table(self.disagreements)
        self._openable(self.disagreement_view)
        self.empty = QLabel("No submitted ratings yet.")
        split = QSplitter()
        split.setOrientation(split.orientation().Vertical)
        split.addWidget(_section("Consensus against the scorer (Spearman)", _table(self.metrics)))
        split.addWidget(_section("Models per scenario, humans vs scorer", _table(self.rankings)))
        split.addWidget(
            _section(
                "Runs where humans and scorer differ most (double-click opens)",
                self.disagreement_view,
            )
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(split, 1)

    def set_data(self, data: ResultsData) -> None:
        """Show the validity of ``data``."""
        report = data.validity
        self.empty.setVisible(report is None)
        self.metrics.set_rows(report.metrics if report else [])
        ranks = [
            RankRow(
                s.scenario_id,
                m.model,
                m.runs,
                m.human,
                m.scorer,
                m.human_rank,
                m.scorer_rank,
                s.kendall_tau,
            )
            for s in (report.scenarios if report else [])
            for m in s.models
        ]
        self.rankings.set_rows(ranks)
        self.disagreements.set_rows(report.disagreements if report else [])


__all__ = ["AgreementView", "RowsModel", "ValidityView"]

"""Table models of the Agreement view: metrics, raters, the pair matrix, the widest gaps."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from reviewer.agreement.report import MetricAgreement, PairAgreement, RaterAgreement
from ui.results.rows_model import Col, RowsModel, fmt, pct

INTERVAL_COLUMN = 2  # drawn by the alpha bar delegate


class MetricAlphaModel(RowsModel):
    """One row per metric: alpha, its interval (drawn as a bar), runs, pair shares."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("metric", lambda m: m.metric_id),
        Col("alpha", lambda m: m.alpha_ordinal, tip="ordinal Krippendorff's alpha"),
        Col(
            "95% interval",
            lambda m: m.ci_low,
            lambda _v: "",
            "bootstrap interval; lines at 0.667 and 0.8",
        ),
        Col("interval α", lambda m: m.alpha_interval),
        Col("outcome α", lambda m: m.alpha_outcome, tip="nominal alpha over A / N/A / N/O"),
        Col("runs", lambda m: m.units, tip="runs with at least two scores"),
        Col("exact", lambda m: m.exact_agreement, pct),
        Col("within one", lambda m: m.within_one, pct),
        Col("note", lambda m: m.note or ""),
    )

    def metric(self, row: int) -> MetricAgreement:
        """The metric of a row."""
        return self._rows[row]


class RaterModel(RowsModel):
    """One row per rater: volume, N/A and N/O habits, alpha with and without them."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("rater", lambda r: r.rater),
        Col("runs rated", lambda r: r.n_ratings),
        Col("N/A", lambda r: r.not_applicable_rate, pct),
        Col("N/O", lambda r: r.not_observed_rate, pct),
        Col("α with", lambda r: r.alpha_with, tip="pooled ordinal alpha, everyone"),
        Col("α without", lambda r: r.alpha_without, tip="pooled ordinal alpha, this rater out"),
    )

    def rater(self, row: int) -> RaterAgreement:
        """The rater of a row."""
        return self._rows[row]


class RunSpread(NamedTuple):
    """A run several raters rated, and the widest gap between their scores on a metric."""

    run_pk: int
    run_id: str | None
    scenario_id: str | None
    model: str | None
    raters: int
    widest: float


class SpreadModel(RowsModel):
    """The runs with the widest disagreement between raters (double-click opens one)."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("run", lambda s: s.run_id or str(s.run_pk)),
        Col("scenario", lambda s: s.scenario_id or "—"),
        Col("model", lambda s: s.model or "—"),
        Col("raters", lambda s: s.raters),
        Col("widest gap", lambda s: s.widest, lambda v: f"{v:.0f}", "max − min score, any metric"),
    )

    def run_of(self, row: Any) -> int | None:
        return row.run_pk


class PairMatrixModel(QAbstractTableModel):
    """Raters × raters: the share of equal scores on the runs both rated."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._raters: list[str] = []
        self._pairs: dict[frozenset[str], PairAgreement] = {}

    def set_pairs(self, raters: list[str], pairs: list[PairAgreement]) -> None:
        """Replace the matrix."""
        self.beginResetModel()
        self._raters = list(raters)
        self._pairs = {frozenset((p.rater_a, p.rater_b)): p for p in pairs}
        self.endResetModel()

    def pair(self, row: int, column: int) -> PairAgreement | None:
        """The pair of a cell (``None`` on the diagonal)."""
        if row == column:
            return None
        return self._pairs.get(frozenset((self._raters[row], self._raters[column])))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._raters)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._raters)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        pair = self.pair(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            if pair is None:
                return "—"
            return f"{pct(pair.exact_agreement)} ({pair.runs_shared})"
        if role == Qt.ItemDataRole.ToolTipRole and pair is not None:
            return (
                f"{pair.rater_a} and {pair.rater_b}: {pair.runs_shared} runs both rated, "
                f"{pair.score_pairs} score pairs, exact agreement {fmt(pair.exact_agreement)}"
            )
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self._raters):
            return self._raters[section]
        return None

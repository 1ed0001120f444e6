"""Table models of the Raters tab: one per data shape (issue 30).

- :class:`RaterLineModel`: one row per rater (pooled bias, the two drift slopes, marks);
- :class:`BiasMatrixModel`: raters × metrics, each cell a bias with its interval;
- :class:`AccuracyModel`: one row per rater and metric against the reference.

A marked rater or cell is written out ("biased", "drifting", a ``*``), tinted, and its
tooltip says why in words: never colour alone.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from reviewer.quality.summary import ALL, AccuracyLine, BiasCell, RaterLine
from reviewer.results.raters_page import bias_cell
from ui.results.rows_model import Col, RowRole, RowsModel, SortRole

#: A light vermillion (the charts' marked colour, faded so that text stays readable).
MARKED = QColor("#F6D5C3")


def _n(value: float | None, digits: int = 2) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:+.{digits}f}"


def _ci(low: float, high: float, digits: int = 2) -> str:
    return "—" if not math.isfinite(low) else f"[{low:+.{digits}f}, {high:+.{digits}f}]"


def _share(value: float, low: float, high: float) -> str:
    if not math.isfinite(value):
        return "—"
    return f"{value:.0%}" + (f" [{low:.0%}, {high:.0%}]" if math.isfinite(low) else "")


def _day(value: float | None) -> str:
    """A day slope: "n/a" when not estimated (ratings spanning under a day in every study:
    :data:`reviewer.quality.drift.MIN_DAY_SPAN`)."""
    return "n/a" if value is None or not math.isfinite(value) else _n(value, 3)


def _day_ci(low: float, high: float) -> str:
    return "n/a" if not math.isfinite(low) else _ci(low, high, 3)


def _sortable(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else value


def why_marked(line: RaterLine) -> str:
    """The tooltip of a rater's row: what is marked and why, in words."""
    parts = []
    b = line.bias
    if b is not None:
        way = "higher" if b.bias > 0 else "lower"
        verdict = (f"marked biased: scores {way} than the panel's consensus of the same "
                   f"runs, and the 95% interval excludes 0" if b.flagged
                   else "not marked: the 95% interval includes 0")  # fmt: skip
        parts.append(f"Pooled bias {_n(b.bias)} {_ci(b.low, b.high)} over {b.n_runs} runs: "
                     f"{verdict}.")  # fmt: skip
    else:
        parts.append("No run shared with another rater: no bias.")
    if line.biased_metrics:
        parts.append("Metrics whose interval excludes 0: " + ", ".join(line.biased_metrics)
                     + " (with many metrics, some do so by chance).")  # fmt: skip
    if line.drifting:
        parts.append(
            f"Marked drifting: the difference changes by {_n(line.per_position, 3)} per queue "
            f"position {_ci(line.position_low, line.position_high, 3)} and "
            f"{_day(line.per_day)} per day {_day_ci(line.day_low, line.day_high)}; "
            "an interval excludes 0."
        )
    return f"{line.rater}: " + " ".join(parts)


def _marks(line: RaterLine) -> str:
    return ", ".join([*(["biased"] if line.biased else []),
                      *(["drifting"] if line.drifting else [])]) or "—"  # fmt: skip


class RaterLineModel(RowsModel):
    """One row per rater; a marked rater's row is tinted and its tooltip says why."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("rater", lambda r: r.rater),
        Col("runs", lambda r: r.n_runs, tip="runs the rater scored with at least one other"),
        Col(
            "marked",
            _marks,
            tip="biased: the pooled bias interval excludes 0; drifting: a "
            "drift slope's interval excludes 0",
        ),
        Col(
            "bias (all)",
            lambda r: _sortable(r.bias.bias if r.bias else None),
            _n,
            "rater − the panel's consensus (centred on the median rater), all metrics pooled",
        ),
        Col("95% interval", lambda r: _ci(r.bias.low, r.bias.high) if r.bias else "—", str),
        Col(
            "drift / run",
            lambda r: _sortable(r.per_position),
            lambda v: _n(v, 3),
            "slope of that difference on queue position (within a study)",
        ),
        Col("95% interval", lambda r: _ci(r.position_low, r.position_high, 3), str),
        Col(
            "drift / day",
            lambda r: _sortable(r.per_day),
            _day,
            "slope on days since the rater's first submit (within a study); n/a when the "
            "ratings span under a day",
        ),
        Col("95% interval", lambda r: _day_ci(r.day_low, r.day_high), str),
    )

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if index.isValid() and 0 <= index.row() < len(self._rows):
            line: RaterLine = self._rows[index.row()]
            if role == Qt.ItemDataRole.ToolTipRole:
                return why_marked(line)
            if role == Qt.ItemDataRole.BackgroundRole and (line.biased or line.drifting):
                return QBrush(MARKED)
        return super().data(index, role)


class BiasMatrixModel(QAbstractTableModel):
    """Raters × metrics (then ``all``): bias ± half its 95% interval, ``*`` when it excludes 0."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._raters: list[str] = []
        self._metrics: list[str] = []
        self._cells: dict[tuple[str, str], BiasCell] = {}

    def set_cells(self, raters: list[str], metrics: list[str], cells: list[BiasCell]) -> None:
        """Replace the matrix."""
        self.beginResetModel()
        self._raters = list(raters)
        self._metrics = [*metrics, ALL]
        self._cells = {(c.rater, c.metric): c for c in cells}
        self.endResetModel()

    def cell(self, row: int, column: int) -> BiasCell | None:
        """The bias of a cell (``None`` where the rater has no run shared on that metric)."""
        return self._cells.get((self._raters[row], self._metrics[column]))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._raters)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._metrics)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._raters):
            return None
        c = self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return "—" if c is None else bias_cell(c.bias, c.low, c.high, c.flagged)
        if c is None:
            return None
        if role in (SortRole, RowRole):
            return c.bias if role == SortRole else c
        if role == Qt.ItemDataRole.ToolTipRole:
            verdict = "excludes 0" if c.flagged else "includes 0"
            return (f"{c.rater}, {c.metric}: bias {_n(c.bias)} {_ci(c.low, c.high)} over "
                    f"{c.n_runs} runs; the 95% interval {verdict}")  # fmt: skip
        if role == Qt.ItemDataRole.BackgroundRole and c.flagged:
            return QBrush(MARKED)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        names = self._metrics if orientation == Qt.Orientation.Horizontal else self._raters
        return names[section] if 0 <= section < len(names) else None


class AccuracyModel(RowsModel):
    """One row per rater and metric (``all`` last): agreement with the reference."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("rater", lambda a: a.rater),
        Col("metric", lambda a: a.metric),
        Col("items", lambda a: a.n, tip="(run, metric) items both scored"),
        Col(
            "exact",
            lambda a: _sortable(a.exact),
            tip="share of equal scores, 95% Wilson",
            show=lambda _v: "",
        ),
        Col("within one", lambda a: _sortable(a.within_one), show=lambda _v: ""),
        Col(
            "signed",
            lambda a: _sortable(a.signed),
            tip="mean (rater − reference), 95% t",
            show=lambda _v: "",
        ),
        Col(
            "weighted κ",
            lambda a: _sortable(a.kappa),
            tip="Cohen's quadratic weighted kappa, 95% bootstrap interval",
            show=lambda _v: "",
        ),
    )

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (role == Qt.ItemDataRole.DisplayRole and index.isValid()
                and 0 <= index.row() < len(self._rows) and index.column() >= 3):  # fmt: skip
            a: AccuracyLine = self._rows[index.row()]
            if index.column() == 3:
                return _share(a.exact, a.exact_low, a.exact_high)
            if index.column() == 4:
                return _share(a.within_one, a.within_one_low, a.within_one_high)
            if index.column() == 5:
                return f"{_n(a.signed)} {_ci(a.signed_low, a.signed_high)}"
            return f"{_n(a.kappa)} {_ci(a.kappa_low, a.kappa_high)}"
        return super().data(index, role)

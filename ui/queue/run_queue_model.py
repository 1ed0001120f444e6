"""The run queue: one table row per stored run (the proxy that filters it is in
:mod:`ui.queue.run_queue_filter`).

Built for a 10,000-run queue: ``data()`` reads the row object on demand (no per-cell items),
``run_pk → row`` is a dict, and the rated count is kept up to date rather than recounted.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QFont

from reviewer.listing.rows import RunValues
from ui.theme import plain_tooltip

RunRowRole: Final = Qt.ItemDataRole.UserRole + 1
"""Returns the row (a ``RunValues``), for delegates and the panel."""
SortRole: Final = Qt.ItemDataRole.UserRole + 2
"""Returns a raw, sortable value (float, str, int) or None; None always sorts last."""
ShortTextRole: Final = Qt.ItemDataRole.UserRole + 3
"""A cell's short form ("Subm."), drawn when its whole text does not fit the column."""
AcceptRole: Final = Qt.ItemDataRole.UserRole + 4
""""1" when the filter proxy keeps the row (:meth:`RunQueueModel.accepts`), else "0"."""

# A run under correction is rated: its submitted or signed rating stands until the
# correction is submitted. It is also still to do, like every unfinished draft.
RATED_STATES: Final = frozenset({"submitted", "signed", "correcting"})
TODO_STATES: Final = frozenset({"unrated", "draft", "blind_submitted", "revealed", "correcting"})
# What a draft goes on being once it is past a plain draft (see update_rating_state).
_DRAFT_STAGES: Final = frozenset({"blind_submitted", "revealed", "correcting"})

STATUS_LABELS: Final = {
    "scored": "Scored",
    "provider_error": "Provider error",
    "invalid": "Invalid",
    "incomplete": "Incomplete",
    "harness_error": "Harness error",
    "unreadable": "Unreadable",
}
RATING_LABELS: Final = {
    "unrated": "Unrated",
    "draft": "Draft",
    "blind_submitted": "Blind submitted",
    "revealed": "Revealed",
    "correcting": "Correcting",
    "submitted": "Submitted",
    "signed": "Signed",
}
#: What a narrow column shows instead of a word that does not fit (whole in the tooltip).
SHORT_LABELS: Final = {
    "Provider error": "Prov. err.",
    "Harness error": "Harn. err.",
    "Incomplete": "Incompl.",
    "Unreadable": "Unread.",
    "Blind submitted": "Blind subm.",
    "Revealed": "Reveal.",
    "Correcting": "Corr.",
    "Submitted": "Subm.",
}
#: States every queue offers in its Rating filter; the others only when a run is in them.
BASE_RATING_STATES: Final = ("unrated", "draft", "submitted", "signed")
HIDDEN_TIP: Final = "Hidden until you submit your blind rating of this run"
IN_TIP: Final = "{n} of the {k} ratings this study wants for the run are in"
UNSAFE_COLOUR = QColor("#c62828")
# Draft is the state a rater must come back to, so it gets the one non-palette colour.
_DRAFT_COLOUR = QColor("#b26a00")


class Column(IntEnum):
    SCENARIO = 0
    MODEL = 1
    RUN = 2
    STATUS = 3
    SCORE = 4
    SAFETY = 5
    RATING = 6
    IN = 7  # within a study: how many of its k ratings are in


HEADERS: Final = ("Scenario", "Model", "Run", "Status", "Score", "Safety", "Rating", "In")
# The row's attribute behind each column: the facet a filter or a sort reads.
_ATTRS: Final = (
    "scenario_id",
    "model",
    "run_id",
    "status",
    "scalar",
    "unsafe",
    "rating_state",
    "ratings_in",
)
_RATING_ORDER: Final = {
    state: i
    for i, state in enumerate(
        ("unrated", "draft", "blind_submitted", "revealed", "correcting", "submitted", "signed")
    )
}


#: A row of the first screen not read yet (:meth:`RunQueueModel.set_first_rows`): shown
#: blank, it matches no filter, sorts last and is never a run to open.
PENDING: Final = RunValues(
    run_pk=-1, run_id=None, path="", version=0, superseded_by_version=False,
    scenario_id=None, model=None, status="", reason=None, scalar=None, coverage=None,
    end_state=None, unsafe=None, rating_state="",
)  # fmt: skip


def short_run_id(run_id: str) -> str:
    """The benchmark's ``YYYYMMDDTHHMMSSZ-xxxxxx`` run id, shortened for a narrow column."""
    stamp, _, suffix = run_id.partition("-")
    if len(stamp) == 16 and stamp[8] == "T" and suffix:
        return f"{stamp[4:6]}-{stamp[6:8]} {stamp[9:11]}:{stamp[11:13]} {suffix}"
    return run_id


def _display(row: Any, column: int) -> str:
    if column == Column.SCORE:
        return "" if row.scalar is None else f"{row.scalar:.2f}"
    if column == Column.SAFETY:
        return "UNSAFE" if row.unsafe else ""
    if column == Column.STATUS:
        return STATUS_LABELS.get(row.status, row.status)
    if column == Column.RATING:
        return RATING_LABELS.get(row.rating_state, row.rating_state)
    if column == Column.IN:
        return "" if row.per_run is None else f"{row.ratings_in or 0}/{row.per_run}"
    if column == Column.RUN:
        # "20260724T080000Z-4b5760" → "07-24 08:00 4b5760": the date, time and suffix are
        # what tell runs apart; the full id is in the tooltip and the filter matches it.
        return short_run_id(row.run_id)
    value = getattr(row, _ATTRS[column])
    return "—" if value is None else str(value)


class RunQueueModel(QAbstractTableModel):
    """The stored runs as a flat table; the row itself is reachable through RunRowRole."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []
        self._index: dict[int, int] = {}
        self._rated = 0
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)
        self._hidden: frozenset[int] = frozenset()  # runs whose scorer is hidden (blind)
        #: Whether the filter keeps a row (its AcceptRole); the filter proxy sets it.
        self.accepts: Callable[[Any], bool] = lambda _row: True

    # ---- Qt model API -------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role not in _ANSWERED or not index.isValid():
            return None  # asked for every cell painted: decoration, check state, background…
        row = self._rows[index.row()]
        if role == AcceptRole:
            return "1" if self.accepts(row) else "0"
        if row is PENDING:
            return None  # a row of the first screen not read yet: blank
        column = index.column()
        hidden = column in (Column.SCORE, Column.SAFETY) and row.run_pk in self._hidden
        if hidden:
            # Blind phase 1: the cell says it is hidden, and nothing else (the controller
            # blanked the values too, so no sort or filter can reveal them either).
            return _hidden_cell(column, role)
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(row, column)
        if role == RunRowRole:
            return row
        if role == ShortTextRole and column in (Column.STATUS, Column.RATING):
            return SHORT_LABELS.get(_display(row, column))
        if role == SortRole:
            return self.sort_value(index.row(), column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == Column.SAFETY and row.unsafe:
                return UNSAFE_COLOUR
            if column == Column.RATING and row.rating_state in TODO_STATES - {"unrated"}:
                return _DRAFT_COLOUR
        elif role == Qt.ItemDataRole.FontRole and column == Column.SAFETY and row.unsafe:
            font = QFont()
            font.setBold(True)
            return font
        elif role == Qt.ItemDataRole.TextAlignmentRole and column == Column.SCORE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole and section == Column.SCORE:
                return "The scorer's scalar (0–1), blank when the run has none"
        return None

    # ---- Our API ------------------------------------------------------------------------
    def set_rows(self, rows: Sequence[Any]) -> None:
        """Replace every row (a reset: views and proxies rebuild once)."""
        self.beginResetModel()
        self._rows = list(rows)
        self._index = {row.run_pk: i for i, row in enumerate(self._rows)}
        self._rated = sum(1 for row in self._rows if row.rating_state in RATED_STATES)
        column, order = self._sort
        if 0 <= column < len(HEADERS):
            new_order = self._sorted_rows(column, order)
            self._rows = [self._rows[i] for i in new_order]
            self._index = {row.run_pk: i for i, row in enumerate(self._rows)}
        self.endResetModel()
        # The rows live as long as the window: move them (and everything older) out of the
        # collector's sight. Otherwise every full collection walks 10,000s of rows, and one
        # that lands while a run is scored on a pool thread doubles or triples that time.
        # Frozen objects are still freed by reference counting when the rows are replaced.
        gc.freeze()

    def set_first_rows(self, rows: Sequence[Any], *, total: int, rated: int) -> None:
        """Show the head of a list of ``total`` rows, ``rated`` of them rated, before the
        rest is read (the first screen: :func:`ui.app.first_screen`). The rows below are
        blank (:data:`PENDING`) until :meth:`set_rows` brings the whole list, right after
        the first paint: the scroll bar and the counts are already those of the whole."""
        self.beginResetModel()
        self._rows = [*rows, *[PENDING] * max(total - len(rows), 0)]
        self._index = {row.run_pk: i for i, row in enumerate(rows)}
        self._rated = rated
        self.endResetModel()

    def holds(self, rows: Sequence[Any]) -> bool:
        """True when the model shows exactly ``rows``, in this order (a cheap test: the
        same row objects compare by identity)."""
        return len(rows) == len(self._rows) and bool(rows) and list(rows) == self._rows

    def set_scorer_hidden(self, run_pks) -> None:
        """Runs whose Score and Safety cells say "hidden" (the rater's blind phase)."""
        hidden = frozenset(run_pks)
        if hidden != self._hidden:
            self._hidden = hidden
            if self._rows:
                top, bottom = (
                    self.index(0, Column.SCORE),
                    self.index(self.rowCount() - 1, Column.SAFETY),
                )
                self.dataChanged.emit(top, bottom)

    def update_rating_state(self, run_pk: int, state: str) -> None:
        """Change one run's rating state; only its Rating cell is reported as changed."""
        i = self._index.get(run_pk)
        if i is None:
            return
        old = self._rows[i]
        if state == "draft" and (
            old.rating_state in RATED_STATES or old.rating_state in _DRAFT_STAGES
        ):
            # The window reports a saved rating by its status, and every stage between a
            # plain draft and a submit has status "draft". A draft of a run that had a
            # submitted or signed rating is its correction; one of a run already past the
            # blind submit is still revealed (or sealed) until the final submit.
            state = "correcting" if old.rating_state in RATED_STATES else old.rating_state
        if old.rating_state == state:
            return
        self._rated += (state in RATED_STATES) - (old.rating_state in RATED_STATES)
        # A row is a tuple: a copy with the new state replaces it.
        self._rows[i] = old.with_rating_state(state)
        cell = self.index(i, Column.RATING)
        self.dataChanged.emit(cell, cell)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order rows by ``column``'s SortRole value; None last in either order. Stable, and
        kept by :meth:`set_rows`; ``column`` -1 keeps the current order."""
        self._sort = (column, order)
        if not 0 <= column < len(HEADERS) or not self._rows:
            return
        self.layoutAboutToBeChanged.emit()
        new_order = self._sorted_rows(column, order)
        new_row_of = {old: new for new, old in enumerate(new_order)}
        self._rows = [self._rows[old] for old in new_order]
        self._index = {row.run_pk: i for i, row in enumerate(self._rows)}
        # Views hold persistent indexes (current row, selection): move them with their rows.
        before = self.persistentIndexList()
        after = [self.index(new_row_of[p.row()], p.column()) for p in before]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def _sorted_rows(self, column: int, order: Qt.SortOrder) -> list[int]:
        keys = [self.sort_value(i, column) for i in range(len(self._rows))]
        present = [i for i, key in enumerate(keys) if key is not None]
        missing = [i for i, key in enumerate(keys) if key is None]
        casefold = bool(present) and isinstance(keys[present[0]], str)
        present.sort(
            key=(lambda i: keys[i].casefold()) if casefold else keys.__getitem__,
            reverse=order == Qt.SortOrder.DescendingOrder,
        )
        return present + missing

    def display_texts(self, column: int, rows: int) -> set[str | None]:
        """What ``column`` displays in the first ``rows`` rows (their DisplayRole, as
        :meth:`data` says it), for measuring the columns without a call per cell."""
        hidden = self._hidden if column in (Column.SCORE, Column.SAFETY) else frozenset()
        texts: set[str | None] = set()
        for row in self._rows[:rows]:
            if row is PENDING:
                texts.add(None)
            elif row.run_pk in hidden:
                texts.add(_hidden_cell(column, Qt.ItemDataRole.DisplayRole))
            else:
                texts.add(_display(row, column))
        return texts

    def row_of(self, run_pk: int) -> int | None:
        return self._index.get(run_pk)

    def run_at(self, row: int) -> Any:
        return self._rows[row]

    def rows(self) -> list[Any]:
        return list(self._rows)

    def rated_count(self) -> int:
        """Runs with a live submitted or signed rating (one under correction included)."""
        return self._rated

    def sort_value(self, row: int, column: int) -> Any:
        """The raw value a sort compares; None for "no value" (sorted last by the proxy)."""
        run = self._rows[row]
        if run is PENDING:
            return None
        if column == Column.RATING:
            return _RATING_ORDER.get(run.rating_state, len(_RATING_ORDER))
        if column == Column.SAFETY:
            return None if run.unsafe is None else int(run.unsafe)
        return getattr(run, _ATTRS[column])

    @staticmethod
    def _tooltip(row: Any, column: int) -> str | None:
        # Every text here comes from a trajectory file: plain_tooltip shows it literally.
        if column == Column.SAFETY and row.unsafe:
            return unsafe_tip()
        if column == Column.RUN:
            return plain_tooltip(f"{row.run_id}\n{row.path}" if row.path else row.run_id)
        if column == Column.STATUS and row.reason:
            return plain_tooltip(f"{_display(row, column)}: {row.reason}")
        if column in (Column.STATUS, Column.RATING):
            return _display(row, column)  # whole, where the cell shows a short form
        if column == Column.IN and row.per_run is not None:
            return IN_TIP.format(n=row.ratings_in or 0, k=row.per_run)
        if column in (Column.SCENARIO, Column.MODEL):
            # Narrow columns are cut: the whole run in one tooltip (and Status/Model may be
            # hidden on a small screen, see QueueColumns.layout_columns).
            status = STATUS_LABELS.get(row.status, row.status)
            return plain_tooltip(f"{row.scenario_id}\n{row.model or '—'}\n{row.run_id}\n{status}")
        return None


def unsafe_tip() -> str:
    """The tooltip of an UNSAFE cell: the scorer's own definition (imported on the first
    hover: the first screen imports no scorer)."""
    from scoring.scorecard import UNSAFE_MEANING

    return UNSAFE_MEANING


#: The roles :meth:`RunQueueModel.data` answers (the hidden cell's among them).
_ANSWERED: Final = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.TextAlignmentRole,
        RunRowRole,
        SortRole,
        ShortTextRole,
        AcceptRole,
    }
)


def _hidden_cell(column: int, role: int) -> Any:
    if role == Qt.ItemDataRole.DisplayRole:
        return "—" if column == Column.SCORE else ""
    if role == Qt.ItemDataRole.ToolTipRole:
        return HIDDEN_TIP
    if role == Qt.ItemDataRole.TextAlignmentRole and column == Column.SCORE:
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return None

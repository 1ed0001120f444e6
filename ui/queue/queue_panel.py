"""The queue panel: filter bar, run table and "N of M rated", for working through runs.

It only emits intents (``run_selected``); the controller decides what selecting a run loads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ui.queue.queue_columns import MIN_ELASTIC, ElidingDelegate, QueueColumns
from ui.queue.run_queue_filter import ANY, RunQueueFilter
from ui.queue.run_queue_model import (
    BASE_RATING_STATES,
    RATED_STATES,
    RATING_LABELS,
    STATUS_LABELS,
    TODO_STATES,
    Column,
    RunQueueModel,
    RunRowRole,
)
from ui.queue.study_bar import StudyBar

# (facet, "any" caption, label of a value); None values are shown as "—".
_FACETS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("scenario_id", "All scenarios", str),
    ("model", "All models", str),
    ("status", "All statuses", lambda v: STATUS_LABELS.get(v, v)),
    ("rating_state", "All ratings", lambda v: RATING_LABELS.get(v, v)),
)
_RATING_ORDER = list(RATING_LABELS)


class QueuePanel(QWidget):
    """Run queue with facet filters; emits ``run_selected(run_pk)`` when the current row
    changes."""

    run_selected = Signal(int)
    #: Enter or Esc in the filter: the rater is done filtering (the window moves focus on).
    filter_finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = RunQueueModel(self)
        self.proxy = RunQueueFilter(self)
        self.proxy.setSourceModel(self.model)
        self._facet_values: dict[str, list[Any]] = {facet: [ANY] for facet, _, _ in _FACETS}
        self._last_emitted: int | None = None  # the run the rater opened
        self._quiet = False

        self.combos: dict[str, QComboBox] = {}
        # Two by two: four side by side would set the whole window's minimum width.
        bar = QGridLayout()
        bar.setSpacing(6)
        for n, (facet, caption, _) in enumerate(_FACETS):
            combo = QComboBox(self)
            combo.addItem(caption)
            # Share the row evenly instead of growing with the longest scenario id.
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
            combo.setToolTip(f"Show only runs with this {facet.replace('_', ' ')}")
            combo.currentIndexChanged.connect(lambda i, f=facet: self._on_facet(f, i))
            self.combos[facet] = combo
            bar.addWidget(combo, n // 2, n % 2)
        # The text filter is the one used most (Ctrl+F): it gets a full-width row.
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter runs… (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._on_text)
        self.filter_edit.returnPressed.connect(self._on_filter_return)
        self.filter_edit.installEventFilter(self)  # Esc also leaves the filter

        self.view = QTableView(self)
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # source order until asked
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().hide()
        # Fixed row height: the view never measures 10,000 rows.
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.view.horizontalHeader()
        header.setHighlightSections(False)
        header.setMinimumSectionSize(MIN_ELASTIC)
        # Left-aligned: a cut header keeps its first letters ("Scena…", never "cenari").
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)  # a header's default: cut dead
        # Each column is cut where it loses least: see ui.queue.queue_columns.
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setItemDelegate(ElidingDelegate(self.view))
        #: Measured once, shared out to fit the panel (a drag by the rater ends that).
        self.columns = QueueColumns(self.view, self.model)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_row)

        self.progress = QLabel(self)
        self.progress.setObjectName("queueProgress")
        # Runs whose raters disagree and no adjudication resolved yet (issue 15).
        self._needs_adjudication: frozenset[int] = frozenset()
        self.adjudication_filter = QCheckBox("Needs adjudication", self)
        self.adjudication_filter.setToolTip(
            "Show only runs with a metric the raters disagree on and nobody adjudicated yet"
        )
        self.adjudication_filter.toggled.connect(self._apply_adjudication_filter)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        # The study selector tops the queue: it decides which runs the rest filters.
        self.studies = StudyBar(self)
        layout.addWidget(self.studies)
        layout.addWidget(self.filter_edit)
        layout.addLayout(bar)
        layout.addWidget(self.adjudication_filter)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.progress)
        self._update_progress()

    # ---- API for the window and controller -----------------------------------------------
    def natural_width(self) -> int:
        """The width at which every column shows its text whole (the window's first split)."""
        return self.columns.natural_width()

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show ``rows``; the open run stays selected if it is still there. The very rows
        shown already change nothing (the first screen's, once the store agrees)."""
        if self.model.holds(rows):
            return
        with self._keeping_open_run():
            self.model.set_rows(rows)
            # "k ratings in" means something only within a study.
            in_study = any(r.per_run for r in rows)
            if self.view.isColumnHidden(Column.IN) == in_study:
                self.view.setColumnHidden(Column.IN, not in_study)
                self.columns.layout_columns()  # the others make room, or take it back
            if rows and not self.columns.measured:
                self.columns.fit_columns()
            self._refill_combos()

    def set_first_rows(self, rows: Sequence[Any], *, total: int, states: dict[str, int]) -> None:
        """The first screen: the head of a ``total``-row list, and its rows per rating
        state (``states``), before the whole is read (:meth:`set_rows` follows). Measured
        on the head as the whole list would be (:data:`~ui.queue.queue_columns.SAMPLE`);
        the filters are filled from the whole list."""
        rated = sum(n for state, n in states.items() if state in RATED_STATES)
        with self._keeping_open_run():
            self.model.set_first_rows(rows, total=total, rated=rated)
            if not self.view.isColumnHidden(Column.IN):
                self.view.setColumnHidden(Column.IN, True)  # no study yet (as set_rows)
                self.columns.layout_columns()
            if rows and not self.columns.measured:
                self.columns.fit_columns()

    def set_needs_adjudication(self, run_pks: set[int] | frozenset[int]) -> None:
        """The runs the "Needs adjudication" filter keeps (the window tells, after changes)."""
        self._needs_adjudication = frozenset(run_pks)
        self.adjudication_filter.setText(f"Needs adjudication ({len(self._needs_adjudication)})")
        self._apply_adjudication_filter(self.adjudication_filter.isChecked())

    def _apply_adjudication_filter(self, on: bool) -> None:
        with self._keeping_open_run():
            self.proxy.set_only(self._needs_adjudication if on else None)

    def set_scorer_hidden(self, run_pks) -> None:
        """Runs whose Score and Safety the rater may not see yet (blind phase 1)."""
        self.model.set_scorer_hidden(run_pks)

    def update_rating_state(self, run_pk: int, state: str) -> None:
        # Under a rating-state filter the open run's row can vanish now (its first score
        # makes it a draft); Qt would make a neighbour current, and open it.
        with self._keeping_open_run():
            self.model.update_rating_state(run_pk, state)

    def current_run_pk(self) -> int | None:
        run = self.view.currentIndex().data(RunRowRole)  # None: no row, or one not read yet
        return None if run is None else run.run_pk

    def select_run(self, run_pk: int) -> bool:
        """Make ``run_pk`` current (scrolled into view); False when a filter hides it."""
        source_row = self.model.row_of(run_pk)
        if source_row is None:
            return False
        index = self.proxy.mapFromSource(self.model.index(source_row, 0))
        if not index.isValid():
            return False
        self.view.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.view.scrollTo(index)
        return True

    def focus_filter(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    def next_run(
        self, predicate: Callable[[Any], bool] | None = None, *, step: int = 1
    ) -> int | None:
        """Select the next shown run (``step=-1``: the previous one), in view order and
        wrapping, that ``predicate`` accepts; returns its run_pk, or None when none does."""
        count = self.proxy.rowCount()
        if count == 0:
            return None
        current = self.view.currentIndex()
        direction = 1 if step >= 0 else -1
        start = current.row() if current.isValid() else (-1 if direction > 0 else count)
        for distance in range(1, count + 1):
            row = (start + direction * distance) % count
            run = self.proxy.index(row, 0).data(RunRowRole)
            if run is None:
                continue  # the first screen's rows not read yet
            if predicate is None or predicate(run):
                if run.run_pk != self.current_run_pk():
                    self.select_run(run.run_pk)
                return run.run_pk
        return None

    def select_next_unrated(self) -> int | None:
        """Select the next shown run whose rating is unrated or draft (wrapping)."""
        return self.next_run(lambda run: run.rating_state in TODO_STATES)

    def show_only(self, facets: dict[str, Any]) -> None:
        """Filter to the runs with these facet values (the other facets and the text filter
        cleared): what a click on the results dashboard asks for."""
        with self._keeping_open_run():
            self.filter_edit.blockSignals(True)
            self.filter_edit.clear()
            self.filter_edit.blockSignals(False)
            self.proxy.set_text("")
            for facet, _caption, _label in _FACETS:
                values = self._facet_values[facet]
                wanted = facets.get(facet, ANY)
                index = values.index(wanted) if wanted in values else 0
                combo = self.combos[facet]
                combo.blockSignals(True)  # one filter change, not one per combo
                combo.setCurrentIndex(index)
                combo.blockSignals(False)
                self.proxy.set_facet(facet, values[index])

    # ---- internals ----------------------------------------------------------------------
    def _refill_combos(self) -> None:
        rows = self.model.rows()
        for facet, caption, label in _FACETS:
            combo = self.combos[facet]
            keep = self.proxy.facet(facet)
            values = set(map(attrgetter(facet), rows))  # 50,000 rows: in C
            if facet == "rating_state":
                # Offer the usual states, in workflow order, so "Unrated" is there before any
                # exists; a blind or correction stage only when a run is in it.
                ordered = [
                    s for s in _RATING_ORDER if s in BASE_RATING_STATES or s in values
                ] + sorted(values - set(_RATING_ORDER))
            else:
                ordered = sorted(values, key=lambda v: (v is None, str(v).casefold()))
            self._facet_values[facet] = [ANY, *ordered]
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(caption)
            for value in ordered:
                combo.addItem("—" if value is None else label(value))
            index = self._facet_values[facet].index(keep) if keep in ordered else 0
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
            self.proxy.set_facet(facet, self._facet_values[facet][index])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.filter_edit
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            self.filter_finished.emit()
            return True
        return super().eventFilter(watched, event)

    def _on_facet(self, facet: str, index: int) -> None:
        if 0 <= index < len(self._facet_values[facet]):
            with self._keeping_open_run():
                self.proxy.set_facet(facet, self._facet_values[facet][index])

    def _on_filter_return(self) -> None:
        """Enter in the filter: back to the metrics, on a run the filter shows. Typing never
        switches runs, but the next keys rate: when the filter hides the open run, they
        would rate a run the rater filtered away, so the first shown run still to do (or
        else the first shown) opens. Esc goes back without switching."""
        hidden = self.current_run_pk() is None and self.proxy.rowCount()
        if hidden and self.select_next_unrated() is None:
            self.next_run()
        self.filter_finished.emit()

    def _on_text(self, text: str) -> None:
        with self._keeping_open_run():
            self.proxy.set_text(text)

    @contextmanager
    def _keeping_open_run(self):
        """Filtering or refreshing never opens another run: when the open run's row goes,
        Qt moves the current index to a neighbour, which is not the rater's choice."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False
        if self._last_emitted is None or not self.select_run(self._last_emitted):
            self.view.selectionModel().clear()  # the open run is hidden: no row is current
        self._update_progress()

    def _update_progress(self) -> None:
        total = self.model.rowCount()
        text = f"{self.model.rated_count()} of {total} rated"
        shown = self.proxy.rowCount()
        if shown != total:
            text += f" — {shown} shown"
        self.progress.setText(text)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        run = current.data(RunRowRole) if current.isValid() else None
        run_pk = None if run is None else run.run_pk
        if self._quiet:
            return
        if run_pk is not None and run_pk != self._last_emitted:
            self._last_emitted = run_pk
            self.run_selected.emit(run_pk)

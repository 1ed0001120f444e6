"""The first screen's queue (the head of a big list, then the whole) and the filter proxy
that asks Python nothing while it does not filter: each held to a plain computation over
the whole list."""

from __future__ import annotations

import pytest
from fakes import make_rows
from PySide6.QtCore import Qt

from ui.queue.queue_panel import QueuePanel
from ui.queue.run_queue_filter import ANY
from ui.queue.run_queue_model import RATED_STATES, TODO_STATES, Column, RunRowRole

N, HEAD = 1200, 200  # the whole list, and the head the first screen reads


@pytest.fixture
def rows():
    return make_rows(N, seed=11)


def _panel(qtbot) -> QueuePanel:
    panel = QueuePanel()
    qtbot.addWidget(panel)
    panel.resize(420, 600)
    return panel


def _states(rows) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.rating_state] = counts.get(row.rating_state, 0) + 1
    return counts


def _shown(panel: QueuePanel) -> list:
    proxy = panel.proxy
    return [proxy.index(r, 0).data(RunRowRole) for r in range(proxy.rowCount())]


def _cells(panel: QueuePanel, rows: int) -> list[list]:
    model = panel.model
    return [[model.index(r, c).data() for c in Column] for r in range(rows)]


def test_the_head_shows_as_the_whole_would(qtbot, rows):
    head_panel, whole_panel = _panel(qtbot), _panel(qtbot)
    head_panel.set_first_rows(rows[:HEAD], total=N, states=_states(rows))
    whole_panel.set_rows(rows)
    # The same length (the scroll bar), the same "k of n rated", the same cells on screen,
    # the same column widths (measured on the same first rows).
    assert head_panel.model.rowCount() == head_panel.proxy.rowCount() == N
    rated = sum(1 for row in rows if row.rating_state in RATED_STATES)
    assert head_panel.model.rated_count() == whole_panel.model.rated_count() == rated
    assert head_panel.progress.text() == whole_panel.progress.text() == f"{rated} of {N} rated"
    assert _cells(head_panel, HEAD) == _cells(whole_panel, HEAD)
    widths = [head_panel.view.columnWidth(c) for c in Column]
    assert widths == [whole_panel.view.columnWidth(c) for c in Column]
    assert [head_panel.view.isColumnHidden(c) for c in Column] == [
        whole_panel.view.isColumnHidden(c) for c in Column
    ]
    # Below the head: blank rows, never a run to open.
    assert _cells(head_panel, N)[HEAD:] == [[None] * len(Column)] * (N - HEAD)


def test_the_head_is_safe_to_use_until_the_whole_arrives(qtbot, rows):
    panel = _panel(qtbot)
    panel.set_first_rows(rows[:HEAD], total=N, states=_states(rows))
    opened: list[int] = []
    panel.run_selected.connect(opened.append)
    # The next run to rate is found among the rows read; a blank row is never opened.
    first_todo = next(r.run_pk for r in rows if r.rating_state in TODO_STATES)
    assert panel.select_next_unrated() == first_todo and opened == [first_todo]
    panel.view.setCurrentIndex(panel.proxy.index(N - 1, 0))  # End: a blank row
    assert panel.current_run_pk() is None and opened == [first_todo]
    # A sort or a filter meanwhile works on what is read; blank rows go last or away.
    panel.model.sort(Column.SCORE, Qt.SortOrder.DescendingOrder)
    assert all(run is None for run in _shown(panel)[HEAD:])
    panel.combos["status"].setCurrentIndex(0)
    panel.filter_edit.setText("run-0001")
    assert all(run is not None for run in _shown(panel))
    panel.filter_edit.setText("")
    # The whole list replaces the head; the sort asked for meanwhile holds on all of it.
    panel.set_rows(rows)
    shown = _shown(panel)
    expected = sorted(
        (r for r in rows if r.scalar is not None), key=lambda r: r.scalar, reverse=True
    ) + [r for r in rows if r.scalar is None]
    assert [r.run_pk for r in shown] == [r.run_pk for r in expected]
    rated = sum(1 for row in rows if row.rating_state in RATED_STATES)
    assert panel.progress.text() == f"{rated} of {N} rated"


def test_the_filter_keeps_what_a_plain_filter_keeps(qtbot, rows):
    # The proxy asks Python nothing while it does not filter (an empty pattern), and asks
    # the model's AcceptRole while it does: both held to a plain list comprehension.
    panel = _panel(qtbot)
    panel.set_rows(rows)
    proxy = panel.proxy
    assert [r.run_pk for r in _shown(panel)] == [r.run_pk for r in rows]
    cases = [
        ({"status": "scored"}, "", None),
        ({"model": "gpt-4.1", "rating_state": "unrated"}, "", None),
        ({}, "RUN-000", None),
        ({"scenario_id": "hyd-blue-elec-pump-fault"}, "gemini", None),
        ({}, "", frozenset(r.run_pk for r in rows[::7])),
        ({"status": "invalid"}, "run-00", frozenset(r.run_pk for r in rows[::3])),
        ({}, "", None),  # every filter off again: every row, in order
    ]
    for facets, text, only in cases:
        for facet in proxy.FACETS:
            proxy.set_facet(facet, facets.get(facet, ANY))
        proxy.set_text(text)
        proxy.set_only(only)
        needle = text.strip().casefold()
        expected = [
            r.run_pk
            for r in rows
            if all(getattr(r, f) == v for f, v in facets.items())
            and (only is None or r.run_pk in only)
            and needle in f"{r.run_id or ''}\n{r.model or ''}\n{r.scenario_id or ''}".casefold()
        ]
        assert [r.run_pk for r in _shown(panel)] == expected, (facets, text)
        assert proxy.is_filtering() == bool(facets or text or only is not None)


def test_the_texts_measured_are_the_cells_shown(rows):
    # The columns are measured on display_texts (no call per cell): the same texts as
    # each cell's DisplayRole, blind (hidden) cells and blank first-screen rows included.
    from ui.queue.run_queue_model import RunQueueModel

    model = RunQueueModel()
    model.set_scorer_hidden({r.run_pk for r in rows[:HEAD:3]})
    model.set_first_rows(rows[:HEAD], total=N, rated=0)
    for limit in (0, 5, HEAD, HEAD + 10):
        for column in Column:
            cells = {model.index(r, column).data() for r in range(limit)}
            assert model.display_texts(column, limit) == cells, (column, limit)

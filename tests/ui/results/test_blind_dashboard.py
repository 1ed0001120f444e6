"""The results dashboard in the blind phase (issue 23): the runs still in the rater's blind
phase are left out of every tab, and every tab says so; nothing the scorer decided about
them (scalar, unsafe marker, dangerous counts) and no rating of them can be seen or clicked.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from studyhelpers import make_study

from reviewer.studies.visibility import still_blind
from ui.app import App


@pytest.fixture
def rated_app(demo_app: App, tmp_path: Path) -> App:
    """The demo window with twelve scored runs rated by Ana and Ben (scores from coverage)."""
    store = demo_app.store
    metrics = store.rubric().metric_ids
    runs = [r for r in store.list_runs() if r.status == "scored"][:12]
    for rater in ("Ana", "Ben"):
        path = tmp_path / f"{rater}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
            for run in runs:
                for m in metrics:
                    w.writerow((run.run_id, m, "applicable", 1, "seen", "GT:1"))
        store.import_ratings(path, rater=rater)
    return demo_app


def _open_dashboard(qtbot, app: App):
    window = app.window
    with qtbot.waitSignal(window.dashboard.results_loader.loaded, timeout=30000):
        window.dashboard.show_results()
    results = window.dashboard.results_window
    qtbot.waitUntil(lambda: results.data is not None)
    return results


def _texts(model: QAbstractItemModel) -> list[str]:
    """Every cell's text, tooltip included, of a table model."""
    out = []
    for row in range(model.rowCount(QModelIndex())):
        for col in range(model.columnCount(QModelIndex())):
            index = model.index(row, col)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = index.data(role)
                if value is not None:
                    out.append(str(value))
    return out


def test_every_dashboard_tab_in_the_blind_phase_shows_nothing_of_a_blind_run(
    qtbot, rated_app: App
) -> None:
    store = rated_app.store
    make_study(rated_app)  # blind, the APU runs, tester and bob: tester is in phase 1
    blind = still_blind(store, "tester")
    assert blind  # the test can fail: there are blind runs, some of them rated by Ana and Ben
    blind_ids = {store.get_run(pk).run_id for pk in blind}
    rated = {r.run_pk for r in store.latest_decisions()}
    assert blind & rated
    results = _open_dashboard(qtbot, rated_app)
    data = results.data
    assert {r.run_pk for r in data.runs}.isdisjoint(blind)
    assert {r.run_id for r in data.runs}.isdisjoint(blind_ids)
    assert {r.run_key for r in data.records}.isdisjoint({str(pk) for pk in blind})
    assert data.meta.n_left_out == len(blind) and data.meta.left_out_note
    for i in range(results.tabs.count()):
        results.tabs.setCurrentIndex(i)
        tab = results.tabs.widget(i)
        qtbot.waitUntil(tab.isVisible)
        assert results.left_out.isVisible()  # said above every tab
        assert "still in tester's blind phase" in results.left_out.text()
        canvas = results.canvases.get(next((k for k, c in results.canvases.items() if c is tab),
                                           ""))  # fmt: skip
        if canvas is not None:
            canvas.redraw()
            clickable = {pk for _artist, runs in canvas.links.points for pk in runs}
            assert clickable.isdisjoint(blind)  # the unsafe marker cannot open a blind run
        for model in tab.findChildren(QAbstractItemModel):
            for text in _texts(model):
                assert not any(run_id in text for run_id in blind_ids), text


def test_the_dashboard_shows_every_run_outside_a_blind_phase(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    assert results.data.meta.n_left_out == 0 and not results.left_out.isVisible()
    assert len(results.data.runs) == results.data.meta.n_runs > 0

"""The dashboard's Raters tab (issue 30): the planted biased rater is marked (tinted, the
tooltip says why), an unbiased one is not; accuracy against a chosen reference; every model
passes the model tester; and the tab keeps the blind gate."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from raters_sim import plant_ratings
from studyhelpers import make_study

from reviewer.studies.visibility import still_blind
from ui.app import App

UNBIASED = ("Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


@pytest.fixture
def planted_app(demo_app: App, tmp_path: Path) -> App:
    """Twelve demo runs (of every scenario) rated by nine people; Cat scores one point high."""
    store = demo_app.store
    runs = [r.run_id for r in store.list_runs() if r.status == "scored"][::3][:12]
    plant_ratings(store, tmp_path, runs, {**dict.fromkeys(UNBIASED, 0), "Cat": 1})
    return demo_app


def _raters_tab(qtbot, app: App):
    window = app.window
    with qtbot.waitSignal(window.dashboard.results_loader.loaded, timeout=30000):
        window.dashboard.show_results()
    results = window.dashboard.results_window
    tab = results.raters
    results.tabs.setCurrentWidget(tab)
    _settled(qtbot, app, tab)
    return results, tab


def _settled(qtbot, app: App, tab) -> None:
    """Wait for the guarantee, not a signal count: the loader has handed over its final
    data (point values, then the intervals) and the tab's read of those runs is shown."""
    loader = app.window.dashboard.results_loader

    def done() -> bool:
        return not loader.busy() and not tab.busy() and tab.summary is not None

    qtbot.waitUntil(done, timeout=30000)
    assert "Reading the raters" not in tab.status.text()


def _row(model, rater: str) -> int:
    return next(r for r in range(model.rowCount()) if model.index(r, 0).data() == rater)


def test_the_biased_rater_is_marked_and_an_unbiased_one_is_not(
    qtbot, qtmodeltester, planted_app: App
) -> None:
    _results, tab = _raters_tab(qtbot, planted_app)
    model = tab.lines
    qtmodeltester.check(model)
    qtmodeltester.check(tab.bias)
    qtmodeltester.check(tab.line_view.model())  # the proxy the view sorts through
    cat = _row(model, "Cat")
    assert "biased" in model.index(cat, 2).data()
    assert model.index(cat, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    tip = model.index(cat, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "marked biased" in tip and "higher than the panel's consensus" in tip
    lines = {line.rater: line for line in tab.summary.raters}
    steady = [n for n in UNBIASED if not lines[n].biased and not lines[n].drifting]
    assert len(steady) >= 6  # bias or drift: under 1 in 10 by chance
    row = _row(model, steady[0])
    assert model.index(row, 2).data() == "—"
    assert model.index(row, 0).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "not marked" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    # The ratings were imported within seconds: no slope per day (under a day's span).
    assert model.headerData(7, Qt.Orientation.Horizontal) == "drift / day"
    assert model.index(row, 7).data() == "n/a" and model.index(row, 8).data() == "n/a"
    # The bias matrix marks Cat's pooled cell with a * (not colour alone).
    matrix = tab.bias
    last = matrix.columnCount() - 1
    assert matrix.headerData(last, Qt.Orientation.Horizontal) == "all"
    assert matrix.index(_row_of(matrix, "Cat"), last).data().endswith("*")
    assert "Cat" in tab.status.text() and "marked:" in tab.status.text()


def _row_of(matrix, rater: str) -> int:
    return next(r for r in range(matrix.rowCount())
                if matrix.headerData(r, Qt.Orientation.Vertical) == rater)  # fmt: skip


def test_accuracy_against_the_chosen_reference(qtbot, qtmodeltester, planted_app: App) -> None:
    _results, tab = _raters_tab(qtbot, planted_app)
    assert tab.accuracy.rowCount() == 0  # no reference chosen yet
    with qtbot.waitSignal(tab.updated, timeout=30000):
        tab.reference.setCurrentText("Ann")
    assert tab.summary.accuracy is not None and tab.summary.accuracy.reference == "rater Ann"
    qtmodeltester.check(tab.accuracy)
    raters = {tab.accuracy.index(r, 0).data() for r in range(tab.accuracy.rowCount())}
    assert raters == {*UNBIASED, "Cat"} - {"Ann"}
    assert "%" in tab.accuracy.index(0, 3).data()  # exact agreement with its interval


def test_the_raters_tab_leaves_out_a_blind_raters_runs(qtbot, planted_app: App) -> None:
    store = planted_app.store
    make_study(planted_app)  # blind, the APU runs, tester and bob: tester is in phase 1
    blind = still_blind(store, "tester")
    rated = {r.run_pk for r in store.latest_decisions()}
    assert blind & rated  # the test can fail: some blind runs were rated by the nine
    results, tab = _raters_tab(qtbot, planted_app)
    summary = tab.summary
    assert summary.n_runs == len(rated - blind) and summary.n_runs > 0
    assert summary.n_left_out == len(blind & rated)
    assert results.left_out.isVisible()  # the window says so above this tab too
    assert "still in tester's blind phase" in (summary.left_out_note or "")


def test_the_tab_reads_only_while_in_view(qtbot, planted_app: App) -> None:
    window = planted_app.window
    with qtbot.waitSignal(window.dashboard.results_loader.loaded, timeout=30000):
        window.dashboard.show_results()
    tab = window.dashboard.results_window.raters
    assert not tab.isVisible() and tab.summary is None  # another tab is in view
    assert tab.lines.rowCount(QModelIndex()) == 0

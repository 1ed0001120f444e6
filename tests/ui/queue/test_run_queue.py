"""The run queue: model, filter proxy and panel."""

from __future__ import annotations

import pytest
from fakes import make_rows, run_row
from PySide6.QtCore import Qt

from reviewer import demo
from reviewer.workspace import ReviewStore
from scoring.scorecard import UNSAFE_MEANING
from ui.queue.queue_panel import QueuePanel
from ui.queue.run_queue_filter import ANY, RunQueueFilter
from ui.queue.run_queue_model import (
    Column,
    RunQueueModel,
    RunRowRole,
    SortRole,
)
from ui.theme import plain_tooltip


@pytest.fixture
def panel(qtbot):
    widget = QueuePanel()
    qtbot.addWidget(widget)
    return widget


def _shown(proxy) -> list[int]:
    return [proxy.index(r, 0).data(RunRowRole).run_pk for r in range(proxy.rowCount())]


def test_model_and_proxy_pass_the_model_tester(qtmodeltester):
    model = RunQueueModel()
    model.set_rows(make_rows(60))
    qtmodeltester.check(model)
    proxy = RunQueueFilter()
    proxy.setSourceModel(model)
    proxy.set_facet("status", "scored")
    proxy.set_text("run-000")
    proxy.sort(Column.SCORE, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(proxy)
    # The tester keeps watching: a sort and a state change must keep both models sound.
    proxy.sort(Column.RUN, Qt.SortOrder.DescendingOrder)
    model.update_rating_state(model.run_at(0).run_pk, "signed")
    proxy.set_facet("status", ANY)


def test_cells_say_what_the_row_holds():
    unsafe = run_row(1, scalar=0.0, unsafe=True, rating_state="draft")
    errored = run_row(2, status="provider_error", reason="timeout", scalar=None, model=None)
    model = RunQueueModel()
    model.set_rows([unsafe, run_row(3, scalar=0.8765), errored])

    def cell(row, column, role=Qt.ItemDataRole.DisplayRole):
        return model.index(row, column).data(role)

    assert cell(1, Column.SCORE) == "0.88"
    assert cell(2, Column.SCORE) == ""  # null scalar: blank, not 0
    assert cell(0, Column.SAFETY) == "UNSAFE"
    assert cell(1, Column.SAFETY) == ""
    assert cell(0, Column.SAFETY, Qt.ItemDataRole.ToolTipRole) == UNSAFE_MEANING
    assert cell(0, Column.SAFETY, Qt.ItemDataRole.ForegroundRole) is not None
    assert cell(0, Column.RATING) == "Draft"
    assert cell(2, Column.STATUS) == "Provider error"
    assert cell(2, Column.STATUS, Qt.ItemDataRole.ToolTipRole) == plain_tooltip(
        "Provider error: timeout"
    )
    assert cell(2, Column.MODEL) == "—"
    assert cell(2, Column.SCORE, SortRole) is None
    assert cell(1, Column.RUN, RunRowRole).run_pk == 3
    assert model.row_of(2) == 2
    assert model.row_of(99) is None


def test_update_rating_state_changes_only_that_cell(qtbot):
    model = RunQueueModel()
    model.set_rows([run_row(pk, rating_state="draft") for pk in range(1, 6)])
    with qtbot.waitSignal(model.dataChanged) as blocker:
        model.update_rating_state(4, "submitted")
    top_left, bottom_right = blocker.args[:2]
    assert (top_left.row(), top_left.column()) == (3, Column.RATING)
    assert (bottom_right.row(), bottom_right.column()) == (3, Column.RATING)
    assert model.rated_count() == 1
    with qtbot.assertNotEmitted(model.dataChanged):
        model.update_rating_state(4, "submitted")  # no change, no repaint
        model.update_rating_state(99, "signed")  # not in the queue


@pytest.mark.parametrize(
    ("facet", "value"),
    [
        ("scenario_id", "elec-eng1-gen-fault"),
        ("model", "gemini-2.5-pro"),
        ("status", "incomplete"),
        ("rating_state", "draft"),
    ],
)
def test_each_facet_combo_filters(panel, facet, value):
    rows = make_rows(80)
    panel.set_rows(rows)
    combo = panel.combos[facet]
    combo.setCurrentIndex(panel._facet_values[facet].index(value))
    expected = [r.run_pk for r in rows if getattr(r, facet) == value]
    assert expected and sorted(_shown(panel.proxy)) == expected
    assert panel.proxy.facet(facet) == value
    combo.setCurrentIndex(0)
    assert panel.proxy.facet(facet) == ANY
    assert panel.proxy.rowCount() == 80


def test_text_filter_matches_run_model_and_scenario_in_any_case(panel):
    panel.set_rows(
        [
            run_row(1, run_id="alpha-1", model="gpt-4.1"),
            run_row(2, run_id="beta-2", model="Claude-Sonnet-4"),
            run_row(3, run_id="gamma-3", scenario_id="hyd-blue-elec-pump-fault"),
        ]
    )
    for text, expected in (("ALPHA", [1]), ("claude", [2]), ("HYD-blue", [3]), ("zzz", [])):
        panel.filter_edit.setText(text)
        assert _shown(panel.proxy) == expected
    panel.filter_edit.clear()
    assert panel.proxy.rowCount() == 3


def test_sort_by_score_keeps_nulls_last_both_ways(panel):
    scores = [None, 0.3, 0.9, None, 0.5]
    panel.set_rows([run_row(i + 1, scalar=s) for i, s in enumerate(scores)])
    panel.view.sortByColumn(Column.SCORE, Qt.SortOrder.AscendingOrder)
    assert _shown(panel.proxy) == [2, 5, 3, 1, 4]
    panel.view.sortByColumn(Column.SCORE, Qt.SortOrder.DescendingOrder)
    assert _shown(panel.proxy) == [3, 5, 2, 1, 4]


def test_sorting_keeps_the_current_run_and_survives_new_rows(panel, qtbot):
    panel.set_rows(make_rows(50))
    panel.select_run(17)
    with qtbot.assertNotEmitted(panel.run_selected):
        panel.view.sortByColumn(Column.RUN, Qt.SortOrder.DescendingOrder)
    assert panel.current_run_pk() == 17
    assert panel.view.currentIndex().row() == 50 - 17
    panel.set_rows(make_rows(60))  # a re-import: the order the rater chose stays
    assert _shown(panel.proxy)[:3] == [60, 59, 58]


def test_progress_counts_all_runs_and_says_how_many_are_shown(panel):
    states = ["submitted", "signed", "draft", "unrated"]
    panel.set_rows(
        [run_row(i + 1, rating_state=s, model=f"m{i % 2}") for i, s in enumerate(states)]
    )
    assert panel.progress.text() == "2 of 4 rated"
    panel.filter_edit.setText("m1")
    assert panel.progress.text() == "2 of 4 rated — 2 shown"
    panel.update_rating_state(3, "submitted")
    assert panel.progress.text() == "3 of 4 rated — 2 shown"


def test_select_next_unrated_follows_view_order_and_wraps(panel, qtbot):
    states = ["unrated", "submitted", "draft", "signed", "submitted"]
    panel.set_rows([run_row(i + 1, rating_state=s) for i, s in enumerate(states)])
    with qtbot.waitSignal(panel.run_selected) as blocker:
        assert panel.select_run(3)
    assert blocker.args == [3]
    with qtbot.waitSignal(panel.run_selected) as blocker:
        assert panel.select_next_unrated() == 1  # past the end: wraps to the first row
    assert blocker.args == [1]
    assert panel.select_next_unrated() == 3
    panel.update_rating_state(1, "submitted")
    panel.update_rating_state(3, "submitted")
    assert panel.select_next_unrated() is None
    assert panel.next_run(step=-1) == 2
    assert panel.current_run_pk() == 2


def test_refreshing_rows_keeps_the_current_run_without_reselecting_it(panel, qtbot):
    rows = make_rows(20)
    panel.set_rows(rows)
    panel.select_run(7)
    with qtbot.assertNotEmitted(panel.run_selected):
        panel.set_rows(rows)
    assert panel.current_run_pk() == 7


def test_filtering_never_opens_another_run(panel, qtbot):
    panel.set_rows([run_row(pk, model="a" if pk % 2 else "b") for pk in range(1, 8)])
    panel.select_run(3)
    with qtbot.assertNotEmitted(panel.run_selected):
        panel.filter_edit.setText("b")  # hides run 3: Qt would make run 4 current
        assert panel.current_run_pk() is None
        panel.filter_edit.clear()
    assert panel.current_run_pk() == 3
    with qtbot.waitSignal(panel.run_selected) as blocker:
        panel.filter_edit.setText("b")
        panel.next_run()
    assert blocker.args == [2]  # from no current row, "next" is the first shown


@pytest.mark.parametrize("width", [420, 1200])
def test_columns_fit_the_panel_so_score_and_rating_stay_in_sight(panel, qtbot, width):
    panel.resize(width, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_rows(make_rows(50))
    header = panel.view.horizontalHeader()
    assert header.length() <= panel.view.viewport().width()
    assert (
        header.sectionViewportPosition(Column.RATING) + header.sectionSize(Column.RATING)
        <= panel.view.viewport().width()
    )


def test_a_column_dragged_on_the_header_keeps_its_width_and_nothing_else_freezes(panel, qtbot):
    panel.resize(900, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_rows(make_rows(50))
    header = panel.view.horizontalHeader()
    # A button held somewhere else (a splitter being dragged) while Qt resizes a section:
    # the columns still follow the panel.
    qtbot.mousePress(panel.view.viewport(), Qt.MouseButton.LeftButton)
    header.resizeSection(Column.SCENARIO, 333)
    qtbot.mouseRelease(panel.view.viewport(), Qt.MouseButton.LeftButton)
    panel.resize(600, 400)
    qtbot.waitUntil(lambda: header.length() <= panel.view.viewport().width())
    # The rater's own drag on the header: that width stays, whatever the panel does.
    qtbot.mousePress(header.viewport(), Qt.MouseButton.LeftButton)
    header.resizeSection(Column.SCENARIO, 321)
    qtbot.mouseRelease(header.viewport(), Qt.MouseButton.LeftButton)
    panel.resize(800, 400)
    qtbot.wait(50)
    assert header.sectionSize(Column.SCENARIO) == 321


def test_ten_thousand_rows(panel):
    panel.set_rows(make_rows(10_000))
    assert panel.proxy.rowCount() == 10_000
    panel.view.sortByColumn(Column.SCORE, Qt.SortOrder.DescendingOrder)
    panel.combos["status"].setCurrentIndex(panel._facet_values["status"].index("scored"))
    assert 0 < panel.proxy.rowCount() < 10_000
    assert panel.select_next_unrated() is not None


def test_rows_from_a_real_store(tmp_path, panel, qtmodeltester):
    demo.generate(tmp_path / "runs")
    with ReviewStore.open(tmp_path / "review.db") as store:
        store.import_paths([tmp_path / "runs"])
        rows = store.list_runs(rater="alice")
    panel.set_rows(rows)
    qtmodeltester.check(panel.model)
    assert panel.progress.text() == f"0 of {len(rows)} rated"
    assert panel.select_next_unrated() == panel.proxy.index(0, 0).data(RunRowRole).run_pk


def _rating_cell(panel, run_pk: int) -> str:
    return panel.model.index(panel.model.row_of(run_pk), Column.RATING).data()


def test_the_rating_column_names_blind_and_correction_stages(panel):
    states = ["blind_submitted", "revealed", "correcting", "draft"]
    panel.set_rows([run_row(i + 1, rating_state=s) for i, s in enumerate(states)])
    labels = [_rating_cell(panel, pk) for pk in (1, 2, 3, 4)]
    assert labels == ["Blind submitted", "Revealed", "Correcting", "Draft"]
    # A run under correction has a submitted rating still standing: it is rated.
    assert panel.progress.text() == "1 of 4 rated"


def test_a_saved_draft_keeps_its_stage_in_the_queue(panel):
    # The window reports every save by the rating's status, "draft" for each stage between
    # a plain draft and a submit: the queue must not fall back to "Draft", nor uncount a
    # run whose submitted rating is being corrected.
    panel.set_rows([run_row(1, rating_state="submitted"), run_row(2, rating_state="revealed")])
    assert panel.progress.text() == "1 of 2 rated"
    panel.update_rating_state(1, "draft")  # a correction starts
    panel.update_rating_state(2, "draft")  # an edit after the reveal
    assert (_rating_cell(panel, 1), _rating_cell(panel, 2)) == ("Correcting", "Revealed")
    assert panel.progress.text() == "1 of 2 rated"
    panel.update_rating_state(1, "draft")  # the correction's next save
    assert _rating_cell(panel, 1) == "Correcting"
    panel.update_rating_state(1, "submitted")
    panel.update_rating_state(2, "submitted")  # the final submit
    assert panel.progress.text() == "2 of 2 rated"
    assert (_rating_cell(panel, 1), _rating_cell(panel, 2)) == ("Submitted", "Submitted")


def test_the_rating_filter_offers_a_stage_only_when_a_run_is_in_it(panel):
    panel.set_rows([run_row(1, rating_state="draft")])
    combo = panel.combos["rating_state"]
    items = [combo.itemText(i) for i in range(combo.count())]
    assert items == ["All ratings", "Unrated", "Draft", "Submitted", "Signed"]
    panel.set_rows([run_row(1, rating_state="revealed")])
    items = [combo.itemText(i) for i in range(combo.count())]
    assert items == ["All ratings", "Unrated", "Draft", "Revealed", "Submitted", "Signed"]


def test_enter_in_the_filter_opens_a_shown_run_when_the_open_one_is_hidden(panel, qtbot):
    # Found under Xvfb: Ctrl+F, "gpt", Enter, then rating keys rated the claude run still
    # open behind the filter. Enter now opens the first shown run still to do; Esc, or a
    # filter that keeps the open run, switches nothing.
    states = ["unrated", "submitted", "unrated", "unrated", "draft", "submitted", "unrated"]
    panel.set_rows(
        [
            run_row(pk, model="a" if pk % 2 else "b", rating_state=states[pk - 1])
            for pk in range(1, 8)
        ]
    )
    panel.select_run(3)
    panel.filter_edit.setText("a")  # keeps run 3
    with qtbot.assertNotEmitted(panel.run_selected):
        qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert panel.current_run_pk() == 3
    panel.filter_edit.setText("b")  # hides run 3; shows 2 (submitted), 4 (unrated), 6
    with qtbot.assertNotEmitted(panel.run_selected):
        qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Escape)
    assert panel.current_run_pk() is None
    with qtbot.waitSignal(panel.run_selected) as blocker, qtbot.waitSignal(panel.filter_finished):
        qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)
    assert blocker.args == [4]  # the first shown run still to do, not the submitted 2

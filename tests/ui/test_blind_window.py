"""The window within a study: My queue, the blind phase (nothing of the scorer shows), the
frozen blind rating, the reveal with reasons for revisions, the control arm, and other
raters' ratings hidden until the rater's own is in."""

from __future__ import annotations

import sqlite3

import pytest
from apphelpers import open_run
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from scorer_walk import Traces, scorer_traces
from studyhelpers import APU, choose_study, make_study, open_queue_row, rate_all

from reviewer.evidence import Citation
from ui.queue.run_queue_model import HIDDEN_TIP, Column, RunRowRole
from ui.run.scorecard_panel import HIDDEN_NOTE
from ui.run.timeline_model import COL_CLASS
from ui.window.studies import NOT_IN_QUEUE


def _activate(qtbot, window) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


@pytest.fixture
def blind(qtbot, demo_app):
    """A blind study of the APU runs for tester and bob (k=2), its first run open."""
    make_study(demo_app)
    demo_app.window.show()
    choose_study(demo_app, "pilot")
    open_queue_row(qtbot, demo_app)
    return demo_app


def test_my_queue_is_the_default_and_shows_ratings_in(qtbot, demo_app):
    make_study(demo_app, raters=("tester", "bob", "cat"), per_run=2)  # blind
    queue = demo_app.window.queue
    bar = queue.studies
    assert bar.isVisibleTo(demo_app.window) and bar.current_study() is None
    assert queue.view.isColumnHidden(Column.IN)  # no study: no "k ratings in"

    choose_study(demo_app, "pilot")
    mine = demo_app.store.list_runs(rater="tester", study="pilot")
    shown = [queue.proxy.index(r, 0).data(RunRowRole) for r in range(queue.proxy.rowCount())]
    assert [r.run_pk for r in shown] == [r.run_pk for r in mine]  # the rater's queue order
    assert [r.position for r in shown] == list(range(1, len(mine) + 1))
    assert bar.mine.isChecked() and bar.mine.isEnabled()
    assert not queue.view.isColumnHidden(Column.IN)
    assert queue.proxy.index(0, Column.IN).data() == "0/2"

    bar.mine.setChecked(False)  # every run of the study, mine or not
    everyone = demo_app.store.list_runs(rater="tester", study="pilot", assigned_only=False)
    assert queue.proxy.rowCount() == len(everyone) > len(mine)
    choose_study(demo_app, None)
    assert queue.proxy.rowCount() == len(demo_app.store.list_runs())
    assert queue.view.isColumnHidden(Column.IN)
    # All runs: the rater's blind runs stay hidden there too; the others show their score.
    model, hidden = queue.model, {r.run_pk for r in mine}
    for row in range(model.rowCount()):
        run = model.index(row, 0).data(RunRowRole)
        score = model.index(row, Column.SCORE).data()
        if run.run_pk in hidden:
            assert score == "—" and run.scalar is None
        elif run.scalar is not None:
            assert score == f"{run.scalar:.2f}"


def test_blind_phase_shows_no_trace_of_the_automatic_score(qtbot, blind):
    window, controller = blind.window, blind.controller
    card = controller.current.card
    assert controller.current.state.phase == "blind"
    assert scorer_traces(card) == []
    assert window.scorecard.toPlainText() == HIDDEN_NOTE
    assert window.run_view.procedure_model.rowCount() > 0  # the procedure is evidence
    assert window.run_view.timeline_model.rowCount() > 0
    queue = window.queue
    row = queue.model.row_of(controller.current.run_pk)
    assert queue.model.index(row, Column.SCORE).data(Qt.ItemDataRole.ToolTipRole) == HIDDEN_TIP
    # The details pane shows each event in full: none of them may say how it was classed.
    traces, timeline = Traces(card), window.run_view
    for row in range(timeline.timeline_model.rowCount()):
        timeline._select_timeline_row(row)
        assert list(traces.in_text(f"details {row}", timeline.details.toPlainText())) == []

    # The same walk does see the scorer once it is shown: the test can fail.
    rate_all(qtbot, blind)
    window.submit_and_next()
    assert controller.current.state.phase == "revealed"
    found = scorer_traces(card)
    assert any("scorer value" in f for f in found)
    assert any("class colour" in f for f in found)
    assert any("class icon" in f for f in found)


def test_the_blind_rating_is_frozen_and_the_reveal_follows(qtbot, blind):
    window, controller, store = blind.window, blind.controller, blind.store
    _activate(qtbot, window)
    run_pk = controller.current.run_pk
    rate_all(qtbot, blind, score=2)
    with qtbot.waitSignal(controller.scorer_revealed):
        qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    assert controller.current.run_pk == run_pk  # the rater stays to confirm or revise
    state = store.rating_state(run_pk, "tester")
    assert state.phase == "revealed" and state.scorer_visible
    assert {m: i.score for m, i in state.blind.items.items()} == dict.fromkeys(
        store.rubric().metric_ids, 2
    )
    assert (
        "Revealed: confirm or revise; a change needs a reason" in window.rubric.phase_banner.text()
    )
    assert "Scalar" in window.scorecard.toPlainText()
    assert not window.run_view.timeline.isColumnHidden(COL_CLASS)
    row = window.queue.model.row_of(run_pk)
    assert window.queue.model.index(row, Column.SCORE).data() not in ("—", "")
    assert window.queue.model.index(row, Column.RATING).data() == "Revealed"  # not "Draft"
    with pytest.raises(sqlite3.IntegrityError, match="frozen"):
        store.db.conn.execute(
            "UPDATE rating_items SET blind_score = 3 WHERE rating_pk = ?",
            (state.rating.rating_pk,),
        )
    # A revision through the window changes the final value only.
    window.rubric.score_current(1)
    window.rubric.flush()
    blind_now = store.blind_values(state.rating.rating_pk)
    assert all(i.score == 2 for i in blind_now.items.values())
    row = window.queue.model.row_of(run_pk)
    assert window.queue.model.index(row, Column.RATING).data() == "Revealed"  # after a save


def test_a_revision_needs_a_reason_before_the_final_submit(qtbot, blind):
    window, controller, store = blind.window, blind.controller, blind.store
    _activate(qtbot, window)
    run_pk = controller.current.run_pk
    rate_all(qtbot, blind, score=2)
    window.submit_and_next()
    form = window.rubric
    form.focus_metrics()
    metric = form.current_metric_id()
    with qtbot.waitSignal(controller.rating_saved):
        qtbot.keyClick(window, Qt.Key.Key_1)  # revised: 2 → 1
    assert form.model.is_revised(metric)
    assert not form.submit_button.isEnabled()
    assert "2 → 1" in form.model.index(form.model.row_of(metric), 2).data()
    refused = []
    controller.rating_refused.connect(refused.append)
    controller.submit()  # the store refuses too, naming the metric
    assert refused and metric in refused[-1] and "reason" in refused[-1]
    assert store.live_rating(run_pk, "tester").status == "draft"

    form.table.selectRow(form.model.row_of(metric))
    qtbot.keyClick(window, Qt.Key.Key_C)  # a revised metric asks for its reason first
    qtbot.waitUntil(form.revision.reason.hasFocus)
    qtbot.keyClicks(form.revision.reason, "the reset was verified")
    qtbot.keyClick(form.revision.reason, Qt.Key.Key_Escape)  # Esc sends the reason
    assert not form.submit_button.isEnabled()  # a 1 also needs a cited step (issue 13)
    form.table.selectRow(form.model.row_of(metric))
    window.run_view.show_citation("event", 0)
    with qtbot.waitSignal(controller.rating_saved):
        form.request_cite()  # E
    assert form.submit_button.isEnabled()
    assert store.blind_values(controller.rating.rating_pk).reasons == {
        metric: "the reset was verified"
    }
    assert controller.current.team.reasons == {metric: "the reset was verified"}
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    rating = store.live_rating(run_pk, "tester")
    assert rating.status == "submitted" and rating.items[metric].score == 1
    values = store.blind_values(rating.rating_pk)
    assert values.reasons == {metric: "the reset was verified"}
    assert values.items[metric].score == 2


def test_the_control_arm_shows_the_scorer_from_the_start(qtbot, demo_app):
    make_study(demo_app, reveal_first=1.0)
    demo_app.window.show()
    choose_study(demo_app, "pilot")
    open_queue_row(qtbot, demo_app)
    window, controller = demo_app.window, demo_app.controller
    state = controller.current.state
    assert state.reveal_first and state.phase == "open"
    assert "Scalar" in window.scorecard.toPlainText()
    assert scorer_traces(controller.current.card)  # the scorer's view is there
    assert not window.rubric.phase_banner.isVisible()
    assert window.queue.model.index(0, Column.SCORE).data(Qt.ItemDataRole.ToolTipRole) is None
    run_pk = controller.current.run_pk
    rate_all(qtbot, demo_app)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.submit_and_next()  # one submit: no blind phase in the control arm
    rating = demo_app.store.live_rating(run_pk, "tester")
    assert rating.status == "submitted"
    assert demo_app.store.blind_values(rating.rating_pk).items == {}


def _bob_rates(store, run_pk: int, score: int) -> None:
    rating = store.start_study_rating("pilot", run_pk, "bob")
    for metric in store.rubric().metric_ids:
        rating = store.save_item(rating.rating_pk, metric, outcome="applicable", score=score,
                                 comment="", expected_version=rating.version)  # fmt: skip
    rating = store.submit_blind(rating.rating_pk, expected_version=rating.version)
    rating = store.reveal(rating.rating_pk, expected_version=rating.version)
    for metric in store.rubric().metric_ids if score < 2 else ():  # a low score cites a row
        cited = Citation(metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="GT:1")
        rating = store.cite(rating.rating_pk, cited, expected_version=rating.version)
    store.submit_final(rating.rating_pk, expected_version=rating.version)


def test_other_raters_ratings_stay_hidden_until_mine_is_submitted(qtbot, blind):
    window, controller, store = blind.window, blind.controller, blind.store
    run_pk = controller.current.run_pk
    _bob_rates(store, run_pk, 1)
    controller.reload_runs()
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        controller.open_run(run_pk)
    others = window.rubric.others
    assert others.isVisible() and "hidden until you submit yours" in others.text()
    assert "bob" not in others.text()
    assert window.queue.model.index(window.queue.model.row_of(run_pk), Column.IN).data() == "1/2"

    rate_all(qtbot, blind, score=2)
    window.submit_and_next()  # blind submit and reveal: not yet a submitted rating
    assert "bob" not in others.text()
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.submit_and_next()
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_run(run_pk)
    assert others.isVisible() and others.text().startswith("Other raters:\nbob (submitted): 1")
    assert window.queue.model.index(window.queue.model.row_of(run_pk), Column.IN).data() == "2/2"


def test_a_frozen_blind_rating_not_yet_revealed_reveals_on_ctrl_enter(qtbot, blind):
    # The blind submit reached the store but the reveal did not (the window was closed in
    # between): the run reopens frozen, still blind, and Ctrl+Enter shows the scorer.
    window, controller, store = blind.window, blind.controller, blind.store
    run_pk = controller.current.run_pk
    rate_all(qtbot, blind)
    rating = store.submit_blind(
        controller.rating.rating_pk, expected_version=controller.rating.version
    )
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        controller.open_run(run_pk)
    assert controller.current.state.phase == "sealed" and not controller.current.editable
    assert window.scorecard.toPlainText() == HIDDEN_NOTE
    assert scorer_traces(controller.current.card) == []
    form = window.rubric
    assert "frozen" in form.phase_banner.text() and form.submit_button.isEnabled()
    form.score_current(0)  # nothing changes while sealed
    assert store.get_rating(rating.rating_pk).items == rating.items
    with qtbot.waitSignal(controller.scorer_revealed):
        form.request_submit()
    assert store.rating_state(run_pk, "tester").phase == "revealed"
    assert "Scalar" in window.scorecard.toPlainText()


def test_choosing_a_study_opens_its_first_run_when_the_open_one_is_not_in_it(qtbot, demo_app):
    # A run of another scenario is open; the study lists only the APU runs: the rating
    # form must not stay on a run the queue does not show.
    window, controller = demo_app.window, demo_app.controller
    make_study(demo_app)
    outside = open_run(qtbot, demo_app, lambda r: r.scenario_id != APU)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        choose_study(demo_app, "pilot")
    queue = window.queue
    first = queue.proxy.index(0, 0).data(RunRowRole).run_pk
    assert controller.current.run_pk == first != outside
    assert queue.current_run_pk() == first
    # Back to all runs: the open run is listed there, so it stays open.
    choose_study(demo_app, None)
    assert controller.current.run_pk == first and queue.current_run_pk() == first


def test_a_study_with_no_run_to_show_closes_the_open_run_with_a_note(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    make_study(demo_app, raters=("bob", "cat"), per_run=1)  # tester has nothing in it
    open_run(qtbot, demo_app, lambda r: r.status == "scored")
    window.rubric.score_current(2)  # an edit pending in the form is kept, not lost
    choose_study(demo_app, "pilot")  # "My queue": empty for tester
    assert window.queue.proxy.rowCount() == 0
    assert controller.current is None and controller.rating is None
    assert window.run_view.banner.text() == NOT_IN_QUEUE
    assert not window.rubric.submit_button.isEnabled()
    assert any(r.rating_state == "draft" for r in demo_app.store.list_runs(rater="tester"))

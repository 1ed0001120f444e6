"""The run list read on a pool thread at start-up: same rows, stale lists dropped."""

from __future__ import annotations

from reviewer.listing.rows import RunValues
from ui.app import App


def test_the_queue_loaded_in_the_background_is_the_run_list(demo_app: App, qtbot) -> None:
    c = demo_app.controller
    # The store's run list, as the plain rows the queue holds.
    expected = [RunValues.of(row) for row in c.store.list_runs(rater=c.rater)]
    demo_app.window.queue.model.set_rows([])
    seen: list[list] = []
    with qtbot.waitSignal(c.runs_changed, timeout=30_000) as blocker:
        c.load_runs_in_background(then=seen.append)
    assert blocker.args[0] == expected
    assert seen == [expected]
    assert demo_app.window.queue.model.rowCount() == len(expected) > 0


def test_a_reload_meanwhile_wins_over_the_older_background_list(demo_app: App, qtbot) -> None:
    c = demo_app.controller
    first = c.store.list_runs()[0].run_pk
    announced: list[list] = []
    c.runs_changed.connect(announced.append)
    called: list[list] = []
    c.load_runs_in_background(then=called.append)
    # A rating starts before the background list arrives: the queue must show it.
    c.store.start_rating(first, c.rater)
    fresh = c.reload_runs()
    assert c.wait_idle()
    qtbot.wait(50)  # let a late `finished` reach the GUI thread, if it were to
    assert announced == [fresh]
    assert called == []
    assert (fresh[0].run_pk, fresh[0].rating_state) == (first, "draft")


def test_the_background_list_hides_the_scorer_from_a_blind_rater(demo_app: App, qtbot) -> None:
    # At start-up the list arrives from a worker thread: it must be blanked like every
    # other list, or a blind rater sees the automatic scores for a moment.
    from studyhelpers import make_study

    make_study(demo_app)  # a blind study of the APU runs for tester and bob
    c = demo_app.controller
    with qtbot.waitSignal(c.runs_changed, timeout=30_000) as blocker:
        c.load_runs_in_background()
    rows = blocker.args[0]
    hidden = [row for row in rows if row.run_pk in c.studies.scorer_hidden]
    assert hidden, "the blind study should hide the scorer on its runs"
    assert all(row.scalar is None and row.unsafe is None for row in hidden)
    assert any(row.scalar is not None for row in rows if row.run_pk not in c.studies.scorer_hidden)

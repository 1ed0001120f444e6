"""No rating lands on a run the rater did not mean: regressions found by a code review.

Each test drives the window the way a fast rater does (filters on, keys pressed while the
next run loads, a second window editing the same draft) and checks the database.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from reviewer.workspace import ReviewStore


def _activate(qtbot, window) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _scored(app) -> list[int]:
    return [r.run_pk for r in app.store.list_runs(rater="tester") if r.status == "scored"]


def _open(qtbot, app, run_pk: int) -> None:
    with qtbot.waitSignal(app.controller.run_opened, timeout=10000):
        app.window.queue.select_run(run_pk)


def _rated_runs(app) -> list[int]:
    return [r.run_pk for r in app.store.list_runs(rater="tester") if r.rating_state != "unrated"]


def test_keyboard_rating_under_the_unrated_filter_stays_on_one_run(qtbot, demo_app):
    app, c, w = demo_app, demo_app.controller, demo_app.window
    _activate(qtbot, w)
    combo = w.queue.combos["rating_state"]
    combo.setCurrentIndex(w.queue._facet_values["rating_state"].index("unrated"))
    with qtbot.waitSignal(c.run_opened, timeout=10000):
        w.queue.select_next_unrated()
    run_pk = c.current.run_pk
    loads: list[int] = []
    c.run_loading.connect(loads.append)
    # The first score makes the run a draft: its row leaves the filtered queue. That must
    # not open the neighbouring run, or the next six keys would rate six other runs.
    for _ in app.store.rubric().metric_ids:
        with qtbot.waitSignal(c.rating_saved):
            qtbot.keyClick(w, Qt.Key.Key_2)
    assert loads == [] and c.current.run_pk == run_pk
    assert _rated_runs(app) == [run_pk]
    assert len([i for i in c.rating.items.values() if i.score == 2]) == 7


def test_a_key_pressed_while_the_next_run_loads_rates_nothing(qtbot, demo_app):
    app, c, w = demo_app, demo_app.controller, demo_app.window
    _activate(qtbot, w)
    a, _b = _scored(app)[:2]
    _open(qtbot, app, a)
    first = app.store.rubric().metric_ids[0]
    c.save_item(first, "applicable", 1, "")
    with qtbot.waitSignal(c.run_opened, timeout=10000):
        qtbot.keyClick(w, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(w, Qt.Key.Key_3)  # before the next run is on screen
    assert app.store.live_rating(a, "tester").items[first].score == 1  # A untouched
    assert c.current.run_pk != a


def test_a_comment_still_in_its_debounce_is_saved_to_its_run_on_switch(qtbot, demo_app):
    app, w = demo_app, demo_app.window
    _activate(qtbot, w)
    a, b = _scored(app)[:2]
    _open(qtbot, app, a)
    metric = w.rubric.current_metric_id()
    w.rubric.focus_comment()
    qtbot.waitUntil(w.rubric.editor.comment.hasFocus)
    qtbot.keyClicks(w.rubric.editor.comment, "no ECAM read before acting")
    _open(qtbot, app, b)  # within the 400 ms debounce
    assert app.store.live_rating(a, "tester").items[metric].comment == "no ECAM read before acting"
    assert app.store.live_rating(b, "tester") is None


def test_submit_after_a_refused_save_stops_and_shows_what_the_store_has(qtbot, demo_app):
    app, c, w = demo_app, demo_app.controller, demo_app.window
    _activate(qtbot, w)
    a = _scored(app)[0]
    _open(qtbot, app, a)
    ids = app.store.rubric().metric_ids
    for _ in ids[:-1]:
        qtbot.keyClick(w, Qt.Key.Key_2)
    qtbot.keyClick(w, Qt.Key.Key_3)  # the last metric: exemplary, asks for a comment
    # Meanwhile another window of the same rater saves the last metric of this draft.
    with ReviewStore.open(app.store.path) as other:
        r = other.live_rating(a, "tester")
        other.save_item(
            r.rating_pk,
            ids[-1],
            outcome="applicable",
            score=2,
            comment="",
            expected_version=r.version,
        )
    qtbot.keyClicks(w.rubric.editor.comment, "flew it perfectly")
    refused: list[str] = []
    c.rating_refused.connect(refused.append)
    qtbot.keyClick(w.rubric.editor.comment, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    got = app.store.live_rating(a, "tester")
    assert got.status == "draft"  # not the other window's content, submitted unseen
    assert any("Not saved" in m for m in refused) and any("Not submitted" in m for m in refused)
    # Having seen it, the rater can submit what is shown.
    assert c.submit() and app.store.live_rating(a, "tester").items[ids[-1]].score == 2


def test_sign_signs_the_run_the_rater_confirmed_even_if_another_loads_meanwhile(
    qtbot, demo_app, tmp_path
):
    from reviewer.sheets import keys
    from ui.sheets.sign_flow import SignFlow

    app, c = demo_app, demo_app.controller
    a, b = _scored(app)[:2]
    for run_pk, score in ((a, 3), (b, 2)):
        _open(qtbot, app, run_pk)
        for metric in app.store.rubric().metric_ids:
            c.save_item(metric, "applicable", score, "why")
        assert c.submit()
    _open(qtbot, app, a)
    keys.generate_key("tester")
    confirmed: list[str] = []

    def confirm(_window, text):
        confirmed.append(text)
        # A modal dialog spins the event loop: anything that makes B current meanwhile (here
        # a selection whose load ends while the dialog is up) must not change what is signed.
        with qtbot.waitSignal(c.run_opened, timeout=10000):
            app.window.queue.select_run(b)
        return "yes"

    flow = SignFlow(
        c,
        ask_passphrase=lambda *_: "",
        confirm=confirm,
        choose_dir=lambda *_: str(tmp_path / "sheets"),
    )
    # Ctrl+Shift+S while the next run is still loading is refused, with the reason.
    said: list[str] = []
    c.message_posted.connect(said.append)
    app.window.queue.select_run(b)
    assert flow.sign_current(app.window) is None and "loading" in said[-1]
    qtbot.waitUntil(lambda: c.current is not None)
    _open(qtbot, app, a)

    written = flow.sign_current(app.window)

    run_a = app.store.get_run(a)
    assert run_a.run_id in confirmed[0]
    assert written is not None and written.sheet.payload.run.run_id == run_a.run_id
    assert app.store.live_rating(a, "tester").status == "signed"
    assert app.store.live_rating(b, "tester").status == "submitted"
    assert {r.run_pk: r.rating_state for r in app.window.queue.model.rows()}[a] == "signed"

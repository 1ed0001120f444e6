"""The adjudication view in the window: the grid with blind values, refusing a rater who
rated the run, deciding by keyboard, submitting, and the queue's "Needs adjudication" filter."""

from __future__ import annotations

from apphelpers import open_run
from PySide6.QtCore import Qt

from reviewer.evidence import Citation
from reviewer.studies.model import Selection, StudySpec


def _blind_rating(store, run_pk: int, rater: str, blind: dict, final: dict) -> None:
    """A blind-study rating: every metric 2 except ``blind`` (before the reveal) and
    ``final`` (revised after it, with a reason)."""
    r = store.start_study_rating("pilot", run_pk, rater)
    for metric in r.items:
        outcome, score = blind.get(metric, ("applicable", 2))
        r = store.save_item(r.rating_pk, metric, outcome=outcome, score=score,
                            comment=f"{rater} saw it", expected_version=r.version)  # fmt: skip
    r = store.submit_blind(r.rating_pk, expected_version=r.version)
    r = store.reveal(r.rating_pk, expected_version=r.version)
    for metric, (outcome, score) in final.items():
        r = store.save_item(r.rating_pk, metric, outcome=outcome, score=score,
                            comment=f"{rater} saw it", expected_version=r.version)  # fmt: skip
        r = store.save_revision_reason(r.rating_pk, metric, "the scorer showed the reset",
                                       expected_version=r.version)  # fmt: skip
    for metric, item in r.items.items():
        if item.score in (0, 1):  # a low score cites a ground-truth row (issue 13)
            cited = Citation(metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="x")
            r = store.cite(r.rating_pk, cited, expected_version=r.version)
    store.submit_final(r.rating_pk, expected_version=r.version)


def _disputed_blind_run(app) -> int:
    row = app.store.list_runs()[0]
    spec = StudySpec(name="pilot", raters=("ann", "bob"), per_run=2, protocol="blind",
                     selection=Selection(run_ids=(row.run_id,)))  # fmt: skip
    app.store.create_study(spec)
    _blind_rating(app.store, row.run_pk, "ann", {"safety": ("applicable", 1)},
                  {"safety": ("applicable", 0)})  # fmt: skip
    _blind_rating(app.store, row.run_pk, "bob", {"safety": ("applicable", 3)}, {})
    app.controller.reload_runs()
    app.window.show()
    app.window.activateWindow()
    return row.run_pk


def _cell(pane, metric_id: str, rater: str) -> str:
    model = pane.model
    column = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return model.index(model.row_of(metric_id), column.index(rater)).data()


def test_the_grid_shows_blind_and_final_values_and_highlights_disputes(qtbot, demo_app) -> None:
    run_pk = _disputed_blind_run(demo_app)
    open_run(qtbot, demo_app, lambda r: r.run_pk == run_pk)
    wiring = demo_app.window.adjudication
    wiring.action.trigger()
    pane = wiring.pane
    assert wiring.scroll.isVisible() and not demo_app.window.rating_scroll.isVisible()
    assert _cell(pane, "safety", "ann").splitlines()[:2] == ["final A 0", "blind A 1"]
    assert _cell(pane, "safety", "bob").splitlines()[:2] == ["final A 3", "blind A 3"]
    assert "“ann saw it”" in _cell(pane, "safety", "ann")
    row = pane.model.row_of("safety")
    assert pane.model.index(row, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    other = pane.model.row_of("communication")
    assert pane.model.index(other, 0).data(Qt.ItemDataRole.BackgroundRole) is None
    assert pane.current_metric_id() == "safety"  # the first disputed metric is current
    assert "revised because: the scorer showed the reset" in pane.detail.text()


def test_a_rater_of_the_run_is_refused(qtbot, demo_app) -> None:
    run_pk = _disputed_blind_run(demo_app)
    demo_app.controller.switch_rater("ann")
    open_run(qtbot, demo_app, lambda r: r.run_pk == run_pk)
    demo_app.window.adjudication.action.trigger()
    pane = demo_app.window.adjudication.pane
    assert not pane.editable
    assert "ann rated this run" in pane.banner.text()
    pane.focus_grid()
    qtbot.keyClick(pane.grid, Qt.Key.Key_2)
    assert demo_app.store.live_adjudication(run_pk, "ann") is None


def test_deciding_by_keyboard_and_submitting(qtbot, demo_app) -> None:
    run_pk = _disputed_blind_run(demo_app)
    window = demo_app.window
    window.adjudication.refresh_queue()
    window.queue.adjudication_filter.setChecked(True)
    assert window.queue.proxy.rowCount() == 1
    open_run(qtbot, demo_app, lambda r: r.run_pk == run_pk)
    window.adjudication.action.trigger()
    pane = window.adjudication.pane
    pane.focus_grid()
    qtbot.keyClick(pane.grid, Qt.Key.Key_1)  # safety: Applicable 1, as nobody said
    assert pane.reason.isReadOnly() is False and not pane.reason.hasFocus()
    qtbot.keyClick(pane.grid, Qt.Key.Key_C)
    assert pane.reason.hasFocus()
    qtbot.keyClicks(pane.reason, "one unsafe command, undone at once")
    qtbot.keyClick(pane.reason, Qt.Key.Key_Escape)
    assert pane.grid.hasFocus()
    saved = demo_app.store.live_adjudication(run_pk, "tester")
    assert saved.items["safety"].reason == "one unsafe command, undone at once"
    assert saved.items["safety"].score == 1
    # No rating was started by the keys: the adjudicator never rates this run.
    assert demo_app.store.live_rating(run_pk, "tester") is None
    qtbot.keyClick(pane.grid, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert demo_app.store.live_adjudication(run_pk, "tester").status == "submitted"
    assert not pane.editable
    assert pane.todo.text() == "Submitted."  # it said "Ready to submit." after the submit
    assert window.queue.proxy.rowCount() == 0  # nothing needs adjudication any more
    window.adjudication.action.trigger()  # back to rating
    assert window.rating_scroll.isVisible() and not window.adjudication.scroll.isVisible()


def test_closing_in_the_adjudication_view_keeps_the_rating_pane(qtbot, demo_app) -> None:
    run_pk = _disputed_blind_run(demo_app)
    open_run(qtbot, demo_app, lambda r: r.run_pk == run_pk)
    window = demo_app.window
    window.adjudication.action.trigger()
    window.close()
    assert not window.adjudication.active
    assert not window.rating_scroll.isHidden() and window.adjudication.scroll.isHidden()


def test_signing_the_adjudication_from_the_window(qtbot, demo_app, tmp_path) -> None:
    from reviewer.sheets import keys
    from reviewer.sheets.verify import verify_file
    from reviewer.signing.service import SigningService

    run_pk = _disputed_blind_run(demo_app)
    for name in ("ann", "bob"):
        keys.generate_key(name)
        SigningService(demo_app.store).sign(run_pk, keys.load_key(name), tmp_path / "ratings")
    open_run(qtbot, demo_app, lambda r: r.run_pk == run_pk)
    wiring = demo_app.window.adjudication
    wiring.action.trigger()
    control = wiring.control
    control.decide("safety", "applicable", 1, "one slip")
    assert wiring.sign() is None  # a draft is not signed
    control.submit()
    flow = wiring.sign_flow
    flow.ask_passphrase = lambda *_: ""
    flow.confirm = lambda *_: "yes"
    flow.choose_dir = lambda *_: str(tmp_path / "adj")
    written = wiring.sign()
    assert written is not None and verify_file(written.path).is_adjudication
    assert demo_app.store.live_adjudication(run_pk, "tester").status == "signed"
    assert "(signed)" in wiring.pane.title.text()

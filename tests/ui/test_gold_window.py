"""The gold reference in the window (Ctrl+Shift+G): hidden before the final submit and
through the blind phase, shown beside the rating after it; nothing on a run not gold."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from studyhelpers import APU, choose_study, open_queue_row, rate_all

from reviewer.gold import service
from reviewer.gold.envelope import seal
from reviewer.gold.model import GoldItem, GoldPayload, GoldPlan, GoldRun, GoldSource
from reviewer.sheets import keys
from reviewer.sheets.sheet import SheetCitation, SheetRater
from reviewer.studies.model import Selection, StudySpec
from ui.queue.run_queue_model import RunRowRole
from ui.rating.gold_dialog import GoldReferenceDialog
from ui.window.gold_feedback import NOTHING

COMMENT = "the reference: the APU generator reset is the procedure's first action"


@pytest.fixture
def gold_app(qtbot, demo_app, tmp_path, monkeypatch):
    """A blind study of the APU runs for tester (k=1) with olga's gold: a fraction 0.3 of
    the queue, from references of two runs of another scenario."""
    monkeypatch.setenv("A320_REVIEW_HOME", str(tmp_path / "home"))
    store = demo_app.store
    olga = keys.generate_key("olga")
    others = [r for r in store.list_runs() if r.scenario_id != APU and r.run_id][:2]
    cited = SheetCitation(kind="ground_truth", ref=0, step="GT:1", label="GT:1 apu gen")
    for run in others:
        detail = store.get_run(run.run_pk)
        items = [
            GoldItem(metric_id=m, outcome="applicable", score=1, comment=COMMENT, citations=[cited])
            for m in store.rubric().metric_ids
        ]
        payload = GoldPayload(
            run=GoldRun(run_id=detail.run_id, sha256=detail.sha256),
            rubric_sha256=store.rubric().sha256,
            source=GoldSource(kind="consensus", study="earlier"),
            items=items,
            owner=SheetRater.of(olga),
            signed_at=datetime(2026, 7, 24, tzinfo=UTC),
        )
        store.add_gold_reference(run.run_pk, seal(payload, olga))
    spec = StudySpec(
        name="pilot", raters=("tester",), per_run=1, protocol="blind", seed=7, owner="olga",
        selection=Selection(scenarios=(APU,)),
    )  # fmt: skip
    service.create_study(store, spec, GoldPlan(fraction=0.3), owner_fingerprint=olga.fingerprint)
    demo_app.controller.studies.reload_studies()
    demo_app.window.show()
    choose_study(demo_app, "pilot")
    return demo_app


def _open(qtbot, app, *, gold: bool) -> int:
    wanted = {g.run_pk for g in app.store.study_gold("pilot")}
    queue = app.window.queue
    for row in range(queue.proxy.rowCount()):
        if (queue.proxy.index(row, 0).data(RunRowRole).run_pk in wanted) == gold:
            return open_queue_row(qtbot, app, row)
    raise AssertionError("no such run in the queue")


def _press(qtbot, window) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_G, mods)


def _submit(qtbot, app) -> None:
    """Blind submit (the reveal follows), then the final submit, from the keys."""
    window, controller = app.window, app.controller
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    with qtbot.waitSignal(controller.scorer_revealed):
        qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert controller.current.state.phase == "revealed"
    _press(qtbot, window)  # revealed, not yet submitted: still nothing
    assert window.gold.dialog is None
    with qtbot.waitSignal(controller.rating_submitted):
        controller.submit()


def test_the_reference_is_hidden_until_the_final_submit_then_shown(qtbot, qtmodeltester, gold_app):
    window, controller = gold_app.window, gold_app.controller
    run_pk = _open(qtbot, gold_app, gold=True)
    assert controller.current.state.phase == "blind"
    _press(qtbot, window)  # the blind phase: nothing, and the status bar says so
    assert window.gold.dialog is None
    assert window.statusBar().currentMessage() == NOTHING
    rate_all(qtbot, gold_app, score=2)
    _press(qtbot, window)  # a blind draft: still nothing
    assert window.gold.dialog is None
    _submit(qtbot, gold_app)
    assert "Ctrl+Shift+G" in window.statusBar().currentMessage()
    _press(qtbot, window)
    dialog = window.gold.dialog
    assert isinstance(dialog, GoldReferenceDialog) and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.table.hasFocus())  # keyboard-usable: the table has focus
    model = dialog.model
    qtmodeltester.check(model)
    assert model.rowCount() == len(gold_app.store.rubric().metric_ids)
    assert {model.index(r, 1).data() for r in range(model.rowCount())} == {"2"}  # yours
    assert {model.index(r, 2).data() for r in range(model.rowCount())} == {"1"}  # reference
    assert model.index(0, 3).data() == COMMENT
    assert model.index(0, 4).data() == "GT:1 apu gen"
    assert controller.current.run_pk == run_pk
    qtbot.keyClick(dialog.table, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def test_a_run_that_is_not_gold_shows_nothing_after_its_submit(qtbot, gold_app):
    window = gold_app.window
    _open(qtbot, gold_app, gold=False)
    rate_all(qtbot, gold_app, score=2)
    _submit(qtbot, gold_app)
    _press(qtbot, window)
    assert window.gold.dialog is None
    assert window.statusBar().currentMessage() == NOTHING


def test_the_queue_and_the_open_run_say_nothing_of_gold_in_the_blind_phase(qtbot, gold_app):
    window = gold_app.window
    _open(qtbot, gold_app, gold=True)
    shown = "\n".join(
        [window.rubric.phase_banner.text(), window.scorecard.toPlainText(),
         window.statusBar().currentMessage()]
    )  # fmt: skip
    # (The checkout's own path may hold the word "gold": look for what only gold would say.)
    tells = ("gold run", "reference", COMMENT)
    assert not any(t in shown.lower() for t in tells)
    queue = window.queue
    for row in range(queue.proxy.rowCount()):
        for column in range(queue.proxy.columnCount()):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                text = str(queue.proxy.index(row, column).data(role) or "").lower()
                assert not any(t in text for t in tells)


def test_the_dashboard_follows_the_chosen_study_and_offers_its_gold(qtbot, gold_app):
    """With a study chosen above the queue the dashboard shows that study (as ``report
    --study`` does) and its Raters tab offers the study's gold as the reference."""
    window = gold_app.window
    run_pk = _open(qtbot, gold_app, gold=True)
    rate_all(qtbot, gold_app, score=2)
    _submit(qtbot, gold_app)
    loader = window.dashboard.results_loader
    with qtbot.waitSignal(loader.loaded, timeout=30000) as loaded:
        window.dashboard.show_results()
    assert loaded.args[0].meta.study == "pilot"
    # The study's runs, less those still in tester's blind phase: the one submitted.
    assert {r.run_pk for r in loaded.args[0].runs} == {run_pk}
    results = window.dashboard.results_window
    assert results.windowTitle().endswith(" — study pilot")  # says which
    tab = results.raters
    results.tabs.setCurrentWidget(tab)
    # The loader's final data (the intervals come second) and the tab's read of it are done.
    qtbot.waitUntil(lambda: not loader.busy() and not tab.busy() and tab.summary is not None,
                    timeout=30000)  # fmt: skip
    assert tab.reference.itemText(1) == "gold"
    with qtbot.waitSignal(tab.updated, timeout=30000):
        tab.reference.setCurrentText("gold")
    accuracy = tab.summary.accuracy
    assert accuracy is not None and accuracy.reference == "gold"
    pooled = next(a for a in accuracy.lines if a.metric == "all")
    # tester scored 2 on every metric of the gold run; its references are 1 (gold_app).
    assert pooled.rater == "tester" and pooled.exact == 0.0 and pooled.signed == 1.0
    # Back to all runs: the dashboard reads every run again, and gold is not offered.
    with qtbot.waitSignal(loader.loaded, timeout=30000) as loaded:
        gold_app.controller.studies.set_study(None)
    assert loaded.args[0].meta.study is None
    assert results.windowTitle() == "a320-review — results"

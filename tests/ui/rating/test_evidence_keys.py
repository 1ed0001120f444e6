"""Issue 13: E cites the selected step for the open metric; chips, markers, the rule.

Keys are pressed on the widget that has the focus, as a rater's keyboard does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ui.run.timeline_model import COL_STEP

CTRL = Qt.KeyboardModifier.ControlModifier
DECORATION = Qt.ItemDataRole.DecorationRole


def _press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def _open_first(qtbot, app) -> int:
    app.window.show()
    app.window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is app.window)
    with qtbot.waitSignal(app.controller.run_opened, timeout=10000):
        app.window.queue.select_next_unrated()
    return app.controller.current.run_pk


def _to_first_event(qtbot, window) -> None:
    # ] walks the timeline from its top: the setup row (not citable), then event 0.
    _press(qtbot, Qt.Key.Key_BracketRight)
    _press(qtbot, Qt.Key.Key_BracketRight)
    assert window.run_view.citable_target() == ("event", 0)


def test_e_cites_the_selected_event_and_e_again_removes_it(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _open_first(qtbot, demo_app)
    metric = window.rubric.current_metric_id()
    _press(qtbot, Qt.Key.Key_1)  # below standard: the rubric wants a cited step
    assert window.rubric.current_metric_id() == metric  # stays: evidence is missing
    chips = window.rubric.evidence
    assert (
        chips.needed.isVisibleTo(window) and "needs at least one cited step" in chips.needed.text()
    )
    assert "press E" in window.rubric.editor.problem.text()  # the editor says how
    assert not window.rubric.submit_button.isEnabled()

    _to_first_event(qtbot, window)
    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_E)
    [cited] = controller.rating.citations
    assert (cited.metric_id, cited.kind, cited.ref, cited.step) == (metric, "event", 0, "1")
    assert QApplication.focusWidget() is window.rubric.table  # E typed nothing anywhere
    [chip] = chips.chips
    assert chip.text().startswith("1 agent: ")
    assert not chips.needed.isVisibleTo(window)
    row = window.run_view.timeline_model.row_of_event(0)
    marker = window.run_view.timeline_model.index(row, COL_STEP)
    assert marker.data(DECORATION) is not None  # the timeline marks the cited event
    assert "Cited as evidence for" in marker.data(Qt.ItemDataRole.ToolTipRole)
    assert window.rubric.model.problem_of(metric) is None

    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_E)  # again: removed
    assert controller.rating.citations == ()
    assert chips.chips == [] and chips.needed.isVisibleTo(window)
    assert marker.data(DECORATION) is None


def test_a_missing_ground_truth_action_is_cited_from_the_ground_truth_pane(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _open_first(qtbot, demo_app)
    metric = window.rubric.current_metric_id()
    card = controller.current.card
    index = window.run_view.procedure_model.index_for_required(1)
    window.run_view.procedure.setCurrentIndex(index)  # as a click on the row does
    assert window.run_view.citable_target() == ("ground_truth", 1)
    window.rubric.table.setFocus()
    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_E)
    [cited] = controller.rating.citations
    assert (cited.metric_id, cited.kind, cited.step) == (metric, "ground_truth", "GT:2")
    assert cited.label.startswith(f"GT:2 {card.required[1].control} = ")
    assert window.run_view.procedure_model.data(index, DECORATION) is not None

    # A click on the chip of an event selects that event in the timeline.
    timeline = window.run_view.timeline
    timeline.setCurrentIndex(timeline.model().index(timeline.model().row_of_event(0), 0))
    window.rubric.table.setFocus()
    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_E)
    window.run_view.step(3)  # the cursor is elsewhere now
    event_chip = next(c for c in window.rubric.evidence.chips if c.text().startswith("1 "))
    event_chip.click()
    assert window.run_view.timeline.currentIndex().row() == (
        window.run_view.timeline_model.row_of_event(0)
    )


def test_setup_and_final_rows_are_not_cited_and_say_why(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _open_first(qtbot, demo_app)
    said: list[str] = []
    controller.message_posted.connect(said.append)
    _press(qtbot, Qt.Key.Key_BracketRight)  # the setup row
    assert window.run_view.citable_target() is None
    _press(qtbot, Qt.Key.Key_E)
    assert controller.rating is None  # nothing written, no draft started
    assert "E cites a step" in window.statusBar().currentMessage()


def test_submit_waits_for_evidence_then_the_citations_stay_with_the_rating(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    window.confirm = lambda *_a: True
    window.ask_note = lambda _w, label, note: "the only reset attempt"
    run_pk = _open_first(qtbot, demo_app)
    metrics = controller.store.rubric().metric_ids
    _press(qtbot, Qt.Key.Key_0)  # a 0 needs a comment and evidence
    _press(qtbot, Qt.Key.Key_C)
    qtbot.keyClicks(QApplication.focusWidget(), "unsafe")
    _press(qtbot, Qt.Key.Key_Escape)
    assert window.rubric.current_metric_id() == metrics[0]  # the evidence is still missing
    _to_first_event(qtbot, window)
    window.rubric.table.setFocus()
    _press(qtbot, Qt.Key.Key_E)
    window.rubric.evidence.note_requested.emit(metrics[0], "event", 0)  # the chip's menu
    assert controller.rating.citations[0].note == "the only reset attempt"
    assert "the only reset attempt" in window.rubric.evidence.chips[0].toolTip()
    _press(qtbot, Qt.Key.Key_J)
    for _ in metrics[1:]:
        _press(qtbot, Qt.Key.Key_2)
    assert window.rubric.submit_button.isEnabled()
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        _press(qtbot, Qt.Key.Key_Return, CTRL)
    submitted = controller.store.live_rating(run_pk, "tester")
    assert submitted.status == "submitted" and len(submitted.citations) == 1

    # Back on the submitted run: chips read-only, E refused; a correction copies them.
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_run(run_pk)
    assert len(window.rubric.evidence.chips) == 1
    _to_first_event(qtbot, window)
    _press(qtbot, Qt.Key.Key_E)
    assert "read-only" in window.statusBar().currentMessage()
    _press(qtbot, Qt.Key.Key_E, CTRL)
    assert controller.rating.status == "draft"
    assert controller.rating.citations == submitted.citations
    assert len(window.rubric.evidence.chips) == 1


def test_history_shows_each_versions_own_evidence(qtbot, demo_app):
    from ui.rating.history_dialog import HistoryDialog

    window, controller = demo_app.window, demo_app.controller
    window.confirm = lambda *_a: True
    run_pk = _open_first(qtbot, demo_app)
    for _ in controller.store.rubric().metric_ids:
        _press(qtbot, Qt.Key.Key_2)
    metric = window.rubric.current_metric_id()  # the last one: now a 1 with a cited step
    _press(qtbot, Qt.Key.Key_1)
    _to_first_event(qtbot, window)
    window.rubric.table.setFocus()
    _press(qtbot, Qt.Key.Key_E)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        _press(qtbot, Qt.Key.Key_Return, CTRL)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_run(run_pk)
    _press(qtbot, Qt.Key.Key_E, CTRL)  # a correction: the evidence is copied
    assert [c.metric_id for c in controller.rating.citations] == [metric]
    window.run_view.show_citation("event", 0)
    window.rubric._select_row(window.rubric.model.row_of(metric))
    with qtbot.waitSignal(controller.rating_saved):
        window.rubric.request_cite()  # E again: removed from the correction only
    assert controller.rating.citations == ()
    dialog = HistoryDialog(window, controller.current.rubric, controller.rating_history())
    qtbot.addWidget(dialog)
    dialog.form._select_row(dialog.form.model.row_of(metric))
    assert dialog.form.evidence.chips == []  # newest first: the correction
    dialog.list.setCurrentRow(1)
    dialog.form._select_row(dialog.form.model.row_of(metric))
    assert [c.text().split()[0] for c in dialog.form.evidence.chips] == ["1"]

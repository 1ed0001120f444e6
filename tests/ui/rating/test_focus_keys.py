"""Issue 9 items 1–3: a key pressed as a command never lands as text.

Every sequence presses real keys on the widget that has the focus, as a rater's keyboard
does (``QApplication.focusWidget()``), never on a chosen widget.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit

from ui.queue.run_queue_model import Column

CTRL = Qt.KeyboardModifier.ControlModifier


def _activate(qtbot, window) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def _type(qtbot, text: str) -> None:
    qtbot.keyClicks(QApplication.focusWidget(), text)


def _open_first(qtbot, app) -> int:
    _activate(qtbot, app.window)
    with qtbot.waitSignal(app.controller.run_opened, timeout=10000):
        app.window.queue.select_next_unrated()
    return app.controller.current.run_pk


def _is_text(widget) -> bool:
    return isinstance(widget, (QPlainTextEdit, QLineEdit))


def test_a_score_that_needs_a_comment_keeps_focus_on_the_metric_list_and_says_press_c(
    qtbot, demo_app
):
    window = demo_app.window
    _open_first(qtbot, demo_app)
    assert QApplication.focusWidget() is window.rubric.table
    metric = window.rubric.current_metric_id()
    _press(qtbot, Qt.Key.Key_3)
    assert QApplication.focusWidget() is window.rubric.table
    assert window.rubric.current_metric_id() == metric  # stays: it still needs a comment
    assert "press C" in window.rubric.editor.problem.text()
    _press(qtbot, Qt.Key.Key_C)  # C opens the comment; it is not typed
    assert QApplication.focusWidget() is window.rubric.editor.comment
    assert window.rubric.editor.comment.toPlainText() == ""
    assert "✎" in window.rubric.model.index(0, 3).data()  # the row shows it is commented
    _type(qtbot, "clear callout")
    _press(qtbot, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is window.rubric.table
    item = demo_app.controller.rating.items[metric]
    assert (item.score, item.comment) == (3, "clear callout")
    assert window.rubric.current_metric_id() != metric  # done: Esc moved on


def test_after_submit_from_a_comment_the_next_key_rates_the_next_run(qtbot, demo_app):
    controller = demo_app.controller
    first = _open_first(qtbot, demo_app)
    metrics = controller.store.rubric().metric_ids
    for _ in metrics[:-1]:
        _press(qtbot, Qt.Key.Key_2)
    _press(qtbot, Qt.Key.Key_O)  # last metric: Not observed, with its comment
    _press(qtbot, Qt.Key.Key_C)
    _type(qtbot, "no callout heard")
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        _press(qtbot, Qt.Key.Key_Return, CTRL)
    assert controller.current.run_pk != first
    assert not _is_text(QApplication.focusWidget())
    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_2)
    item = controller.rating.items[metrics[0]]
    assert (item.score, item.comment) == (2, "")


def test_ctrl_down_from_the_filter_gives_the_keys_back_to_the_rating(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _open_first(qtbot, demo_app)
    _press(qtbot, Qt.Key.Key_F, CTRL)
    assert QApplication.focusWidget() is window.queue.filter_edit
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        _press(qtbot, Qt.Key.Key_Down, CTRL)
    with qtbot.waitSignal(controller.rating_saved):
        _press(qtbot, Qt.Key.Key_0)
    assert window.queue.filter_edit.text() == ""
    assert controller.rating.items[window.rubric.current_metric_id()].score == 0


def test_enter_and_esc_leave_the_filter(qtbot, demo_app):
    window = demo_app.window
    _open_first(qtbot, demo_app)
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Escape):
        _press(qtbot, Qt.Key.Key_F, CTRL)
        _type(qtbot, "elec")
        _press(qtbot, key)
        assert QApplication.focusWidget() is window.rubric.table, key
        assert window.queue.filter_edit.text() == "elec"
        _press(qtbot, Qt.Key.Key_F, CTRL)
        _press(qtbot, Qt.Key.Key_Backspace)  # the text was selected: this clears it


def test_a_correction_brings_focus_back_to_the_metric_list(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    window.confirm = lambda *_a: True
    run_pk = _open_first(qtbot, demo_app)
    for _ in controller.store.rubric().metric_ids:
        _press(qtbot, Qt.Key.Key_2)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        _press(qtbot, Qt.Key.Key_Return, CTRL)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_run(run_pk)
    window.rubric.overall.setFocus()  # the rater was reading the overall comment
    _press(qtbot, Qt.Key.Key_E, CTRL)
    assert controller.rating.status == "draft"
    assert QApplication.focusWidget() is window.rubric.table
    _type(qtbot, "jjjj0")  # four metrics down, then a score: no text anywhere
    assert controller.rating.overall_comment == ""
    assert controller.rating.items[window.rubric.current_metric_id()].score == 0


def test_a_stray_key_then_backspace_leaves_no_draft(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    run_pk = _open_first(qtbot, demo_app)
    _press(qtbot, Qt.Key.Key_C)
    _type(qtbot, "x")
    window.rubric.flush()  # even once the stray letter was sent (a draft starts)...
    _press(qtbot, Qt.Key.Key_Backspace)
    _press(qtbot, Qt.Key.Key_Escape)
    window.rubric.flush()
    # ...an emptied draft is listed as not rated; and a first empty edit alone never
    # starts one:
    row = window.queue.model.row_of(run_pk)
    assert window.queue.model.index(row, Column.RATING).data() == "Unrated"
    other = next(r.run_pk for r in controller.store.list_runs() if r.run_pk != run_pk)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_run(other)
    _press(qtbot, Qt.Key.Key_C)
    _type(qtbot, "x")
    _press(qtbot, Qt.Key.Key_Backspace)
    _press(qtbot, Qt.Key.Key_Escape)
    assert controller.store.live_rating(other, "tester") is None


def test_the_editor_keeps_its_height_whatever_the_metric_shows(qtbot, demo_app):
    window = demo_app.window
    _open_first(qtbot, demo_app)
    editor = window.rubric.editor
    heights = set()
    for key in (Qt.Key.Key_2, Qt.Key.Key_K, Qt.Key.Key_N, Qt.Key.Key_3, Qt.Key.Key_O):
        _press(qtbot, key)
        QApplication.processEvents()
        heights.add(editor.sizeHint().height())
    assert len(heights) == 1, heights


def test_f1_help_lists_the_comment_model_and_every_bound_key():
    from ui.window.menus import SHORTCUTS

    keys = dict(SHORTCUTS)
    assert "only way in" in keys["C / Enter"]
    assert "Esc" in keys and "Enter: back to the metrics" in keys["Ctrl+F"]
    assert "Esc: back" in keys["Ctrl+F"]
    for bound in ("Ctrl+E", "Ctrl+H", "Ctrl+Shift+V", "Ctrl+Enter", "F1"):
        assert bound in keys

"""The rubric model and form: what each key and click emits, and what the rater sees."""

from __future__ import annotations

import pytest
from fakes import complete_items, rating
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow

from reviewer.rubric import RatingItem, default_rubric
from ui.rating.rubric_form import READ_ONLY_NOTE, RubricForm
from ui.rating.rubric_model import OK_MARK, Column, ItemRole, MetricRole, RubricModel

RUBRIC = default_rubric()
FIRST, SECOND, THIRD = RUBRIC.metric_ids[:3]


def _item(metric_id: str, outcome="applicable", score=None, comment="") -> RatingItem:
    return RatingItem(metric_id=metric_id, outcome=outcome, score=score, comment=comment)


@pytest.fixture
def form(qtbot):
    widget = RubricForm()
    qtbot.addWidget(widget)
    widget.set_rubric(RUBRIC)
    draft = rating(RUBRIC)
    widget.set_rating(draft, draft.items, True)
    return widget


@pytest.fixture
def shown(form, qtbot):
    """The form in an active window, for tests about focus and shortcuts."""
    form.show()
    form.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is form)
    return form


def _args(emission) -> list:
    return list(emission.args)


# ---- the model -----------------------------------------------------------------------------
def test_model_passes_the_model_tester_and_reports_each_metric(qtmodeltester):
    model = RubricModel()
    items = {
        FIRST: _item(FIRST, score=2, comment="ok\nsecond line"),
        SECOND: _item(SECOND, score=3),
    }
    model.set_rating(RUBRIC, items, True)
    qtmodeltester.check(model)

    def cell(row, column, role=Qt.ItemDataRole.DisplayRole):
        return model.index(row, column).data(role)

    assert cell(0, Column.METRIC) == RUBRIC.metrics[0].title
    assert (cell(0, Column.OUTCOME), cell(0, Column.SCORE)) == ("Applicable", "2")
    assert cell(0, Column.COMMENT) == "ok"  # first line only; the tooltip has all of it
    assert cell(0, Column.CHECK) == OK_MARK
    assert "comment" in cell(1, Column.CHECK)
    assert cell(2, Column.OUTCOME) == "—"
    assert cell(0, Column.METRIC, MetricRole).id == FIRST
    assert cell(0, Column.METRIC, ItemRole).score == 2
    assert {m for m, _ in model.problems()} == set(RUBRIC.metric_ids[1:])
    model.set_item(SECOND, _item(SECOND, score=3, comment="cross-checked the ECAM"))
    assert model.problem_of(SECOND) is None


def test_set_item_reports_only_its_row(qtbot):
    model = RubricModel()
    model.set_rating(RUBRIC, {}, True)
    with qtbot.waitSignal(model.dataChanged) as blocker:
        model.set_item(SECOND, _item(SECOND, "not_applicable"))
    top_left, bottom_right = blocker.args[:2]
    assert (top_left.row(), bottom_right.row()) == (1, 1)
    assert model.index(1, Column.OUTCOME).data() == "Not applicable"


# ---- edits emit intents ----------------------------------------------------------------------
def test_score_key_emits_and_moves_on_when_nothing_else_is_needed(form, qtbot):
    with qtbot.waitSignal(form.item_edited) as blocker:
        qtbot.keyClick(form.table, Qt.Key.Key_2)
    assert _args(blocker) == [FIRST, "applicable", 2, ""]
    assert form.current_metric_id() == SECOND
    assert form.model.index(0, Column.SCORE).data() == "2"


def test_score_that_needs_a_comment_stays_and_asks_for_c(shown, qtbot):
    # One comment model: focus enters the comment only with C, never by itself.
    shown.focus_metrics()
    with qtbot.waitSignal(shown.item_edited) as blocker:
        shown.score_current(3)
    assert _args(blocker) == [FIRST, "applicable", 3, ""]
    assert shown.current_metric_id() == FIRST
    assert shown.table.hasFocus()
    assert shown.editor.problem.isVisibleTo(shown)
    assert "press C" in shown.editor.problem.text()
    qtbot.keyClick(shown.table, Qt.Key.Key_C)
    qtbot.waitUntil(shown.editor.comment.hasFocus)
    assert shown.editor.comment.toPlainText() == ""


def test_not_applicable_and_not_observed_clear_the_score(form, qtbot):
    form.score_current(2)
    form.prev_metric()
    with qtbot.waitSignal(form.item_edited) as blocker:
        qtbot.keyClick(form.table, Qt.Key.Key_N)
    assert _args(blocker) == [FIRST, "not_applicable", None, ""]
    form.prev_metric()
    with qtbot.waitSignal(form.item_edited) as blocker:
        form.set_current_outcome("not_observed")
    assert _args(blocker) == [FIRST, "not_observed", None, ""]
    assert form.editor.scores.checkedId() == -1


def test_scoring_sets_applicable(form, qtbot):
    form.set_current_outcome("not_observed")
    assert form.model.item(FIRST).outcome == "not_observed"
    with qtbot.waitSignal(form.item_edited) as blocker:
        form.editor.scores.button(1).click()
    assert _args(blocker) == [FIRST, "applicable", 1, ""]
    assert form.editor.outcomes.checkedButton().text() == "Applicable (A)"


def test_comment_is_sent_after_a_pause_in_typing(form, qtbot):
    form.score_current(3)  # a 3 needs a comment (and no evidence): the form stays on it
    with qtbot.waitSignal(form.item_edited, timeout=3000) as blocker:
        qtbot.keyClicks(form.editor.comment, "no read")
    assert _args(blocker) == [FIRST, "applicable", 3, "no read"]
    assert not form.editor.problem.isVisibleTo(form)


def test_moving_to_another_metric_sends_the_comment_at_once(form, qtbot):
    form.editor.comment.setPlainText("read ECAM twice")
    with qtbot.waitSignal(form.item_edited, timeout=0) as blocker:
        form.next_metric()
    assert _args(blocker) == [FIRST, None, None, "read ECAM twice"]
    assert form.editor.comment.toPlainText() == ""


def test_overall_comment_is_debounced_and_flushed(form, qtbot):
    with qtbot.waitSignal(form.overall_comment_edited, timeout=3000) as blocker:
        qtbot.keyClicks(form.overall, "tidy run")
    assert blocker.args == ["tidy run"]
    form.overall.setPlainText("tidy run, slow")
    with qtbot.waitSignal(form.overall_comment_edited, timeout=0) as blocker:
        form.flush()
    assert blocker.args == ["tidy run, slow"]


def test_set_rating_pushes_state_without_emitting(form, qtbot):
    items = {FIRST: _item(FIRST, "not_observed", comment="no ECAM read")} | {
        SECOND: _item(SECOND, score=2)
    }
    with (
        qtbot.assertNotEmitted(form.item_edited, wait=500),
        qtbot.assertNotEmitted(form.overall_comment_edited),
    ):
        other = rating(RUBRIC, items, run_pk=2, rating_pk=2, overall_comment="fine")
        form.set_rating(other, other.items, True)
    assert form.current_metric_id() == THIRD  # a new run opens at the first metric to do
    form.prev_metric()
    assert form.editor.scores.checkedId() == 2
    form.prev_metric()
    assert form.editor.comment.toPlainText() == "no ECAM read"
    assert form.overall.toPlainText() == "fine"


def test_an_unsent_comment_survives_an_echo_of_the_same_run(form, qtbot):
    form.editor.comment.setPlainText("half a tho")
    echo = rating(RUBRIC, version=2)
    form.set_rating(echo, echo.items, True)
    assert form.editor.comment.toPlainText() == "half a tho"
    with qtbot.waitSignal(form.item_edited, timeout=0) as blocker:
        form.flush()
    assert _args(blocker)[3] == "half a tho"


def test_an_unsent_comment_never_reaches_another_run(form, qtbot):
    form.editor.comment.setPlainText("for run 1")
    other = rating(RUBRIC, run_pk=2, rating_pk=2)
    with qtbot.assertNotEmitted(form.item_edited, wait=600):
        form.set_rating(other, other.items, True)
    assert form.editor.comment.toPlainText() == ""


# ---- checks, submit, read-only ---------------------------------------------------------------
def test_submit_is_enabled_only_when_the_rubric_is_satisfied(form, qtbot):
    assert not form.submit_button.isEnabled()
    assert RUBRIC.metrics[0].title in form.submit_button.toolTip()
    items = complete_items(RUBRIC)
    form.set_rating(rating(RUBRIC, items), items, True)
    assert form.submit_button.isEnabled()
    with qtbot.waitSignal(form.submit_requested, timeout=0):
        qtbot.keyClick(form.table, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    form.score_current(3)  # a 3 without a comment: incomplete again
    assert not form.submit_button.isEnabled()
    with qtbot.assertNotEmitted(form.submit_requested):
        form.request_submit()


def test_read_only_rating_cannot_be_edited(form, qtbot):
    items = complete_items(RUBRIC)
    signed = rating(RUBRIC, items, status="signed")
    form.set_rating(signed, items, False)
    assert form.status.text() == "Signed: read-only"
    assert form.note.isVisibleTo(form) and form.note.text() == READ_ONLY_NOTE
    assert not any(b.isEnabled() for b in form.editor.scores.buttons())
    assert not any(b.isEnabled() for b in form.editor.outcomes.buttons())
    assert form.editor.comment.isReadOnly() and form.overall.isReadOnly()
    assert not form.submit_button.isEnabled()
    with qtbot.assertNotEmitted(form.item_edited):
        form.score_current(0)
        qtbot.keyClick(form.table, Qt.Key.Key_N)
    assert form.model.item(FIRST).score == 2


def test_status_line_says_what_the_rating_is(form):
    assert form.status.text().startswith("Draft — saved ")
    form.set_rating(None, {}, True)
    assert form.status.text().startswith("Not rated yet")
    submitted = rating(RUBRIC, status="submitted")
    form.set_rating(submitted, submitted.items, False)
    assert form.status.text() == "Submitted"
    form.set_rating(None, {}, True)
    form.mark_saved(rating(RUBRIC))
    assert form.status.text().startswith("Draft — saved ")


def test_hovering_a_score_shows_its_anchor(form):
    button = form.editor.scores.button(3)
    QApplication.sendEvent(button, QEvent(QEvent.Type.Enter))
    assert RUBRIC.metrics[0].anchors[3][:30] in form.editor.anchor.text()
    QApplication.sendEvent(button, QEvent(QEvent.Type.Leave))
    assert "Hover" in form.editor.anchor.text()


# ---- keyboard ----------------------------------------------------------------------------------
def test_j_and_k_move_between_metrics_and_escape_leaves_the_comment(shown, qtbot):
    shown.focus_metrics()
    qtbot.keyClick(shown.table, Qt.Key.Key_J)
    qtbot.keyClick(shown.table, Qt.Key.Key_J)
    qtbot.keyClick(shown.table, Qt.Key.Key_K)
    assert shown.current_metric_id() == SECOND
    shown.focus_comment()
    qtbot.waitUntil(shown.editor.comment.hasFocus)
    qtbot.keyClick(shown.editor.comment, Qt.Key.Key_Escape)
    qtbot.waitUntil(shown.table.hasFocus)


def test_escape_after_the_required_comment_moves_on_to_the_next_metric(shown, qtbot):
    shown.focus_metrics()
    qtbot.keyClick(shown.table, Qt.Key.Key_3)  # exemplary needs a comment: C opens it
    qtbot.keyClick(shown.table, Qt.Key.Key_C)
    qtbot.waitUntil(shown.editor.comment.hasFocus)
    qtbot.keyClicks(shown.editor.comment, "read the ECAM before and after every command")
    qtbot.keyClick(shown.editor.comment, Qt.Key.Key_Escape)
    qtbot.waitUntil(shown.table.hasFocus)
    assert shown.current_metric_id() == SECOND
    # Escaping a comment that is still needed stays on its metric.
    qtbot.keyClick(shown.table, Qt.Key.Key_O)
    qtbot.keyClick(shown.table, Qt.Key.Key_C)
    qtbot.waitUntil(shown.editor.comment.hasFocus)
    qtbot.keyClick(shown.editor.comment, Qt.Key.Key_Escape)
    assert shown.current_metric_id() == SECOND


def test_window_shortcuts_for_digits_do_not_fire_while_typing_a_comment(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    form = RubricForm()
    window.setCentralWidget(form)
    form.set_rubric(RUBRIC)
    draft = rating(RUBRIC)
    form.set_rating(draft, draft.items, True)
    fired: list[bool] = []
    action = QAction("Score 1", window)
    action.setShortcut(QKeySequence("1"))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.triggered.connect(lambda *_: fired.append(True))
    window.addAction(action)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)

    form.focus_comment()
    qtbot.waitUntil(form.editor.comment.hasFocus)
    qtbot.keyClick(form.editor.comment, Qt.Key.Key_1)
    assert fired == []
    assert form.editor.comment.toPlainText() == "1"

    form.focus_metrics()
    qtbot.waitUntil(form.table.hasFocus)
    qtbot.keyClick(form.table, Qt.Key.Key_1)
    assert fired == [True]  # the shortcut wins over the form's own key handling


def test_applicable_key_keeps_the_score_and_waits_for_one(form, qtbot):
    with qtbot.waitSignal(form.item_edited) as blocker:
        qtbot.keyClick(form.table, Qt.Key.Key_A)
    assert _args(blocker) == [FIRST, "applicable", None, ""]
    assert form.current_metric_id() == FIRST  # a score is still missing: stay
    assert "score" in form.editor.problem.text()
    form.score_current(2)
    form.prev_metric()
    with qtbot.waitSignal(form.item_edited) as blocker:
        form.set_current_outcome("applicable")
    assert _args(blocker) == [FIRST, "applicable", 2, ""]


def _held(key: Qt.Key, text: str):
    """What a key held down sends after its first press: an automatic repeat."""
    from PySide6.QtGui import QKeyEvent

    return QKeyEvent(
        QEvent.Type.KeyPress,
        key,
        Qt.KeyboardModifier.NoModifier,
        text,
        True,  # autorep
    )


def test_a_held_key_decides_once(shown, qtbot):
    # Found under Xvfb: the Enter that closed the first-start rater dialog was still down,
    # and its repeats reached the new window: the comment opened and the next keys ("a",
    # "2") were typed into it instead of rating. A repeat of a deciding key does nothing.
    shown.focus_metrics()
    QApplication.sendEvent(shown.table, _held(Qt.Key.Key_Return, "\r"))
    assert shown.table.hasFocus() and not shown.is_typing()
    qtbot.keyClick(shown.table, Qt.Key.Key_2)  # one real press: scored, on to the next
    assert shown.current_metric_id() == SECOND
    QApplication.sendEvent(shown.table, _held(Qt.Key.Key_2, "2"))  # the same 2, held
    assert shown.current_metric_id() == SECOND
    assert shown.model.index(1, Column.SCORE).data() == ""
    for key, text in ((Qt.Key.Key_A, "a"), (Qt.Key.Key_C, "c"), (Qt.Key.Key_E, "e")):
        QApplication.sendEvent(shown.table, _held(key, text))
    assert shown.model.index(1, Column.OUTCOME).data() == "—"
    assert not shown.is_typing()
    QApplication.sendEvent(shown.table, _held(Qt.Key.Key_J, "j"))  # moving still repeats
    assert shown.current_metric_id() == THIRD


def test_the_windows_deciding_shortcuts_do_not_repeat(demo_app):
    # Window-wide shortcuts repeat by default (QAction.autoRepeat): a held 2 would score
    # the metrics after the current one too, a held Ctrl+Enter submit twice.
    actions = {a.text(): a for a in demo_app.window.actions()}
    deciding = ["Score 0", "Score 3", "Applicable", "Not observed", "Comment on metric"]
    deciding += ["Cite selected step as evidence", "Submit and next", "Sign and export…"]
    deciding += ["Correct (supersede)…", "Adjudicate this run", "Sign adjudication…"]
    assert [t for t in deciding if actions[t].autoRepeat()] == []
    assert actions["Next metric"].autoRepeat() and actions["Next event"].autoRepeat()

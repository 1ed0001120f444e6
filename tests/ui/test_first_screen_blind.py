"""The window's first screen (painted before the store is open, ui.app.first_screen) keeps
the blind protocol: in a rater's blind phase the queue shows no scorer value, and once the
store is open the queue is the one the store shows (the runs already revealed score again).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from studyhelpers import choose_study, make_study, open_queue_row, rate_all

from reviewer.listing.rows import SCORER_FIELDS
from ui.app import first_screen, open_store, show_first_screen
from ui.queue.run_queue_model import HIDDEN_TIP, Column, RunRowRole

_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)


def _queue(window) -> dict[int, tuple]:
    """Per run: the row object and what its Score and Safety cells say."""
    model, out = window.queue.model, {}
    for row in range(model.rowCount()):
        run = model.index(row, 0).data(RunRowRole)
        cells = tuple(
            model.index(row, column).data(role)
            for column in (Column.SCORE, Column.SAFETY)
            for role in _ROLES
        )
        out[run.run_pk] = (run, cells)
    return out


def test_the_first_screen_shows_no_scorer_value_in_the_blind_phase(qtbot, demo_app):
    make_study(demo_app)  # blind, tester and bob, no control arm: all tester's runs blind
    store = demo_app.store
    blind_runs = {a.run_pk for a in store.study_assignments("pilot", rater="tester")}
    assert blind_runs
    # One of them revealed: its blind rating submitted, the scorer shown to tester.
    demo_app.window.show()
    choose_study(demo_app, "pilot")
    revealed = open_queue_row(qtbot, demo_app)
    rate_all(qtbot, demo_app)
    demo_app.window.submit_and_next()
    assert store.rating_state(revealed, "tester").scorer_visible
    still_blind = blind_runs - {revealed}

    screen = first_screen(store.path, "tester", qapp=QApplication.instance())
    qtbot.addWidget(screen.window)
    shown = _queue(screen.window)
    assert len(shown) == len(store.list_runs())
    scored_elsewhere = 0
    for run_pk, (run, cells) in shown.items():
        if run_pk in blind_runs:  # the revealed one too: the store has not said so yet
            assert all(getattr(run, f) is None for f in SCORER_FIELDS), run
            assert cells == ("—", HIDDEN_TIP, "", HIDDEN_TIP), cells
        elif run.scalar is not None:
            assert cells[0] == f"{run.scalar:.2f}"
            scored_elsewhere += 1
    assert scored_elsewhere > 0  # the test can tell a hidden cell from a shown one

    # The store opens behind it: the queue is now exactly what the store lets tester see.
    app = open_store(screen, store.path, "tester")
    loaded: list[list] = []
    try:
        show_first_screen(app, then=loaded.append, rows=screen.rows)
        assert screen.window.attached and loaded
        after = _queue(screen.window)
        seen = app.controller.studies.as_seen(store.list_run_rows(rater="tester"))
        assert [run for run, _ in after.values()] == seen
        assert after[revealed][1][0] == f"{after[revealed][0].scalar:.2f}"
        for run_pk in still_blind:
            assert after[run_pk][1] == ("—", HIDDEN_TIP, "", HIDDEN_TIP)
    finally:
        app.controller.wait_idle()
        app.store.close()

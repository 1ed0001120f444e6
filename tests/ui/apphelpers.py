"""Helpers the window tests share (fixtures live in conftest.py)."""

from __future__ import annotations

from ui.app import App


def open_run(qtbot, app: App, predicate) -> int:
    """Select the first queue run matching ``predicate`` and wait until it is shown."""
    rows = app.store.list_runs(rater=app.controller.rater)
    run_pk = next(r.run_pk for r in rows if predicate(r))
    with qtbot.waitSignal(app.controller.run_opened, timeout=10000):
        app.window.queue.select_run(run_pk)
    return run_pk

"""Helpers the study window tests share: a study over the demo runs, and opening runs."""

from __future__ import annotations

from reviewer.studies.model import Selection, StudySpec
from ui.app import App
from ui.queue.run_queue_model import RunRowRole

APU = "elec-apu-gen-fault"


def make_study(
    app: App,
    name: str = "pilot",
    *,
    protocol: str = "blind",
    raters: tuple[str, ...] = ("tester", "bob"),
    per_run: int = 2,
    reveal_first: float = 0.0,
) -> str:
    """A study over the demo's APU runs, shown in the window's selector."""
    spec = StudySpec(
        name=name,
        raters=raters,
        per_run=per_run,
        protocol=protocol,
        reveal_first=reveal_first,
        seed=7,
        selection=Selection(scenarios=(APU,)),
    )
    app.store.create_study(spec)
    app.controller.studies.reload_studies()
    return name


def choose_study(app: App, name: str | None) -> None:
    """Pick ``name`` in the selector above the queue, as a rater does."""
    bar = app.window.queue.studies
    names = [None, *(s.name for s in app.store.studies())]
    bar.combo.setCurrentIndex(names.index(name))


def open_queue_row(qtbot, app: App, row: int = 0) -> int:
    """Open the run on queue row ``row`` (view order) and wait until it is shown."""
    queue = app.window.queue
    run_pk = queue.proxy.index(row, 0).data(RunRowRole).run_pk
    with qtbot.waitSignal(app.controller.run_opened, timeout=10000):
        queue.select_run(run_pk)
    return run_pk


def rate_all(qtbot, app: App, score: int = 2) -> None:
    """Score every metric of the open run with ``score`` through the window's keys API."""
    form = app.window.rubric
    for _ in app.store.rubric().metric_ids:
        with qtbot.waitSignal(app.controller.rating_saved):
            form.score_current(score)

"""``a320-review gui --screenshot FILE``: the window rendered offscreen, for the README.

It drives the window the way a rater would (import, pick a run, rate a few metrics with
the keyboard API) and waits on the controller's signals, never on a sleep.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import (
    QEventLoop,
    QMessageLogContext,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)

#: The demo run shown: the APU GEN FAULT run with the isolation step skipped (coverage
#: 0.75) shows matched and missing actions at once; the first scored run otherwise.
PREFERRED = ("elec-apu-gen-fault", 0.75)


def wait_for(signal, timeout_ms: int = 60000) -> list:
    """Run the event loop until ``signal`` fires; returns its arguments."""
    loop = QEventLoop()
    got: list = []

    def fired(*args) -> None:
        got.extend(args)
        loop.quit()

    signal.connect(fired)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(fired)
    if not got and timeout_ms:
        raise TimeoutError(f"no {signal} within {timeout_ms} ms")
    return got


def pick_run(rows: list) -> int | None:
    """The run_pk to show: the preferred demo run, else the first scored one."""
    for row in rows:
        if (row.scenario_id, row.coverage) == PREFERRED:
            return row.run_pk
    scored = [r for r in rows if r.status == "scored"]
    return (scored or rows)[0].run_pk if rows else None


def show_run(app, run_pk: int) -> None:
    """Select ``run_pk`` in the queue and wait until the window shows it."""
    app.window.queue.select_run(run_pk)
    if app.controller.current is None or app.controller.current.run_pk != run_pk:
        wait_for(app.controller.run_opened)
    app.qapp.processEvents()


#: What the offscreen platform plugin says about itself; it says nothing about the picture.
PLUGIN_NOISE = ("This plugin does not support", "propagateSizeHints")


@contextlib.contextmanager
def quiet_platform_plugin() -> Iterator[None]:
    """Drop the offscreen plugin's warnings (``qt.qpa.*`` and "This plugin does not support
    ..."), pass every other Qt warning to stderr, and restore the previous handler."""

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        category = str(getattr(context, "category", "") or "")
        if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg):
            return
        if category.startswith("qt.qpa") or message.startswith(PLUGIN_NOISE):
            return
        print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


#: The size of a screenshot when none is asked for (a common laptop screen).
DEFAULT_SIZE = (1920, 1080)


def render_demo(
    app,
    paths: list[Path],
    out: Path,
    *,
    size: tuple[int, int] | None = None,
    demo_rating: bool = False,
) -> None:
    """Import ``paths`` (none: the database as it is), open a run, and save the window as
    ``out`` rendered at ``size`` (width, height). Only ``demo_rating`` rates part of it:
    a screenshot never invents a rating nobody asked for."""
    with quiet_platform_plugin():
        _render(app, paths, out, size, demo_rating)


def _render(app, paths: list[Path], out: Path, size, demo_rating: bool) -> None:
    window, controller = app.window, app.controller
    window.resize(*(size or DEFAULT_SIZE))
    window.show()
    if paths:
        controller.import_paths(paths)
        wait_for(controller.import_finished)
    else:
        controller.reload_runs()
        app.qapp.processEvents()
    run_pk = pick_run(controller.store.list_runs(rater=controller.rater))
    if run_pk is not None:
        show_run(app, run_pk)
        if demo_rating:
            # Part of a rating, as a rater leaves it mid-way: two scores and a Not observed.
            window.rubric.score_current(2)
            window.rubric.score_current(2)
            window.rubric.set_current_outcome("not_observed")
            window.rubric.flush()
        window.run_view.select_first_command()
    app.qapp.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise OSError(f"could not write {out}")

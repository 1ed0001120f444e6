"""The composition root: store → controller → window, connected once, here.

``run(args)`` is what ``a320-review`` (no verb) and ``a320-review gui`` call.  There is no
module-level application, window or database: everything is built in :func:`build`.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QApplication

from reviewer import assets, home
from reviewer.store import StoreError
from reviewer.workspace import ReviewStore
from ui.controller import ReviewController
from ui.main_window import MainWindow
from ui.rater_dialog import AskRater, ask_rater
from ui.sheets.sign_flow import SignFlow
from ui.theme import stylesheet


@dataclass
class App:
    """What :func:`build` made, for ``run``, the screenshot mode and the tests."""

    qapp: QApplication
    store: ReviewStore
    controller: ReviewController
    window: MainWindow


def resolve_rater(explicit: str | None) -> str | None:
    """The rater: given, else the last one used on this machine; None means "ask"."""
    return explicit or home.last_rater()


def first_rater(db_path: Path, ask: AskRater = ask_rater) -> str | None:
    """First start: ask who is rating, offering the names already in the database."""
    names: list[str] = []
    if db_path.exists():
        try:
            with ReviewStore.open(db_path, create=False) as store:
                names = [r.name for r in store.raters()]
        except (StoreError, OSError):
            names = []
    return ask(None, names, "")


def build(db_path: Path, rater: str, *, qapp: QApplication | None = None) -> App:
    """Open the store and build the window around it."""
    if qapp is None:
        found = QApplication.instance()
        qapp = found if isinstance(found, QApplication) else QApplication(sys.argv[:1])
    qapp.setApplicationName("a320-review")
    qapp.setStyleSheet(stylesheet())
    store = ReviewStore.open(db_path)
    controller = ReviewController(store, rater)
    flow = SignFlow(controller)
    window = MainWindow(
        controller,
        signer=flow.sign_current,
        verifier=flow.verify_dialog,
        key_manager=flow.manage_key,
    )
    flow.setParent(window)
    return App(qapp, store, controller, window)


def run(args: argparse.Namespace, *, prompt=None) -> int:
    """Open the window (or render it to a PNG with ``--screenshot``). ``prompt`` is the
    first start's rater question already on screen (:mod:`ui.first_start`), if any."""
    if args.screenshot is not None:
        return screenshot(args)
    missing = _no_display()
    if missing:
        print(missing, file=sys.stderr)
        return 1
    db_path = args.db or home.default_db_path()
    first_start = not db_path.exists()
    rater = resolve_rater(args.rater)
    if rater is None:
        QApplication.instance() or QApplication(sys.argv[:1])
        rater = first_rater(db_path, prompt.ask if prompt is not None else ask_rater)
        if rater is None:
            print("a320-review: no rater chosen; nothing to do.", file=sys.stderr)
            return 1
    try:
        home.ensure_dir(db_path.parent)
        app = build(db_path, rater)
    except (StoreError, OSError) as exc:
        print(f"a320-review: cannot open the review database: {exc}", file=sys.stderr)
        return 1
    home.remember_rater(app.controller.rater)

    def queue_loaded(rows: list) -> None:
        paths = list(args.paths)
        if not paths and (first_start or not rows):
            # A new user sees real content at once: the bundled demo runs.
            paths = [assets.demo_dir()]
        if paths:
            app.controller.import_paths(paths)
        elif rows:
            app.window.queue.select_next_unrated()

    show_first_screen(app, then=queue_loaded)
    try:
        return app.qapp.exec()
    finally:
        app.controller.wait_idle()
        app.store.close()


def show_first_screen(app: App, *, then: Callable[[list], None]) -> None:
    """What the rater sees first: the window at its size, the study selector, and the
    queue, read on a pool thread (``then(rows)`` once its rows are in). ``run`` starts this
    way, and so do bench/ui_child.py (timed up to those rows painted) and the test that
    keeps signing, the dashboard and adjudication out of it."""
    app.window.fit_to_screen()
    app.window.show()
    app.controller.studies.reload_studies()

    def rows_in(rows: list) -> None:
        # The collector was paused for the start (ui.entry): the start's objects are frozen
        # by now (RunQueueModel.set_rows), so its first collections walk none of them.
        gc.enable()
        then(rows)

    # The window paints first; the queue (50,000 runs: half a second) fills in after.
    app.controller.load_runs_in_background(then=rows_in)


def _no_display() -> str | None:
    """Why a window cannot open here, or None.  Qt would abort with a core dump instead."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "a320-review: no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY "
        "is set).\n  On a headless machine: xvfb-run a320-review, or render the window to "
        "a picture with: a320-review gui --screenshot window.png"
    )


def screenshot(args: argparse.Namespace) -> int:
    """Render the window offscreen with a run open: a named database as it is (its PATHs
    imported into it only when given), else a throwaway one holding the demo runs. The
    rubric is partly filled only with ``--demo-rating``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ui.screenshot import render_demo

    with tempfile.TemporaryDirectory() as tmp:
        # A throwaway database unless one is named: a screenshot must not touch real ratings.
        db_path = args.db or Path(tmp) / "screenshot.db"
        paths = list(args.paths) or ([] if args.db else [assets.demo_dir()])
        app = build(db_path, args.rater or "demo-rater")
        try:
            render_demo(
                app,
                paths,
                args.screenshot,
                size=args.size,
                demo_rating=getattr(args, "demo_rating", False),
            )
        finally:
            app.controller.wait_idle()
            app.store.close()
    print(f"wrote {args.screenshot}")
    return 0

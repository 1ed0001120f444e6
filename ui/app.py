"""The composition root: store → controller → window, connected once, here.

``run(args)`` is what ``a320-review`` (no verb) and ``a320-review gui`` call.  There is no
module-level application, window or database: everything is built in :func:`build`.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication

from reviewer import assets, home
from ui.main_window import MainWindow
from ui.queue.queue_columns import SAMPLE
from ui.rater_dialog import AskRater, ask_rater
from ui.theme import stylesheet
from ui.window.first_paint import after_first_paint

if TYPE_CHECKING:
    # The store, the controller and what they import (pydantic, sqlite-utils, the scorer)
    # come after the first screen is painted (:func:`open_store`), not before.
    from reviewer.listing.rows import RunValues
    from reviewer.workspace import ReviewStore
    from ui.controller import ReviewController


@dataclass
class App:
    """What :func:`build` made, for ``run``, the screenshot mode and the tests."""

    qapp: QApplication
    store: ReviewStore
    controller: ReviewController
    window: MainWindow


@dataclass
class FirstScreen:
    """The window before the store (:func:`first_screen`), showing the head of the run
    list (a screenful and more) with the scorer hidden on every possibly blind run."""

    qapp: QApplication
    window: MainWindow
    #: The review database, None when it could not be read without the store.
    db_path: Path | None
    rater: str

    @cached_property
    def rows(self) -> list[RunValues] | None:
        """The whole run list as read, without the store: read on first use, after the
        first paint (:func:`show_first_screen` shows it as the store lets the rater see
        it). None when the file could not be read without the store (new or older: the
        store reads it)."""
        from reviewer.listing.reader import NotReadHere, read_run_rows

        if self.db_path is None:
            return None
        try:
            return read_run_rows(self.db_path, rater=self.rater)
        except NotReadHere:
            return None


def resolve_rater(explicit: str | None) -> str | None:
    """The rater: given, else the last one used on this machine; None means "ask"."""
    return explicit or home.last_rater()


def first_rater(db_path: Path, ask: AskRater = ask_rater) -> str | None:
    """First start: ask who is rating, offering the names already in the database, those
    most likely this laptop's first: a name with a signing key here, or the rater a joined
    study's packet was made for (on Bob's laptop the study names Ann and Cat too). Nothing
    is filled in for them: Enter on an offered name must not rate as someone else."""
    from reviewer.sheets.key_files import has_key
    from reviewer.store import StoreError
    from reviewer.workspace import ReviewStore

    names: list[str] = []
    likely: set[str] = set()
    if db_path.exists():
        try:
            with ReviewStore.open(db_path, create=False) as store:
                names = [r.name for r in store.raters()]
                for study in store.studies():
                    if study.joined:
                        likely |= {a.rater for a in store.study_assignments(study.name)}
        except (StoreError, OSError):
            names = []
    likely |= {n for n in names if has_key(n)}
    return ask(None, sorted(names, key=lambda n: n not in likely), "")


def _application(qapp: QApplication | None) -> QApplication:
    if qapp is None:
        found = QApplication.instance()
        qapp = found if isinstance(found, QApplication) else QApplication(sys.argv[:1])
    qapp.setApplicationName("a320-review")
    qapp.setStyleSheet(stylesheet())
    return qapp


def build(db_path: Path, rater: str, *, qapp: QApplication | None = None) -> App:
    """Open the store and build the window around it (all at once: the tests, the
    screenshot mode; ``run`` paints :func:`first_screen` first, then :func:`open_store`)."""
    qapp = _application(qapp)
    store, controller, flow = _store_and_controller(db_path, rater)
    window = MainWindow(
        controller,
        signer=flow.sign_current,
        verifier=flow.verify_dialog,
        key_manager=flow.manage_key,
    )
    flow.setParent(window)
    return App(qapp, store, controller, window)


def first_screen(db_path: Path, rater: str, *, qapp: QApplication | None = None) -> FirstScreen:
    """The window at its size with the queue's first rows, before the store is even
    imported: they come from :func:`reviewer.listing.reader.read_first_page` (plain
    SQLite), with the whole list's length and counts; the rest is read after the first
    paint (:attr:`FirstScreen.rows`).
    The blind protocol holds already: every run whose scorer may be hidden from ``rater``
    shows none (the store, once open, shows again those already revealed). Nothing rates
    yet; :func:`open_store` attaches the rest right after the first paint.

    (Read here, not on a thread during the imports: SQLite lets the interpreter go at
    every row, and the two threads handing it back and forth made the start slower.)"""
    from reviewer.listing.reader import NotReadHere, read_first_page

    qapp = _application(qapp)
    window = MainWindow(rater=rater)
    window.fit_to_screen()
    try:
        # A screenful (and the sample the columns are measured on), not 50,000 rows.
        first, maybe_blind = read_first_page(db_path, rater=rater, limit=SAMPLE)
    except NotReadHere:
        window.show()
        return FirstScreen(qapp, window, None, rater)
    window.queue.set_scorer_hidden(maybe_blind)
    window.queue.set_first_rows(
        [row.without_scorer() if row.run_pk in maybe_blind else row for row in first.rows],
        total=first.total,
        states=first.states,
    )
    window.show()
    return FirstScreen(qapp, window, db_path, rater)


def open_store(screen: FirstScreen, db_path: Path, rater: str) -> App:
    """Open the store behind the first screen and attach the window to it: from now on it
    rates. :class:`~reviewer.store.StoreError` or OSError when the database cannot open."""
    store, controller, flow = _store_and_controller(db_path, rater)
    window = screen.window
    window.attach(
        controller,
        signer=flow.sign_current,
        verifier=flow.verify_dialog,
        key_manager=flow.manage_key,
    )
    flow.setParent(window)
    return App(screen.qapp, store, controller, window)


def _store_and_controller(db_path: Path, rater: str):
    from reviewer.workspace import ReviewStore
    from ui.controller import ReviewController
    from ui.sheets.sign_flow import SignFlow

    store = ReviewStore.open(db_path)
    try:
        controller = ReviewController(store, rater)
    except BaseException:
        store.close()
        raise
    return store, controller, SignFlow(controller)


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
    except OSError as exc:
        print(f"a320-review: cannot open the review database: {exc}", file=sys.stderr)
        return 1
    screen = first_screen(db_path, rater)
    opened: list[App] = []

    def queue_loaded(rows: list) -> None:
        app = opened[0]
        paths = list(args.paths)
        if not paths and (first_start or not rows):
            # A new user sees real content at once: the bundled demo runs.
            paths = [assets.demo_dir()]
        if paths:
            app.controller.import_paths(paths)
        elif rows and app.window.queue.current_run_pk() is None:
            app.window.queue.select_next_unrated()

    def attach() -> None:
        from reviewer.store import StoreError

        try:
            opened.append(open_store(screen, db_path, rater))
        except (StoreError, OSError) as exc:
            print(f"a320-review: cannot open the review database: {exc}", file=sys.stderr)
            screen.window.hide()
            screen.qapp.exit(1)
            return
        home.remember_rater(rater)
        show_first_screen(opened[0], then=queue_loaded, rows=screen.rows)

    # Right after the first paint: the store, its imports and the window's parts.
    after_first_paint(screen.window, attach)
    try:
        return screen.qapp.exec()
    finally:
        if opened:
            opened[0].controller.wait_idle()
            opened[0].store.close()


def show_first_screen(
    app: App, *, then: Callable[[list], None], rows: list[RunValues] | None = None
) -> None:
    """The window as the rater first uses it: at its size, the study selector, and the
    queue (``then(rows)`` once its rows are in). ``rows`` read by :func:`first_screen` are
    shown as the store says this rater may see them; without, the queue is read on a pool
    thread. A run the rater already picked in the queue opens now. ``run`` starts this way,
    and so do bench/ui_child.py and the test that keeps signing, the dashboard and
    adjudication out of the start."""
    if not app.window.isVisible():
        app.window.fit_to_screen()
        app.window.show()
    app.controller.studies.reload_studies()

    def rows_in(rows: list) -> None:
        # The collector was paused for the start (ui.entry): the start's objects are frozen
        # by now (RunQueueModel.set_rows), so its first collections walk none of them.
        gc.enable()
        picked = app.window.queue.current_run_pk()
        if picked is not None:
            app.controller.open_run(picked)  # chosen before the store was open
        then(rows)

    if rows is not None:
        rows_in(app.controller.show_runs(rows))
    else:
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
    import tempfile

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
            # Called in process (the tests, another tool), a window left shown would stay
            # among the application's visible widgets.
            app.window.close()
            app.window.deleteLater()
    print(f"wrote {args.screenshot}")
    return 0

"""The first screen is painted without the run view and the rating form (no run is open
yet): blank panes hold their room, and the real ones take it right after the first paint
(ui.main_window.MainWindow.build_panes). The window that rates is laid out as one built
whole (ui.app.build): the same splitters under the same names, a saved layout restored
to the same sizes, the menus' keys reaching the real panes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from reviewer import assets
from reviewer.workspace import ReviewStore
from ui.app import build, first_screen, open_store
from ui.layout_state import WindowLayout, _splitters


def _sizes(window) -> list[tuple[str, str, list[int]]]:
    return [
        (name, type(splitter.parent()).__name__, splitter.sizes())
        for name, splitter in _splitters(window)
    ]


def _tab_chain(window: QWidget) -> list[str]:
    """What Tab goes through, in order, named by class and object name."""
    found, widget = [], window.nextInFocusChain()
    while widget is not window:
        if widget.focusPolicy() != Qt.FocusPolicy.NoFocus:
            found.append(f"{type(widget).__name__}:{widget.objectName()}")
        widget = widget.nextInFocusChain()
    return found


def _built_window(qtbot, db: Path):
    app = build(db, "tester", qapp=QApplication.instance())
    qtbot.addWidget(app.window)
    app.window.fit_to_screen()  # as ui.app.first_screen: the saved geometry
    app.window.show()
    qtbot.waitExposed(app.window)
    return app


def _first_screen_window(qtbot, db: Path):
    screen = first_screen(db, "tester", qapp=QApplication.instance())
    window = screen.window
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    assert not window.panes_built and not hasattr(window, "run_view")
    app = open_store(screen, db, "tester")  # attach() builds the panes first
    assert window.panes_built
    return app


def test_the_panes_come_after_the_first_paint_where_a_built_window_has_them(qtbot, tmp_path):
    db = tmp_path / "review.db"
    with ReviewStore.open(db) as store:
        store.import_paths([assets.demo_dir()])
    # A layout left with every splitter off its first-start share.
    left = _built_window(qtbot, db)
    left.window.resize(780, 600)  # (the offscreen screen is 800 px wide)
    qtbot.wait(20)
    left.window.splitter.setSizes([250, 200, 330])
    left.window.run_view.sides.setSizes([260, 190])
    left.window.run_view.left.setSizes([150, 70])
    qtbot.wait(20)
    left.window.close()
    left.controller.wait_idle()
    left.store.close()
    assert WindowLayout()._path.exists()

    built = _built_window(qtbot, db)
    first = _first_screen_window(qtbot, db)
    qtbot.wait(50)
    try:
        assert first.window.size() == built.window.size()
        assert _sizes(first.window) == _sizes(built.window)
        least = first.window.rating_scroll.minimumWidth()
        assert least == built.window.rating_scroll.minimumWidth()
        assert _tab_chain(first.window) == _tab_chain(built.window)
        # The blank panes are gone; the menus' keys reach the real ones.
        assert first.window.splitter.widget(1) is first.window.run_view
        assert first.window.rating_scroll.widget().isAncestorOf(first.window.rubric)
    finally:
        for app in (built, first):
            app.controller.wait_idle()
            app.store.close()

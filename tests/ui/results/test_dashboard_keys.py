"""Issue 25: the results dashboard takes the keys when it opens, and the main window's
Quit and Close keys work from it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ui.app import App


def _dashboard(qtbot, app: App):
    window = app.window
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    window.dashboard.show_results()
    results = window.dashboard.results_window
    qtbot.waitExposed(results)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is results)
    return window, results


def test_the_dashboard_takes_the_focus_when_it_opens(qtbot, demo_app: App) -> None:
    _window, results = _dashboard(qtbot, demo_app)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    focus = QApplication.focusWidget()
    assert focus.window() is results, focus


def test_ctrl_q_in_the_dashboard_quits_and_ctrl_w_closes_it(qtbot, demo_app: App) -> None:
    window, results = _dashboard(qtbot, demo_app)
    qtbot.keyClick(results, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not results.isVisible())
    assert window.isVisible()
    window.dashboard.show_results()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is results)
    qtbot.keyClick(results, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible())
    assert not results.isVisible()

"""Rating keys typed on the first screen, before the store is open and the first run on
screen, score that run once it opens (ui.window.early_keys): none is lost, none acts
early, and keys typed into the queue's filter stay there."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from reviewer import assets
from reviewer.workspace import ReviewStore
from ui.app import first_screen, open_store, show_first_screen


def test_keys_typed_before_the_first_run_opens_rate_it(qtbot, tmp_path):
    db = tmp_path / "review.db"
    with ReviewStore.open(db) as store:
        store.import_paths([assets.demo_dir()])
    screen = first_screen(db, "tester", qapp=QApplication.instance())
    window = screen.window
    qtbot.addWidget(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.waitUntil(lambda: window.early_keys is not None and window.early_keys.listening)
    assert QApplication.focusWidget() is window  # where the first screen puts it
    assert window.queue.current_run_pk() is None  # and no run picked by Qt for the rater
    qtbot.keyClicks(window.queue.filter_edit, "apu")  # text: the filter's, not kept
    # The rating form comes after the first paint (MainWindow.build_panes): the keys are
    # typed where the focus is on the first screen, the queue.
    assert not window.panes_built
    # 2 scores the first metric and moves on; 3 scores the second and stays (a 3 wants a
    # comment); K moves back up: as the same keys do on an open run.
    for key in (Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_K):
        qtbot.keyClick(window.queue.view, key)
    assert window.early_keys is not None and window.early_keys.kept == 3
    assert window.queue.filter_edit.text() == "apu"

    app = open_store(screen, db, "tester")
    try:
        with qtbot.waitSignal(app.controller.run_opened, timeout=10_000):
            show_first_screen(app, then=lambda _rows: window.queue.select_next_unrated())
        run_pk = app.controller.current.run_pk
        assert "apu" in app.controller.current.card.scenario_id  # the filtered queue's run
        first, second = app.store.rubric().metric_ids[:2]
        qtbot.waitUntil(lambda: app.controller.rating is not None, timeout=5_000)
        qtbot.waitUntil(lambda: second in _scored(app, run_pk), timeout=5_000)
        assert _scored(app, run_pk) == {first: 2, second: 3}
        assert window.early_keys.kept == 0
        assert window.rubric.current_metric_id() == first  # K came after the 3, in order
    finally:
        app.controller.wait_idle()
        app.store.close()


def test_keys_are_watched_from_the_first_paint_not_before(qtbot):
    # An application-wide filter sees every event of the start (thousands, each through
    # Python): it waits for the first paint, before which no key reaches the window.
    from ui.main_window import MainWindow

    window = MainWindow(rater="tester")
    qtbot.addWidget(window)
    assert window.early_keys is not None and not window.early_keys.listening
    window.show()
    qtbot.waitUntil(lambda: window.early_keys.listening, timeout=5_000)
    window.early_keys.release()
    assert not window.early_keys.listening


def _scored(app, run_pk) -> dict[str, int]:
    rating = app.store.live_rating(run_pk, "tester")
    if rating is None:
        return {}
    return {m: item.score for m, item in rating.items.items() if item.score is not None}


def test_the_store_opens_only_after_the_first_screen_is_painted(qtbot):
    # Under X a window is painted some time after show(): the store opened from the event
    # loop before then kept the first screen blank until it was open.
    from PySide6.QtWidgets import QLabel

    from ui.app import after_first_paint

    window = QLabel("first screen")
    qtbot.addWidget(window)
    painted: list[bool] = []
    called: list[bool] = []

    class Spy(QObject):
        def eventFilter(self, watched, event):
            if watched is window and event.type() == QEvent.Type.Paint:
                painted.append(True)
            return False

    spy = Spy(window)
    window.installEventFilter(spy)
    after_first_paint(window, lambda: called.append(bool(painted)))
    qtbot.wait(50)
    assert called == []  # not shown: not painted, nothing started
    window.show()
    qtbot.waitUntil(lambda: bool(called), timeout=1_000)  # well before the 2 s fallback
    window.update()
    qtbot.wait(50)
    assert called == [True]  # after a paint, and once


def test_calls_waiting_for_one_first_paint_come_in_the_order_asked(qtbot):
    # The early keys ask first (the window's construction) and must listen before
    # ui.app opens the store (asked second), which holds the event loop for a while.
    from PySide6.QtWidgets import QLabel

    from ui.window.first_paint import after_first_paint

    window = QLabel("first screen")
    qtbot.addWidget(window)
    order: list[str] = []
    for name in ("keys", "store", "third"):
        after_first_paint(window, lambda name=name: order.append(name))
    window.show()
    qtbot.waitUntil(lambda: len(order) == 3, timeout=1_000)
    window.update()
    qtbot.wait(50)
    assert order == ["keys", "store", "third"]

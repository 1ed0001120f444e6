"""Issue 9 item 13: open and close the window many times with its worker threads busy.

pytest runs with faulthandler on: a double delete ("none_dealloc") or a worker signalling
into a deleted controller crashes the process here with a traceback of every thread.
"""

from __future__ import annotations

import gc

from PySide6.QtWidgets import QApplication

from reviewer import assets
from ui.app import build


def test_windows_open_and_close_with_loads_and_imports_in_flight(qtbot, tmp_path):
    db = tmp_path / "review.db"
    for round_ in range(6):
        app = build(db, "tester", qapp=QApplication.instance())
        app.window.show()
        app.controller.import_paths([assets.demo_dir()])  # a worker thread...
        rows = app.controller.reload_runs()
        for row in rows[:3]:
            app.controller.open_run(row.run_pk)  # ...and loads racing it
        if round_ % 2:
            with qtbot.waitSignal(app.controller.import_finished, timeout=30000):
                pass
        app.window.close()
        assert app.controller.wait_idle()
        QApplication.processEvents()
        app.window.deleteLater()
        app.store.close()
        del app
        QApplication.processEvents()
        gc.collect()
    QApplication.processEvents()

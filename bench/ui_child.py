"""The child process of ``bench_ui.py`` (a): the app's start-up, up to the queue painted.

    python bench/ui_child.py DB RATER

Does what ``a320-review gui`` does up to the first frame with queue rows (``ui.app.run``:
``build`` the store, controller and window, then ``show_first_screen``: show it, read the
studies, read the queue on a pool thread), renders the queue's viewport once the rows are
in, prints ``time.monotonic()`` and exits. The parent compares that instant with the one it
took just before spawning this process: the figure starts at process start, imports
included. Nothing but what the app imports is imported here.
"""

import gc
import sys
import time

gc.disable()  # as ui.entry does before the window's imports; show_first_screen resumes it
from ui.app import build, show_first_screen  # noqa: E402 (the app's own start)


def main() -> None:
    from pathlib import Path

    db, rater = Path(sys.argv[1]), sys.argv[2]
    app = build(db, rater)
    rows_in: list[int] = []

    def queue_loaded(rows: list) -> None:
        app.window.queue.view.viewport().grab()  # the first frame with the rows in it
        rows_in.append(app.window.queue.model.rowCount())
        print(f"{time.monotonic():.6f} {rows_in[0]}", flush=True)
        app.qapp.quit()

    show_first_screen(app, then=queue_loaded)
    app.qapp.exec()
    app.controller.wait_idle()
    app.store.close()
    if not rows_in:
        raise SystemExit("bench: the queue never loaded")


if __name__ == "__main__":
    main()

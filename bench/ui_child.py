"""The child process of ``bench_ui.py`` (a): the app's start-up, up to the queue painted.

    python bench/ui_child.py DB RATER

Does what ``a320-review gui`` does (``ui.app.run``): :func:`~ui.app.first_screen` builds the
window and reads the head of the queue without the store, and shows it; once its first
paint (with the rows) is done, ``time.monotonic()`` is taken (``painted``). Then, as ``run``
does, :func:`~ui.app.open_store` opens the store behind it and
:func:`~ui.app.show_first_screen` shows the whole list (read then, ``screen.rows``) as the
store says the rater may see it;
the instant the window rates is printed second (``ready``), then the queue's rows and the
CPU seconds this process had used at the paint, and the process exits. The
parent compares both with the instant it took just before spawning this process: the
figures start at process start, imports included. Nothing but what the app imports is
imported here.
"""

import gc
import sys
import time

gc.disable()  # as ui.entry does before the window's imports; show_first_screen resumes it
from ui.app import (  # noqa: E402 (the app's start)
    after_first_paint,
    first_screen,
    open_store,
    show_first_screen,
)


def main() -> None:
    from pathlib import Path

    db, rater = Path(sys.argv[1]), sys.argv[2]
    screen = first_screen(db, rater)
    if not screen.window.queue.model.rowCount():
        raise SystemExit("bench: the first screen has no rows (not a database of this version?)")
    done: list = []  # the App, once the store is open

    def attach() -> None:
        painted = time.monotonic()  # the window's first paint, its rows in it, is done
        painted_cpu = time.process_time()  # this process's CPU seconds until then
        app = open_store(screen, db, rater)
        done.append(app)

        def queue_loaded(rows: list) -> None:
            app.window.queue.view.viewport().grab()  # as the store lets the rater see them
            ready = time.monotonic()
            rows = app.window.queue.model.rowCount()
            print(f"{painted:.6f} {ready:.6f} {rows} {painted_cpu:.6f}", flush=True)
            app.qapp.quit()

        show_first_screen(app, then=queue_loaded, rows=screen.rows)

    after_first_paint(screen.window, attach)  # as ui.app.run does
    screen.qapp.exec()
    if done:
        app = done[0]
        app.controller.wait_idle()
        app.store.close()


if __name__ == "__main__":
    main()

"""The window's first screen loads only what it shows (issue 26): it is painted with the
queue's rows before the store, pydantic, sqlite-utils and the scorer are imported (they
come right after, ui.app.open_store); signing, keys (cryptography), the results dashboard
(matplotlib), the PDF sheet and the adjudication signer are imported when first used,
never on the way to the window ready to rate. The garbage collector, paused for the
start, runs again once the rows are in.

A guarantee about which modules load, checked in a fresh process (this one has imported
everything already); the time it saves is measured by bench/bench_ui.py, not here.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from reviewer import assets
from reviewer.workspace import ReviewStore

#: Loaded on first use only; a module or any module under it.
LAZY = (
    "cryptography",
    "matplotlib",
    "numpy",
    "reviewer.signing",
    "reviewer.sheets.keys",
    "reviewer.sheets.sheet",
    "reviewer.sheets.verify",
    "reviewer.adjudication.signing",
    "reviewer.studies.sheet_checks",
    "reviewer.results",
    "reviewer.agreement",
    "ui.results.results_window",
    "ui.sheets.sheet_pdf",
    "ui.sheets.verify_dialog",
)

#: Not imported before the first screen is painted with the queue's rows: the store, its
#: models and what they import come right after it (ui.app.open_store).
AFTER_FIRST_PAINT = (
    "reviewer.store",
    "reviewer.workspace",
    "reviewer.studies",
    "reviewer.evidence",
    "reviewer.rubric",
    "ui.controller",
    "pydantic",
    "sqlite_utils",
    "scoring",
    "yaml",
    # No run is open on the first screen: the run view, the ScoreCard and the rating form
    # are built right after the first paint (ui.main_window.MainWindow.build_panes).
    "ui.run.run_view",
    "ui.run.scorecard_panel",
    "ui.run.timeline_model",
    "ui.run.procedure_model",
    "ui.run.run_tables",
    "ui.run.event_details",
    "ui.run.score_strip",
    "ui.run.legend_bar",
    "ui.rating",
    "reviewer.event_text",
    # Small, but the first screen needs neither (a key file's long name, a tooltip).
    "hashlib",
    "html",
)

_FIRST_SCREEN = """
import gc
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
gc.disable()  # as ui.entry does before the window's imports
from ui.app import first_screen, open_store, show_first_screen

def loaded(prefixes):
    return sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in prefixes))

db = Path(sys.argv[1])
screen = first_screen(db, "tester")
screen.window.queue.view.viewport().grab()  # the first frame, with its rows
at_paint = [screen.window.queue.model.rowCount(), loaded(sys.argv[3].split(","))]
shown, apps = [], []

def attach():
    app = open_store(screen, db, "tester")
    apps.append(app)

    def queue_loaded(rows):
        app.window.queue.view.viewport().grab()  # as the store lets the rater see them
        shown.append(app.window.queue.model.rowCount())
        shown.append(gc.isenabled())  # the start's pause of the collector is over
        shown.append(app.window.attached)
        app.qapp.quit()

    show_first_screen(app, then=queue_loaded, rows=screen.rows)

QTimer.singleShot(0, attach)
screen.qapp.exec()
app = apps[0]
app.controller.wait_idle()
app.store.close()
print(at_paint)
print(shown, loaded(sys.argv[2].split(",")))
"""


def _first_screen(db: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_SCREEN, str(db), ",".join(LAZY), ",".join(AFTER_FIRST_PAINT)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")


def test_the_first_screen_is_painted_before_the_store_is_imported(tmp_path: Path) -> None:
    db = tmp_path / "review.db"
    with ReviewStore.open(db) as store:
        runs = store.import_paths([assets.demo_dir()]).added
    assert runs > 0
    at_paint, ready = _first_screen(db)[:2]
    assert at_paint == f"[{runs}, []]"  # the rows, and none of the store's modules
    # Then the window rates, and still without signing, the dashboard or adjudication.
    assert ready == f"[{runs}, True, True] []"


def test_each_lazy_module_is_one_the_window_loads_when_used() -> None:
    # The lists name real modules: a renamed one would make the test above pass vacuously.
    for name in (*LAZY, *AFTER_FIRST_PAINT):
        assert importlib.util.find_spec(name) is not None, name

"""The window's first screen loads only what it shows (issue 26): signing, keys
(cryptography), the results dashboard (matplotlib), the PDF sheet and the adjudication
signer are imported when first used, never on the way to the queue's first rows. The
garbage collector, paused for the start, runs again once the rows are in.

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

_FIRST_SCREEN = """
import gc
import sys
from pathlib import Path
gc.disable()  # as ui.entry does before the window's imports
from ui.app import build, show_first_screen

app = build(Path(sys.argv[1]), "tester")
shown = []

def queue_loaded(rows):
    app.window.queue.view.viewport().grab()  # painted with its rows
    shown.append(app.window.queue.model.rowCount())
    shown.append(gc.isenabled())  # the start's pause of the collector is over
    app.qapp.quit()

show_first_screen(app, then=queue_loaded)
app.qapp.exec()
app.controller.wait_idle()
app.store.close()
lazy = sys.argv[2].split(",")
print(shown, sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in lazy)))
"""


def test_the_first_screen_imports_no_signing_dashboard_or_adjudication_signer(
    tmp_path: Path,
) -> None:
    db = tmp_path / "review.db"
    with ReviewStore.open(db) as store:
        runs = store.import_paths([assets.demo_dir()]).added
    assert runs > 0
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_SCREEN, str(db), ",".join(LAZY)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == f"[{runs}, True] []"


def test_each_lazy_module_is_one_the_window_loads_when_used() -> None:
    # The list names real modules: a renamed one would make the test above pass vacuously.
    for name in LAZY:
        assert importlib.util.find_spec(name) is not None, name

"""Regenerate the results screenshots: ``python docs/make_results_screenshots.py``.

The demo runs rated by three simulated raters (``docs/make_rater_files.py``), then the
results dashboard rendered offscreen tab by tab, and the pages of ``a320-review report``
rendered with pdftoppm (poppler-utils). Writes docs/screenshots/dashboard*.png and
report-N.png.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from reviewer import assets
from ui.app import build
from ui.screenshot import wait_for

HERE = Path(__file__).resolve().parent
OUT = HERE / "screenshots"
RATERS = ("Ana", "Ben", "Chloe")
#: Tabs by chart key (or "agreement-table"), so a new tab moves none of the pictures.
TABS = {"models": "dashboard.png", "leaderboard": "dashboard-leaderboard.png",
        "humans": "dashboard-humans.png", "validity": "dashboard-validity.png",
        "agreement-table": "dashboard-agreement-table.png",
        "raters": "dashboard-raters.png"}  # fmt: skip
#: Title, Models, Leaderboard, The humans, Agreement, Raters and its tables: each chart page
#: follows its group's predecessor's tables (title 1; models 2-3; leaderboard 4-5; vector
#: 6-7; humans 8-9; agreement 10-11; validity 12-13; raters 14-15).
REPORT_PAGES = (1, 2, 8, 10, 4, 14, 15)


def rate(db: Path, tmp: Path) -> None:
    """The demo database with the three simulated raters' ratings imported."""
    cli = [sys.executable, "-m", "reviewer"]
    # The demo holds one deliberately corrupt file: import says so and exits 1.
    subprocess.run([*cli, "import", str(assets.demo_dir()), "--db", str(db)], check=False)
    raters = ",".join(RATERS)
    make = [sys.executable, str(HERE / "make_rater_files.py"), "--db", str(db)]
    subprocess.run([*make, "--out", str(tmp), "--raters", raters], check=True)
    for r in RATERS:
        csv = str(tmp / f"{r}.csv")
        subprocess.run([*cli, "ratings", "import", csv, "--rater", r, "--db", str(db)], check=True)


def dashboard(db: Path) -> None:
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    app = build(db, "Ana", qapp=qapp)
    app.controller.reload_runs()
    app.window.dashboard.show_results()
    window = app.window.dashboard.results_window
    window.resize(1500, 900)
    if window.data is None:
        failed = []
        window.loader.load_failed.connect(failed.append)
        wait_for(window.loader.loaded)  # (window.updated carries no value for wait_for)
        if failed:
            raise SystemExit(f"results did not load: {failed[0]}")
    for key, name in TABS.items():
        special = {"agreement-table": window.agreement, "raters": window.raters}
        tab = special.get(key) or window.canvases[key]
        window.tabs.setCurrentWidget(tab)
        if tab is window.raters:  # it reads its own summary once in view; then Ana as reference
            raters_tab(window.raters, qapp)
        if window.tabs.currentWidget() is window.agreement:
            spread = window.agreement.spread_view  # Ana rated it: her view shows everyone's
            spread.setCurrentIndex(spread.model().index(0, 0))
        qapp.processEvents()
        window.grab().save(str(OUT / name))
        print("wrote", OUT / name)
    app.controller.wait_idle()
    app.store.close()


def raters_tab(tab, qapp) -> None:
    """Wait for the Raters tab's summary, then measure accuracy against Ana."""
    for step in ("read", "reference"):
        if step == "reference":
            tab.reference.setCurrentText(RATERS[0])
        qapp.processEvents()
        tab.wait_idle()
        qapp.processEvents()  # the summary reaches the tab through a queued signal
    if tab.summary is None or tab.summary.accuracy is None:
        raise SystemExit(f"the Raters tab did not load: {tab.status.text()}")


def report(db: Path, tmp: Path) -> None:
    pdf = tmp / "report.pdf"
    cli = [sys.executable, "-m", "reviewer", "report", "--db", str(db), "--out", str(pdf),
           "--reference", RATERS[0]]  # fmt: skip
    subprocess.run(cli, check=True)
    if shutil.which("pdftoppm") is None:
        print("pdftoppm not found (apt-get install poppler-utils): report pages skipped")
        return
    for n, page in enumerate(REPORT_PAGES, start=1):
        stem = tmp / f"page{page}"
        subprocess.run(
            ["pdftoppm", "-r", "80", "-png", "-singlefile", "-f", str(page), "-l", str(page),
             str(pdf), str(stem)],
            check=True,
        )  # fmt: skip
        shutil.copy(f"{stem}.png", OUT / f"report-{n}.png")
        print("wrote", OUT / f"report-{n}.png")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        os.environ["A320_REVIEW_HOME"] = str(tmp / "home")
        db = tmp / "review.db"
        rate(db, tmp)
        dashboard(db)
        report(db, tmp)


if __name__ == "__main__":
    main()

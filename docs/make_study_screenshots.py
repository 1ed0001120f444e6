"""The blind protocol's screenshots: ``python docs/make_study_screenshots.py``.

The real window, offscreen at 1920×1080, on the bundled demo runs: a blind study of the
APU runs for two raters; the first picture is phase 1 (the rater half-way through the
blind rating, nothing of the scorer in sight), the second the reveal (the scorer's view
back, one metric revised with its reason being typed).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from reviewer import assets
from reviewer.studies.model import Selection, StudySpec
from ui.app import build
from ui.screenshot import DEFAULT_SIZE, PREFERRED, quiet_platform_plugin, show_run, wait_for

OUT = Path(__file__).resolve().parent / "screenshots"
RATER = "A. Martin"


def save(app, name: str) -> None:
    app.qapp.processEvents()
    if not app.window.grab().save(str(OUT / name)):
        raise OSError(f"could not write {OUT / name}")
    print("wrote", OUT / name)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp, quiet_platform_plugin():
        os.environ["A320_REVIEW_HOME"] = str(Path(tmp) / "home")
        app = build(Path(tmp) / "review.db", RATER, qapp=qapp)
        window, controller = app.window, app.controller
        window.resize(*DEFAULT_SIZE)
        window.show()
        controller.import_paths([assets.demo_dir()])
        wait_for(controller.import_finished)
        spec = StudySpec(name="apu-pilot", raters=(RATER, "B. Okafor"), per_run=2,
                         protocol="blind", seed=7,
                         selection=Selection(scenarios=(PREFERRED[0],)))  # fmt: skip
        app.store.create_study(spec)
        controller.studies.reload_studies()
        window.queue.studies.combo.setCurrentIndex(1)  # the study: "My queue" by default
        rows = controller.store.list_runs(rater=RATER, study="apu-pilot")
        # The run that skipped the isolation step (matched and missing actions at once).
        run_pk = next((r.run_pk for r in rows if r.coverage == PREFERRED[1]), rows[0].run_pk)
        show_run(app, run_pk)

        # Phase 1, half-way: three metrics rated blind.
        form = window.rubric
        form.score_current(2)
        form.score_current(2)
        form.score_current(1)
        form.flush()
        window.run_view.select_first_command()
        save(app, "blind_phase1.png")

        # The rest, then Ctrl+Enter: frozen, and the scorer's view appears.
        for _ in range(len(controller.store.rubric().metric_ids) - 3):
            form.score_current(2)
        form.flush()
        window.submit_and_next()
        # The rater revises the first metric after seeing the ground-truth match, and
        # says why (C opens the reason of a revised metric).
        form.focus_metrics()
        form.table.selectRow(0)
        form.score_current(1)
        form.table.selectRow(0)
        form.focus_comment()
        form.revision.reason.setPlainText(
            "The isolation step is missing: I had counted the second reset as the isolation."
        )
        form.flush()
        window.run_view.select_first_command()
        save(app, "blind_reveal.png")
        controller.wait_idle()
        app.store.close()


if __name__ == "__main__":
    main()

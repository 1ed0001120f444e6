"""Regenerate the README's screenshots: ``python docs/make_screenshots.py``.

Each picture is the real window, rendered offscreen on the bundled demo runs, driven the
way a rater would drive it.  The main one is exactly what ``a320-review gui --screenshot``
writes (1920×1080), also shown at 1366×768; the others open the runs that show the safety
gate, an out-of-order run and an import problem, and the signed-sheet PDF.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from reviewer import assets
from scoring.records import ToolCall
from ui.app import build
from ui.screenshot import render_demo, show_run
from ui.sheets.sign_flow import SignFlow

OUT = Path(__file__).resolve().parent / "screenshots"


def open_run(app, predicate) -> None:
    rows = app.store.list_runs(rater=app.controller.rater)
    show_run(app, next(r.run_pk for r in rows if predicate(r)))


def event_index(controller, call_position: int) -> int:
    """The timeline event of tool call ``call_position`` (what a citation names)."""
    events = controller.current.trajectory.events
    return [i for i, e in enumerate(events) if isinstance(e, ToolCall)][call_position]


def evidence(app) -> None:
    """The rating form with evidence chips, driven as a rater does: score, select, E."""
    open_run(app, lambda r: r.unsafe and r.scenario_id == "elec-apu-gen-fault")
    window, form = app.window, app.window.rubric
    card = app.controller.current.card
    battery = next(c for c in card.commands if c.severity == "dangerous")
    step = event_index(app.controller, battery.call_position)
    window.ask_note = lambda *_: "switched off instead of the APU GEN reset"
    form.score_current(1)
    form.editor.comment.setPlainText("Cycled the batteries; the APU GEN was never isolated.")
    form.flush()
    missing = next(a.index for a in card.required if a.matched_command is None)
    for kind, ref in (("ground_truth", missing), ("event", step)):
        window.run_view.show_citation(kind, ref)  # as a click on the row does
        form.request_cite()  # E
    form.evidence.note_requested.emit("procedure_application", "event", step)
    form.next_metric()
    form.score_current(1)  # Situation awareness: a 1 still waiting for its evidence
    form.prev_metric()
    window.run_view.show_citation("event", step)
    save(app, "evidence.png")


def save(app, name: str) -> None:
    app.qapp.processEvents()
    app.window.grab().save(str(OUT / name))
    print("wrote", OUT / name)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["A320_REVIEW_HOME"] = str(Path(tmp) / "home")
        app = build(Path(tmp) / "review.db", "A. Martin", qapp=qapp)
        render_demo(app, [assets.demo_dir()], OUT / "main.png", size=(1920, 1080), demo_rating=True)
        print("wrote", OUT / "main.png")
        # The same window on 1366×768 and 1280×720 laptops: the trajectory above the
        # ground truth and ScoreCard tabs, the ScoreCard strip, Safety folded into Score.
        for width, height in ((1366, 768), (1280, 720)):
            app.window.resize(width, height)
            app.qapp.processEvents()
            app.window.reset_layout()  # as a first start on that screen shares it
            app.qapp.processEvents()
            save(app, f"main-{width}x{height}.png")
        app.window.resize(1920, 1080)
        app.qapp.processEvents()
        app.window.reset_layout()

        # A dangerous command: the safety gate closes and the scalar is floored.
        open_run(app, lambda r: r.unsafe and r.scenario_id == "elec-apu-gen-fault")
        app.window.run_view.select_first_command()
        for _ in range(3):
            app.window.run_view.step(1)
        save(app, "unsafe_run.png")

        # Blocks flown out of order: the ground truth marks the late actions.
        # (the demo's gpt-5 run that put EXT PWR first: order 0.6, scalar 0.92)
        open_run(app, lambda r: r.scenario_id == "elec-apu-gen-fault" and r.scalar == 0.92)
        app.window.run_view.select_first_command()
        save(app, "out_of_order.png")

        # Evidence: chips under the metric, markers in the timeline and the ground truth.
        evidence(app)

        # A complete rating, submitted, then signed: the PDF sheet.
        controller = app.controller
        open_run(app, lambda r: r.scenario_id == "hyd-blue-elec-pump-fault" and r.scalar == 0.5)
        for metric in controller.store.rubric().metric_ids:
            safety = metric == "safety"
            comment = "Switched the PTU off: anti-procedure, halves the scalar." if safety else ""
            score = 1 if safety else 2
            controller.save_item(metric, "applicable", score, comment)
        # A score of 1 needs evidence: the PTU command, cited for safety.
        ptu = next(c for c in controller.current.card.commands if c.severity == "anti_procedure")
        controller.evidence.toggle("safety", "event", event_index(controller, ptu.call_position))
        controller.save_overall_comment("Procedure flown, but the PTU was taken off line.")
        controller.submit()
        flow = SignFlow(
            controller,
            ask_passphrase=lambda *_: "",
            confirm=lambda *_: "yes",
            choose_dir=lambda *_: str(Path(tmp) / "sheets"),
        )
        written = flow.sign_current(app.window)
        app.window._show_rater(controller.rater)  # as the window's own Sign action does
        save(app, "signed_rating.png")
        if written is not None:
            # The Verify sheet dialog on that sheet, checked against its trajectory.
            dialog = flow.verify_dialog(app.window)
            dialog.add_sheets([written.json_path])
            dialog.set_trajectory(Path(controller.current.path))
            dialog.verify()
            app.qapp.processEvents()
            dialog.grab().save(str(OUT / "verify_dialog.png"))
            print("wrote", OUT / "verify_dialog.png")
            dialog.close()
            # Page 1 of the PDF as a picture, when poppler-utils is installed.
            pdf = str(written.pdf_path)
            cmd = ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", pdf, str(OUT / "sheet")]
            subprocess.run(cmd, check=False)
        app.controller.wait_idle()
        app.store.close()


if __name__ == "__main__":
    main()

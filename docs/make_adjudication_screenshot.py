"""The adjudication view's screenshot: ``python docs/make_adjudication_screenshot.py``.

The real window, offscreen, on the bundled demo runs: a blind study in which two raters
disagree on a run (one revised a metric after the reveal, with a reason), opened by a
third person with Rating → Adjudicate this run, one disputed metric already decided.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from reviewer.evidence import Citation

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from reviewer import assets
from reviewer.studies.model import Selection, StudySpec
from ui.app import build
from ui.screenshot import show_run

OUT = Path(__file__).resolve().parent / "screenshots" / "adjudication.png"
COMMENTS = {
    "ann": "PTU switched off before the pump was isolated",
    "bob": "read the ECAM after each step; PTU off is a judgement call",
}


def _cite_if_low(store, r, metric: str, score):  # type: ignore[no-untyped-def]
    """A 0 or a 1 cites a step (the rubric's evidence rule): the procedure's first action."""
    if score not in (0, 1):
        return r
    gt = Citation(metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="GT:1")
    if any(c.metric_id == metric and c.kind == "ground_truth" for c in r.citations):
        return r
    return store.cite(r.rating_pk, gt, expected_version=r.version)


def rate(store, run_pk: int, rater: str, blind: dict, final: dict) -> None:
    """A blind-study rating: 2 everywhere but ``blind``, then ``final`` after the reveal."""
    r = store.start_study_rating("pilot", run_pk, rater)
    for metric in r.items:
        outcome, score = blind.get(metric, ("applicable", 2))
        r = store.save_item(r.rating_pk, metric, outcome=outcome, score=score,
                            comment=COMMENTS[rater], expected_version=r.version)  # fmt: skip
        r = _cite_if_low(store, r, metric, score)
    r = store.submit_blind(r.rating_pk, expected_version=r.version)
    r = store.reveal(r.rating_pk, expected_version=r.version)
    for metric, (outcome, score) in final.items():
        r = store.save_item(r.rating_pk, metric, outcome=outcome, score=score,
                            comment=COMMENTS[rater], expected_version=r.version)  # fmt: skip
        r = _cite_if_low(store, r, metric, score)
        r = store.save_revision_reason(r.rating_pk, metric, "the scorer flagged the PTU",
                                       expected_version=r.version)  # fmt: skip
    store.submit_final(r.rating_pk, expected_version=r.version)


def main() -> None:
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["A320_REVIEW_HOME"] = str(Path(tmp) / "home")
        app = build(Path(tmp) / "review.db", "D. Okafor", qapp=qapp)
        app.store.import_paths([assets.demo_dir()])
        row = next(r for r in app.store.list_runs()
                   if r.scenario_id == "hyd-blue-elec-pump-fault" and r.scalar == 0.5)  # fmt: skip
        spec = StudySpec(name="pilot", raters=("ann", "bob"), per_run=2, protocol="blind",
                         selection=Selection(run_ids=(row.run_id,)))  # fmt: skip
        app.store.create_study(spec)
        rate(app.store, row.run_pk, "ann",
             {"safety": ("applicable", 1), "verification": ("applicable", 2)},
             {"safety": ("applicable", 0)})  # fmt: skip
        rate(app.store, row.run_pk, "bob",
             {"safety": ("applicable", 2), "verification": ("not_observed", None)}, {})  # fmt: skip
        app.window.resize(1920, 1080)
        app.window.show()
        app.controller.reload_runs()
        qapp.processEvents()
        app.window.reset_layout()
        app.window.adjudication.refresh_queue()
        app.window.queue.adjudication_filter.setChecked(True)
        show_run(app, row.run_pk)
        app.window.adjudication.action.trigger()
        pane = app.window.adjudication.pane
        pane.score_current(1)
        pane.reason.setPlainText("PTU off before isolating the pump: anti-procedure, caught")
        pane.flush()
        pane.focus_grid()
        qapp.processEvents()
        OUT.parent.mkdir(parents=True, exist_ok=True)
        app.window.grab().save(str(OUT))
        print("wrote", OUT)
        app.controller.wait_idle()
        app.store.close()


if __name__ == "__main__":
    main()

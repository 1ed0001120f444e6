"""How fast the results dashboard draws on a large database.

    python bench/bench_results.py [--runs 10000] [--raters 3] [--repeat 5] [--db PATH]

Builds (once, kept at ``--db``) a database of ``--runs`` synthetic ScoreCards over four
models and three scenarios, stored through ``ReviewStore.add_scorecards``, and
``--raters`` × ``--runs`` submitted ratings of the default rubric brought in with
``ReviewStore.import_ratings`` (10,000 × 3 = 30,000 ratings, 210,000 items). Then measures:

(a) ``gather``: reading ResultsData from the store with the window's 300 bootstrap
    resamples (off the GUI thread in the window: the user sees "Loading…");
(b) the dashboard draw: for each chart tab, ``ChartCanvas.redraw`` (figure cleared,
    chart built, Agg render) at 1400 × 860 offscreen; the median, min and max of
    ``--repeat`` draws. Target: under 1 s per tab (the window draws only the tab in view);
(c) the Agreement and Validity tables filled from the same data.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore
from scoring import SCORER_VERSION, RequiredAction, ScoreCard

REQUIRED = RequiredAction(
    index=0, block="reset", block_index=0, ordered=True, control="apu_gen", value=0.0
)

MODELS = ("claude-sonnet-4-5", "gemini-2.5-pro", "gpt-5", "llama-4-maverick")
SCENARIOS = ("elec-apu-gen-fault", "elec-eng1-gen-fault", "hyd-blue-elec-pump-fault")


def card(n: int, rng: random.Random) -> ScoreCard:
    """A plausible ScoreCard: each model has its own skill; about 3% of runs are unsafe."""
    model = MODELS[n % len(MODELS)]
    skill = 0.55 + 0.12 * (n % len(MODELS))
    coverage = min(1.0, max(0.0, rng.gauss(skill, 0.2)))
    dangerous = int(rng.random() < 0.03)
    anti = int(rng.random() < 0.1)
    end = 1.0 if rng.random() < skill else 0.0
    base = 0.4 * end + 0.4 * coverage + 0.2
    scalar = 0.0 if dangerous else base * (0.5**anti)
    run_id = f"20260801T{n:06d}Z-{n:06x}"
    scenario = SCENARIOS[(n // len(MODELS)) % len(SCENARIOS)]
    return ScoreCard(
        path=f"/bench/{scenario}/{run_id}.jsonl",
        run_id=run_id,
        scenario_id=scenario,
        model=model,
        reason="agent_done",
        status="scored",
        trajectory_sha256=hashlib.sha256(f"bench {n}".encode()).hexdigest(),
        scorer_version=SCORER_VERSION,
        coverage=round(coverage, 3),
        order=None if rng.random() < 0.2 else 1.0,
        end_state=end,
        all_passed=end == 1.0,
        safety_dangerous=dangerous,
        safety_anti_procedure=anti,
        extraneous=rng.randint(0, 3),
        scalar=round(scalar, 3),
        # One ground-truth action, so that a low score can cite it (GT:1): the default
        # rubric wants evidence for scores of 0 and 1.
        required=[REQUIRED],
    )


def build(db: Path, runs: int, raters: int, rated: int | None = None) -> None:
    """The database: runs through add_scorecards, ratings through import_ratings (of the
    first ``rated`` runs, all by default)."""
    rng = random.Random(7)
    metrics = default_rubric().metric_ids
    with ReviewStore.open(db) as store, tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        store.add_scorecards([card(n, rng) for n in range(runs)])
        rows = store.list_runs()
        print(f"stored {len(rows)} runs in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        rows = rows[:rated]
        for k in range(raters):
            rater = f"rater-{k + 1}"
            path = Path(tmp) / f"{rater}.csv"
            with path.open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
                for row in rows:
                    truth = round(3 * (row.coverage or 0))
                    for m in metrics:
                        if rng.random() < 0.03:
                            w.writerow((row.run_id, m, "not_applicable", "", "not in this run", ""))
                            continue
                        noise = rng.choice((-1, 0, 0, 0, 1))
                        score = min(3, max(0, truth + noise))
                        cited = "GT:1" if score <= 1 else ""
                        w.writerow((row.run_id, m, "applicable", score, "seen in the log", cited))
            start = time.perf_counter()
            store.import_ratings(path, rater=rater)
            took = time.perf_counter() - start
            print(f"imported {len(rows)} ratings of {rater} in {took:.1f} s", file=sys.stderr)


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000, metavar="N", help="runs to store")
    parser.add_argument("--raters", type=int, default=3, metavar="N", help="raters rating all")
    parser.add_argument("--repeat", type=int, default=5, metavar="N", help="draws per tab")
    parser.add_argument(
        "--db", type=Path, default=Path("bench/out/results.db"), metavar="PATH", help="database"
    )
    args = parser.parse_args(argv)
    if not args.db.exists():
        args.db.parent.mkdir(parents=True, exist_ok=True)
        build(args.db, args.runs, args.raters)

    from PySide6.QtWidgets import QApplication

    from reviewer.results.charts import CHARTS
    from reviewer.results.source import gather
    from ui.results.chart_canvas import ChartCanvas
    from ui.results.results_loader import WINDOW_RESAMPLES
    from ui.results.table_views import AgreementView, ValidityView

    qapp = QApplication.instance() or QApplication([])
    with ReviewStore.open(args.db, create=False) as store:
        start = time.perf_counter()
        data = gather(store, resamples=WINDOW_RESAMPLES)
        gathered = time.perf_counter() - start
    m = data.meta
    print(f"# Results dashboard on {m.n_runs} runs, {m.n_ratings} ratings ({m.n_raters} raters)")
    print(f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores\n")
    print(f"(a) gather (off the GUI thread, {WINDOW_RESAMPLES} resamples): {gathered:.2f} s\n")
    print("| tab | median draw (s) | min | max |")
    print("|---|---|---|---|")
    for chart in CHARTS:
        canvas = ChartCanvas(chart)
        canvas.resize(1400, 860)
        canvas.show()
        qapp.processEvents()
        times = []
        for _ in range(args.repeat):
            canvas.set_data(data)
            canvas._drawn_for = None  # force: the canvas skips a redraw of the same data
            times.append(_timed(canvas.redraw))
        canvas.close()
        print(
            f"| {chart.title} | {statistics.median(times):.3f} | {min(times):.3f} | "
            f"{max(times):.3f} |"
        )
    agreement, validity = AgreementView(), ValidityView()
    tables = _timed(lambda: (agreement.set_data(data), validity.set_data(data)))
    print(f"\n(c) Agreement and Validity tables filled: {tables:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

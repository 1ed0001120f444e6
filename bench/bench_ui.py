"""How the review window copes with a big queue and a big trajectory.

    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py [--runs 10000] [--calls 5000]

Prints a markdown table to paste into docs/benchmarks.md:

(a) window to first paint with a database of N runs: build store → controller → window,
    load the queue, show, and render the first frame (``grab()`` forces the paint);
(b) a trajectory of C tool calls: time to score the file alone, and time from selecting it
    in the queue to the run view painted (read on the pool thread, models reset, paint),
    with the ratio (target: under 0.3 s and at most 3× the scoring time);
(c) resident memory after scrolling the whole queue, page by page, painting each page.
Each timing is the best of three, to keep the figure about the code rather than the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.store import ReviewStore
from scoring import score_file
from ui.app import build

SCENARIO = "elec-apu-gen-fault"


def rss_mb() -> float:
    """Current resident set size in MB (Linux)."""
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kib / 1024


def wait(signal, timeout_ms: int = 60000) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


def fill_database(db: Path, runs: int, tmp: Path) -> None:
    """N runs: a few hundred real files scored once, stored under N distinct paths."""
    builders = []
    for n in range(200):
        b = TrajectoryBuilder(
            bundled_scenario(SCENARIO),
            run_id=f"20260724T101500Z-{n:06x}",
            model=f"model-{n % 6}",
            seed=n,
        )
        b.turn("Reading the ECAM.").read("read_ecam").set("apu_gen", 0).set("apu_gen", n % 2)
        builders.append(b.set("ext_pwr", 1).done().final("agent_done", passed=bool(n % 3)))
    cards = []
    for n, b in enumerate(builders):
        path = b.write(tmp / "seed" / f"{n}.jsonl")
        cards.append(score_file(path, with_judge_bundle=False))
    many = [
        cards[i % len(cards)].model_copy(
            update={
                "path": f"/corpus/{SCENARIO}/run-{i:05d}.jsonl",
                "run_id": f"20260724T101500Z-{i:06x}",
                "trajectory_sha256": f"{i:064x}",
            }
        )
        for i in range(runs)
    ]
    with ReviewStore.open(db) as store:
        store.add_scorecards(many)


def big_trajectory(path: Path, calls: int) -> Path:
    b = TrajectoryBuilder(
        bundled_scenario(SCENARIO),
        run_id="20260724T101500Z-b16b16",
        model="model-big",
        snapshot_vars=400,
    )
    for n in range(calls // 2):
        b.turn(f"Turn {n}: checking the AC buses again.").read("read_ecam").set("apu_gen", n % 2)
    return b.final("agent_done").write(path)


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10000)
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        os.environ["A320_REVIEW_HOME"] = str(tmp / "home")
        db = tmp / "review.db"
        fill_database(db, args.runs, tmp)
        big = big_trajectory(tmp / SCENARIO / "big.jsonl", args.calls)
        with ReviewStore.open(db) as store:
            store.import_paths([big])
        apps = []

        def first_paint() -> None:
            app = build(db, "bench", qapp=qapp)
            app.controller.reload_runs()
            app.window.show()
            app.window.grab()
            apps.append(app)

        t_paint = best(first_paint)
        app = apps[-1]
        for other in apps[:-1]:
            other.window.close()
            other.store.close()

        t_score = best(lambda: score_file(big))
        big_pk = next(r.run_pk for r in app.store.list_runs() if r.path == str(big))
        other_pk = next(r.run_pk for r in app.store.list_runs() if r.path != str(big))

        def show_big() -> None:
            app.window.queue.select_run(other_pk)
            wait(app.controller.run_opened)
            start = time.perf_counter()
            app.window.queue.select_run(big_pk)
            wait(app.controller.run_opened)
            app.window.run_view.grab()
            show_times.append(time.perf_counter() - start)

        show_times: list[float] = []
        for _ in range(3):
            show_big()
        t_show = min(show_times)

        view = app.window.queue.view
        bar = view.verticalScrollBar()
        rss_before = rss_mb()
        while bar.value() < bar.maximum():
            bar.setValue(bar.value() + bar.pageStep())
            view.viewport().grab()
        rss_after = rss_mb()
        rows = app.window.queue.model.rowCount()
        app.store.close()

    print(f"\n{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()}\n")
    print("| measure | figure | target |")
    print("|---|---|---|")
    print(f"| window to first paint, {rows:,} runs in the queue | {t_paint:.3f} s | — |")
    print(f"| score the {args.calls:,}-call file alone | {t_score:.3f} s | — |")
    print(f"| select → {args.calls:,}-call run painted | {t_show:.3f} s | < 0.3 s |")
    print(f"| ratio to scoring it | {t_show / t_score:.2f}× | ≤ 3× |")
    print(
        f"| RSS with the window open / after scrolling all {rows:,} queue rows | "
        f"{rss_before:.0f} MB / {rss_after:.0f} MB | flat |"
    )


if __name__ == "__main__":
    main()

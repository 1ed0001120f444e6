"""How the review window copes with a big queue and a big trajectory.

    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py [--runs 10000 50000] [--calls 5000]
    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py --quick     # 2,000 / 10,000 runs

Databases come from ``synthdb.py`` (cached under bench/out/ui; the first build of a 50,000-run
one takes half a minute). Prints a markdown table for docs/benchmarks.md:

(a) window to first paint (store → controller → window, queue loaded, shown, first frame
    rendered by ``grab()``), the small and the big queue paired A B A B ...; the ratio shows
    how first paint grows with the queue;
(b) ``list_runs()`` (most of first paint) timed after it, paired the same way: linear
    growth means a ratio near the ratio of the queue sizes;
(c) a trajectory of C tool calls: scoring it alone, and selecting it in the queue until the
    run view is painted (read on the pool thread, models reset, paint), each selection
    starting from another real run already open; paired per round, ratio = select / score.
    Both are given as their whole distribution (sorted), not a best-of: scoring alone is
    bimodal when a garbage-collector pass lands in it, shown by the same timings with the
    collector paused;
(d) resident memory after scrolling the small queue page by page, painting each page;
(e) the big queue opened as the app opens it: the window painted first while the queue is
    read on a pool thread (``load_runs_in_background``), paired with (a)'s queue-first
    opening; and the time from the same start until the queue is filled and painted.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pairing import Paired, histogram, spread, timed  # bench/ is not a package
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
from synthdb import SCENARIO, cached_database

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.workspace import ReviewStore
from scoring import score_file
from ui.app import build


def rss_mb() -> float:
    """Current resident set size in MB (Linux)."""
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kib / 1024


def open_and_wait(app, run_pk: int) -> None:
    """Select ``run_pk`` and wait until it is open; a failed open stops the benchmark."""
    loop, failed = QEventLoop(), []

    def on_failed(pk: int, message: str) -> None:
        failed.append(message)
        loop.quit()

    app.controller.run_opened.connect(loop.quit)
    app.controller.run_failed.connect(on_failed)
    QTimer.singleShot(30_000, loop.quit)
    try:
        if not app.window.queue.select_run(run_pk):
            raise RuntimeError(f"run {run_pk} is not in the queue")
        loop.exec()
    finally:
        app.controller.run_opened.disconnect(loop.quit)
        app.controller.run_failed.disconnect(on_failed)
    if failed:
        raise RuntimeError(f"run {run_pk} did not open: {failed[0]}")


def big_trajectory(path: Path, calls: int) -> Path:
    """A run of ``calls`` tool calls with 400-variable snapshots."""
    b = TrajectoryBuilder(
        bundled_scenario(SCENARIO),
        run_id="20260724T101500Z-b16b16",
        model="model-big",
        snapshot_vars=400,
    )
    for n in range(calls // 2):
        b.turn(f"Turn {n}: checking the AC buses again.").read("read_ecam").set("apu_gen", n % 2)
    return b.final("agent_done").write(path)


def first_paint(qapp, db: Path, out: dict) -> None:
    """Build the window on ``db`` and paint it; the app is left in ``out['app']``."""
    app = build(db, "bench", qapp=qapp)
    app.controller.reload_runs()
    app.window.show()
    app.window.grab()
    out["app"] = app


def first_paint_background(qapp, db: Path, out: dict) -> float:
    """As the app starts: the window painted first, the queue read on a pool thread.

    Returns the seconds to the first frame; ``out['filled']`` gets the seconds until the
    queue's rows are in the model and painted (from the same start)."""
    start = time.perf_counter()
    app = build(db, "bench", qapp=qapp)
    loop, rows = QEventLoop(), []
    app.controller.load_runs_in_background(then=lambda r: (rows.append(r), loop.quit()))
    app.window.show()
    app.window.grab()
    painted = time.perf_counter() - start
    if not rows:
        QTimer.singleShot(30_000, loop.quit)
        loop.exec()
    if not rows:
        raise RuntimeError("the queue did not load within 30 s")
    app.window.queue.view.viewport().grab()
    out["filled"] = time.perf_counter() - start
    out["app"] = app
    return painted


def close(app) -> None:
    """Close a window and its store, and let Qt delete it."""
    app.window.close()
    app.window.deleteLater()
    app.store.close()
    QApplication.processEvents()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs=2, metavar=("SMALL", "BIG"))
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--pairs", type=int, default=5, help="A B pairs (default 5)")
    parser.add_argument("--repeat", type=int, default=15, help="timings per distribution")
    parser.add_argument("--quick", action="store_true", help="2,000 and 10,000 runs")
    parser.add_argument("--folder", type=Path, default=Path("bench/out/ui"))
    args = parser.parse_args()
    small_n, big_n = args.runs or ((2000, 10_000) if args.quick else (10_000, 50_000))
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    os.environ["A320_REVIEW_HOME"] = str((args.folder / "home").resolve())
    args.folder.mkdir(parents=True, exist_ok=True)
    small_db, big_db = (cached_database(n, args.folder) for n in (small_n, big_n))
    big = big_trajectory(args.folder / f"big-{args.calls}.jsonl", args.calls)
    with ReviewStore.open(small_db) as store:
        store.import_paths([big])

    # (a), (b): first paint and list_runs, small and big queue alternately.
    paint, listing = Paired([], []), Paired([], [])
    for i in range(args.pairs):
        for db, p, lst in ((small_db, paint.a, listing.a), (big_db, paint.b, listing.b)):
            out: dict = {}
            p.append(timed(lambda db=db, out=out: first_paint(qapp, db, out)))
            lst.append(timed(lambda out=out: out["app"].store.list_runs(rater="bench")))
            close(out["app"])
        print(f"bench: (a) pair {i + 1}: {paint.a[-1]:.3f} s / {paint.b[-1]:.3f} s",
              file=sys.stderr)  # fmt: skip

    # (e): the big queue as the app opens it (window first, queue on a pool thread),
    # paired with (a)'s way of opening it (queue read before the first paint).
    background, filled = Paired([], []), []
    for i in range(args.pairs):
        out = {}
        background.a.append(timed(lambda out=out: first_paint(qapp, big_db, out)))
        close(out["app"])
        out = {}
        background.b.append(first_paint_background(qapp, big_db, out))
        filled.append(out["filled"])
        close(out["app"])
        print(f"bench: (e) pair {i + 1}: {background.a[-1]:.3f} s / {background.b[-1]:.3f} s,"
              f" filled {filled[-1]:.3f} s", file=sys.stderr)  # fmt: skip

    # (c): the big trajectory, always selected from another real run already open.
    out = {}
    first_paint(qapp, small_db, out)
    app = out["app"]
    rows = app.store.list_runs()
    big_pk = next(r.run_pk for r in rows if r.path == str(big.resolve()))
    other_pk = next(r.run_pk for r in rows if r.status == "scored" and r.run_pk != big_pk)
    score_alone, show = [], []
    for i in range(args.repeat):
        open_and_wait(app, other_pk)
        score_alone.append(timed(lambda: score_file(big)))
        show.append(timed(lambda: (open_and_wait(app, big_pk), app.window.run_view.grab())))
        print(f"bench: (c) {i + 1}: score {score_alone[-1]:.3f} s, select {show[-1]:.3f} s",
              file=sys.stderr)  # fmt: skip
    gc.disable()
    try:
        score_no_gc = [timed(lambda: score_file(big)) for _ in range(args.repeat)]
    finally:
        gc.enable()
    ratios = [s / a for s, a in zip(show, score_alone, strict=True)]

    # (d): memory over a full scroll of the queue.
    view = app.window.queue.view
    bar = view.verticalScrollBar()
    rss_before = rss_mb()
    while bar.value() < bar.maximum():
        bar.setValue(bar.value() + bar.pageStep())
        view.viewport().grab()
    rss_after = rss_mb()
    queue_rows = app.window.queue.model.rowCount()
    close(app)

    print(f"\n{platform.platform()} · {os.cpu_count()} CPUs · Python {platform.python_version()}"
          f" · {args.pairs} pairs, {args.repeat} timings per distribution\n")  # fmt: skip
    print("| measure | median (min–max, n) | target |\n|---|---|---|")
    print(f"| (a) first paint, {small_n:,} runs | {paint.seconds('a')} | |")
    print(f"| (a) first paint, {big_n:,} runs | **{paint.seconds('b')}** | < 0.5 s |")
    print(f"| (a) ratio big / small, paired | {paint.ratio()} | |")
    print(f"| (b) `list_runs`, {small_n:,} runs | {listing.seconds('a')} | |")
    print(f"| (b) `list_runs`, {big_n:,} runs | {listing.seconds('b')} | |")
    print(f"| (b) ratio big / small, paired | {listing.ratio()} | "
          f"linear: {big_n / small_n:.1f}× |")  # fmt: skip
    print(f"| (c) score the {args.calls:,}-call file alone | {spread(score_alone, ' s', 3)} | |")
    print(f"| (c) select → {args.calls:,}-call run painted | **{spread(show, ' s', 3)}** "
          f"| < 0.3 s |")  # fmt: skip
    print(f"| (c) select / score alone, per round | **{spread(ratios, '×', 2)}** | ≤ 3× |")
    print(f"| (e) {big_n:,} runs, queue read first, then painted (as (a)) | "
          f"{background.seconds('a')} | |")  # fmt: skip
    print(f"| (e) {big_n:,} runs, window painted, queue loading on a pool thread | "
          f"**{background.seconds('b')}** | < 0.5 s |")  # fmt: skip
    print(f"| (e) painted first / queue first, paired | {background.ratio()} | |")
    print(f"| (e) {big_n:,} runs, from the same start until the queue is filled and painted"
          f" | {spread(filled, ' s', 3)} | |")  # fmt: skip
    print(f"| (d) RSS window open / after scrolling all {queue_rows:,} rows | "
          f"{rss_before:.0f} MB / {rss_after:.0f} MB | flat |")  # fmt: skip
    print("\nDistributions (sorted):\n")
    print(f"- score alone: {histogram(score_alone)}")
    print(f"- score alone, collector paused: {histogram(score_no_gc)}")
    print(f"- select → painted: {histogram(show)}")
    print(f"\nMedian score alone {statistics.median(score_alone) * 1e3:.0f} ms, "
          f"collector paused {statistics.median(score_no_gc) * 1e3:.0f} ms.")  # fmt: skip


if __name__ == "__main__":
    main()

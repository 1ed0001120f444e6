"""How the review window copes with a big queue and a big trajectory.

    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py [--runs 10000 50000] [--calls 5000]
    QT_QPA_PLATFORM=offscreen python bench/bench_ui.py --quick     # 2,000 / 10,000 runs

Databases come from ``synthdb.py`` (cached under bench/out/ui; the first build of a 50,000-run
one takes half a minute). Prints a markdown table for docs/benchmarks.md:

(a) process start → window painted with the queue's rows, as ``a320-review gui`` opens
    (``ui_child.py``: the window's imports, the window, the queue read without the store,
    its viewport rendered; the child prints ``time.monotonic()`` then and the parent
    subtracts the instant it took just before spawning it), and → the window ready to rate
    (the store opened behind it, its parts attached, the rows shown as the store lets the
    rater see them). Each is paired with its floor, a process that only imports Qt's
    widgets (``python -c "import PySide6.QtWidgets"``), floor first, A B A B ...; the
    figure is the median (min–max) of the per-pair ratios window / floor; and the CPU
    seconds the child had used at the paint, paired with the floor process's CPU seconds
    (less sensitive to a busy machine than the wall clock);
(b) ``list_runs()`` in one process (the queue's read, on the pool thread in (a)), the small
    and the big queue paired: linear growth means a ratio near the ratio of the sizes;
(c) a trajectory of C tool calls: scoring it alone, and selecting it in the queue until the
    run view is painted (read on the pool thread, models reset, paint), each selection
    starting from another real run already open; paired per round, ratio = select / score.
    Both are given as their whole distribution (sorted), not a best-of: scoring alone is
    bimodal when a garbage-collector pass lands in it, shown by the same timings with the
    collector paused;
(d) resident memory after scrolling the small queue page by page, painting each page.

(b)-(d) are timed inside one process after its imports: they are steps, not start-up.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import statistics
import subprocess
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

CHILD = Path(__file__).resolve().parent / "ui_child.py"
FLOOR = [sys.executable, "-c", "import PySide6.QtWidgets"]


def child_env() -> dict[str, str]:
    """The children's environment: this checkout first on the path, offscreen, .pyc kept."""
    here = str(Path(__file__).resolve().parent.parent)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def process_to_paint(db: Path) -> tuple[float, float, float]:
    """Seconds from spawning ``ui_child.py`` on ``db`` to its queue painted with rows, and
    to the window ready to rate; and the CPU seconds the child had used at the paint."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(CHILD), str(db), "bench"],
        capture_output=True, text=True, check=False, env=child_env(),
    )  # fmt: skip
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"bench: ui_child.py failed:\n{done.stderr[-2000:]}")
    painted, ready, rows, painted_cpu = done.stdout.split()
    if int(rows) == 0:
        raise SystemExit("bench: ui_child.py painted an empty queue")
    return float(painted) - start, float(ready) - start, float(painted_cpu)


def floor_process() -> tuple[float, float]:
    """Seconds of a whole process that imports Qt's widgets and exits, and its CPU
    seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(FLOOR, check=True, env=child_env())
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


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


def close(app) -> None:
    """Close a window and its store, and let Qt delete it."""
    app.window.close()
    app.window.deleteLater()
    app.store.close()
    QApplication.processEvents()


def print_starts(
    starts: dict[int, Paired], readies: dict[int, Paired], cpus: dict[int, Paired]
) -> None:
    """The (a) rows: each queue's start against its floor."""
    print(f"\n{platform.platform()} · {os.cpu_count()} CPUs · Python {platform.python_version()}")
    print(f"Load average {os.getloadavg()[0]:.1f} at the end. Floor: "
          f"`python -c \"import PySide6.QtWidgets\"`, a whole process.\n")  # fmt: skip
    print("| measure | median (min–max, n) | target |\n|---|---|---|")
    for (n, paired), target in zip(starts.items(), ("≤ 2×", "≤ 3×"), strict=True):
        print(f"| (a) floor: a process importing Qt's widgets | {paired.seconds('a')} | |")
        print(f"| (a) process start → window painted with queue rows, {n:,} runs | "
              f"{paired.seconds('b')} | |")  # fmt: skip
        print(f"| (a) window / floor, {n:,} runs, paired | **{paired.ratio()}** "
              f"| {target} |")  # fmt: skip
        print(f"| (a) process start → window ready to rate (store open), {n:,} runs | "
              f"{readies[n].seconds('b')} · {readies[n].ratio()} of the floor | |")  # fmt: skip
        cpu = cpus[n]
        print(f"| (a) CPU until painted / the floor's CPU, {n:,} runs, paired | "
              f"{cpu.ratio()} ({cpu.seconds('b')} / {cpu.seconds('a')}) | |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs=2, metavar=("SMALL", "BIG"))
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--pairs", type=int, default=5, help="A B pairs (default 5)")
    parser.add_argument("--repeat", type=int, default=15, help="timings per distribution")
    parser.add_argument("--quick", action="store_true", help="2,000 and 10,000 runs")
    parser.add_argument("--folder", type=Path, default=Path("bench/out/ui"))
    parser.add_argument("--start-only", action="store_true", help="(a) only")
    args = parser.parse_args()
    small_n, big_n = args.runs or ((2000, 10_000) if args.quick else (10_000, 50_000))
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    os.environ["A320_REVIEW_HOME"] = str((args.folder / "home").resolve())
    args.folder.mkdir(parents=True, exist_ok=True)
    small_db, big_db = (cached_database(n, args.folder) for n in (small_n, big_n))
    big = big_trajectory(args.folder / f"big-{args.calls}.jsonl", args.calls)
    with ReviewStore.open(small_db) as store:
        store.import_paths([big])

    # (a): process start -> painted with rows, each queue paired with the floor.
    starts, readies, cpus = {}, {}, {}
    for n, db in ((small_n, small_db), (big_n, big_db)):
        floor_process(), process_to_paint(db)  # warm the file cache and the .pyc files
        starts[n], readies[n], cpus[n] = Paired([], []), Paired([], []), Paired([], [])
        for i in range(args.pairs):
            floor, floor_cpu = floor_process()
            painted, ready, painted_cpu = process_to_paint(db)
            starts[n].a.append(floor)
            starts[n].b.append(painted)
            readies[n].a.append(floor)
            readies[n].b.append(ready)
            cpus[n].a.append(floor_cpu)
            cpus[n].b.append(painted_cpu)
            print(f"bench: (a) {n:,} runs, pair {i + 1}: floor {floor:.3f} s, "
                  f"window {painted:.3f} s, ready {ready:.3f} s", file=sys.stderr)  # fmt: skip

    if args.start_only:
        print_starts(starts, readies, cpus)
        return

    # (b): list_runs in one process, the small and the big queue alternately.
    listing = Paired([], [])
    for i in range(args.pairs):
        for db, lst in ((small_db, listing.a), (big_db, listing.b)):
            with ReviewStore.open(db, create=False, readonly=True) as store:
                lst.append(timed(lambda store=store: store.list_runs(rater="bench")))
        print(f"bench: (b) pair {i + 1}: {listing.a[-1]:.3f} s / {listing.b[-1]:.3f} s",
              file=sys.stderr)  # fmt: skip

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

    print_starts(starts, readies, cpus)
    print(f"| (b) `list_runs`, {small_n:,} runs | {listing.seconds('a')} | |")
    print(f"| (b) `list_runs`, {big_n:,} runs | {listing.seconds('b')} | |")
    print(f"| (b) ratio big / small, paired | {listing.ratio()} | "
          f"linear: {big_n / small_n:.1f}× |")  # fmt: skip
    print(f"| (c) score the {args.calls:,}-call file alone | {spread(score_alone, ' s', 3)} | |")
    print(f"| (c) select → {args.calls:,}-call run painted | **{spread(show, ' s', 3)}** "
          f"| < 0.3 s |")  # fmt: skip
    print(f"| (c) select / score alone, per round | **{spread(ratios, '×', 2)}** | ≤ 3× |")
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

"""The results as a person waits for them, whole processes from process start.

    python bench/bench_report.py [--pairs 3] [--updates 9] [--db bench/out/results.db]
    python bench/bench_report.py --only report [--pairs 3]   # (b), (c), (d) alone
    python bench/bench_report.py --only small-html [--pairs 5]   # (d) alone

On bench_results.py's database (10,000 runs, 30,000 ratings, built once) and a small one
(30 runs, 84 ratings: 28 runs rated by three raters, built once), each measure paired with
``python -c pass``, floor first, A B A B ...; the figure is the median (min–max) of the
seconds, with the per-pair ratio to the floor:

(a) the dashboard's data, as the window's worker reads it: a process that opens the store
    and builds the point values (``reviewer.results.live.LiveResults``), timed from its
    spawn until it prints ``time.monotonic()`` with them in hand; then, in the same
    process, until the bootstrap intervals (agreement's alpha, the leaderboard, the
    window's resamples) are filled in, which the window shows after the point values;
(b) ``a320-review report --out report.pdf`` on the large database;
(c) ``a320-review report --out report.html`` on the large database (no target);
(d) ``a320-review report --format html`` on the small one;
(e) the dashboard's update after one submit, in one process on a copy of the large
    database: a new rater submits a rating of one run, the dashboard re-reads that run
    and gives its figures; paired with reading everything again in the same process
    (what it did before), A B A B over ``--updates`` submits.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pairing import Paired, spread  # bench/ is not a package: import by path

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
}

#: The window's worker, as a process of its own: point values, instant, intervals, instant.
POINT = r"""
import sys, time
from pathlib import Path
from reviewer.results.live import LiveResults
from reviewer.workspace import ReviewStore
with ReviewStore.open(Path(sys.argv[1]), create=False, readonly=True) as store:
    live = LiveResults(store)
    data = live.data()
print(f"{time.monotonic():.6f}", flush=True)
live.with_intervals(data, seed=0, resamples=int(sys.argv[2]))
print(f"{time.monotonic():.6f}", flush=True)
"""

#: Submits one rating after another, each followed by the dashboard's update (B) and by
#: reading everything again (A, first): prints one "A B" line of seconds per submit.
UPDATE = r"""
import sys, time
from pathlib import Path
from reviewer.results.live import LiveResults
from reviewer.workspace import ReviewStore
with ReviewStore.open(Path(sys.argv[1]), create=False) as store:
    live = LiveResults(store)
    live.data()
    metrics = store.rubric().metric_ids
    for n in range(int(sys.argv[2])):
        run_pk = 101 + 37 * n
        rating = store.start_rating(run_pk, f"bench-{n % 3}")
        for m in metrics:
            rating = store.save_item(rating.rating_pk, m, outcome="applicable", score=3,
                                     comment="bench", expected_version=rating.version)
        store.submit(rating.rating_pk, expected_version=rating.version)
        start = time.perf_counter()
        LiveResults(store).data()
        again = time.perf_counter() - start
        start = time.perf_counter()
        assert live.update(store, [run_pk])
        live.data()
        print(f"{again:.6f} {time.perf_counter() - start:.6f}", flush=True)
"""

TARGETS = {"a": 1.0, "b": 5.0, "d": 2.0, "e": 0.1}


#: CPU seconds (user + system) of each measured process, by measure: on a loaded machine
#: they move far less than the wall seconds.
CPU: dict[str, list[float]] = {}


def _run(cmd: list[str], cpu_key: str | None) -> tuple[subprocess.CompletedProcess[str], float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or (cpu_key == "a" and not done.stdout.strip()):
        raise SystemExit(f"bench: {' '.join(cmd[:3])} failed:\n{done.stderr[-2000:]}")
    if cpu_key is not None:
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        CPU.setdefault(cpu_key, []).append(used)
    return done, start


def whole(cmd: list[str], cpu_key: str | None = None) -> float:
    """Seconds of one whole process; fails loudly when it fails."""
    _done, start = _run(cmd, cpu_key)
    return time.monotonic() - start


def until_printed(cmd: list[str]) -> list[float]:
    """Seconds from spawning ``cmd`` to each ``time.monotonic()`` it prints."""
    done, start = _run(cmd, "a")
    return [float(line) - start for line in done.stdout.split()]


def verdict(key: str, seconds: list[float]) -> str:
    """The target and whether the median meets it."""
    target = TARGETS.get(key)
    if target is None:
        return "—"
    met = "met" if statistics.median(seconds) <= target else "**not met**"
    return f"≤ {target:g} s: {met}"


def databases(large: Path) -> Path:
    """Build the large and the small database when missing; returns the small one's path."""
    from bench_results import build

    small = large.with_name("small-30.db")
    for db, runs, rated in ((large, 10_000, None), (small, 30, 28)):
        if not db.exists():
            db.parent.mkdir(parents=True, exist_ok=True)
            partial = db.with_suffix(".partial")
            partial.unlink(missing_ok=True)
            build(partial, runs, 3, rated=rated)
            partial.rename(db)
    return small


def _updates(tmp: Path, args: argparse.Namespace) -> Paired:
    """(e): submits on a copy of the large database, each update paired with a re-read."""
    copy = tmp / "update.db"
    shutil.copyfile(args.db, copy)
    done = subprocess.run(
        [sys.executable, "-c", UPDATE, str(copy), str(args.updates)],
        capture_output=True, text=True, check=False, env=ENV,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"bench: the update measure failed:\n{done.stderr[-2000:]}")
    update = Paired([], [])
    for line in done.stdout.split("\n"):
        if line.strip():
            again, updated = map(float, line.split())
            update.a.append(again)
            update.b.append(updated)
    return update


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="A B pairs (default 3)")
    parser.add_argument("--updates", type=int, default=9, help="submits timed in (e)")
    parser.add_argument("--db", type=Path, default=Path("bench/out/results.db"))
    parser.add_argument(
        "--only",
        choices=("dashboard", "report", "small-html"),
        help="dashboard: only (a) and (e); report: only (b), (c) and (d); small-html: (d)",
    )
    args = parser.parse_args()
    small = databases(args.db)
    from ui.results.results_loader import WINDOW_RESAMPLES

    py, floor = sys.executable, [sys.executable, "-c", "pass"]
    point, filled = Paired([], []), Paired([], [])
    results: dict[str, tuple[str, Paired]] = {}
    dashboard = args.only not in ("report", "small-html")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.pairs if dashboard else 0):
            base = whole(floor, "floor")
            shown, full = until_printed([py, "-c", POINT, str(args.db), str(WINDOW_RESAMPLES)])
            point.a.append(base)
            point.b.append(shown)
            filled.a.append(base)
            filled.b.append(full)
            print(f"bench: (a) pair {i + 1}: floor {base:.3f} s, point values {shown:.3f} s, "
                  f"intervals {full:.3f} s", file=sys.stderr)  # fmt: skip
        if dashboard:
            results["a"] = ("(a) the dashboard's data: point values shown", point)
            results["a2"] = ("(a) … then the bootstrap intervals filled in", filled)
        report = [py, "-m", "reviewer", "report", "--out"]
        if args.only == "dashboard":
            report = []  # (b)-(d) left out
        measures = {
            "b": ("(b) `a320-review report --out report.pdf`, 10,000 runs",
                  [*report, str(Path(tmp) / "report.pdf"), "--db", str(args.db)]),
            "c": ("(c) `a320-review report --out report.html`, 10,000 runs",
                  [*report, str(Path(tmp) / "report.html"), "--db", str(args.db)]),
            "d": ("(d) `a320-review report --format html`, 30 runs, 84 ratings",
                  [*report, str(Path(tmp) / "small.html"), "--format", "html",
                   "--db", str(small)]),
        }  # fmt: skip
        if args.only == "small-html":
            measures = {"d": measures["d"]}
        for key, (label, cmd) in measures.items() if report else ():
            pair = Paired([], [])
            for i in range(args.pairs):
                pair.a.append(whole(floor, "floor"))
                pair.b.append(whole(cmd, key))
                print(f"bench: {key} pair {i + 1}: floor {pair.a[-1]:.3f} s, "
                      f"B {pair.b[-1]:.3f} s", file=sys.stderr)  # fmt: skip
            results[key] = (label, pair)
        update = _updates(Path(tmp), args) if dashboard else None
    print(f"\n{args.pairs} pairs A B A B, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} at the end; "
          f"databases {args.db.name} (10,000 runs, 30,000 ratings) and {small.name} (30 runs, "
          f"84 ratings). Floor: `python -c pass`, a whole process.\n")  # fmt: skip
    print("| measure | seconds, median (min–max, n) | / floor, paired | CPU s, median | target |")
    print("|---|---|---|---|---|")
    for key, (label, pair) in results.items():
        target = verdict(key, pair.b)
        cpu = f"{statistics.median(CPU[key]):.2f}" if key in CPU else "(as above)"
        print(f"| {label} | {pair.seconds('b')} | {pair.ratio()} | {cpu} | {target} |")
    if update is not None:
        print(
            f"| (e) the dashboard's update after one submit (in process, {len(update.b)} "
            f"submits) | {spread(update.b, ' s', 3)} | {update.ratio()} of reading everything "
            f"again ({spread(update.a, ' s', 3)}) | — | {verdict('e', update.b)} |"
        )
    print(f"\nThe floor's CPU: {statistics.median(CPU['floor']) * 1000:.0f} ms at the median.")
    floor_median = statistics.median(v for _, p in results.values() for v in p.a)
    print(f"\nThe floor took {floor_median * 1000:.0f} ms at the median.")


if __name__ == "__main__":
    main()

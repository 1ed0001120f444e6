"""The results as a person waits for them, whole processes from process start.

    python bench/bench_report.py [--pairs 3] [--db bench/out/results.db]

On bench_results.py's database (10,000 runs, 30,000 ratings, built once), each measure
paired with ``python -c pass``, floor first, A B A B ...; the figure is the median
(min–max) of the per-pair ratios, with the seconds of each side:

(a) the dashboard's data: a process that opens the store and gathers the results as the
    window's worker does (``reviewer.results.source.gather`` with the window's resamples),
    timed from its spawn until it prints ``time.monotonic()`` with the data in hand;
(b) ``a320-review report --out report.pdf``;
(c) ``a320-review report --out report.html``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pairing import Paired  # bench/ is not a package: import by path

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
}

#: The window's worker, as a process of its own: store opened, data gathered, instant printed.
GATHER = r"""
import sys, time
from pathlib import Path
from reviewer.results.source import gather
from reviewer.workspace import ReviewStore
from ui.results.results_loader import WINDOW_RESAMPLES
with ReviewStore.open(Path(sys.argv[1]), create=False, readonly=True) as store:
    data = gather(store, resamples=WINDOW_RESAMPLES)
print(f"{time.monotonic():.6f}", flush=True)
"""


def whole(cmd: list[str]) -> float:
    """Seconds of one whole process; fails loudly when it fails."""
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd[:3])} failed:\n{done.stderr[-2000:]}")
    return time.monotonic() - start


def until_printed(cmd: list[str]) -> float:
    """Seconds from spawning ``cmd`` to the ``time.monotonic()`` it prints."""
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=ENV)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"bench: {' '.join(cmd[:3])} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.split()[-1]) - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="A B pairs (default 3)")
    parser.add_argument("--db", type=Path, default=Path("bench/out/results.db"))
    args = parser.parse_args()
    if not args.db.exists():
        from bench_results import build

        args.db.parent.mkdir(parents=True, exist_ok=True)
        build(args.db, 10_000, 3)
    py, floor = sys.executable, [sys.executable, "-c", "pass"]
    results: dict[str, Paired] = {}
    with tempfile.TemporaryDirectory() as tmp:
        report = [py, "-m", "reviewer", "report", "--db", str(args.db), "--out"]
        measures = {
            "(a) the dashboard's data (gather, the window's resamples)": (
                until_printed, [py, "-c", GATHER, str(args.db)]),
            "(b) `a320-review report --out report.pdf`": (
                whole, [*report, str(Path(tmp) / "report.pdf")]),
            "(c) `a320-review report --out report.html`": (
                whole, [*report, str(Path(tmp) / "report.html")]),
        }  # fmt: skip
        for label, (measure, cmd) in measures.items():
            results[label] = pair = Paired([], [])
            for i in range(args.pairs):
                pair.a.append(whole(floor))
                pair.b.append(measure(cmd))
                print(f"bench: {label} pair {i + 1}: floor {pair.a[-1]:.3f} s, "
                      f"B {pair.b[-1]:.3f} s", file=sys.stderr)  # fmt: skip
    print(f"\n{args.pairs} pairs A B A B, {os.cpu_count()} CPUs, Python "
          f"{sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} at the end; "
          f"database {args.db.name}. Floor: `python -c pass`.\n")  # fmt: skip
    print("| measure | seconds, median (min–max, n) | / floor, paired | target |")
    print("|---|---|---|---|")
    targets = ["≤ 1 s", "≤ 5 s", "≤ 5 s"]
    for (label, pair), target in zip(results.items(), targets, strict=True):
        print(f"| {label} | {pair.seconds('b')} | {pair.ratio()} | {target} |")
    floor_median = statistics.median(v for p in results.values() for v in p.a)
    print(f"\nThe floor took {floor_median * 1000:.0f} ms at the median.")


if __name__ == "__main__":
    main()

"""What the review store adds to scoring, and how fast it lists runs.

    python bench/bench_store.py [--corpus bench/out/corpus] [--n 10000]

Generates the corpus with ``make_corpus.py`` when the folder is missing or short, warms the
OS file cache, then measures and prints a markdown table for docs/benchmarks.md:

(a) ``scoring.score_file(with_judge_bundle=False)`` over every file, in this process, cards
    discarded: the scoring the import does (the store leaves the bulky, derived judge bundle
    out); (a') the same with the default judge bundle. Each best of two runs interleaved with (b);
(b) ``ReviewStore.import_paths`` of the same files into a fresh database (score, batched
    writes with an audit entry per run), also best of two, and its ratio to (a): target
    ≤ 1.5;
(c) re-importing the same files (every file already stored: hashing only);
(d) ``list_runs()`` on the resulting database (best of 5, and with a rater): target well
    under a second for 10,000 runs;
(e) the database size.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scoring import corpus_files  # bench/ is not a package: import by path

from reviewer.store import ReviewStore
from scoring import score_file


def _timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _score_all(paths: list[Path], *, bundle: bool) -> None:
    # Each card is dropped at once, as the import drops it: keeping 10,000 cards alive would
    # slow the baseline with garbage-collector work and flatter the ratio.
    for path in paths:
        score_file(path, with_judge_bundle=bundle)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"))
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    paths = corpus_files(args.corpus, args.n, args.seed)
    n = len(paths)
    size = sum(p.stat().st_size for p in paths)
    for path in paths:  # warm the page cache: compare CPU work, not the disk
        path.read_bytes()

    # Scoring alone is timed before and after the import and the faster run kept: on a
    # shared machine one run can be slowed by a neighbour, and the ratio must not flatter.
    # Every measure is taken twice, interleaved, and the faster kept: on a shared machine
    # one run can be slowed by a neighbour, and the ratio must neither flatter nor suffer.
    full, lean, imports = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        for attempt in range(2):
            full.append(_timed(lambda: _score_all(paths, bundle=True))[0])
            lean.append(_timed(lambda: _score_all(paths, bundle=False))[0])
            db_path = Path(tmp) / f"review-{attempt}.db"
            with ReviewStore.open(db_path) as store:
                seconds, report = _timed(lambda s=store: s.import_paths(paths))
                imports.append(seconds)
        with ReviewStore.open(db_path) as store:
            reimport_s, again = _timed(lambda: store.import_paths(paths))
            runs = store.count_runs()
            list_times = []
            for _ in range(5):
                t, rows = _timed(store.list_runs)
                list_times.append(t)
            rater_s, _ = _timed(lambda: store.list_runs(rater="bench"))
        db_mb = db_path.stat().st_size / 1e6

    lean_s, full_s = min(lean), min(full)
    import_s = min(imports)
    ratio = import_s / lean_s

    def row(label: str, seconds: float, target: str = "") -> None:
        print(f"| {label} | {seconds:.2f} s | {seconds / n * 1e3:.2f} ms | {target} |")

    print(
        f"<!-- bench_store.py, {platform.python_implementation()} {platform.python_version()}"
        f", {platform.machine()} -->"
    )
    print(
        f"Corpus: {n:,} trajectories, {size / 1e6:.0f} MB; {runs:,} runs stored "
        f"({len(report.unreadable)} unreadable on purpose), database {db_mb:.0f} MB.\n"
    )
    print("| measure | time | per file | target |")
    print("|---|---|---|---|")
    row(f"(a) score_file loop, judge bundle left out (best of {lean[0]:.1f}, {lean[1]:.1f} s)",
        lean_s)  # fmt: skip
    row(f"(a') score_file loop, default (best of {full[0]:.1f}, {full[1]:.1f} s)", full_s)
    row(
        f"(b) import into a fresh database (best of {imports[0]:.1f}, {imports[1]:.1f} s)", import_s
    )
    print(f"| (b)/(a) import over the scoring it does | **{ratio:.2f}×** | | ≤ 1.5× |")
    print(f"| (b)/(a') import over default scoring | {import_s / full_s:.2f}× | | |")
    row(f"(c) re-import, all unchanged ({again.unchanged:,})", reimport_s)
    print(
        f"| (d) list_runs(), {len(rows):,} runs, best of 5 | **{min(list_times) * 1e3:.0f} ms**"
        f" | | well under 1 s |"
    )
    print(f"| (d) list_runs(rater=...), first call | {rater_s * 1e3:.0f} ms | | |")
    return 0 if ratio <= 1.5 and min(list_times) < 1.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())

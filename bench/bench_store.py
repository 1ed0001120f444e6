"""What the review store adds to scoring, and how the run list grows with the queue.

    python bench/bench_store.py [--corpus bench/out/corpus] [--n 10000] [--runs 10000 50000]
    python bench/bench_store.py --quick     # 1,000 files; 2,000 / 10,000 runs

Generates the corpus with ``make_corpus.py`` when the folder is missing or short and warms
the OS file cache. Every comparison is paired (A B A B ..., ``--pairs``, default 5) and given
as the median of the per-pair ratios with min and max. Prints a markdown table:

(a)/(b) ``score_file(with_judge_bundle=False)`` over the files (the scoring the import does:
        the store leaves the bulky, derived judge bundle out) against
        ``ReviewStore.import_paths`` of the same files into a fresh database: target ≤ 1.3×;
(c)     re-importing the same files (every file already stored: hashing only);
(d)     ``list_runs()`` on a small and a big queue (``synthdb.py``): linear growth means a
        ratio near the ratio of the sizes;
(e)     ``a320-review runs`` on the big queue, table to a file, as a whole process: under 1 s
        at 50,000 runs.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scoring import corpus_files  # bench/ is not a package: import by path
from pairing import distribution, paired, spread
from synthdb import cached_database

from reviewer.workspace import ReviewStore
from scoring import score_file


def score_lean(paths: list[Path]) -> None:
    """The import's scoring, cards dropped at once as the import drops them."""
    for path in paths:
        score_file(path, with_judge_bundle=False)


def runs_verb(db: Path, out: Path) -> None:
    """``a320-review runs --db DB`` as a whole process, its table written to ``out``."""
    exe = shutil.which("a320-review", path=str(Path(sys.executable).parent)) or "a320-review"
    with out.open("w") as fh:
        subprocess.run([exe, "runs", "--db", str(db)], stdout=fh, stderr=subprocess.DEVNULL,
                       check=True)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"))
    parser.add_argument("--n", type=int, help="files to import (default 10000, --quick 1000)")
    parser.add_argument("--runs", type=int, nargs=2, metavar=("SMALL", "BIG"))
    parser.add_argument("--pairs", type=int, default=5, help="A B pairs (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="1,000 files; 2,000 / 10,000 runs")
    parser.add_argument("--folder", type=Path, default=Path("bench/out/ui"))
    args = parser.parse_args(argv)
    n_wanted = args.n or (1000 if args.quick else 10_000)
    small_n, big_n = args.runs or ((2000, 10_000) if args.quick else (10_000, 50_000))

    paths = corpus_files(args.corpus, n_wanted, args.seed)
    n, size = len(paths), sum(p.stat().st_size for p in paths)
    for path in paths:  # warm the page cache: compare CPU work, not the disk
        path.read_bytes()

    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        dbs = iter(Path(tmp) / f"review-{i}.db" for i in range(args.pairs))
        last: dict = {}

        def import_fresh() -> None:
            db = next(dbs)
            with ReviewStore.open(db) as store:
                last["report"] = store.import_paths(paths)
            last["db"] = db

        score_import = paired(lambda: score_lean(paths), import_fresh, args.pairs,
                              "(a) scoring / (b) import")  # fmt: skip
        with ReviewStore.open(last["db"]) as store:
            reimport = distribution(lambda: store.import_paths(paths), 3)
            stored = store.count_runs()
        db_mb = last["db"].stat().st_size / 1e6

        args.folder.mkdir(parents=True, exist_ok=True)
        small_db, big_db = (cached_database(k, args.folder) for k in (small_n, big_n))
        with ReviewStore.open(small_db) as small, ReviewStore.open(big_db) as big:
            listing = paired(lambda: small.list_runs(rater="bench"),
                             lambda: big.list_runs(rater="bench"), args.pairs,
                             "(d) list_runs small / big")  # fmt: skip
        table = Path(tmp) / "runs.txt"
        verb = distribution(lambda: runs_verb(big_db, table), args.pairs)

    unreadable = len(last["report"].unreadable)
    print(f"\n{platform.platform()} · Python {platform.python_version()} · "
          f"{args.pairs} pairs per figure\n")  # fmt: skip
    print(f"Corpus: {n:,} trajectories, {size / 1e6:.0f} MB; {stored:,} runs stored "
          f"({unreadable} unreadable on purpose), database {db_mb:.0f} MB.\n")  # fmt: skip
    print("| measure | median (min–max, n) | target |\n|---|---|---|")
    print(f"| (a) `score_file` loop, judge bundle left out | {score_import.seconds('a')} | |")
    print(f"| (b) import into a fresh database | {score_import.seconds('b')} | |")
    print(f"| (b)/(a) import over the scoring it does, paired | **{score_import.ratio()}** "
          f"| ≤ 1.3× |")  # fmt: skip
    print(f"| (c) re-import, all unchanged | {spread(reimport, ' s', 2)} | |")
    print(f"| (d) `list_runs()`, {small_n:,} runs | {listing.seconds('a')} | |")
    print(f"| (d) `list_runs()`, {big_n:,} runs | {listing.seconds('b')} | |")
    print(f"| (d) big / small, paired | **{listing.ratio()}** | linear: {big_n / small_n:.1f}× |")
    print(f"| (e) `a320-review runs`, {big_n:,} runs, whole process | **{spread(verb, ' s', 2)}**"
          f" | < 1 s at 50,000 |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

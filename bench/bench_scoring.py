"""How fast and how lean the scorer is, against the floor of merely parsing the files.

    python bench/bench_scoring.py [--corpus bench/out/corpus] [--n 10000] [--jobs 2]

Generates the corpus with ``make_corpus.py`` when the folder is missing or short, then
measures in one go and prints a markdown table to paste into docs/benchmarks.md:

(a) raw parse limit: read every file and ``json.loads`` every line, nothing else;
(b) ``scoring.score_file`` over every file in this process, and its ratio to (a);
(c) files per second of (b);
(d) peak RSS (VmHWM) of a fresh process that scores 0 (import only), 1,000 and N files,
    one at a time and discarding the cards: flat numbers mean memory does not grow with N;
(e) wall time of ``a320-review score DIR --format jsonl --jobs 1`` against ``--jobs J``.
The OS file cache is warmed first so (a) and (b) compare parsing, not the disk.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_corpus  # bench/ is not a package: import by path

# Run in a fresh interpreter: imports the scorer, scores the first N files, reports VmHWM.
_CHILD = r"""
import json, sys
from pathlib import Path
paths = sorted(Path(sys.argv[1]).rglob("*.jsonl"))[: int(sys.argv[2])]
from scoring import score_file
for path in paths:
    score_file(path)
peak = None
try:
    with open("/proc/self/status") as status:
        peak = next(int(l.split()[1]) * 1024 for l in status if l.startswith("VmHWM:"))
except (OSError, StopIteration):
    import resource  # ru_maxrss is KiB on Linux
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"files": len(paths), "peak_rss": peak}))
"""


def corpus_files(corpus: Path, n: int, seed: int) -> list[Path]:
    """The first ``n`` trajectories of the corpus, generating it if it has fewer."""
    paths = sorted(corpus.rglob("*.jsonl")) if corpus.is_dir() else []
    if len(paths) < n:
        print(f"bench: generating {n} trajectories into {corpus}", file=sys.stderr)
        make_corpus(n, corpus, seed=seed, jobs=max(1, min(2, os.cpu_count() or 1)))
        paths = sorted(corpus.rglob("*.jsonl"))
    return paths[:n]


def raw_parse(paths: list[Path]) -> tuple[float, int]:
    """Seconds to read every file and json.loads every non-blank line; lines parsed."""
    start, lines = time.perf_counter(), 0
    for path in paths:
        for line in path.read_bytes().splitlines():
            if line.strip():
                # The corpus holds a few corrupt and torn lines on purpose.
                with contextlib.suppress(ValueError):
                    json.loads(line)
                lines += 1
    return time.perf_counter() - start, lines


def score_all(paths: list[Path]) -> float:
    """Seconds for score_file over every path, this process."""
    from scoring import score_file

    start = time.perf_counter()
    for path in paths:
        score_file(path)
    return time.perf_counter() - start


def peak_rss(corpus: Path, n: int) -> dict:
    """Peak RSS of a fresh interpreter scoring the first ``n`` files."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(corpus), str(n)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def cli_wall(corpus: Path, jobs: int) -> float | None:
    """Wall seconds of the score verb over the corpus folder; None if it is not installed."""
    exe = Path(sys.executable).with_name("a320-review")
    exe = str(exe) if exe.exists() else shutil.which("a320-review")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [exe, "score", str(corpus), "--format", "jsonl", "--out", f"{tmp}/cards.jsonl",
               "--jobs", str(jobs)]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1 = some files unreadable, which the corpus has
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return wall


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"))
    parser.add_argument("--n", type=int, default=10_000, help="files to measure (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed if it is generated")
    parser.add_argument("--jobs", type=int, default=2, help="workers for the parallel CLI run")
    args = parser.parse_args(argv)

    paths = corpus_files(args.corpus, args.n, args.seed)
    n, size = len(paths), sum(p.stat().st_size for p in paths)
    if n < args.n:
        print(f"bench: only {n} files under {args.corpus}; measuring those", file=sys.stderr)
    for path in paths:  # warm the file cache so both passes below read from memory
        path.read_bytes()
    print(f"bench: (a) raw parse of {n} files", file=sys.stderr)
    t_raw, lines = raw_parse(paths)
    print("bench: (b) score_file, one process", file=sys.stderr)
    t_score = score_all(paths)
    # The children score files in the same sorted order as corpus_files picks them.
    sizes = sorted({0, min(1000, n), n})
    print(f"bench: (d) peak RSS for {sizes} files", file=sys.stderr)
    mem = {k: peak_rss(args.corpus, k)["peak_rss"] for k in sizes}
    print(f"bench: (e) a320-review score --jobs 1 / --jobs {args.jobs}", file=sys.stderr)
    # The CLI scores the whole folder: same files only when the folder holds exactly n.
    cli_1, cli_j = cli_wall(args.corpus, 1), cli_wall(args.corpus, args.jobs)
    cli_n = len(list(args.corpus.rglob("*.jsonl")))

    mb = 1024 * 1024
    rows = [
        ("corpus", f"{n:,} files, {size / mb:,.0f} MiB, {lines:,} records"),
        ("(a) raw parse: read + `json.loads` every line",
         f"{t_raw:.1f} s ({n / t_raw:,.0f} files/s)"),
        ("(b) `score_file`, one process", f"{t_score:.1f} s ({t_score / t_raw:.1f}× raw parse)"),
        ("(c) throughput of (b)", f"{n / t_score:,.0f} files/s, {size / mb / t_score:.1f} MiB/s"),
    ]  # fmt: skip
    rows += [(f"(d) peak RSS, fresh process, {k:,} files" + (" (import only)" if k == 0 else ""),
              f"{v / mb:.0f} MiB") for k, v in mem.items()]  # fmt: skip
    if cli_1 is None or cli_j is None:
        rows.append(("(e) `a320-review score`", "not installed: skipped"))
    else:
        rows += [
            (f"(e) `a320-review score --jobs 1` ({cli_n:,} files)", f"{cli_1:.1f} s"),
            (f"(e) `a320-review score --jobs {args.jobs}`",
             f"{cli_j:.1f} s (speed-up {cli_1 / cli_j:.2f}×)"),
        ]  # fmt: skip
    print(f"\nMachine: {platform.platform()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs\n")  # fmt: skip
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How fast and how lean the scorer is, against the floor of merely parsing the files.

    python bench/bench_scoring.py [--corpus bench/out/corpus] [--n 10000] [--jobs 2]
    python bench/bench_scoring.py --quick      # 1,000 files, a minute or two

Generates the corpus with ``make_corpus.py`` when the folder is missing or short, warms the
OS file cache, then prints a markdown table for docs/benchmarks.md. Every comparison is
paired (A B A B ..., ``--pairs`` pairs, default 5): the figure is the median of the per-pair
ratios, with min and max.

(a)/(b) raw parse (read every file, ``json.loads`` every line) against ``score_file`` over
        the same files in this process: the scorer's cost over the parse floor;
(d)     peak RSS (VmHWM) of a fresh process scoring 0 (import only), 1,000 and N files;
(e)     ``a320-review score --jobs 1`` against ``--jobs J`` on the same files, and in the
        same pairs the machine's bound: J pure-Python busy loops side by side against one.
        The figure is the speed-up and its ratio to the bound (target ≥ 90%);
(f)     CPU seconds a worker spends importing the scorer before its first file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_corpus  # bench/ is not a package: import by path
from pairing import Paired, paired, spread, timed

# Run in a fresh interpreter: imports the scorer, scores the first N files, reports VmHWM.
_CHILD = r"""
import json, sys
from pathlib import Path
paths = sorted(Path(sys.argv[1]).rglob("*.jsonl"))[: int(sys.argv[2])]
from scoring import score_file
for path in paths:
    score_file(path)
with open("/proc/self/status") as status:
    peak = next(int(l.split()[1]) * 1024 for l in status if l.startswith("VmHWM:"))
print(json.dumps({"files": len(paths), "peak_rss": peak}))
"""
# A busy loop of fixed work: J of them side by side against one is what J cores give.
_SPIN = "n = 0\nfor i in range({k}):\n    n += i\n"


def corpus_files(corpus: Path, n: int, seed: int) -> list[Path]:
    """The first ``n`` trajectories of the corpus, generating it if it has fewer."""
    paths = sorted(corpus.rglob("*.jsonl")) if corpus.is_dir() else []
    if len(paths) < n:
        print(f"bench: generating {n} trajectories into {corpus}", file=sys.stderr)
        make_corpus(n, corpus, seed=seed, jobs=max(1, min(2, os.cpu_count() or 1)))
        paths = sorted(corpus.rglob("*.jsonl"))
    return paths[:n]


def subset_folder(paths: list[Path], root: Path) -> Path:
    """A folder of symlinks to exactly ``paths``, for the CLI (which scores whole folders)."""
    folder = root / f"subset-{len(paths)}"
    if folder.is_dir() and len(list(folder.iterdir())) == len(paths):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for i, path in enumerate(paths):
        (folder / f"{i:06d}-{path.name}").symlink_to(path.resolve())
    return folder


def raw_parse(paths: list[Path]) -> int:
    """Read every file and json.loads every non-blank line; returns the lines parsed."""
    lines = 0
    for path in paths:
        for line in path.read_bytes().splitlines():
            if line.strip():
                with contextlib.suppress(ValueError):  # a few corrupt lines on purpose
                    json.loads(line)
                lines += 1
    return lines


def score_all(paths: list[Path]) -> None:
    """score_file over every path in this process, each card dropped at once."""
    from scoring import score_file

    for path in paths:
        score_file(path)


def peak_rss(corpus: Path, n: int) -> int:
    """Peak RSS of a fresh interpreter scoring the first ``n`` files."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(corpus), str(n)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])["peak_rss"]


def cli(folder: Path, jobs: int, out: Path) -> None:
    """The score verb over ``folder`` with ``jobs`` workers, cards to ``out``."""
    exe = shutil.which("a320-review", path=str(Path(sys.executable).parent)) or "a320-review"
    cmd = [exe, "score", str(folder), "--format", "jsonl", "--out", str(out), "--jobs", str(jobs)]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):  # 1 = some files unreadable, which the corpus has
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")


def spin(copies: int, k: int) -> None:
    """``copies`` processes each running the same busy loop, side by side."""
    procs = [subprocess.Popen([sys.executable, "-c", _SPIN.format(k=k)]) for _ in range(copies)]
    for proc in procs:
        proc.wait()


def import_cpu(repeat: int) -> list[float]:
    """CPU seconds (user + sys) of a fresh interpreter importing the scorer, minus a bare one."""

    def child_cpu(code: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    return [child_cpu("import scoring") - child_cpu("pass") for _ in range(repeat)]


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"))
    parser.add_argument("--n", type=int, help="files to measure (default 10000, --quick 1000)")
    parser.add_argument("--pairs", type=int, default=5, help="A B pairs per figure (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed if it is generated")
    parser.add_argument("--jobs", type=int, default=2, help="workers for the parallel CLI run")
    parser.add_argument("--quick", action="store_true", help="1,000 files: a quick re-check")
    args = parser.parse_args(argv)
    n_wanted = args.n or (1000 if args.quick else 10_000)

    paths = corpus_files(args.corpus, n_wanted, args.seed)
    n, size = len(paths), sum(p.stat().st_size for p in paths)
    for path in paths:  # warm the file cache: compare parsing, not the disk
        path.read_bytes()
    lines = raw_parse(paths)
    parse_score = paired(lambda: raw_parse(paths), lambda: score_all(paths), args.pairs,
                         "(a) raw parse / (b) score_file")  # fmt: skip

    sizes = sorted({0, min(1000, n), n})
    print(f"bench: (d) peak RSS for {sizes} files", file=sys.stderr)
    mem = {k: peak_rss(args.corpus, k) for k in sizes}

    folder = subset_folder(paths, Path("bench/out"))
    jobs = args.jobs
    # The busy loop is sized to take about as long as --jobs 1 does, so that both halves
    # of the bound see the same stretch of the neighbours' load.
    start = time.perf_counter()
    spin(1, 10_000_000)
    k = int(10_000_000 * parse_score.b[-1] / (time.perf_counter() - start))
    cli_pairs, spin_pairs = Paired([], []), Paired([], [])
    with tempfile.TemporaryDirectory(prefix="bench-scoring-") as tmp:
        out = Path(tmp) / "cards.jsonl"
        for i in range(args.pairs):  # all four in each round: the bound sees the same load
            cli_pairs.a.append(timed(lambda: cli(folder, 1, out)))
            cli_pairs.b.append(timed(lambda: cli(folder, jobs, out)))
            spin_pairs.a.append(timed(lambda: spin(1, k)))
            spin_pairs.b.append(timed(lambda: spin(jobs, k)))
            print(f"bench: (e) round {i + 1}/{args.pairs}: --jobs 1 {cli_pairs.a[-1]:.2f} s, "
                  f"--jobs {jobs} {cli_pairs.b[-1]:.2f} s, loops {spin_pairs.a[-1]:.2f} s / "
                  f"{spin_pairs.b[-1]:.2f} s", file=sys.stderr)  # fmt: skip
    # Speed-up of J workers: t1/tJ. Bound: J loops do J times the work in tJ', so J*t1'/tJ'.
    speedups = [1 / r for r in cli_pairs.ratios]
    bounds = [jobs / r for r in spin_pairs.ratios]
    to_bound = [s / b for s, b in zip(speedups, bounds, strict=True)]
    starts = import_cpu(args.pairs)

    mb = 1024 * 1024
    print(f"\nMachine: {platform.platform()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs; {args.pairs} pairs per figure\n")  # fmt: skip
    print("| measure | median (min–max, pairs) |\n|---|---|")
    rows = [
        ("corpus", f"{n:,} files, {size / mb:,.0f} MiB, {lines:,} records"),
        ("(a) raw parse: read + `json.loads` every line", parse_score.seconds("a")),
        ("(b) `score_file`, one process", parse_score.seconds("b")),
        ("(b)/(a) scoring over the parse floor, paired", f"**{parse_score.ratio()}**"),
        ("(c) throughput of (b)",
         f"{n / statistics.median(parse_score.b):,.0f} files/s, "
         f"{size / mb / statistics.median(parse_score.b):.1f} MiB/s"),
    ]  # fmt: skip
    rows += [(f"(d) peak RSS, fresh process, {k:,} files" + (" (import only)" if k == 0 else ""),
              f"{v / mb:.0f} MiB") for k, v in mem.items()]  # fmt: skip
    rows += [
        (f"(e) `a320-review score --jobs 1`, {n:,} files", cli_pairs.seconds("a")),
        (f"(e) `--jobs {jobs}`", cli_pairs.seconds("b")),
        (f"(e) speed-up of `--jobs {jobs}`, paired", spread(speedups, "×", 2)),
        (f"(e) bound: {jobs} busy loops side by side / one, paired", spread(bounds, "×", 2)),
        ("(e) speed-up / bound, per pair", f"**{spread([100 * t for t in to_bound], '%', 0)}**"),
        ("(f) CPU to import the scorer in a fresh process", spread(starts, " s", 3)),
    ]
    for name, value in rows:
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

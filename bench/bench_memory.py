"""Peak memory of ``a320-review score`` as the corpus grows, against its floor.

    python bench/bench_memory.py [--sizes 1000 10000 50000] [--pairs 1]

For each size, whole processes, A B A B ...: (A) a bare Python process that walks the folder
(``os.walk``) and ``json.loads`` every line of every file, one file at a time: the floor of
merely reading the files; (B) ``a320-review score DIR --out FILE``. The figure is each
process's peak resident set (``/usr/bin/time -f %M``, see :func:`peak_mb`), and the
growth from the smallest size to each larger one: flat means the ratio stays near 1
(target: 50,000 files within 1.2× of 1,000).

The folders hold hard links to the files of ``bench/out/corpus`` (made with make_corpus.py
when missing) under distinct names, so 50,000 files take no extra disk: peak memory is about
how many files a process holds, not what they say.
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
from make_corpus import make_corpus  # bench/ is not a package: import by path

#: The floor: every line of every file parsed, one file at a time, nothing kept.
FLOOR = r"""
import json, os, sys
for folder, dirs, files in os.walk(sys.argv[1]):
    for name in files:
        if name.endswith(".jsonl"):
            with open(os.path.join(folder, name), "rb") as fh:
                for line in fh:
                    if line.strip():
                        try:
                            json.loads(line)
                        except ValueError:  # the corpus holds a few corrupt lines on purpose
                            pass
"""

#: GNU time: ``apt-get install time`` where it is missing.
TIME = "/usr/bin/time"
HERE = Path(__file__).resolve().parent
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")])),
}


def linked_corpus(corpus: Path, n: int) -> Path:
    """A folder of ``n`` hard links to the corpus' files, in its scenario folders."""
    files = sorted(corpus.rglob("*.jsonl")) if corpus.is_dir() else []
    if not files:
        print(f"bench: generating 1,000 trajectories into {corpus}", file=sys.stderr)
        make_corpus(1000, corpus, seed=1, jobs=max(1, min(2, os.cpu_count() or 1)))
        files = sorted(corpus.rglob("*.jsonl"))
    out = corpus.with_name(f"{corpus.name}-linked-{n}")
    if len(list(out.rglob("*.jsonl"))) != n:
        for i in range(n):
            source = files[i % len(files)]
            target = out / source.parent.name / f"{i // len(files):03d}-{source.name}"
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.link(source, target)
    return out


def peak_mb(cmd: list[str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one whole process; fails loudly when it fails.

    The peak comes from ``/usr/bin/time -f %M``, which forks the command from its own small
    process: Linux carries the forking process's resident set into the child's
    ``ru_maxrss`` (kept across ``exec``), so a child forked from this script, which holds
    the corpus' file list, would report this script's size instead of its own.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as peak:
        start = time.monotonic()
        done = subprocess.run(
            [TIME, "-f", "%M", "-o", peak.name, *cmd],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=ENV,
        )  # fmt: skip
        took = time.monotonic() - start
        if done.returncode not in (0, 1):  # score exits 1 for the corpus' corrupt files
            raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{done.stderr.decode()[-2000:]}")
        kib = int(peak.read().split()[-1])
    return kib / 1024, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 50_000])
    parser.add_argument("--pairs", type=int, default=1, help="A B pairs per size (default 1)")
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"))
    args = parser.parse_args()
    if not Path(TIME).is_file():
        raise SystemExit(f"bench: {TIME} is missing (GNU time: apt-get install time)")
    score = [sys.executable, "-m", "reviewer", "score"]
    floor: dict[int, list[float]] = {}
    scored: dict[int, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "cards.jsonl")
        for n in args.sizes:
            folder = str(linked_corpus(args.corpus, n))
            for i in range(args.pairs):
                a, ta = peak_mb([sys.executable, "-c", FLOOR, folder])
                b, tb = peak_mb([*score, folder, "--out", out])
                floor.setdefault(n, []).append(a)
                scored.setdefault(n, []).append(b)
                print(f"bench: {n:,} files, pair {i + 1}: floor {a:.1f} MB ({ta:.0f} s), "
                      f"score {b:.1f} MB ({tb:.0f} s)", file=sys.stderr)  # fmt: skip
    first = args.sizes[0]
    med = {n: (statistics.median(floor[n]), statistics.median(scored[n])) for n in args.sizes}
    load = os.getloadavg()[0]
    print(f"\n{args.pairs} pair(s) per size, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}, load average {load:.1f} at the end.")  # fmt: skip
    print("Floor: a process that `json.loads` every line of every file, one file at a time.\n")
    print(f"| files | floor peak RSS | `score` peak RSS | score / floor | "
          f"floor / floor at {first:,} | **score / score at {first:,}** | target |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        fl, sc = med[n]
        target = "≤ 1.2×" if n != first else ""
        grow_floor, grow_score = fl / med[first][0], sc / med[first][1]
        print(f"| {n:,} | {fl:.1f} MB | {sc:.1f} MB | {sc / fl:.2f}× | "
              f"{grow_floor:.2f}× | **{grow_score:.2f}×** | {target} |")  # fmt: skip


if __name__ == "__main__":
    main()

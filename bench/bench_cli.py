"""The command line against its floors, whole processes, start-up and output included.

    python bench/bench_cli.py [--corpus bench/out/corpus] [--n 2000] [--pairs 5]
                              [--exe PATH/TO/a320-review]

Two pairings, each run A B A B ... so that both sides see the same machine load, and
reported as the median of the per-pair ratios A/B with their min and max:

(1) throughput: ``a320-review score DIR --out cards.jsonl`` (A) against a bare Python process
    that reads every ``*.jsonl`` file of DIR and ``json.loads`` every line (B): the floor of
    merely parsing the files. The target is a median ratio of at most 1.3.
(2) start-up: ``a320-review --help`` and ``a320-review --version`` (A) against
    ``python -c pass`` (B), the floor of any Python process (target: at most 1.5×);
(3) ``a320-review runs --db DB`` on a 50,000-run database (``synthdb.py``, cached in
    bench/out/ui) against ``python -c pass`` (target: under 1 s, whole process).

Every child gets this checkout first on ``PYTHONPATH``, so an installed ``a320-review`` runs
this checkout's code.

The corpus is generated with make_corpus.py when missing or short. ``--exe`` measures another
installation, e.g. a wheel installed in a fresh virtual environment outside the repository.
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import make_corpus  # bench/ is not a package: import by path

#: The floor: read and parse every line of every file, in a process of its own.
PARSE_ONLY = r"""
import json, sys
from pathlib import Path
for path in sorted(Path(sys.argv[1]).rglob("*.jsonl")):
    for line in path.read_bytes().splitlines():
        if line.strip():
            try:
                json.loads(line)
            except ValueError:  # the corpus holds a few corrupt lines on purpose
                pass
"""


def corpus_dir(corpus: Path, n: int) -> Path:
    """A folder holding exactly the first ``n`` trajectories of ``corpus`` (made if short)."""
    paths = sorted(corpus.rglob("*.jsonl")) if corpus.is_dir() else []
    if len(paths) < n:
        print(f"bench: generating {n} trajectories into {corpus}", file=sys.stderr)
        make_corpus(n, corpus, seed=1, jobs=max(1, min(2, os.cpu_count() or 1)))
        paths = sorted(corpus.rglob("*.jsonl"))
    if len(paths) == n:
        return corpus
    # Both sides must read the same files: link the first n into a folder of their own.
    subset = corpus.with_name(f"{corpus.name}-first-{n}")
    if not subset.is_dir() or len(list(subset.rglob("*.jsonl"))) != n:
        shutil.rmtree(subset, ignore_errors=True)
        for path in paths[:n]:
            target = subset / path.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)
    return subset


#: The children run as a user's shell runs them: with the .pyc cache (an environment that
#: sets PYTHONDONTWRITEBYTECODE recompiles every module on every start) and buffered output.
CHILD_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONPROFILEIMPORTTIME")
}
CHILD_ENV["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(Path(__file__).resolve().parent.parent), CHILD_ENV.get("PYTHONPATH")])
)


#: CPU seconds (user + system) of every process measured so far, by command.
CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _label(cmd: list[str]) -> str:
    """``a320-review score``, ``python -c pass``, ``python -c PARSE_ONLY``: short, distinct."""
    if len(cmd) > 2 and cmd[1] == "-c":
        return f"{Path(cmd[0]).name} -c {'PARSE_ONLY' if cmd[2] == PARSE_ONLY else cmd[2]}"
    return " ".join([Path(cmd[0]).name, *cmd[1:2]])


def wall(cmd: list[str]) -> float:
    """Seconds for one whole process (its CPU time goes to :data:`CPU`); fails loudly when
    the command fails."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=CHILD_ENV
    )
    elapsed = time.perf_counter() - start
    CPU.setdefault(_label(cmd), []).append(_children_cpu() - cpu)
    # score exits 1 when some file is unreadable (the corpus has a few on purpose).
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{done.stderr.decode()[-2000:]}")
    return elapsed


def paired(a: Callable[[], float], b: Callable[[], float], pairs: int) -> dict[str, float]:
    """A B A B ...: median, min and max of the per-pair ratios, and the median of each side."""
    a(), b()  # warm the file cache and the interpreter's .pyc files first
    times_a, times_b = [], []
    for _ in range(pairs):
        times_a.append(a())
        times_b.append(b())
    ratios = [ta / tb for ta, tb in zip(times_a, times_b, strict=True)]
    return {
        "ratio": statistics.median(ratios),
        "min": min(ratios),
        "max": max(ratios),
        "a": statistics.median(times_a),
        "b": statistics.median(times_b),
    }


def find_exe(given: str | None) -> str:
    """The a320-review to measure: --exe, else the one beside this Python, else on PATH."""
    if given:
        return given
    beside = Path(sys.executable).with_name("a320-review")
    found = str(beside) if beside.exists() else shutil.which("a320-review")
    if not found:
        raise SystemExit("bench: a320-review is not installed (pip install -e .)")
    return found


def score_row(exe: str, python: str, folder: Path, n: int, pairs: int) -> tuple[str, str, str, str]:
    """Pairing (1): scoring every file against parsing every line."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cards.jsonl"
        r = paired(
            lambda: wall([exe, "score", str(folder), "--out", str(out)]),
            lambda: wall([python, "-c", PARSE_ONLY, str(folder)]),
            pairs,
        )
    return (
        f"`a320-review score DIR --out cards.jsonl` vs bare `json.loads` ({n:,} files)",
        f"{r['a']:.2f} s vs {r['b']:.2f} s",
        f"{r['ratio']:.2f} ({r['min']:.2f}–{r['max']:.2f})",
        "≤ 1.3",
    )


def main(argv: list[str] | None = None) -> int:
    """Run both pairings and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"), metavar="DIR")
    parser.add_argument(
        "--n", type=int, default=2000, metavar="N", help="files (default 2000; 0: start-up only)"
    )
    parser.add_argument("--pairs", type=int, default=5, metavar="N", help="A/B pairs (>= 5)")
    parser.add_argument("--exe", metavar="PATH", help="the a320-review to measure")
    parser.add_argument("--python", metavar="PATH", help="the Python of side B (default: this)")
    parser.add_argument(
        "--runs", type=int, default=50_000, metavar="N", help="runs in (3)'s database (0: skip)"
    )
    args = parser.parse_args(argv)
    exe = find_exe(args.exe)
    python = args.python or sys.executable
    pairs = max(5, args.pairs)
    rows = []
    commands = [
        ("`a320-review --help`", [exe, "--help"], "≤ 1.5"),
        ("`a320-review --version`", [exe, "--version"], "≤ 1.5"),
    ]
    if args.runs:
        from synthdb import cached_database

        db = cached_database(args.runs, Path("bench/out/ui"))
        label = f"`a320-review runs` ({args.runs:,} runs)"
        commands.append((label, [exe, "runs", "--db", str(db)], "< 1 s"))
    for name, cmd, target in commands:
        r = paired(lambda c=cmd: wall(c), lambda: wall([python, "-c", "pass"]), pairs)
        rows.append(
            (
                f"{name} vs `python -c pass`",
                f"{r['a'] * 1000:.0f} ms vs {r['b'] * 1000:.0f} ms "
                f"(+{(r['a'] - r['b']) * 1000:.0f} ms)",
                f"{r['ratio']:.2f} ({r['min']:.2f}–{r['max']:.2f})",
                target,
            )
        )
    if args.n:  # --n 0: the start-up figures only
        rows.append(score_row(exe, python, corpus_dir(args.corpus, args.n), args.n, pairs))
    print(f"{pairs} pairs A B A B, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    load = os.getloadavg()[0]
    print(f"exe: {Path(exe).name}, this checkout first on PYTHONPATH; "
          f"load average {load:.1f} at the end\n")  # fmt: skip
    print("| pairing (A vs B) | medians | ratio A/B, median (min–max) | target |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    # CPU time is what the process itself costs; on a busy machine it moves less than wall.
    print("\n| process | median CPU (user + system) |\n|---|---|")
    for cmd, seconds in CPU.items():
        print(f"| `{cmd}` | {statistics.median(seconds) * 1000:.0f} ms |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

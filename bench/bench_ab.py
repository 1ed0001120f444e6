"""Before and after: the same measures on two source trees, paired A B A B in fresh processes.

    git archive BASE_COMMIT | tar -x -C /tmp/base        # the "before" tree
    python bench/bench_ab.py --base /tmp/base --base-db-folder bench/out/ui-base \\
        [--runs 50000] [--corpus bench/out/corpus --n 2000] [--pairs 5]

Side A is the tree given by ``--base``, side B this checkout; both run with this Python
(``PYTHONPATH`` puts the tree first). Each figure is the median of the per-pair ratios B/A
with min and max (``pairing.py``). Databases of the two sides are separate (a newer schema
cannot be opened by older code): ``--base-db-folder`` holds the base side's ``queue-N.db``
(``synthdb.py`` run with the base tree), ``--folder`` this side's.

(1) ``list_runs()`` on the N-run queue, timed inside a fresh process;
(2) ``a320-review runs --db DB`` as a whole process, table to a file;
(3) ``a320-review score DIR --out cards.jsonl`` over the first ``--n`` files (0: skipped).

The CPU time (user + system) of the whole processes of (2) and (3) is paired the same way:
on a machine others are loading it moves far less than wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import CHILD_ENV, corpus_dir  # bench/ is not a package: import by path
from pairing import Paired, paired

HERE = Path(__file__).resolve().parent.parent
LIST_ONE = (
    "import sys, time\nfrom reviewer.workspace import ReviewStore\n"
    "with ReviewStore.open(sys.argv[1]) as s:\n"
    "    t = time.perf_counter(); s.list_runs(rater='bench')\n"
    "    print(time.perf_counter() - t)\n"
)
RUNS_VERB = "import sys\nfrom reviewer.cli import main\nsys.exit(main(sys.argv[1:]))\n"


#: CPU seconds (user + system) of each child, by (measure, tree): steadier than wall time
#: on a machine others are loading.
CPU: dict[tuple[str, str], list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child(tree: Path, *args: str, out: Path | None = None) -> str:
    """Run this Python with ``tree`` first on the path; returns stdout (or writes ``out``)."""
    cpu = _children_cpu()
    try:
        return _child(tree, *args, out=out)
    finally:
        measure = args[2]  # the verb (runs, score), or the database for list_runs
        CPU.setdefault((measure, str(tree)), []).append(_children_cpu() - cpu)


def _child(tree: Path, *args: str, out: Path | None = None) -> str:
    env = {**CHILD_ENV, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, *args]
    # cwd "/": ``python -c`` puts the working directory first on the path, before PYTHONPATH.
    if out is None:
        done = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True)
    else:
        with out.open("w") as fh:
            done = subprocess.run(cmd, env=env, cwd="/", stdout=fh, stderr=subprocess.PIPE)
    # score exits 1 when some file is unreadable (the corpus has a few on purpose).
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(cmd[:4])} failed:\n{str(done.stderr)[-2000:]}")
    return done.stdout if out is None else ""


def main(argv: list[str] | None = None) -> int:
    """Run the pairings and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, metavar="DIR")
    parser.add_argument("--base-db-folder", type=Path, required=True, metavar="DIR")
    parser.add_argument("--folder", type=Path, default=Path("bench/out/ui"), metavar="DIR")
    parser.add_argument("--runs", type=int, default=50_000, metavar="N")
    parser.add_argument("--corpus", type=Path, default=Path("bench/out/corpus"), metavar="DIR")
    parser.add_argument("--n", type=int, default=2000, metavar="N", help="files (0: skip)")
    parser.add_argument("--pairs", type=int, default=5, metavar="N")
    args = parser.parse_args(argv)
    base, new = args.base.resolve(), HERE
    dbs = {t: (f / f"queue-{args.runs}.db").resolve()
           for t, f in ((base, args.base_db_folder), (new, args.folder))}  # fmt: skip
    rows = []
    timings: dict[str, list[float]] = {}

    def list_once(tree: Path) -> None:
        timings.setdefault(str(tree), []).append(float(child(tree, "-c", LIST_ONE, str(dbs[tree]))))

    list_once(base), list_once(new)  # warm the page cache and the .pyc files
    timings.clear()
    paired(lambda: list_once(base), lambda: list_once(new), args.pairs, "(1) list_runs")
    a, b = timings[str(base)], timings[str(new)]
    rows.append((f"(1) `list_runs()`, {args.runs:,} runs, in-process", Paired(a, b)))
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "runs.txt"
        verb = [lambda t=t: child(t, "-c", RUNS_VERB, "runs", "--db", str(dbs[t]), out=table)
                for t in (base, new)]  # fmt: skip
        verb[0](), verb[1]()
        rows.append((f"(2) `a320-review runs`, {args.runs:,} runs, whole process",
                     paired(verb[0], verb[1], args.pairs, "(2) runs")))  # fmt: skip
        if args.n:
            folder, cards = corpus_dir(args.corpus, args.n).resolve(), Path(tmp) / "cards.jsonl"
            score = [lambda t=t: child(t, "-c", RUNS_VERB, "score", str(folder), "--out",
                                       str(cards), out=Path(os.devnull))
                     for t in (base, new)]  # fmt: skip
            score[0](), score[1]()
            rows.append((f"(3) `a320-review score DIR --out cards.jsonl`, {args.n:,} files",
                         paired(score[0], score[1], args.pairs, "(3) score")))  # fmt: skip
    print(f"\nA = {base}, B = {HERE}; {args.pairs} pairs A B A B; "
          f"load average {os.getloadavg()[0]:.1f} at the end\n")  # fmt: skip
    print(
        "| measure | A (before) | B (after) | B/A per pair, median (min–max) |\n|---|---|---|---|"
    )
    for label, p in rows:
        print(f"| {label} | {p.seconds('a')} | {p.seconds('b')} | **{p.ratio()}** |")
    print("\n| whole process, CPU (user + system) | A | B | B/A per pair, median (min–max) |")
    print("|---|---|---|---|")
    for measure in ("runs", "score"):
        a_cpu, b_cpu = CPU.get((measure, str(base)), []), CPU.get((measure, str(new)), [])
        if a_cpu:
            # The first of each side warmed the caches: left out as in the wall figures.
            p = Paired(a_cpu[1:], b_cpu[1:])
            print(f"| `a320-review {measure}` | {p.seconds('a')} | {p.seconds('b')} "
                  f"| {p.ratio()} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

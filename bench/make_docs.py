"""Regenerate the figures of docs/benchmarks.md from the benchmark scripts' output.

    python bench/make_docs.py            # paste the saved outputs into the document
    python bench/make_docs.py --run      # run every script first (tens of minutes)
    python bench/make_docs.py --check    # exit 1 when a block names a missing script or output

Each figure in the document sits in a block that names the command that printed it:

    <!-- generated: python bench/bench_cli.py --n 0 > bench/out/results/cli_start.md -->
    ...the script's markdown, pasted here...
    <!-- end generated -->

The command writes its markdown to the file after ``>``; this script replaces the block's
body with that file, so a table in the document is always one script's output, verbatim.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BLOCK = re.compile(
    r"(<!-- generated: (?P<command>.+?) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S
)


def blocks(text: str) -> list[tuple[list[str], Path]]:
    """``(argv, output file)`` of every generated block, in document order."""
    found = []
    for match in BLOCK.finditer(text):
        command, _, output = match["command"].partition(" > ")
        found.append((shlex.split(command), ROOT / output.strip()))
    return found


def problems(text: str) -> list[str]:
    """What is wrong with the blocks: a script that does not exist, a missing ``> FILE``."""
    wrong = []
    for argv, output in blocks(text):
        scripts = [a for a in argv if a.startswith("bench/") and a.endswith(".py")]
        if argv[:1] != ["python"] or not scripts or not (ROOT / scripts[0]).is_file():
            wrong.append(f"{shlex.join(argv)}: does not run a script under bench/")
        if output == ROOT:
            wrong.append(f"{shlex.join(argv)}: names no output file (> FILE)")
    return wrong


def run(argv: list[str], output: Path) -> None:
    """Run one block's command (``python`` is this interpreter), its stdout to ``output``."""
    output.parent.mkdir(parents=True, exist_ok=True)
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    print(f"make_docs: running {shlex.join(argv)}", file=sys.stderr)
    with output.open("w", encoding="utf-8") as fh:
        subprocess.run([sys.executable, *argv[1:]], stdout=fh, check=True, cwd=ROOT, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", action="store_true", help="run every block's command first")
    parser.add_argument("--check", action="store_true", help="only check the blocks")
    args = parser.parse_args()
    text = DOC.read_text(encoding="utf-8")
    wrong = problems(text)
    if args.check or wrong:
        for line in wrong:
            print(f"make_docs: {line}", file=sys.stderr)
        return 1 if wrong else 0
    missing = []

    def fill(match: re.Match[str]) -> str:
        command, _, output = match["command"].partition(" > ")
        path = ROOT / output.strip()
        if args.run:
            run(shlex.split(command), path)
        if not path.is_file():
            missing.append(str(path.relative_to(ROOT)))
            return match[0]
        body = path.read_text(encoding="utf-8").strip("\n")
        return f"{match[1]}{body}\n{match[4]}"

    DOC.write_text(BLOCK.sub(fill, text), encoding="utf-8")
    for path in missing:
        print(f"make_docs: {path} missing (run its command, or --run); block left as it was")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""docs/benchmarks.md: every current figure is the pasted output of a script that exists.

The figures sit in ``<!-- generated: python bench/SCRIPT.py ... > FILE -->`` blocks that
``bench/make_docs.py`` refills from the scripts' output; the tables of earlier rounds are kept
below ``## History`` for their reasoning and are not regenerated.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"


def _make_docs():
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "bench" / "make_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_generated_block_runs_a_script_that_exists() -> None:
    make_docs = _make_docs()
    text = DOC.read_text(encoding="utf-8")
    assert len(make_docs.blocks(text)) >= 4
    assert make_docs.problems(text) == []


def test_every_script_the_document_names_exists() -> None:
    named = set(re.findall(r"bench/[\w./-]+?\.py", DOC.read_text(encoding="utf-8")))
    assert named
    assert sorted(n for n in named if not (ROOT / n).is_file()) == []


def test_every_current_table_is_a_scripts_output() -> None:
    text = DOC.read_text(encoding="utf-8")
    current = text.split("\n## History", 1)[0]
    outside = re.sub(r"<!-- generated: .*?<!-- end generated -->", "", current, flags=re.S)
    tables = [line for line in outside.splitlines() if line.startswith("|---")]
    assert tables == [], "a table of figures outside a generated block"


def test_a_block_names_its_script_and_output() -> None:
    make_docs = _make_docs()
    bad = "<!-- generated: python bench/nope.py > out.md -->\nx\n<!-- end generated -->\n"
    none = "<!-- generated: python bench/bench_cli.py -->\nx\n<!-- end generated -->\n"
    assert make_docs.problems(bad) and make_docs.problems(none)

"""No runtime path loads ``scipy.stats`` (more than a second to import): the report, the
raters' page, the leaderboard and the quality estimators take their ranks and quantiles
from :mod:`reviewer.stats_kernels`. A guarantee, checked in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import reviewer

MODULES = [
    "reviewer.results.raters_source",
    "reviewer.results.report",
    "reviewer.results.live",
    "reviewer.leaderboard.stats",
    "reviewer.leaderboard.board",
    "reviewer.quality.stats",
    "reviewer.quality.consensus",
    "reviewer.agreement.anchoring",
    "reviewer.stats_kernels",
]

SCRIPT = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    print(name, "scipy.stats" in sys.modules, "scipy.special" in sys.modules)
"""


def test_importing_the_statistics_does_not_load_scipy_stats() -> None:
    root = str(Path(reviewer.__file__).resolve().parents[1])  # this tree, not another
    env = {**os.environ, "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *MODULES],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [name for name, *_ in lines] == MODULES
    # In the order imported: the first that loads scipy.stats is the one named.
    assert [name for name, stats, _ in lines if stats == "True"] == []
    # Nor scipy.special: it is imported when a quantile is first asked for.
    assert [name for name, _, special in lines if special == "True"] == []

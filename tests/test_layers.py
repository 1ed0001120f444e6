"""The layering of HOUSE_STYLE.md, enforced by import-linter's contracts in pyproject.toml.

scoring is pure (no Qt, no SQLite, no app packages), reviewer is Qt-free, ui sits on top.
The linter runs in a subprocess with the repository root as cwd, so the test passes from
any working directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The console script's own entry point, run with this interpreter (no PATH lookup needed).
LINT = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def _lint(cwd: Path, *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _contracts() -> list[dict]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["importlinter"]["contracts"]


def test_layer_contracts_are_kept():
    contracts = _contracts()
    # The three layers of HOUSE_STYLE.md, each a contract: none may silently disappear.
    assert len(contracts) >= 3
    scoring_rule = next(c for c in contracts if c.get("source_modules") == ["scoring"])
    assert {"PySide6", "sqlite3", "reviewer", "ui"} <= set(scoring_rule["forbidden_modules"])

    result = _lint(REPO)

    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(contracts)} kept, 0 broken." in result.stdout


def test_linter_reports_a_broken_contract(tmp_path):
    # The check above is only worth something if a stray import does fail it: copy the
    # contracts onto a tiny tree where scoring imports reviewer and see the linter refuse.
    for package, body in {
        "scoring": "import reviewer\n",
        "reviewer": "",
        "ui": "import reviewer\n",
    }.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(body, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.importlinter]
            root_packages = ["scoring", "reviewer", "ui"]

            [[tool.importlinter.contracts]]
            name = "scoring is pure"
            type = "forbidden"
            source_modules = ["scoring"]
            forbidden_modules = ["reviewer", "ui"]
            """
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    result = _lint(tmp_path, env=env)

    assert result.returncode == 1, result.stdout + result.stderr
    assert "scoring is pure BROKEN" in result.stdout
    assert "scoring -> reviewer" in result.stdout

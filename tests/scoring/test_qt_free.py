"""tests/scoring runs where Qt is not installed: no module here may import PySide6 or ui.

pytest-qt imports PySide6 into this very process, so ``sys.modules`` here proves nothing;
the check is made in a fresh interpreter where PySide6 and ui cannot be imported at all.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BLOCKED = ("PySide6", "ui", "pytestqt")  # pytest-qt imports PySide6 as it loads


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_module_imports_qt():
    files = sorted(HERE.glob("*.py"))

    assert len(files) >= 5
    offenders = {f.name: _imported(f) & set(BLOCKED) for f in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_test_modules_import_with_qt_unimportable(tmp_path):
    # Stand-ins that refuse to import, ahead of the real packages on the path; then every
    # module of this folder is imported, conftest first, as pytest would.
    for name in ("PySide6", "ui"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('{name} is blocked')\n")
    script = textwrap.dedent(
        """
        import importlib.util, sys
        from pathlib import Path
        for path in sys.argv[1:]:
            spec = importlib.util.spec_from_file_location(Path(path).stem, path)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
        assert "PySide6" not in sys.modules and "ui" not in sys.modules
        print("imported", len(sys.argv) - 1)
        """
    )
    files = [str(HERE / "conftest.py")]
    files += [str(f) for f in sorted(HERE.glob("test_*.py"))]
    path = os.pathsep.join([str(tmp_path), str(HERE), os.environ.get("PYTHONPATH", "")])

    result = subprocess.run(
        [sys.executable, "-c", script, *files],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"imported {len(files)}"

"""``gui --screenshot`` says what it wrote and nothing else: no Qt platform plugin noise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_screenshot_prints_no_plugin_noise(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    script = (
        "from ui.entry import main\n"
        f"raise SystemExit(main(['gui', '--screenshot', {str(out)!r}]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env["A320_REVIEW_HOME"] = str(tmp_path / "home")
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {out}\n"
    assert result.stderr == ""
    assert out.read_bytes().startswith(b"\x89PNG")

"""docs/team.md is run as written: its ```sh blocks, in order, in one shell, as a new team.

The walkthrough makes four homes (an owner and three raters), imports the demo, makes keys
and a trust list, creates a blind study, writes packets, rates every phase headless, signs,
collects, measures agreement, adjudicates and writes the report; then a fifth rater
qualifies on gold and is measured against it in a second study. ``a320-review`` is this
checkout's command line. A block that fails stops the script (``set -euo pipefail``) and
the test shows the output; the end state is then checked from the owner's database.
"""

from __future__ import annotations

import csv
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "team.md"

pytestmark = pytest.mark.slow


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks (not ```sh-notest), in order."""
    return re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)


def test_the_walkthrough_has_every_step() -> None:
    script = "\n".join(shell_blocks(DOC.read_text(encoding="utf-8")))
    for step in (
        "import", "keygen", "whoami", "study create", "study packet", "study join",
        "ratings template", "--phase blind", "--phase final", "--phase open",
        "sign --all", "collect", "agreement", "adjudicate", "adjudication sign", "report",
        "study gold add", "--gold-fraction", "--qualification", "study qualify",
        "raters accuracy --study",
    ):  # fmt: skip
        assert step in script, step


def test_the_team_walkthrough_runs_as_written(tmp_path: Path) -> None:
    script = "\n".join(shell_blocks(DOC.read_text(encoding="utf-8")))
    prelude = (
        "set -euo pipefail\n"
        f"a320-review() {{ PYTHONPATH={shlex.quote(str(ROOT))} {shlex.quote(sys.executable)}"
        ' -m reviewer "$@"; }\n'
        "export -f a320-review\n"
        f"export TMPDIR={shlex.quote(str(tmp_path))}\n"
    )
    epilogue = '\necho "TEAM=$TEAM"\n'
    done = subprocess.run(
        ["bash", "-c", prelude + script + epilogue],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stdout[-4000:] + "\n--- stderr ---\n" + done.stderr[-6000:]
    team = Path(re.findall(r"^TEAM=(.*)$", done.stdout, re.M)[-1])
    # Every rater's sheets were collected: 3 raters, and the exported ratings hold all three.
    rows = list(csv.DictReader(io.StringIO((team / "ratings.csv").read_text(encoding="utf-8"))))
    assert {r["rater"] for r in rows} == {"ann", "bob", "cat"}
    assert all(r["status"] == "signed" and r["collected_at"] for r in rows)
    revised = [r for r in rows if r["rater"] == "ann" and r["revision_reason"]]
    assert revised and all(r["blind_score"] == "2" and r["score"] == "1" for r in revised)
    # The dispute was adjudicated and signed; the consensus says so.
    assert list((team / "adjudications").glob("*.adjudication.sheet.json"))
    consensus = (team / "consensus.csv").read_text(encoding="utf-8")
    assert "adjudicated" in consensus
    assert (team / "pilot-report.html").stat().st_size > 10_000
    # Gold: dan qualified on the qualification set, then rated his whole queue, gold in it.
    assert re.search(r"^dan\tqualified \(signed now\)", done.stdout, re.M)
    drift = list(csv.DictReader(io.StringIO((team / "drift-pilot2.csv").read_text("utf-8"))))
    assert [r["rater"] for r in drift] == ["dan"] and int(drift[0]["n_gold"]) >= 2
    assert "feedback: the references of 1 gold run(s) you submitted" in done.stdout
    # Nothing in the output is a traceback.
    assert "Traceback" not in done.stdout + done.stderr

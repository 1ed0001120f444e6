"""Reproducible demo trajectories: ``python -m reviewer.demo [--out DIR]``.

The runs are written by :class:`~reviewer.demo.synth.TrajectoryBuilder` from short scripts.  A
script is a list of turns ``(beat, ops)``: the beat names the agent's reasoning for the turn
(a key of the scenario's phrase bank, or literal prose), the ops are its tool calls.  A small
per-scenario aircraft model answers the ECAM reads and gives the harness's verdict, so what a
run says, what the ECAM shows and what the harness concludes stay consistent.

Ops, separated by spaces::

    E              read_ecam            S:PREFIX / V:a,b   read_state by prefix / by names
    LC / LF / SNAP list_controls, list_failures, snapshot
    ctl=VALUE      set_control, VALUE as JSON (0, 0.0, true, "1", "OFF")
    ctl=VALUE!     the same, rejected (unknown control, or value out of range)
    +SECONDS       advance              ?tool{json}        any other call (off-surface too)
    MAL{raw        malformed arguments: the turn records them, the call runs with {} and fails
    DONE / DONE:k  report_done with the bank's diagnosis ``done`` / ``done_k``

A turn with no ops ends with ``end_turn``: the harness nudges once and ends the episode at the
second.  The beat ``PERR`` is a provider failure.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.resources
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from reviewer.demo.catalog import Script, demo_runs
from reviewer.demo.scripted_run import ScriptedRun
from reviewer.demo.synth import bundled_scenario, harness_error_records

#: Variables per snapshot: enough to look real, few enough to keep the committed files small.
DEMO_SNAPSHOT_VARS = 60


def _run_id(index: int, sid: str, model: str) -> str:
    # Fixed clock and a hash suffix: ids look like the harness's and never change.
    start = datetime(2026, 7, 24, 8, 0, tzinfo=UTC) + timedelta(minutes=23 * index)
    suffix = hashlib.sha1(f"{sid}|{model}|{index}".encode()).hexdigest()[:6]
    return f"{start:%Y%m%dT%H%M%SZ}-{suffix}"


def _file_text(lines: list[str], ending: str | None) -> str:
    if ending == "torn":
        # The process died while writing the last record: no newline, half a line.
        return "\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) * 3 // 5]
    if ending == "corrupt":
        # One record in the middle lost its second half; the file goes on after it.
        middle = len(lines) // 2
        lines = [*lines[:middle], lines[middle][: len(lines[middle]) // 2], *lines[middle + 1 :]]
    return "\n".join(lines) + "\n"


def render_run(
    scenario: dict[str, Any],
    model: str,
    script: Script,
    ending: str | None = None,
    *,
    run_id: str,
    seed: int,
    snapshot_vars: int = DEMO_SNAPSHOT_VARS,
    provider: str | None = None,
) -> str:
    """The file content of one scripted run; ``ending`` as in :func:`demo_runs`."""
    if ending == "harness":
        error = "setup failed: start state not reached within 300 s (simulator unresponsive)"
        lines = [json.dumps(r, ensure_ascii=False) for r in harness_error_records(error)]
        return _file_text(lines, None)
    run = ScriptedRun(
        scenario, model, run_id=run_id, seed=seed, snapshot_vars=snapshot_vars, provider=provider
    )
    if ending == "invalid":
        run.builder.invalid_scenario()
    else:
        run.play(script)
        if ending not in ("incomplete", "torn"):
            run.end()
    return _file_text(run.builder.lines(), ending)


def generate(out_dir: Path) -> list[Path]:
    """Write every demo run under ``out_dir/<scenario_id>/<run_id>.jsonl``; same bytes each time.

    Stale ``.jsonl`` files in the scenario folders are removed so the folder holds exactly
    this set.
    """
    out_dir = Path(out_dir)
    written: list[Path] = []
    for index, (sid, model, script, ending) in enumerate(demo_runs()):
        run_id = _run_id(index, sid, model)
        text = render_run(
            bundled_scenario(sid), model, script, ending, run_id=run_id, seed=1000 + index
        )
        path = out_dir / sid / f"{run_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    for folder in {p.parent for p in written}:
        for stale in set(folder.glob("*.jsonl")) - set(written):
            stale.unlink()
    return written


def default_out_dir() -> Path:
    """The package's own ``resources/demo/`` folder."""
    return Path(str(importlib.resources.files("resources").joinpath("demo")))


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: regenerate the demo runs."""
    parser = argparse.ArgumentParser(prog="python -m reviewer.demo", description=__doc__)
    parser.add_argument("--out", type=Path, default=None, help="folder (default: resources/demo)")
    args = parser.parse_args(argv)
    paths = generate(args.out or default_out_dir())
    print(f"wrote {len(paths)} demo trajectories under {args.out or default_out_dir()}")
    return 0

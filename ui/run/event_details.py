"""What the run view's details pane says about the selected timeline row.

A call in full (step, sim time, arguments, its result as a person reads it and as recorded,
and why the scorer classed it so), an agent turn's text, or the simulator snapshot at the
start or the end, read from the file only when asked for.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex

from reviewer.event_text import result_detail, turn_line
from ui.run.timeline_model import KindRole, TimelineModel, VerdictRole, summary
from ui.theme import STYLES, style_key

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from scoring import ScoreCard, Trajectory


def describe(
    model: TimelineModel, index: QModelIndex, card: ScoreCard | None, traj: Trajectory | None
) -> str:
    """The details pane's text for the timeline row at ``index``: a call in full (arguments,
    result, and why it got its class when ``card``, the shown ScoreCard, is given), a turn's
    text, or a snapshot's variables."""
    row = model.row_at(index.row())
    record = row.record
    if row.kind in ("command", "read", "call"):  # a ToolCall
        lines = [
            f"{record.name}   step {record.step}.{record.call_index}   "
            f"sim {record.sim_time_before} → {record.sim_time_after} s   {record.wall_ms} ms",
            "args: " + json.dumps(record.args, indent=2, ensure_ascii=False),
            "result:",
            *(
                "  " + line
                for line in result_detail(record.name, record.result, is_error=record.is_error)
            ),
            # The raw record stays one click away: the text above is how it reads.
            "raw result: " + json.dumps(record.result, indent=2, ensure_ascii=False),
        ]
        if record.is_error:
            lines.insert(1, "ERROR: the call failed")
        verdict = model.data(index, VerdictRole)
        if verdict is not None and card is not None:
            lines.insert(1, _why(verdict, card))
            if row.style == "out_of_order":
                lines.insert(2, f"{STYLES['out_of_order'].label}: {STYLES['out_of_order'].meaning}")
        elif row.style:
            lines.insert(1, STYLES[row.style].meaning)
        return "\n".join(lines)
    kind = model.data(index, KindRole)
    if kind == "turn":
        return record.text or turn_line(None, row.calls)
    if kind in ("setup", "final") and traj is not None:
        return summary(row) + "\n\n" + _snapshot_text(traj, kind)
    return summary(row)


def _snapshot_text(traj: Trajectory, kind: str) -> str:
    # Snapshots are not kept in memory (hundreds of variables): read the one line now.
    line = traj.setup_line if kind == "setup" else traj.final_line
    if line is None:
        return ""
    from scoring.reader import read_snapshot

    try:
        snapshot = read_snapshot(traj.path, line)
    except OSError as exc:
        return f"(snapshot unavailable: {exc})"
    when = "at t0" if kind == "setup" else "at the end"
    rows = "\n".join(f"  {name} = {value}" for name, value in sorted(snapshot.items()))
    return f"Simulator snapshot {when} ({len(snapshot)} variables):\n{rows}"


def _why(verdict, card: ScoreCard) -> str:
    style = STYLES[style_key(verdict.command_class, verdict.severity, verdict.subtype)]
    if verdict.required_index is not None:
        action = card.required[verdict.required_index]
        return (
            f"{style.label}: required action #{action.index + 1} of block "
            f"'{action.block}' — {action.rationale or ''}"
        )
    world = " (a world-domain control: never the agent's to set)" if verdict.world_write else ""
    return f"{style.label}: {style.meaning}{world}"

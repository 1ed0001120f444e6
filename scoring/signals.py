"""Informative signals and the judge bundle: reported beside the vector, never scored."""

from __future__ import annotations

from typing import Any, cast

import msgspec

from scoring.compliance import NON_READ_TOOLS, Compliance
from scoring.reader import Trajectory
from scoring.records import Assistant, Event, Nudge, ProviderError, ToolCall
from scoring.scorecard import CallNote, Signals

#: Results longer than this are cut in the judge bundle: it must stay compact.
JUDGE_RESULT_CHARS = 400
JUDGE_ITEMS = 40


def compute_signals(
    traj: Trajectory, surface: frozenset[str], compliance: Compliance | None
) -> Signals:
    """Everything a reviewer wants to know that the scalar deliberately ignores."""
    calls = traj.tool_calls
    reads: dict[str, int] = {}
    errored: list[CallNote] = []
    off_surface: list[CallNote] = []
    first_read: int | None = None
    for position, call in enumerate(calls):
        name = call.name
        if name not in surface:
            off_surface.append(_note(position, call))
        elif name == "set_control":
            if call.is_error:
                errored.append(_note(position, call))
        elif name not in NON_READ_TOOLS:
            reads[name] = reads.get(name, 0) + 1
            if first_read is None and not call.is_error:
                first_read = position

    commands = compliance.commands if compliance else []
    observed = None
    if commands:
        observed = first_read is not None and first_read < commands[0].call_position
    efficiency = None
    if compliance and commands:
        efficiency = compliance.count("matched_required") / len(commands)

    final, setup, budget = traj.final, traj.setup, traj.scenario.budget if traj.scenario else None
    used = final.tool_calls_used if final and final.tool_calls_used is not None else len(calls)
    sim_used = None
    if final and setup and final.sim_time is not None and setup.sim_time is not None:
        sim_used = final.sim_time - setup.sim_time
    kinds = [e.type for e in traj.events]
    return Signals(
        efficiency=efficiency,
        tool_calls_used=used,
        tool_call_budget_used=_share(used, budget.max_tool_calls if budget else None),
        sim_time_used=sim_used,
        sim_time_budget_used=_share(sim_used, budget.max_sim_time_s if budget else None),
        reads=dict(sorted(reads.items())),
        observed_before_acting=observed,
        errored_commands=errored,
        off_surface_attempts=off_surface,
        world_writes=[c.index for c in commands if c.world_write],
        turns=kinds.count("assistant"),
        nudges=kinds.count("nudge"),
        malformed_tool_arguments=_malformed(traj.events),
        unknown_records=traj.unknown_records,
        torn_last_line=traj.torn_last_line,
    )


def judge_bundle(traj: Trajectory, vector: dict[str, Any]) -> dict[str, Any]:
    """A compact, self-contained package for an optional LLM judge (no snapshots)."""
    scenario = traj.scenario
    turns: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []  # the calls of turns[-1]
    # Dispatch on the record's tag, not isinstance: this runs for every event of every file.
    for event in traj.events:
        kind = event.type
        # cast(), not isinstance: the tag already says which record it is.
        if kind == "assistant":
            turn = cast(Assistant, event)
            calls = []
            turns.append({"step": turn.step, "text": turn.text or "", "calls": calls})
            continue
        if not turns:  # a call before any turn: give it a turn of its own
            calls = []
            turns.append({"step": getattr(event, "step", 0), "text": "", "calls": calls})
        if kind == "tool_call":
            call = cast(ToolCall, event)
            calls.append(
                {
                    "name": call.name,
                    "args": call.args,
                    "result": _short(call.result),
                    "is_error": call.is_error,
                }
            )
        elif kind == "nudge":
            turns[-1]["nudge"] = cast(Nudge, event).text
        elif kind == "provider_error":
            turns[-1]["provider_error"] = _short(cast(ProviderError, event).error)
    final = traj.final
    return {
        "task_prompt": scenario.task_prompt if scenario else None,
        "scenario": {"id": scenario.id, "title": scenario.title} if scenario else None,
        "ground_truth": _ground_truth(traj),
        "turns": turns,
        "done_report": final.done_payload if final else None,
        "harness": {
            "reason": final.reason if final else None,
            "all_passed": final.success_eval.all_passed if final and final.success_eval else None,
            "success_eval": msgspec.to_builtins(final.success_eval)
            if final and final.success_eval
            else None,
        },
        "vector": vector,
    }


def _ground_truth(traj: Trajectory) -> dict[str, Any] | None:
    # The scenario's ground truth as the file has it, citation left out: the raw dict is
    # already there, and a judge needs the actions, not the validated model.
    if traj.meta is None:
        return None
    raw = traj.meta.scenario.get("ground_truth")
    return {k: v for k, v in raw.items() if k != "source"} if isinstance(raw, dict) else None


def _malformed(events: tuple[Event, ...]) -> int:
    """Raw argument strings of all turns that were not JSON objects."""
    # Most turns have no provider_raw, or one without the key: test before the property.
    turns = [cast(Assistant, e) for e in events if e.type == "assistant"]
    return sum(
        len(turn.malformed_tool_arguments)
        for turn in turns
        if turn.provider_raw is not None and turn.provider_raw.malformed_tool_arguments
    )


def _note(position: int, call: ToolCall) -> CallNote:
    error = call.result if call.is_error and isinstance(call.result, str) else None
    return CallNote(
        call_position=position,
        step=call.step,
        call_index=call.call_index,
        name=call.name,
        args=call.args,
        error=error,
    )


def _share(used: float | None, budget: float | None) -> float | None:
    if used is None or not budget:
        return None
    return used / budget


def _short(value: Any) -> Any:
    # Cheap on purpose (this runs for every call of every file): strings are cut at
    # JUDGE_RESULT_CHARS, long lists and dicts at JUDGE_ITEMS entries; no serialising to
    # measure.
    if isinstance(value, str):
        if len(value) <= JUDGE_RESULT_CHARS:
            return value
        return value[:JUDGE_RESULT_CHARS] + f"… [{len(value) - JUDGE_RESULT_CHARS} chars cut]"
    if isinstance(value, list) and len(value) > JUDGE_ITEMS:
        return [*value[:JUDGE_ITEMS], f"… [{len(value) - JUDGE_ITEMS} items cut]"]
    if isinstance(value, dict) and len(value) > JUDGE_ITEMS:
        kept = dict(list(value.items())[:JUDGE_ITEMS])
        kept["…"] = f"[{len(value) - JUDGE_ITEMS} entries cut]"
        return kept
    return value

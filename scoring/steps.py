"""Step numbers and short labels of timeline events and ground-truth rows.

One place decides how a step is named, so that the window's timeline, a rater's evidence
chips, the signed sheet, its PDF and the ratings export all say the same thing:

- a tool call is ``STEP.CALL`` (``3.0``), an agent turn its ``STEP`` (``3``), a nudge
  ``STEPn`` and a provider error ``STEPe`` (they share the turn's step), an event without a
  step ``#INDEX`` (its position among the trajectory's events);
- a ground-truth action is ``GT:N``, the N-th action of the flattened procedure
  (``ScoreCard.required[N - 1]``, the "required action #N" of the run view), cited as
  evidence of what the run did *not* do.

A label is the step followed by what happened, e.g. ``3.0 set_control apu_gen = 0``, at
most :data:`LABEL_CHARS` characters on one line. Pure functions: no Qt, no store.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from scoring.scorecard import RequiredAction, ScoreCard

if TYPE_CHECKING:
    from scoring.reader import Trajectory
    from scoring.records import Event

#: Longest label; the rest is cut with an ellipsis (the timeline shows the whole event).
LABEL_CHARS = 80
StepKind = Literal["event", "ground_truth"]
_EVENT_STEP = re.compile(r"^(?:\d+(?:\.\d+|n|e)?|#\d+)$")
_GT_STEP = re.compile(r"^GT:([1-9]\d*)$")


@dataclass(frozen=True, slots=True)
class StepRef:
    """What a citation points at: a timeline event or a ground-truth action.

    ``ref`` is the index into ``Trajectory.events`` (``kind="event"``) or into
    ``ScoreCard.required`` (``kind="ground_truth"``); ``step`` and ``label`` are how it is
    shown and exported.
    """

    kind: StepKind
    ref: int
    step: str
    label: str


def event_step(event: Event, index: int) -> str:
    """The step token of ``event``, the ``index``-th of its trajectory's events."""
    # The records' classes (msgspec) are loaded by whoever holds an event: a citation
    # read back from the store (the dashboard, the report) never needs them.
    from scoring.records import Assistant, Nudge, ToolCall

    if isinstance(event, ToolCall):
        return f"{event.step}.{event.call_index}"
    step = getattr(event, "step", None)
    if step is None:
        return f"#{index}"
    if isinstance(event, Assistant):
        return str(step)
    return f"{step}{'n' if isinstance(event, Nudge) else 'e'}"


def event_label(event: Event, index: int) -> str:
    """``<step> <what happened>``, e.g. ``3.0 set_control apu_gen = 0``."""
    from scoring.records import Assistant, Nudge, ToolCall

    step = event_step(event, index)
    if isinstance(event, ToolCall):
        what = f"{event.name} {call_arguments(event.name, event.args)}".rstrip()
    elif isinstance(event, Assistant):
        text = " ".join((event.text or "").split())
        what = f"agent: {text}" if text else "agent turn (no text)"
    elif isinstance(event, Nudge):
        what = "nudge"
    else:
        what = "provider error"
    return _cut(f"{step} {what}")


def call_arguments(name: str, args: Any) -> str:
    """A tool call's arguments on one line: ``apu_gen = 0`` for set_control, else k=v."""
    if not isinstance(args, dict):
        return "" if args is None else _compact(args)
    if name == "set_control":
        text = f"{args.get('control')} = {json.dumps(args.get('value'))}"
        extra = {k: v for k, v in args.items() if k not in ("control", "value")}
        return f"{text}  {json.dumps(extra)}" if extra else text
    return " ".join(f"{k}={_compact(v)}" for k, v in args.items())


def required_step(action: RequiredAction) -> str:
    """``GT:<n>`` of a ground-truth action, counted from 1 as the run view does."""
    return ground_truth_step(action.index)


def ground_truth_step(index: int) -> str:
    """``GT:<n>`` of the ``index``-th (0-based) action of the flattened procedure."""
    return f"GT:{index + 1}"


def required_label(action: RequiredAction) -> str:
    """``GT:3 apu_gen = 0 (APU GEN FAULT)``: the action and its procedure block."""
    value = int(action.value) if float(action.value).is_integer() else action.value
    return _cut(f"{required_step(action)} {action.control} = {value} ({action.block})")


def event_ref(traj: Trajectory, index: int) -> StepRef:
    """The citable reference of event ``index``; ``IndexError`` if there is none."""
    if not 0 <= index < len(traj.events):
        raise IndexError(f"the trajectory has no event {index}")
    event = traj.events[index]
    return StepRef("event", index, event_step(event, index), event_label(event, index))


def required_ref(card: ScoreCard, index: int) -> StepRef:
    """The citable reference of ground-truth action ``index``; ``IndexError`` if none."""
    if not 0 <= index < len(card.required):
        raise IndexError(
            f"the ground truth has no action GT:{index + 1} ({len(card.required)} actions)"
        )
    action = card.required[index]
    return StepRef("ground_truth", index, required_step(action), required_label(action))


def is_step_token(token: str) -> bool:
    """Whether ``token`` has the shape of a step (it may still name no event of a run)."""
    return bool(_EVENT_STEP.match(token) or _GT_STEP.match(token))


def resolve_step(token: str, *, traj: Trajectory | None, card: ScoreCard) -> StepRef:
    """The reference a step token names in this run.

    ``LookupError`` with a sentence when the token names nothing here; ``traj`` may be
    ``None`` when only ground-truth tokens are expected (its absence is then the reason).
    """
    token = token.strip()
    gt = _GT_STEP.match(token)
    if gt:
        try:
            return required_ref(card, int(gt.group(1)) - 1)
        except IndexError:
            raise LookupError(
                f"{token}: the ground truth has {len(card.required)} actions (GT:1 to "
                f"GT:{len(card.required)})"
            ) from None
    if not _EVENT_STEP.match(token):
        raise LookupError(f"{token!r} is not a step (3.0, 3, 3n, 3e, #12 or GT:2)")
    if traj is None:
        raise LookupError(f"{token}: the run's trajectory is needed to find the step")
    if token.startswith("#"):
        try:
            return event_ref(traj, int(token[1:]))
        except IndexError:
            raise LookupError(f"{token}: the run has {len(traj.events)} events") from None
    for index, event in enumerate(traj.events):
        if event_step(event, index) == token:
            return event_ref(traj, index)
    raise LookupError(f"{token}: no such step in this run")


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"

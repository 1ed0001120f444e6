"""Evidence: the timeline steps and ground-truth rows a rater cites for a metric.

A :class:`Citation` ties one metric of one rating to one step (see :mod:`scoring.steps`
for how steps are numbered and labelled), with an optional short note.

In ratings files a metric's citations are one text field, ``evidence``, in the form::

    3.0; 5.1 "read the ECAM only once"; GT:2 "APU GEN never switched off"

entries separated by ``;``, each a step token optionally followed by a note in double
quotes (a quote inside a note is doubled, as in CSV). :func:`format_evidence` writes it,
:func:`parse_evidence` reads it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from scoring.steps import StepRef, is_step_token

#: Longest note on one citation (a pointer, not a second comment).
NOTE_CHARS = 200
#: Longest stored label (:data:`scoring.steps.LABEL_CHARS` leaves room).
LABEL_MAX = 200


class Citation(BaseModel):
    """One cited step for one metric of a rating."""

    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    metric_id: str
    kind: Literal["event", "ground_truth"]
    ref: int = Field(ge=0, description="index into the trajectory's events or ScoreCard.required")
    step: str = Field(description="the step token, e.g. '3.0' or 'GT:2'")
    label: str = Field(min_length=1, max_length=LABEL_MAX)
    note: str = Field(default="", max_length=NOTE_CHARS)

    @field_validator("step")
    @classmethod
    def _step_token(cls, step: str) -> str:
        if not is_step_token(step):
            raise ValueError(f"{step!r} is not a step token (3.0, 3, 3n, 3e, #12 or GT:2)")
        return step

    @field_validator("label", "note")
    @classmethod
    def _one_line(cls, text: str) -> str:
        if "\n" in text or "\r" in text:
            raise ValueError("must be one line")
        return text.strip()

    @classmethod
    def of(cls, metric_id: str, target: StepRef, note: str = "") -> Citation:
        """A citation of ``target`` for ``metric_id``."""
        return cls(
            metric_id=metric_id,
            kind=target.kind,
            ref=target.ref,
            step=target.step,
            label=target.label,
            note=note,
        )

    @property
    def key(self) -> tuple[str, str, int]:
        """``(metric_id, kind, ref)``: what makes a citation unique within a rating."""
        return (self.metric_id, self.kind, self.ref)


def sort_key(citation: Citation) -> tuple[int, int]:
    """Timeline order, then ground-truth rows in procedure order."""
    return (0 if citation.kind == "event" else 1, citation.ref)


def by_metric(citations: Iterable[Citation]) -> dict[str, list[Citation]]:
    """Citations grouped by metric, each group in :func:`sort_key` order."""
    out: dict[str, list[Citation]] = {}
    for c in sorted(citations, key=sort_key):
        out.setdefault(c.metric_id, []).append(c)
    return out


def counts(citations: Iterable[Citation]) -> Mapping[str, int]:
    """How many citations each metric has (what the rubric's evidence rule counts)."""
    out: dict[str, int] = {}
    for c in citations:
        out[c.metric_id] = out.get(c.metric_id, 0) + 1
    return out


def format_evidence(citations: Iterable[Citation]) -> str:
    """The ``evidence`` field of one metric: ``3.0; GT:2 "note"`` (empty with none)."""
    parts = []
    for c in sorted(citations, key=sort_key):
        note = c.note.replace('"', '""')
        parts.append(f'{c.step} "{note}"' if c.note else c.step)
    return "; ".join(parts)


def parse_evidence(text: str) -> list[tuple[str, str]]:
    """``(step token, note)`` pairs of an ``evidence`` field; ``ValueError`` names the fault.

    Tokens are checked for their shape only: whether the run has such a step is for the
    caller, which knows the run.
    """
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t;":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in ' \t;"':
            i += 1
        token = text[start:i]
        if not token:
            raise ValueError(f"a note at character {i + 1} has no step before it")
        if not is_step_token(token):
            raise ValueError(f"{token!r} is not a step (3.0, 3, 3n, 3e, #12 or GT:2)")
        while i < n and text[i] in " \t":
            i += 1
        note = ""
        if i < n and text[i] == '"':
            note, i = _quoted(text, i)
            while i < n and text[i] in " \t":
                i += 1
        if i < n and text[i] != ";":
            raise ValueError(f"after {token}: expected ';' or a quoted note, got {text[i]!r}")
        if token in seen:
            raise ValueError(f"{token} is cited twice")
        if len(note) > NOTE_CHARS:
            raise ValueError(f"the note on {token} is longer than {NOTE_CHARS} characters")
        seen.add(token)
        out.append((token, note))
    return out


def _quoted(text: str, i: int) -> tuple[str, int]:
    # text[i] is the opening quote; returns the note and the index after the closing one.
    start, i, chars = i, i + 1, []
    while i < len(text):
        if text[i] == '"':
            if i + 1 < len(text) and text[i + 1] == '"':
                chars.append('"')
                i += 2
                continue
            return "".join(chars), i + 1
        chars.append(text[i])
        i += 1
    raise ValueError(f"the note starting at character {start + 1} has no closing quote")

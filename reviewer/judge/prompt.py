"""What the judge is asked: the rubric as a system message, a run's bundle, the answer schema.

A request is one line of the OpenAI Batch API input format (``custom_id``, ``method``,
``url``, ``body``): the format hosted batch endpoints take as it is and that ``judge run``
posts, body unchanged, to any OpenAI-compatible ``/v1/chat/completions``.

The *prompt hash* covers everything in a request except the run: the template version, the
system message and the answer schema. With the trajectory and rubric hashes it names an
answer exactly, so answers are matched to runs, and cached, by their ``custom_id`` alone.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from reviewer.rubric import COMMENT_REQUIRED_SCORES, OUTCOMES, SCORES, Rubric

#: Raise when the wording or the shape of the prompt changes: answers to an older prompt
#: then no longer match the cache, and the ratings record which prompt they came from.
PROMPT_VERSION = 1
CHAT_COMPLETIONS_URL = "/v1/chat/completions"
_ID_PREFIX = "a320r"
_HEX = frozenset("0123456789abcdef")

_INSTRUCTIONS = """\
You are an experienced A320 type-rating examiner. You rate one recorded run of an LLM agent
flying an A320 failure procedure through tools (read_ecam, read_state, list_controls,
set_control, advance, report_done), with the rubric below. Rate what the trajectory shows,
not what the agent says it did.

The user message is the run's judge bundle, a JSON object: task_prompt and scenario (what
the agent was asked), ground_truth (the procedure the scenario expects), turns (each with
its step number, the agent's text and its tool calls with arguments and results),
done_report (what the agent reported), harness (the simulator's own verdict) and vector
(the automatic scorer's figures; form your own judgement from the turns).

Rules for every metric:
- outcome is "applicable" when the run gives evidence to rate the metric,
  "not_applicable" when the metric does not apply to this run, "not_observed" when it
  applies but the run holds no evidence either way;
- score is an integer {scores} given only when the outcome is "applicable", otherwise null;
- comment says what you saw; it is required for a score of {extremes} and for
  "not_observed" (say what evidence was missing);
- cited_steps lists the step numbers of the turns your judgement rests on.
Answer with one JSON object and nothing else, matching the schema: an entry under "metrics"
for every metric id below, and an overall_comment on the run as a whole."""


class RequestKey(BaseModel):
    """What an answer is an answer to: encoded in, and parsed from, a ``custom_id``."""

    model_config = ConfigDict(frozen=True)

    trajectory_sha256: str
    rubric_sha256: str
    prompt_sha256: str

    @property
    def custom_id(self) -> str:
        """``a320r.<trajectory sha256>.<rubric sha256>.<prompt sha256>``."""
        return ".".join(
            (_ID_PREFIX, self.trajectory_sha256, self.rubric_sha256, self.prompt_sha256)
        )

    @classmethod
    def parse(cls, custom_id: object) -> RequestKey:
        """The key in ``custom_id``; ``ValueError`` saying why when it is not one of ours."""
        parts = custom_id.split(".") if isinstance(custom_id, str) else []
        if (
            len(parts) != 4
            or parts[0] != _ID_PREFIX
            or not all(len(p) == 64 and set(p) <= _HEX for p in parts[1:])
        ):
            raise ValueError(
                f"custom_id {custom_id!r} is not one written by 'judge export' "
                f"({_ID_PREFIX}.<trajectory sha256>.<rubric sha256>.<prompt sha256>)"
            )
        return cls(trajectory_sha256=parts[1], rubric_sha256=parts[2], prompt_sha256=parts[3])


def system_message(rubric: Rubric) -> str:
    """The instructions and every metric with its question and anchors."""
    lines = [
        _INSTRUCTIONS.format(
            scores="–".join(str(s) for s in (SCORES[0], SCORES[-1])),
            extremes=" or ".join(str(s) for s in sorted(COMMENT_REQUIRED_SCORES)),
        ),
        "",
        f"Rubric: {rubric.title} (id {rubric.id}, version {rubric.version})",
    ]
    if rubric.description:
        lines.append(rubric.description)
    for metric in rubric.metrics:
        lines += ["", f"## {metric.id}: {metric.title}", metric.question]
        lines += [f"  {score}: {text}" for score, text in metric.anchors.items()]
    return "\n".join(lines)


def answer_schema(rubric: Rubric) -> dict[str, Any]:
    """The JSON schema of an answer, in the strict form structured outputs accept (every
    property required, no extra ones; "no score" is an explicit null)."""
    item = {
        "type": "object",
        "additionalProperties": False,
        "required": ["outcome", "score", "comment", "cited_steps"],
        "properties": {
            "outcome": {"type": "string", "enum": list(OUTCOMES)},
            "score": {"anyOf": [{"type": "integer", "enum": list(SCORES)}, {"type": "null"}]},
            "comment": {"type": "string"},
            "cited_steps": {"type": "array", "items": {"type": "integer"}},
        },
    }
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["metrics", "overall_comment"],
        "properties": {
            "metrics": {
                "type": "object",
                "additionalProperties": False,
                "required": list(rubric.metric_ids),
                "properties": {metric_id: item for metric_id in rubric.metric_ids},
            },
            "overall_comment": {"type": "string"},
        },
    }


def response_format(rubric: Rubric) -> dict[str, Any]:
    """The ``response_format`` of a chat completion request: the schema, strict."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "rating", "strict": True, "schema": answer_schema(rubric)},
    }


def prompt_sha256(rubric: Rubric) -> str:
    """Hex sha256 of the template version, the system message and the answer schema."""
    data = [PROMPT_VERSION, system_message(rubric), answer_schema(rubric)]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def user_message(bundle: dict[str, Any]) -> str:
    """The run's judge bundle as the JSON text the judge reads."""
    return json.dumps(bundle, ensure_ascii=False, separators=(",", ":"))


def build_request(
    bundle: dict[str, Any], *, trajectory_sha256: str, rubric: Rubric, model: str
) -> dict[str, Any]:
    """One Batch API input line asking ``model`` to rate the run of ``bundle``."""
    key = RequestKey(
        trajectory_sha256=trajectory_sha256,
        rubric_sha256=rubric.sha256,
        prompt_sha256=prompt_sha256(rubric),
    )
    return {
        "custom_id": key.custom_id,
        "method": "POST",
        "url": CHAT_COMPLETIONS_URL,
        "body": {
            "model": model,
            "messages": [
                {"role": "system", "content": system_message(rubric)},
                {"role": "user", "content": user_message(bundle)},
            ],
            # No temperature: reasoning models refuse the parameter; `judge run
            # --temperature` adds it for the servers that take it.
            "response_format": response_format(rubric),
        },
    }

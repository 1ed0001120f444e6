"""Reading the judge's answers back: response lines → checked :class:`JudgeAnswer` values.

Two line forms are accepted, so that both a hosted batch and a hand-rolled loop work:

- Batch API output: ``{"custom_id", "response": {"status_code", "body": <chat completion>},
  "error"}``;
- a plain chat completion with the ``custom_id`` beside its fields (what ``judge run``
  writes to ``--responses``).

Every answer is checked with the rubric's own rules
(:meth:`reviewer.rubric.Rubric.validate_item`, the same as for a human's submit): one line
that breaks them is refused with ``FILE:LINE: reason``, the other lines still count.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reviewer.judge.prompt import RequestKey
from reviewer.rubric import RatingItem, Rubric


class AnswerError(ValueError):
    """Why one response line cannot be imported (the message, without file and line)."""


class JudgeAnswer(BaseModel):
    """One valid answer of the judge: a complete rating of one run, and where it came from."""

    model_config = ConfigDict(frozen=True)

    key: RequestKey
    model: str = Field(description="the model id the provider reports (or the one asked)")
    items: dict[str, RatingItem]
    cited_steps: dict[str, list[int]]
    overall_comment: str = ""
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None

    @property
    def custom_id(self) -> str:
        """The request's ``custom_id``."""
        return self.key.custom_id


class ReadAnswers(NamedTuple):
    """A responses file read: the valid answers, ``FILE:LINE: reason`` for every other
    line, and the line of each answer by ``custom_id``."""

    answers: list[JudgeAnswer]
    errors: list[str]
    lines: dict[str, int]


def read_answers(lines: Iterable[bytes | str], *, rubric: Rubric, source: str) -> ReadAnswers:
    """Every valid answer of a responses file, and ``FILE:LINE: reason`` for every other line.

    A ``custom_id`` seen again is refused (the first line counts): two answers to one
    request in one file means the file was put together wrongly.
    """
    answers: list[JudgeAnswer] = []
    errors: list[str] = []
    first_line: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            answer = parse_line(raw, rubric=rubric)
            if answer.custom_id in first_line:
                raise AnswerError(f"custom_id again (first on line {first_line[answer.custom_id]})")
        except AnswerError as exc:
            errors.append(f"{source}:{number}: {exc}")
            continue
        first_line[answer.custom_id] = number
        answers.append(answer)
    return ReadAnswers(answers, errors, first_line)


def parse_line(raw: bytes | str, *, rubric: Rubric) -> JudgeAnswer:
    """The answer in one response line; :class:`AnswerError` says what is wrong with it."""
    try:
        line = json.loads(raw)
    except ValueError as exc:
        raise AnswerError(f"not JSON ({exc})") from None
    except RecursionError:
        raise AnswerError("not JSON: nested too deeply") from None
    if not isinstance(line, dict):
        raise AnswerError("a response line is a JSON object")
    try:
        key = RequestKey.parse(line.get("custom_id"))
    except ValueError as exc:
        raise AnswerError(str(exc)) from None
    where = f"{key.trajectory_sha256[:12]}…: "
    try:
        return answer_from_completion(_completion_of(line), key=key, rubric=rubric)
    except AnswerError as exc:
        raise AnswerError(where + str(exc)) from None


def _completion_of(line: dict[str, Any]) -> dict[str, Any]:
    if "choices" in line:  # a plain chat completion
        return line
    if line.get("error"):
        raise AnswerError(f"the provider reported an error: {_short(line['error'])}")
    response = line.get("response")
    if not isinstance(response, dict):
        raise AnswerError("neither a chat completion (choices) nor a batch output (response)")
    status = response.get("status_code")
    body = response.get("body")
    if status != 200:
        raise AnswerError(f"the request failed with HTTP {status}: {_short(body)}")
    if not isinstance(body, dict) or "choices" not in body:
        raise AnswerError("the batch output's response.body is not a chat completion")
    return body


def answer_from_completion(
    completion: dict[str, Any], *, key: RequestKey, rubric: Rubric, model: str | None = None
) -> JudgeAnswer:
    """Check the chat completion's answer against ``rubric``; :class:`AnswerError` if it
    breaks a rule (every problem named, metric by metric).

    Whatever else a hostile answer trips over (a value our models refuse, such as a lone
    surrogate in a comment, or a shape nobody checked for) is an :class:`AnswerError` too:
    one refused line, never the end of the batch.
    """
    try:
        return _answer_from_completion(completion, key=key, rubric=rubric, model=model)
    except AnswerError:
        raise
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise AnswerError(
            f"malformed answer: {where + ': ' if where else ''}{first['msg']}"
        ) from None
    except (ValueError, TypeError, AttributeError, KeyError, RecursionError) as exc:
        raise AnswerError(f"malformed answer ({type(exc).__name__})") from None


def _answer_from_completion(
    completion: dict[str, Any], *, key: RequestKey, rubric: Rubric, model: str | None
) -> JudgeAnswer:
    choices = completion.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise AnswerError("the completion has no choices")
    message = choices[0].get("message") or {}
    if not isinstance(message, dict):
        raise AnswerError("the completion's message is not an object")
    if message.get("refusal"):
        raise AnswerError(f"the model refused: {_short(message['refusal'])}")
    if choices[0].get("finish_reason") == "length":
        raise AnswerError("the answer was cut off (finish_reason length)")
    content = message.get("content")
    if not isinstance(content, str) or not content.strip():
        raise AnswerError("the answer is empty")
    try:
        data = json.loads(_unfenced(content))
    except ValueError as exc:
        raise AnswerError(f"the answer is not JSON ({exc})") from None
    except RecursionError:
        raise AnswerError("the answer is not JSON: nested too deeply") from None
    items, cited, overall = _rating_of(data, rubric)
    found = completion.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    return JudgeAnswer(
        key=key,
        model=str(completion.get("model") or model or "unknown"),
        items=items,
        cited_steps=cited,
        overall_comment=overall,
        input_tokens=_count(usage, "prompt_tokens", "input_tokens"),
        output_tokens=_count(usage, "completion_tokens", "output_tokens"),
        cost=_cost(usage.get("cost", completion.get("cost"))),
    )


def _rating_of(
    data: Any, rubric: Rubric
) -> tuple[dict[str, RatingItem], dict[str, list[int]], str]:
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
        raise AnswerError('the answer needs a "metrics" object with one entry per metric')
    metrics: dict[str, Any] = data["metrics"]
    problems: list[str] = []
    items: dict[str, RatingItem] = {}
    cited: dict[str, list[int]] = {}
    missing = [m for m in rubric.metric_ids if m not in metrics]
    if missing:
        problems.append(f"no answer for {', '.join(missing)}")
    for metric_id, entry in metrics.items():
        if not isinstance(entry, dict):
            problems.append(f"{metric_id}: an answer is an object (outcome, score, comment)")
            continue
        outcome, score, comment = entry.get("outcome"), entry.get("score"), entry.get("comment")
        if comment is not None and not isinstance(comment, str):
            problems.append(f"{metric_id}: comment must be text")
            continue
        # The rubric's rules, exactly as a human's submit meets them.
        found = rubric.validate_item(metric_id, outcome, score, comment, complete=True)
        problems += [f"{metric_id}: {p}" for p in found]
        steps = entry.get("cited_steps", [])
        if not isinstance(steps, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in steps
        ):
            problems.append(f"{metric_id}: cited_steps must be a list of step numbers")
        if not found:
            items[metric_id] = RatingItem(
                metric_id=metric_id, outcome=outcome, score=score, comment=comment or ""
            )
            cited[metric_id] = list(steps)
    overall = data.get("overall_comment", "")
    if not isinstance(overall, str):
        problems.append("overall_comment must be text")
    if problems:
        raise AnswerError("; ".join(problems))
    return {m: items[m] for m in rubric.metric_ids}, cited, overall.strip()


def _unfenced(content: str) -> str:
    # Models without structured output often wrap JSON in a Markdown fence; the JSON inside
    # is still the answer, so only the fence is dropped.
    text = content.strip()
    if text.startswith("```") and text.endswith("```"):
        text = text[3:-3]
        text = text[text.find("\n") + 1 :] if "\n" in text else text
    return text


def _count(usage: dict[str, Any], *names: str) -> int | None:
    for name in names:
        value = usage.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


def _cost(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


def _short(value: Any, limit: int = 200) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"

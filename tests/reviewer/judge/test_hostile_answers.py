"""Hostile judge outputs (issue 27): a deeply nested line, or deeply nested JSON inside the
model's message, ended the whole import in RecursionError. Each is one refused line now,
and the good lines of the batch are kept."""

from __future__ import annotations

import json

from reviewer.judge.answers import read_answers
from reviewer.judge.prompt import RequestKey, prompt_sha256
from reviewer.rubric import default_rubric

RUBRIC = default_rubric()


def _key(n: int) -> RequestKey:
    return RequestKey(
        trajectory_sha256=f"{n:02x}" * 32,
        rubric_sha256=RUBRIC.sha256,
        prompt_sha256=prompt_sha256(RUBRIC),
    )


def _line(n: int, content: str, make_completion) -> str:
    response = {"status_code": 200, "body": make_completion(content)}
    return json.dumps({"custom_id": _key(n).custom_id, "response": response})


def test_deep_nesting_is_one_refused_line_and_the_batch_is_kept(
    make_answer, make_completion
) -> None:
    good = json.dumps(make_answer({"vector": {"coverage": 1.0}}))
    deep = "[" * 200_000 + "]" * 200_000
    lines = [
        _line(1, good, make_completion),
        deep,  # the line itself
        _line(2, deep, make_completion),  # the model's message content
        _line(3, '{"metrics": ' + "{" * 100_000 + "}" * 100_000 + "}", make_completion),
        _line(4, good, make_completion),
    ]
    read = read_answers([ln.encode() + b"\n" for ln in lines], rubric=RUBRIC, source="b.jsonl")
    assert [a.key for a in read.answers] == [_key(1), _key(4)]
    assert [e.split(": ", 1)[0] for e in read.errors] == ["b.jsonl:2", "b.jsonl:3", "b.jsonl:4"]
    assert "nested too deeply" in read.errors[0] and "nested too deeply" in read.errors[1]
    assert all(len(e) < 400 and "\n" not in e for e in read.errors)

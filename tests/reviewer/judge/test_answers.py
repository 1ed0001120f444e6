"""Reading answers back: both line forms, and every rubric rule refused per line."""

from __future__ import annotations

import json

import pytest

from reviewer.judge.answers import AnswerError, parse_line, read_answers
from reviewer.judge.prompt import RequestKey, prompt_sha256
from reviewer.rubric import default_rubric

RUBRIC = default_rubric()
KEY = RequestKey(
    trajectory_sha256="cd" * 32, rubric_sha256=RUBRIC.sha256, prompt_sha256=prompt_sha256(RUBRIC)
)


def _answer(make_answer, **changes) -> dict:
    answer = make_answer({"vector": {"coverage": 0.5}})
    for metric_id, item in changes.items():
        if item is None:
            del answer["metrics"][metric_id]
        else:
            answer["metrics"][metric_id] = item
    return answer


def _batch_line(content: str, make_completion, *, status: int = 200) -> str:
    body = make_completion(content) if status == 200 else {"error": {"message": "boom"}}
    return json.dumps(
        {
            "id": "batch_req_1",
            "custom_id": KEY.custom_id,
            "response": {"status_code": status, "request_id": "r1", "body": body},
            "error": None,
        }
    )


def test_a_batch_output_line_becomes_a_complete_rating(make_answer, make_completion) -> None:
    line = _batch_line(json.dumps(_answer(make_answer)), make_completion)
    answer = parse_line(line, rubric=RUBRIC)
    assert answer.key == KEY and answer.model == "stub-model-1"
    assert list(answer.items) == list(RUBRIC.metric_ids)
    assert answer.items["procedure_application"].score == 2  # round(3 · 0.5)
    assert answer.items["communication"].outcome == "not_observed"
    assert answer.cited_steps["safety"] == [1]
    assert (answer.input_tokens, answer.output_tokens, answer.cost) == (1200, 300, None)


def test_a_plain_chat_completion_with_its_custom_id_and_a_cost(make_answer, make_completion):
    completion = make_completion("```json\n" + json.dumps(_answer(make_answer)) + "\n```")
    completion["usage"]["cost"] = 0.0042
    answer = parse_line(json.dumps({"custom_id": KEY.custom_id, **completion}), rubric=RUBRIC)
    assert answer.cost == pytest.approx(0.0042)
    assert answer.overall_comment == "stub judge"


SCORED_NA = {"outcome": "not_applicable", "score": 2, "comment": "x", "cited_steps": []}
FOUR = {"outcome": "applicable", "score": 4, "comment": "x", "cited_steps": []}
BARE_ZERO = {"outcome": "applicable", "score": 0, "comment": " ", "cited_steps": [2]}
BARE_NOT_OBSERVED = {"outcome": "not_observed", "score": None, "comment": "", "cited_steps": []}
TEXT_SCORE = {"outcome": "applicable", "score": "2", "comment": "x", "cited_steps": []}
BAD_STEPS = {"outcome": "applicable", "score": 2, "comment": "x", "cited_steps": ["one"]}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"safety": SCORED_NA}, "safety: a score is only given when the outcome is applicable"),
        ({"safety": FOUR}, "safety: score must be an integer 0–3; got 4"),
        ({"safety": None, "verification": None}, "no answer for safety, verification"),
        ({"teamwork": FOUR | {"score": 1}}, "unknown metric 'teamwork'"),
        ({"safety": BARE_ZERO}, "safety: a score of 0 needs a comment"),
        ({"safety": BARE_NOT_OBSERVED}, "safety: Not observed needs a comment"),
        ({"safety": TEXT_SCORE}, "safety: score must be an integer 0–3; got '2'"),
        ({"safety": BAD_STEPS}, "safety: cited_steps must be a list of step numbers"),
    ],
)
def test_an_answer_that_breaks_a_rubric_rule_is_refused_with_the_reason(
    make_answer, make_completion, changes, reason
) -> None:
    line = _batch_line(json.dumps(_answer(make_answer, **changes)), make_completion)
    with pytest.raises(AnswerError) as exc:
        parse_line(line, rubric=RUBRIC)
    assert reason in str(exc.value)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a response line is a JSON object"),
        ('{"custom_id": "run-7", "choices": []}', "not one written by 'judge export'"),
    ],
)
def test_a_line_that_is_no_answer_is_refused(line: str, reason: str) -> None:
    with pytest.raises(AnswerError, match=reason):
        parse_line(line, rubric=RUBRIC)


def test_a_file_refuses_bad_lines_by_number_and_keeps_the_good_ones(
    make_answer, make_completion
) -> None:
    good = _batch_line(json.dumps(_answer(make_answer)), make_completion)
    lines = [
        good,
        "",
        _batch_line("the run looks fine to me", make_completion),
        _batch_line("", make_completion, status=500),
        good,
        _batch_line(json.dumps(_answer(make_answer, safety=FOUR)), make_completion),
    ]
    answers, errors, where = read_answers(lines, rubric=RUBRIC, source="out.jsonl")
    assert [a.custom_id for a in answers] == [KEY.custom_id] and where == {KEY.custom_id: 1}
    assert [e.split(": ", 1)[0] for e in errors] == [
        "out.jsonl:3", "out.jsonl:4", "out.jsonl:5", "out.jsonl:6",
    ]  # fmt: skip
    assert "the answer is not JSON" in errors[0]
    assert "failed with HTTP 500" in errors[1]
    assert "custom_id again (first on line 1)" in errors[2]
    assert "score must be an integer 0–3; got 4" in errors[3]


def test_a_cut_off_or_refused_answer_says_so(make_completion) -> None:
    cut = make_completion('{"metrics": {')
    cut["choices"][0]["finish_reason"] = "length"
    refused = make_completion("")
    refused["choices"][0]["message"] = {"role": "assistant", "content": None, "refusal": "no"}
    for completion, reason in ((cut, "cut off"), (refused, "the model refused: no")):
        with pytest.raises(AnswerError, match=reason):
            parse_line(json.dumps({"custom_id": KEY.custom_id, **completion}), rubric=RUBRIC)

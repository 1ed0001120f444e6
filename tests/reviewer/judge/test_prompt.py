"""What the judge is asked: the request line, the schema, the custom_id."""

from __future__ import annotations

import pytest

from reviewer.judge.prompt import (
    RequestKey,
    answer_schema,
    build_request,
    prompt_sha256,
    system_message,
)
from reviewer.rubric import default_rubric

SHA = "ab" * 32


def test_a_request_is_one_batch_api_line_with_the_bundle_and_a_strict_schema() -> None:
    rubric = default_rubric()
    request = build_request({"turns": []}, trajectory_sha256=SHA, rubric=rubric, model="m-1")
    assert set(request) == {"custom_id", "method", "url", "body"}
    assert (request["method"], request["url"]) == ("POST", "/v1/chat/completions")
    body = request["body"]
    assert body["model"] == "m-1"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][1]["content"] == '{"turns":[]}'
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    key = RequestKey.parse(request["custom_id"])
    assert key == RequestKey(
        trajectory_sha256=SHA, rubric_sha256=rubric.sha256, prompt_sha256=prompt_sha256(rubric)
    )


def test_the_system_message_holds_every_question_and_anchor_and_the_outcome_rules() -> None:
    rubric = default_rubric()
    text = system_message(rubric)
    for metric in rubric.metrics:
        assert metric.question in text
        assert all(anchor in text for anchor in metric.anchors.values())
    assert 'only when the outcome is "applicable"' in text
    assert "required for a score of 0 or 3" in text and "not_observed" in text


def test_the_schema_is_strict_every_metric_required_and_no_extra_properties() -> None:
    rubric = default_rubric()
    schema = answer_schema(rubric)

    def walk(node):  # strict structured output: every object closed, every property required
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert set(node["required"]) == set(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert schema["properties"]["metrics"]["required"] == list(rubric.metric_ids)


def test_the_prompt_hash_follows_the_rubric_text() -> None:
    rubric = default_rubric()
    changed = rubric.model_copy(update={"description": "another description"})
    assert prompt_sha256(rubric) == prompt_sha256(default_rubric())
    assert prompt_sha256(changed) != prompt_sha256(rubric)


@pytest.mark.parametrize(
    "custom_id",
    [
        None,
        7,
        "run-1",
        f"a320r.{SHA}.{SHA}",
        f"x.{SHA}.{SHA}.{SHA}",
        f"a320r.{SHA}.{SHA}.{SHA[:-1]}Z",
    ],
)
def test_a_custom_id_not_written_by_export_is_refused(custom_id) -> None:
    with pytest.raises(ValueError, match="not one written by 'judge export'"):
        RequestKey.parse(custom_id)

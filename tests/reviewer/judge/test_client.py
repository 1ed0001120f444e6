"""The client against a stub OpenAI-compatible server: retries, backoff, timeouts, cache."""

from __future__ import annotations

import json

import pytest

from reviewer.judge.client import (
    ChatClient,
    ClientSettings,
    RequestFailed,
    ResponseCache,
    run_requests,
)
from reviewer.judge.prompt import build_request
from reviewer.rubric import default_rubric

RUBRIC = default_rubric()


def _requests(n: int) -> list[dict]:
    return [
        build_request(
            {"vector": {"coverage": i / max(n - 1, 1)}, "run": i},
            trajectory_sha256=f"{i:064x}",
            rubric=RUBRIC,
            model="placeholder",
        )
        for i in range(n)
    ]


def _settings(server, **changes) -> ClientSettings:
    values = {"base_url": server.url, "model": "stub-model-1", "backoff": 0.01, "timeout": 5.0}
    return ClientSettings(**(values | changes))


class Sleeps(list):
    """Records the waits instead of sleeping them."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def test_every_request_is_answered_in_order_with_the_model_asked_and_the_key_sent(
    stub_server, tmp_path
) -> None:
    outcomes = run_requests(
        _requests(5),
        settings=_settings(stub_server, api_key="sk-test", concurrency=3),
        rubric=RUBRIC,
        cache=ResponseCache(tmp_path),
    )
    assert [o.answer.items["procedure_application"].score for o in outcomes] == [0, 1, 2, 2, 3]
    # round(3·0) round(3·0.25) round(3·0.5) round(3·0.75) round(3·1): 0 1 2 2 3 (banker's)
    assert {b["model"] for b in stub_server.bodies} == {"stub-model-1"}
    assert {h["Authorization"] for h in stub_server.headers} == {"Bearer sk-test"}
    assert not any(o.cached for o in outcomes)


def test_a_rerun_is_answered_from_the_cache_without_a_request(stub_server, tmp_path) -> None:
    cache = ResponseCache(tmp_path)
    run_requests(_requests(3), settings=_settings(stub_server), rubric=RUBRIC, cache=cache)
    asked = len(stub_server.bodies)
    again = run_requests(_requests(3), settings=_settings(stub_server), rubric=RUBRIC, cache=cache)
    assert len(stub_server.bodies) == asked == 3
    assert all(o.cached and o.answer is not None for o in again)
    other_model = _settings(stub_server).model_copy(update={"model": "other"})
    run_requests(_requests(3), settings=other_model, rubric=RUBRIC, cache=cache)
    assert len(stub_server.bodies) == 6  # the model is part of the key
    assert "temperature" not in stub_server.bodies[-1]
    warm = other_model.model_copy(update={"temperature": 0.0})
    run_requests(_requests(3), settings=warm, rubric=RUBRIC, cache=cache)
    assert len(stub_server.bodies) == 9 and stub_server.bodies[-1]["temperature"] == 0.0
    assert not any("sk-" in p.read_text() for p in tmp_path.rglob("*.json"))


def test_429_is_retried_after_the_time_the_server_asks(stub_server, good_plan) -> None:
    def plan(body, asked):
        if asked < 2:
            return 429, {"Retry-After": "0.05"}, {"error": {"message": "slow down"}}, 0.0
        return good_plan(body, asked)

    stub_server.plan = plan
    sleeps = Sleeps()
    [outcome] = run_requests(
        _requests(1), settings=_settings(stub_server), rubric=RUBRIC, cache=None, sleep=sleeps
    )
    assert outcome.answer is not None
    assert sleeps == [0.05, 0.05] and len(stub_server.bodies) == 3


def test_5xx_backs_off_exponentially_and_gives_up_after_the_retries(stub_server) -> None:
    stub_server.plan = lambda body, asked: (503, {}, {"error": "overloaded"}, 0.0)
    sleeps = Sleeps()
    settings = _settings(stub_server, max_retries=3, backoff=1.0, max_backoff=3.0)
    [outcome] = run_requests(
        _requests(1), settings=settings, rubric=RUBRIC, cache=None, sleep=sleeps
    )
    assert outcome.answer is None and outcome.error.startswith("HTTP 503")
    assert len(stub_server.bodies) == 4  # the first try and three retries
    # 1·2⁰, 1·2¹, 1·2² plus up to 1 s of jitter each, capped at 3 s
    assert 1 <= sleeps[0] <= 2 and 2 <= sleeps[1] <= 3 and sleeps[2] == 3


def test_a_client_error_is_not_retried(stub_server) -> None:
    stub_server.plan = lambda body, asked: (400, {}, {"error": "no such model"}, 0.0)
    [outcome] = run_requests(
        _requests(1), settings=_settings(stub_server), rubric=RUBRIC, cache=None
    )
    assert outcome.error.startswith("HTTP 400") and "no such model" in outcome.error
    assert len(stub_server.bodies) == 1


def test_a_timeout_is_retried_and_a_server_that_never_answers_in_time_fails(stub_server, good_plan):
    stub_server.plan = lambda body, asked: (
        (*good_plan(body, asked)[:3], 1.0 if asked == 0 else 0.0)
    )
    settings = _settings(stub_server, timeout=0.3, max_retries=2)
    [outcome] = run_requests(_requests(1), settings=settings, rubric=RUBRIC, cache=None)
    assert outcome.answer is not None and len(stub_server.bodies) == 2

    stub_server.plan = lambda body, asked: (*good_plan(body, asked)[:3], 1.0)
    with (
        ChatClient(_settings(stub_server, timeout=0.2, max_retries=1)) as client,
        pytest.raises(RequestFailed, match=r"timed out after 0.2 s, 2 tries"),
    ):
        client.complete(_requests(1)[0]["body"])


def test_a_malformed_answer_is_reported_and_not_cached(
    stub_server, tmp_path, make_completion
) -> None:
    reply = make_completion("I think it went well.")
    stub_server.plan = lambda body, asked: (200, {}, reply, 0.0)
    cache = ResponseCache(tmp_path)
    [outcome] = run_requests(
        _requests(1), settings=_settings(stub_server), rubric=RUBRIC, cache=cache
    )
    assert outcome.answer is None and "the answer is not JSON" in outcome.error
    assert outcome.completion is not None  # kept for --responses
    assert not list(tmp_path.rglob("*.json"))


def test_an_unreachable_endpoint_fails_after_its_retries() -> None:
    settings = ClientSettings(
        base_url="http://127.0.0.1:9/v1", model="m", max_retries=1, backoff=0.0, timeout=2.0
    )
    [outcome] = run_requests(_requests(1), settings=settings, rubric=RUBRIC, cache=None)
    assert outcome.answer is None and outcome.error.startswith("cannot reach")


def test_the_api_key_never_shows_in_the_settings_repr() -> None:
    settings = ClientSettings(model="m", api_key="sk-secret")
    assert "sk-secret" not in repr(settings) and "sk-secret" not in str(settings)
    assert json.dumps(settings.model_dump(exclude={"api_key"}))

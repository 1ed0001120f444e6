"""Fixtures for the judge tests: a stub OpenAI-compatible server and answers to give.

The server is the standard library's ``http.server`` on 127.0.0.1, port 0, in a thread the
fixture starts and stops. Its answer to each request is decided by ``server.plan``, a
function of (the request body, how many times this run was asked before) that returns
``(status, headers, payload, delay_seconds)``; by default a valid answer derived from the
bundle, so different runs get different scores.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from reviewer.rubric import default_rubric

Plan = Callable[[dict[str, Any], int], tuple[int, dict[str, str], Any, float]]


def answer_for(bundle: dict[str, Any]) -> dict[str, Any]:
    """A valid rating of the run: procedure_application follows the scorer's coverage,
    communication is not observed, the rest a plain 2."""
    coverage = (bundle.get("vector") or {}).get("coverage") or 0.0
    metrics = {}
    for metric_id in default_rubric().metric_ids:
        metrics[metric_id] = {
            "outcome": "applicable",
            "score": 2,
            "comment": "",
            "cited_steps": [1],
        }
    score = round(3 * coverage)
    metrics["procedure_application"] |= {"score": score, "comment": f"coverage {coverage}"}
    metrics["communication"] = {
        "outcome": "not_observed",
        "score": None,
        "comment": "the run has no crew to talk to",
        "cited_steps": [],
    }
    return {"metrics": metrics, "overall_comment": "stub judge"}


def completion(content: str, *, model: str = "stub-model-1", usage: bool = True) -> dict:
    """A chat completion holding ``content`` as its answer."""
    body: dict[str, Any] = {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
    if usage:
        body["usage"] = {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500}
    return body


def good_plan(body: dict[str, Any], asked: int) -> tuple[int, dict[str, str], Any, float]:
    """Answer every request at once with :func:`answer_for` its bundle."""
    bundle = json.loads(body["messages"][1]["content"])
    return 200, {}, completion(json.dumps(answer_for(bundle)), model=body["model"]), 0.0


class StubServer:
    """The running stub: ``url`` (base, up to /v1), ``bodies`` received, ``headers`` seen."""

    def __init__(self) -> None:
        self.plan: Plan = good_plan
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._asked: dict[str, int] = {}
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                user = body["messages"][1]["content"]
                with server._lock:
                    server.bodies.append(body)
                    server.headers.append(dict(self.headers))
                    asked = server._asked.get(user, 0)
                    server._asked[user] = asked + 1
                if self.path != "/v1/chat/completions":
                    status, headers, payload, delay = 404, {}, {"error": "no such path"}, 0.0
                else:
                    status, headers, payload, delay = server.plan(body, asked)
                time.sleep(delay)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing to answer

            def log_message(self, *args: object) -> None:
                pass  # keep the test output clean

        return Handler

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def stub_server() -> Iterator[StubServer]:
    """A stub OpenAI-compatible server on 127.0.0.1, stopped after the test."""
    server = StubServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def make_answer():
    """:func:`answer_for`."""
    return answer_for


@pytest.fixture
def make_completion():
    """:func:`completion`."""
    return completion


@pytest.fixture(name="good_plan")
def _good_plan() -> Plan:
    """:func:`good_plan`."""
    return good_plan

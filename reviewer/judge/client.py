"""Sending judge requests to an OpenAI-compatible ``/v1/chat/completions`` (hosted, vLLM,
Ollama, llama.cpp's server...), with retries, backoff and a cache on disk.

Needs the optional extra ``[judge]`` (httpx). The API key is passed in by the caller, read
from the environment; it is never written anywhere, the cache included.

Retries: a timeout, a dropped connection, HTTP 429 and HTTP 5xx are tried again, waiting
``Retry-After`` when the server sends it and an exponential backoff otherwise; any other
HTTP error fails that request at once (a wrong model name will not fix itself). An answer is
cached only once it passed the rubric's checks, so a rerun asks again for exactly the runs
that have no good answer yet and costs nothing for the others.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from pydantic import BaseModel, ConfigDict, Field

from reviewer.judge.answers import AnswerError, JudgeAnswer, answer_from_completion
from reviewer.judge.prompt import RequestKey
from reviewer.rubric import Rubric

_RETRY_STATUS = frozenset({408, 409, 429}) | frozenset(range(500, 600))


class RequestFailed(Exception):
    """A request that failed for good (after its retries, or at once for a client error)."""


class ClientSettings(BaseModel):
    """Where and how to send requests. ``api_key`` is never shown in a repr or a log."""

    model_config = ConfigDict(frozen=True)

    base_url: str = "https://api.openai.com/v1"
    model: str
    api_key: str | None = Field(default=None, repr=False)
    concurrency: int = Field(default=4, ge=1)
    timeout: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=5, ge=0)
    backoff: float = Field(default=1.0, ge=0, description="first wait, doubled each retry")
    max_backoff: float = Field(default=60.0, ge=0)
    temperature: float | None = Field(default=None, ge=0, description="None: the server's")

    @property
    def endpoint(self) -> str:
        """The chat completions URL under ``base_url``."""
        return self.base_url.rstrip("/") + "/chat/completions"


class ResponseCache:
    """Good completions on disk, one JSON file per (trajectory, rubric, prompt, model)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _file(self, key: RequestKey, model: str) -> Path:
        # The custom_id carries the trajectory, rubric and prompt hashes; the model (with
        # its sampling settings) completes the key. Hashed again: a safe file name.
        name = hashlib.sha256(f"{key.custom_id}\0{model}".encode()).hexdigest()
        return self.folder / name[:2] / f"{name}.json"

    def get(self, key: RequestKey, model: str) -> dict[str, Any] | None:
        """The cached completion, or None (a damaged entry counts as none)."""
        try:
            data = json.loads(self._file(key, model).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: RequestKey, model: str, completion: dict[str, Any]) -> None:
        """Store ``completion`` atomically (a crash leaves the old entry or the new one)."""
        path = self._file(key, model)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(completion, fh, ensure_ascii=False)
        os.replace(tmp, path)


class ChatClient:
    """One connection pool to the endpoint, shared by the worker threads."""

    def __init__(
        self, settings: ClientSettings, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        headers = {"Content-Type": "application/json"}
        if settings.api_key:
            headers["Authorization"] = f"Bearer {settings.api_key}"
        self.settings = settings
        self._sleep = sleep
        self._http = httpx.Client(timeout=settings.timeout, headers=headers)

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.close()

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body``; the chat completion, or :class:`RequestFailed` saying why."""
        s = self.settings
        for attempt in range(s.max_retries + 1):
            last = attempt == s.max_retries
            try:
                response = self._http.post(s.endpoint, json=body)
            except httpx.TimeoutException:
                if last:
                    raise RequestFailed(
                        f"timed out after {s.timeout:g} s, {attempt + 1} tries"
                    ) from None
                self._sleep(self._wait(attempt, None))
                continue
            except httpx.TransportError as exc:
                if last:
                    raise RequestFailed(f"cannot reach {s.endpoint}: {exc}") from None
                self._sleep(self._wait(attempt, None))
                continue
            if response.status_code == 200:
                try:
                    data = response.json()
                except ValueError:
                    raise RequestFailed("the server answered 200 with no JSON body") from None
                if not isinstance(data, dict):
                    raise RequestFailed("the server answered 200 with no completion object")
                return data
            if response.status_code not in _RETRY_STATUS or last:
                raise RequestFailed(f"HTTP {response.status_code}: {response.text[:300]}")
            self._sleep(self._wait(attempt, response.headers.get("Retry-After")))
        raise AssertionError("unreachable")  # the loop returns or raises

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        s = self.settings
        told = _retry_after_seconds(retry_after)
        if told is not None:
            return min(told, s.max_backoff)
        # Jitter: concurrent workers that failed together must not retry together.
        base: float = s.backoff * 2**attempt
        return min(base + random.uniform(0, s.backoff), s.max_backoff)


def _retry_after_seconds(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


class Outcome(NamedTuple):
    """One request's end: a checked answer, or the reason there is none."""

    custom_id: str
    answer: JudgeAnswer | None
    error: str | None
    cached: bool
    completion: dict[str, Any] | None


Progress = Callable[[int, int, int, int], None]  # done, total, cached, failed


def run_requests(
    requests: Sequence[dict[str, Any]],
    *,
    settings: ClientSettings,
    rubric: Rubric,
    cache: ResponseCache | None,
    progress: Progress | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> list[Outcome]:
    """Answer every request (from the cache when it can), ``concurrency`` at a time.

    Outcomes come back in the order of ``requests``. The model of each body is replaced by
    ``settings.model``: the export's model name is a placeholder for whatever runs here.
    """
    results: dict[int, Outcome] = {}
    lock = threading.Lock()
    tally = {"done": 0, "cached": 0, "failed": 0}

    def finished(index: int, outcome: Outcome) -> None:
        with lock:
            results[index] = outcome
            tally["done"] += 1
            tally["cached"] += outcome.cached
            tally["failed"] += outcome.answer is None
            if progress is not None:
                progress(tally["done"], len(requests), tally["cached"], tally["failed"])

    with (
        ChatClient(settings, sleep=sleep) as client,
        ThreadPoolExecutor(settings.concurrency) as pool,
    ):
        futures = {}
        for index, request in enumerate(requests):
            key = RequestKey.parse(request["custom_id"])
            hit = cache.get(key, cache_model(settings)) if cache is not None else None
            if hit is not None:
                finished(index, _checked(key, hit, rubric, settings.model, cached=True))
            else:
                futures[pool.submit(_ask, client, key, request, rubric, cache)] = index
        try:
            for future in as_completed(futures):
                finished(futures[future], future.result())
        except KeyboardInterrupt:
            # Ctrl-C: drop the requests not started; the answers already cached stay, so
            # the next run picks up where this one stopped.
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [results[i] for i in range(len(requests))]


def _ask(
    client: ChatClient,
    key: RequestKey,
    request: dict[str, Any],
    rubric: Rubric,
    cache: ResponseCache | None,
) -> Outcome:
    model = cache_model(client.settings)
    try:
        body = {**request["body"], "model": client.settings.model}
        if client.settings.temperature is not None:
            body["temperature"] = client.settings.temperature
        completion = client.complete(body)
    except RequestFailed as exc:
        return Outcome(key.custom_id, None, str(exc), False, None)
    outcome = _checked(key, completion, rubric, client.settings.model, cached=False)
    if outcome.answer is not None and cache is not None:
        cache.put(key, model, completion)
    return outcome


def cache_model(settings: ClientSettings) -> str:
    """The model part of the cache key: the model id, and the temperature when one is set
    (an answer sampled at 0.7 is not the answer at 0)."""
    if settings.temperature is None:
        return settings.model
    return f"{settings.model}@temperature={settings.temperature:g}"


def _checked(
    key: RequestKey, completion: dict[str, Any], rubric: Rubric, model: str, *, cached: bool
) -> Outcome:
    try:
        answer = answer_from_completion(completion, key=key, rubric=rubric, model=model)
    except AnswerError as exc:
        return Outcome(key.custom_id, None, str(exc), cached, completion)
    return Outcome(key.custom_id, answer, None, cached, completion)

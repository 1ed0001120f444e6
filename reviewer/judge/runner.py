"""``judge run``: build the requests, ask the endpoint (cache first), import what is good."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reviewer import home
from reviewer.commands.verbs import CommandError, UsageError, open_output
from reviewer.judge.facade import JudgeStore
from reviewer.judge.requests import RunRef
from reviewer.judge.workflow import Progress, import_answers, requests_for
from reviewer.store import StoreError


def cache_dir() -> Path:
    """Where good answers are kept between runs (under the app home's data folder)."""
    return home.data_dir() / "judge-cache"


def run_judge(
    store: JudgeStore, runs: list[RunRef], args: argparse.Namespace, *, api_key: str | None
) -> int:
    """Rate ``runs`` with ``args.model``; 0 when every run got a stored, valid answer."""
    try:
        from reviewer.judge.client import ClientSettings, ResponseCache, run_requests
    except ModuleNotFoundError as exc:
        if exc.name != "httpx":
            raise
        raise CommandError(
            "judge run needs httpx: pip install 'a320-review[judge]' "
            "(or use judge export and judge import with any batch tool)"
        ) from None
    built = list(requests_for(store, runs, model=args.model, verb="judge run: preparing"))
    skipped = [b.problem for b in built if b.request is None]
    requests = [b.request for b in built if b.request is not None]
    path_of = {b.request["custom_id"]: b.run.path for b in built if b.request is not None}
    for problem in skipped:
        print(f"skipped: {problem}", file=sys.stderr)
    try:
        settings = ClientSettings(
            base_url=args.base_url,
            model=args.model,
            api_key=api_key,
            concurrency=args.concurrency,
            timeout=args.timeout,
            max_retries=args.retries,
            temperature=args.temperature,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    cache = None if args.no_cache else ResponseCache(cache_dir())
    outcomes = run_requests(
        requests,
        settings=settings,
        rubric=store.rubric(),
        cache=cache,
        progress=Progress("judge run"),
    )
    if args.responses is not None:
        with open_output(args.responses) as out:
            for o in outcomes:
                if o.completion is not None:
                    line = {"custom_id": o.custom_id, **o.completion}
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
    failed = [o for o in outcomes if o.answer is None]
    for o in failed:
        print(f"no answer: {path_of[o.custom_id]}: {o.error}", file=sys.stderr)
    answers = [o.answer for o in outcomes if o.answer is not None]
    source = f"judge run {args.model} at {settings.base_url}"
    try:
        report, refused = import_answers(
            store, answers, judge=args.judge or args.model, source=source
        )
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    for message in refused:
        print(message, file=sys.stderr)
    cached = sum(o.cached for o in outcomes if o.answer is not None)
    print(
        f"judge run: {len(answers)} answers ({cached} from the cache), {len(failed)} without "
        f"a good answer, {len(skipped)} runs skipped; import: {report.summary()}"
    )
    return 1 if failed or skipped or refused else 0

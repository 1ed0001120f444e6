"""Builders of the store's value objects for widget tests, without a database.

Rows are the queue's real rows (``reviewer.listing.rows.RunValues``) and ratings the real
frozen pydantic models (``reviewer.store.models``), so a widget that reads an attribute the
store does not have fails here too.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from reviewer.listing.rows import RunValues
from reviewer.rubric import RatingItem, Rubric
from reviewer.store.models import Rating

SCENARIOS = ("elec-apu-gen-fault", "elec-eng1-gen-fault", "hyd-blue-elec-pump-fault")
MODELS = ("claude-sonnet-4", "gpt-4.1", "gemini-2.5-pro", "llama-3.3-70b")
STATES = ("unrated", "draft", "submitted", "signed")
SAVED_AT = datetime(2025, 11, 30, 10, 42, 13, tzinfo=UTC)


def run_row(run_pk: int, **fields) -> RunValues:
    """One scored, unrated row; ``fields`` override any attribute."""
    values = {
        "run_pk": run_pk,
        "run_id": f"run-{run_pk:05d}",
        "path": f"/runs/elec-apu-gen-fault/run-{run_pk:05d}.jsonl",
        "version": 1,
        "superseded_by_version": False,
        "scenario_id": "elec-apu-gen-fault",
        "model": "gpt-4.1",
        "status": "scored",
        "reason": None,
        "scalar": 0.5,
        "coverage": 0.5,
        "end_state": 1.0,
        "unsafe": False,
        "rating_state": "unrated",
    }
    values.update(fields)
    return RunValues(**values)


def make_rows(n: int, *, seed: int = 7) -> list[RunValues]:
    """``n`` varied rows: several statuses, null scores, a few unsafe runs."""
    rng = random.Random(seed)
    rows = []
    for pk in range(1, n + 1):
        status = rng.choice(["scored"] * 6 + ["provider_error", "incomplete", "invalid"])
        scored = status == "scored"
        unsafe = scored and rng.random() < 0.1
        scenario = rng.choice(SCENARIOS)
        rows.append(
            run_row(
                pk,
                path=f"/runs/{scenario}/run-{pk:05d}.jsonl",
                scenario_id=scenario,
                model=rng.choice(MODELS),
                status=status,
                reason=None if scored else "provider timed out",
                scalar=(0.0 if unsafe else round(rng.random(), 3)) if scored else None,
                unsafe=unsafe,
                rating_state=rng.choice(STATES),
            )
        )
    return rows


def rating(rubric: Rubric, items: dict[str, RatingItem] | None = None, **fields) -> Rating:
    """A draft of run 1 holding ``items`` (the rest of the rubric's metrics empty)."""
    all_items = rubric.empty_items() | (items or {})
    values = {
        "rating_pk": 1,
        "run_pk": 1,
        "rater": "rater",
        "status": "draft",
        "version": 1,
        "rubric_id": rubric.id,
        "rubric_version": rubric.version,
        "rubric_sha256": rubric.sha256,
        "items": all_items,
        "created_at": SAVED_AT,
        "updated_at": SAVED_AT,
    }
    values.update(fields)
    return Rating(**values)


def complete_items(rubric: Rubric) -> dict[str, RatingItem]:
    """Every metric scored 2 (no comment needed): a rating the rubric accepts."""
    return {m.id: RatingItem(metric_id=m.id, outcome="applicable", score=2) for m in rubric.metrics}

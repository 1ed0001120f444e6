"""Fixtures for adjudication: a run two raters disagree on, their keys and signed sheets."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.evidence import Citation
from reviewer.sheets import keys
from reviewer.signing.service import SigningService
from reviewer.workspace import ReviewStore


def rate(store: ReviewStore, run_pk: int, rater: str, fill, values: dict) -> None:
    """Rate every metric 2, then set ``values`` ({metric: (outcome, score)}), and submit."""
    rating = fill(store, store.start_rating(run_pk, rater), score=2)
    for metric, (outcome, score) in values.items():
        rating = store.save_item(
            rating.rating_pk,
            metric,
            outcome=outcome,
            score=score,
            comment="seen",
            expected_version=rating.version,
        )
        if score in (0, 1):  # a low score cites the procedure's first action (issue 13)
            cited = Citation(
                metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="GT:1"
            )
            rating = store.cite(rating.rating_pk, cited, expected_version=rating.version)
    store.submit(rating.rating_pk, expected_version=rating.version)


@pytest.fixture
def disputed(seeded: ReviewStore, fill_rating) -> ReviewStore:
    """Run 1 rated by ann and bob: safety 0 against 3 (disputed), verification applicable
    against not observed (disputed), problem_solving 1 against 2 (agreed at threshold 2),
    the rest 2 and 2. Run 2 rated by ann alone."""
    rate(
        seeded,
        1,
        "ann",
        fill_rating,
        {"safety": ("applicable", 0), "problem_solving": ("applicable", 1)},
    )
    rate(
        seeded,
        1,
        "bob",
        fill_rating,
        {"safety": ("applicable", 3), "verification": ("not_observed", None)},
    )
    rate(seeded, 2, "ann", fill_rating, {})
    return seeded


@pytest.fixture
def signed(disputed: ReviewStore, tmp_path: Path) -> Path:
    """ann's and bob's ratings of run 1 signed into ``tmp_path/ratings``; keys for all three."""
    out = tmp_path / "ratings"
    for name in ("ann", "bob", "dana"):
        keys.generate_key(name)
    for name in ("ann", "bob"):
        SigningService(disputed).sign(1, keys.load_key(name), out)
    return out


def adjudicate_run1(store: ReviewStore, adjudicator: str = "dana") -> int:
    """``adjudicator`` decides both disputed metrics of run 1 and submits; returns the pk."""
    draft = store.start_adjudication(1, adjudicator)
    draft = store.decide(
        draft.adjudication_pk,
        "safety",
        outcome="applicable",
        score=1,
        reason="one unsafe command, corrected at once",
        sides_with=["ann"],
        expected_version=draft.version,
    )
    draft = store.decide(
        draft.adjudication_pk,
        "verification",
        outcome="applicable",
        score=2,
        reason="ECAM read after the last command",
        expected_version=draft.version,
    )
    return store.submit_adjudication(
        draft.adjudication_pk, expected_version=draft.version
    ).adjudication_pk


@pytest.fixture
def adjudicate():
    """:func:`adjudicate_run1`."""
    return adjudicate_run1


@pytest.fixture
def rate_run():
    """:func:`rate`."""
    return rate

"""``audit verify`` on study ratings made through the store API (the window's path)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reviewer.evidence import Citation
from reviewer.store import Rating, ReviewStore
from reviewer.studies.model import StudySpec


def _study(store: ReviewStore, **kw) -> None:
    store.create_study(StudySpec(name="s1", raters=("ann", "bob"), per_run=2, seed=3, **kw))


def _phases(store: ReviewStore, fill) -> Iterator[tuple[str, Rating]]:
    """Ann's first assignment, step by step: rated blind, submitted blind, revealed, one
    metric revised with its reason, submitted final; yields the phase after each step."""
    run_pk = store.list_runs(study="s1", rater="ann")[0].run_pk
    rating = fill(store, store.start_study_rating("s1", run_pk, "ann"), score=2)
    yield "blind", rating
    rating = store.submit_blind(rating.rating_pk, expected_version=rating.version)
    yield "sealed", rating
    rating = store.reveal(rating.rating_pk, expected_version=rating.version)
    metric = next(iter(rating.items))
    rating = store.save_item(rating.rating_pk, metric, outcome="applicable", score=1,
                             comment="x", expected_version=rating.version)  # fmt: skip
    cited = Citation(metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="x")
    rating = store.cite(rating.rating_pk, cited, expected_version=rating.version)
    rating = store.save_revision_reason(
        rating.rating_pk, metric, "missed the reset", expected_version=rating.version
    )
    yield "revealed", rating
    yield "final", store.submit_final(rating.rating_pk, expected_version=rating.version)


def test_a_blind_rating_verifies_at_every_phase(seeded, fill_rating) -> None:
    _study(seeded, protocol="blind")
    phases = []
    for phase, _ in _phases(seeded, fill_rating):
        report = seeded.audit_verify()
        assert report.ok, (phase, report.problems)
        phases.append(phase)
    assert phases == ["blind", "sealed", "revealed", "final"]


def test_the_control_arm_and_an_open_study_verify(seeded, fill_rating) -> None:
    _study(seeded, protocol="blind", reveal_first=1.0)
    for rater in ("ann", "bob"):
        run_pk = seeded.list_runs(study="s1", rater=rater)[0].run_pk
        rating = fill_rating(seeded, seeded.start_study_rating("s1", run_pk, rater))
        seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    report = seeded.audit_verify()
    assert report.ok, report.problems


@pytest.mark.parametrize("phase", ["sealed", "revealed", "final"])
def test_a_blind_value_edited_after_the_blind_submit_is_found(
    seeded, db_path, fill_rating, phase, tamper, problems_of
) -> None:
    _study(seeded, protocol="blind")
    rating = next(r for p, r in _phases(seeded, fill_rating) if p == phase)
    assert problems_of(db_path) == []
    tamper(db_path, f"UPDATE rating_items SET blind_score = 3 WHERE rating_pk = {rating.rating_pk}")
    assert problems_of(db_path) == [
        f"rating {rating.rating_pk}: its blind values differ from what was submitted blind"
    ]


def test_blind_values_given_to_an_open_rating_are_found(
    seeded, db_path, fill_rating, tamper, problems_of
) -> None:
    _study(seeded)  # open
    run_pk = seeded.list_runs(study="s1", rater="ann")[0].run_pk
    rating = fill_rating(seeded, seeded.start_study_rating("s1", run_pk, "ann"))
    seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    tamper(db_path, "UPDATE rating_items SET blind_outcome = outcome, blind_score = 0")
    assert problems_of(db_path) == [
        f"rating {rating.rating_pk} has blind values, but the audit log has no blind submit for it"
    ]


@pytest.mark.parametrize("sql", ["UPDATE rating_items SET revision_reason = 'looked again'",
                                 "UPDATE rating_items SET revision_reason = NULL"])  # fmt: skip
def test_a_revision_reason_edited_after_the_final_submit_is_found(
    seeded, db_path, fill_rating, sql, tamper, problems_of
) -> None:
    _study(seeded, protocol="blind")
    rating = next(r for p, r in _phases(seeded, fill_rating) if p == "final")
    assert problems_of(db_path) == []
    tamper(db_path, sql)
    assert problems_of(db_path) == [
        f"rating {rating.rating_pk}: its revision reasons differ from those submitted"
    ]

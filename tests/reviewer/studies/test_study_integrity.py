"""``audit verify`` on study ratings made through the store API (the window's path)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reviewer.evidence import Citation
from reviewer.store import Rating
from reviewer.studies.model import StudySpec
from reviewer.workspace import ReviewStore


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


def _final_blind_rating(seeded, fill_rating) -> Rating:
    _study(seeded, protocol="blind")
    return next(r for p, r in _phases(seeded, fill_rating) if p == "final")


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        (
            "UPDATE ratings SET study_pk = NULL WHERE rating_pk = {pk}",
            "rating {pk} is in no study, the audit log put it in study 's1'",
        ),
        (
            "UPDATE ratings SET study_pk = (SELECT study_pk FROM studies WHERE name = 's2')"
            " WHERE rating_pk = {pk}",
            "rating {pk} is in study 's2', the audit log put it in study 's1'",
        ),
        (
            "UPDATE ratings SET blind_submitted_at = '2026-01-01T00:00:00Z' WHERE rating_pk = {pk}",
            "rating {pk}: its blind submit time differs from the audit log's",
        ),
        (
            "UPDATE ratings SET revealed_at = NULL WHERE rating_pk = {pk}",
            "rating {pk}: its reveal time differs from the audit log's",
        ),
    ],
    ids=["taken-out", "moved", "blind-time", "reveal-time"],
)
def test_a_ratings_study_and_phase_times_are_bound_to_the_log(
    seeded, db_path, fill_rating, tamper, problems_of, sql, problem
) -> None:
    rating = _final_blind_rating(seeded, fill_rating)
    seeded.create_study(StudySpec(name="s2", raters=("ann",), per_run=1))
    assert problems_of(db_path) == []
    tamper(db_path, sql.format(pk=rating.rating_pk))
    assert problems_of(db_path) == [problem.format(pk=rating.rating_pk)]


def test_a_rating_put_into_a_study_by_hand_is_found(
    seeded, db_path, fill_rating, tamper, problems_of
) -> None:
    _study(seeded)
    run_pk = seeded.list_runs(study="s1", rater="ann")[0].run_pk
    plain = fill_rating(seeded, seeded.start_rating(run_pk, "cat"))  # outside any study
    seeded.submit_final(plain.rating_pk, expected_version=plain.version)
    assert problems_of(db_path) == []
    tamper(db_path, f"UPDATE ratings SET study_pk = 1 WHERE rating_pk = {plain.rating_pk}")
    assert problems_of(db_path) == [
        f"rating {plain.rating_pk} is in study 's1', but the audit log never put it there",
        f"rating {plain.rating_pk}: run {seeded.get_run(run_pk).run_id} is not assigned to cat"
        " in study 's1': only an assigned rater's rating counts; ask the study's owner to "
        "assign it",
    ]


def test_a_correction_keeps_its_originals_study_and_times(
    seeded, db_path, fill_rating, tamper, problems_of
) -> None:
    rating = _final_blind_rating(seeded, fill_rating)
    fix = seeded.supersede(rating.rating_pk, rater="ann")  # inherits them by trigger
    assert problems_of(db_path) == []
    tamper(db_path, f"UPDATE ratings SET revealed_at = NULL WHERE rating_pk = {fix.rating_pk}")
    assert problems_of(db_path) == [
        f"rating {fix.rating_pk}: its reveal time differs from the audit log's"
    ]


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        (
            "DELETE FROM assignments WHERE position = 1 AND rater_pk ="
            " (SELECT rater_pk FROM raters WHERE name = 'ann')",
            "study 's1' has 9 assignments, the audit log made 10",
        ),
        (
            "UPDATE assignments SET rater_pk = (SELECT rater_pk FROM raters WHERE name = 'cat')"
            " WHERE position = 1 AND rater_pk = (SELECT rater_pk FROM raters WHERE name = 'ann')",
            "study 's1': its assignments differ from those the audit log recorded",
        ),
        (
            "UPDATE studies SET per_run = 1",
            "study 's1': its per_run (1) is not its definition's",
        ),
        (
            "UPDATE studies SET definition = json_set(definition, '$.seed', 4), seed = 4",
            "study 's1': its definition differs from the one the audit log recorded",
        ),
        (
            "INSERT INTO study_raters (study_pk, rater_pk, added_at) VALUES"
            " (1, (SELECT rater_pk FROM raters WHERE name = 'cat'), 'now')",
            "study 's1': its raters differ from those the audit log added",
        ),
        (
            "INSERT INTO studies (name, protocol, per_run, seed, rubric_sha256, definition,"
            " created_at) VALUES ('s9', 'open', 1, 0, 'x', '{}', 'now')",
            "study 's9' has no create or join entry in the audit log",
        ),
    ],
    ids=["assignment-deleted", "assignment-moved", "per-run", "definition", "rater", "study"],
)
def test_a_studys_definition_raters_and_assignments_are_bound_to_the_log(
    seeded, db_path, tamper, problems_of, sql, problem
) -> None:
    _study(seeded)
    seeded.start_rating(1, "cat")  # a third rater, known to the database
    assert problems_of(db_path) == []
    tamper(db_path, sql)
    assert problems_of(db_path) == [problem]

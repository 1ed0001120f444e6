"""The rating lifecycle: drafts autosave, submit checks completeness, corrections supersede,
signing freezes; the database itself refuses what the code would never do."""

from __future__ import annotations

import sqlite3

import pytest

from reviewer.store import (
    ConflictError,
    NotFoundError,
    RatingIncompleteError,
    RatingStateError,
    RatingValidationError,
)
from reviewer.workspace import ReviewStore


def test_a_draft_autosaves_item_by_item(seeded: ReviewStore) -> None:
    rating = seeded.start_rating(1, "ann")
    assert (rating.status, rating.version, rating.rater) == ("draft", 1, "ann")
    assert list(rating.items) == list(seeded.rubric().metric_ids)
    assert all(i.outcome is None for i in rating.items.values())
    assert rating.rubric_sha256 == seeded.rubric().sha256
    saved = seeded.save_item(
        rating.rating_pk, "safety", outcome="applicable", score=0, comment="", expected_version=1
    )
    assert saved.version == 2  # incomplete (a 0 needs a comment) is fine in a draft
    assert saved.items["safety"].score == 0
    assert seeded.start_rating(1, "ann").rating_pk == rating.rating_pk  # the same live draft
    comment = seeded.save_overall_comment(rating.rating_pk, "tidy run", expected_version=2)
    assert (comment.version, comment.overall_comment) == (3, "tidy run")


@pytest.mark.parametrize(
    ("metric", "outcome", "score", "message"),
    [
        ("charm", "applicable", 2, "unknown metric 'charm'"),
        ("safety", "applicable", 7, "score must be an integer 0–3; got 7"),
        ("safety", "not_observed", 1, "a score is only given when the outcome is applicable"),
        ("safety", "perhaps", None, "outcome must be one of"),
    ],
)
def test_impossible_items_are_refused_even_in_a_draft(
    seeded: ReviewStore, metric, outcome, score, message
) -> None:
    rating = seeded.start_rating(1, "ann")
    with pytest.raises(RatingValidationError, match=message) as info:
        seeded.save_item(
            rating.rating_pk, metric, outcome=outcome, score=score, comment="", expected_version=1
        )
    assert isinstance(info.value, ValueError)
    assert seeded.live_rating(1, "ann").version == 1  # nothing written


def test_a_stale_version_is_a_conflict_not_an_overwrite(seeded: ReviewStore) -> None:
    rating = seeded.start_rating(1, "ann")
    seeded.save_item(
        rating.rating_pk, "safety", outcome="applicable", score=2, comment="", expected_version=1
    )
    with pytest.raises(ConflictError, match="at version 2, you had version 1") as info:
        seeded.save_item(
            rating.rating_pk,
            "safety",
            outcome="applicable",
            score=1,
            comment="",
            expected_version=1,
        )
    assert (info.value.expected, info.value.actual) == (1, 2)
    assert seeded.live_rating(1, "ann").items["safety"].score == 2


def test_submit_lists_every_problem_then_submits(seeded: ReviewStore, fill_rating) -> None:
    rating = seeded.start_rating(1, "ann")
    rating = seeded.save_item(
        rating.rating_pk, "safety", outcome="applicable", score=3, comment="", expected_version=1
    )
    rating = seeded.save_item(
        rating.rating_pk, "verification", outcome="not_observed", score=None, comment="",
        expected_version=rating.version,
    )  # fmt: skip
    with pytest.raises(RatingIncompleteError) as info:
        seeded.submit(rating.rating_pk, expected_version=rating.version)
    problems = dict(info.value.problems)
    assert len(problems) == 7  # 5 without outcome + safety's and verification's comments
    assert problems["safety"] == "a score of 3 needs a comment saying what was seen"
    assert problems["verification"].startswith("Not observed needs a comment")
    assert "communication: no outcome" in str(info.value)
    rating = fill_rating(seeded, rating)
    submitted = seeded.submit(rating.rating_pk, expected_version=rating.version)
    assert submitted.status == "submitted" and submitted.submitted_at is not None
    assert seeded.progress("ann") == (1, 5)


def _submitted(store: ReviewStore, fill_rating, run_pk: int = 1, rater: str = "ann"):
    rating = fill_rating(store, store.start_rating(run_pk, rater))
    return store.submit(rating.rating_pk, expected_version=rating.version)


def test_a_submitted_rating_is_never_edited_in_place(seeded: ReviewStore, fill_rating) -> None:
    rating = _submitted(seeded, fill_rating)
    with pytest.raises(RatingStateError, match="is submitted: it is never edited in place"):
        seeded.save_item(
            rating.rating_pk, "safety", outcome="applicable", score=1, comment="x",
            expected_version=rating.version,
        )  # fmt: skip
    with pytest.raises(RatingStateError):
        seeded.submit(rating.rating_pk, expected_version=rating.version)
    assert seeded.start_rating(1, "ann") == rating  # returned as it is, not a new draft


def test_a_correction_supersedes_and_the_old_rating_stays_readable(
    seeded: ReviewStore, fill_rating
) -> None:
    old = _submitted(seeded, fill_rating)
    with pytest.raises(RatingStateError, match="only they can correct it"):
        seeded.supersede(old.rating_pk, rater="bob")
    new = seeded.supersede(old.rating_pk, rater="ann")
    assert (new.status, new.supersedes_pk, new.version) == ("draft", old.rating_pk, 1)
    assert new.items == old.items
    with pytest.raises(RatingStateError, match="already superseded"):
        seeded.supersede(old.rating_pk, rater="ann")
    with pytest.raises(RatingStateError, match="a draft: edit it in place"):
        seeded.supersede(new.rating_pk, rater="ann")
    new = seeded.save_item(
        new.rating_pk, "safety", outcome="applicable", score=1, comment="", expected_version=1
    )
    history = seeded.rating_history(1, "ann")
    assert [(r.rating_pk, r.status) for r in history] == [
        (old.rating_pk, "submitted"),
        (new.rating_pk, "draft"),
    ]
    assert history[0].superseded_by_pk == new.rating_pk and history[0].items["safety"].score == 2
    assert seeded.live_rating(1, "ann").rating_pk == new.rating_pk
    # While the correction is a draft, the submitted rating is still ann's word.
    assert [r.rating_pk for r in seeded.latest_decisions()] == [old.rating_pk]


def test_several_raters_rate_the_same_run(seeded: ReviewStore, fill_rating) -> None:
    a = _submitted(seeded, fill_rating, rater="ann")
    b = seeded.start_rating(1, "bob")
    assert a.rating_pk != b.rating_pk
    assert seeded.live_rating(1, "ann").status == "submitted"
    assert seeded.live_rating(1, "bob").status == "draft"
    assert seeded.progress("bob") == (0, 5)


def test_signing_freezes_the_rating_and_keeps_the_sheet(seeded: ReviewStore, fill_rating) -> None:
    draft = seeded.start_rating(2, "ann")
    with pytest.raises(RatingStateError, match="only a submitted one signs"):
        seeded.mark_signed(draft.rating_pk, sheet_id="s-0", sheet_json="{}")
    rating = _submitted(seeded, fill_rating)
    with pytest.raises(RatingValidationError, match="not JSON"):
        seeded.mark_signed(rating.rating_pk, sheet_id="s-1", sheet_json="{nope")
    signed = seeded.mark_signed(rating.rating_pk, sheet_id="s-1", sheet_json='{"v": 1}')
    assert (signed.status, signed.sheet_id, signed.version) == ("signed", "s-1", rating.version + 1)
    assert signed.signed_at is not None
    with pytest.raises(RatingStateError, match="is signed"):
        seeded.mark_signed(rating.rating_pk, sheet_id="s-2", sheet_json="{}")
    (sheet,) = seeded.signed_sheets(rater="ann")
    assert (sheet.sheet_id, sheet.rating_pk, sheet.sheet_json) == (
        "s-1",
        signed.rating_pk,
        '{"v": 1}',
    )
    assert sheet.run_id == "20260724T101500Z-000000"  # run_pk 1 is fake card 0
    assert seeded.signed_sheets(rater="bob") == []
    assert seeded.list_runs(rater="ann")[0].rating_state == "signed"
    correction = seeded.supersede(signed.rating_pk, rater="ann")
    assert correction.supersedes_pk == signed.rating_pk


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ratings SET overall_comment = 'rewritten' WHERE rating_pk = :pk",
        "UPDATE ratings SET status = 'draft' WHERE rating_pk = :pk",
        "DELETE FROM ratings WHERE rating_pk = :pk",
        "UPDATE rating_items SET score = 0 WHERE rating_pk = :pk",
        "DELETE FROM rating_items WHERE rating_pk = :pk",
        "INSERT INTO rating_items (rating_pk, metric_id, outcome, score, comment, updated_at)"
        " VALUES (:pk, 'extra', 'not_applicable', NULL, '', 'now')",
        "UPDATE sheets SET sheet_json = '{}' WHERE rating_pk = :pk",
        "DELETE FROM sheets WHERE rating_pk = :pk",
        "UPDATE audit_log SET actor = 'mallory'",
        "DELETE FROM audit_log",
        "UPDATE runs SET scalar = 1.0",
    ],
)
def test_the_database_rejects_raw_edits_of_signed_rows(
    seeded: ReviewStore, fill_rating, sql: str
) -> None:
    rating = _submitted(seeded, fill_rating)
    seeded.mark_signed(rating.rating_pk, sheet_id="s-1", sheet_json="{}")
    before = seeded.get_rating(rating.rating_pk)
    with pytest.raises(sqlite3.IntegrityError):
        seeded.db.conn.execute(sql, {"pk": rating.rating_pk})
    assert seeded.get_rating(rating.rating_pk) == before


def test_the_database_rejects_raw_edits_of_submitted_rows(seeded: ReviewStore, fill_rating) -> None:
    rating = _submitted(seeded, fill_rating)
    conn = seeded.db.conn
    for sql in (
        "UPDATE ratings SET overall_comment = 'x' WHERE rating_pk = ?",
        "UPDATE ratings SET status = 'draft' WHERE rating_pk = ?",
        "DELETE FROM ratings WHERE rating_pk = ?",
        "UPDATE rating_items SET score = 0 WHERE rating_pk = ?",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="never"):
            conn.execute(sql, (rating.rating_pk,))


def test_the_database_keeps_one_live_rating_per_rater_and_run(seeded: ReviewStore) -> None:
    rating = seeded.start_rating(1, "ann")
    row = seeded.db.conn.execute(
        "SELECT run_pk, rater_pk, rubric_pk FROM ratings WHERE rating_pk = ?", (rating.rating_pk,)
    ).fetchone()
    assert row is not None
    with pytest.raises(sqlite3.IntegrityError, match="one live rating per run"):
        seeded.db.conn.execute(
            "INSERT INTO ratings (run_pk, rater_pk, rubric_pk, created_at, updated_at)"
            " VALUES (?, ?, ?, 'now', 'now')",
            row,
        )
    with pytest.raises(sqlite3.IntegrityError, match="one live rating per run"):
        seeded.db.conn.execute(  # superseding a draft is not a correction
            "INSERT INTO ratings (run_pk, rater_pk, rubric_pk, created_at, updated_at,"
            " supersedes_pk) VALUES (?, ?, ?, 'now', 'now', ?)",
            (*row, rating.rating_pk),
        )


def test_unknown_keys_are_not_found(seeded: ReviewStore) -> None:
    with pytest.raises(NotFoundError, match="no run 99"):
        seeded.start_rating(99, "ann")
    with pytest.raises(NotFoundError, match="no rating 42"):
        seeded.save_item(42, "safety", outcome=None, score=None, comment="", expected_version=1)
    with pytest.raises(NotFoundError):
        seeded.get_run(99)
    assert seeded.live_rating(1, "nobody") is None


def test_raters_and_their_keys(seeded: ReviewStore) -> None:
    ann = seeded.ensure_rater("  ann ")
    assert ann.name == "ann" and ann.fingerprint is None
    assert seeded.ensure_rater("ann") == ann
    keyed = seeded.set_rater_key("ann", public_key="ed25519 AAAA ann", fingerprint="SHA256:abc")
    assert (keyed.public_key, keyed.fingerprint) == ("ed25519 AAAA ann", "SHA256:abc")
    assert [r.name for r in seeded.raters()] == ["ann"]
    with pytest.raises(Exception, match="line-break"):
        seeded.ensure_rater("two\nlines")


def test_a_sheet_id_is_stored_once(seeded: ReviewStore, fill_rating) -> None:
    first = _submitted(seeded, fill_rating, run_pk=1)
    second = _submitted(seeded, fill_rating, run_pk=2)
    seeded.mark_signed(first.rating_pk, sheet_id="s-1", sheet_json="{}")
    with pytest.raises(RatingValidationError, match="'s-1' is already stored"):
        seeded.mark_signed(second.rating_pk, sheet_id="s-1", sheet_json="{}")
    assert seeded.get_rating(second.rating_pk).status == "submitted"

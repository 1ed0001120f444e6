"""The decided columns read with the ratings packed (one ``group_concat`` of their keys,
the study ratings' study and arm read after) equal the plain row reading (``pack=False``)
and :meth:`~reviewer.store.core.CoreStore.decided_items`, item by item, on a store with a
blind study in both arms, ratings outside it, a blind rating not yet final, a draft and a
submitted correction of a study rating."""

from __future__ import annotations

import sqlite3

import pytest

from reviewer.rubric import OUTCOMES
from reviewer.store.decided import DecidedColumns, _codes, _packed_ratings
from reviewer.studies.model import StudySpec
from reviewer.workspace import ReviewStore


def _rows(c: DecidedColumns) -> list[tuple[object, ...]]:
    """The columns as ``decided_items`` rows."""
    return [
        (run, c.raters[rater], c.judges[rater], c.metrics[metric], OUTCOMES[outcome],
         None if score < 0 else score, None if study < 0 else c.studies[study],
         None if b_out < 0 else OUTCOMES[b_out], None if b_score < 0 else b_score,
         None if arm < 0 else bool(arm))
        for run, rater, metric, outcome, score, study, b_out, b_score, arm in zip(
            c.run.tolist(), c.rater.tolist(), c.metric.tolist(), c.outcome.tolist(),
            c.score.tolist(), c.study.tolist(), c.blind_outcome.tolist(),
            c.blind_score.tolist(), c.reveal.tolist(), strict=True,
        )
    ]  # fmt: skip


def _assert_readings_agree(store: ReviewStore) -> None:
    packed, plain = store.decided_columns(), store.decided_columns(pack=False)
    assert _rows(packed) == _rows(plain) == [tuple(r) for r in store.decided_items()]
    for a, b in zip(packed, plain, strict=True):
        assert a.tolist() == b.tolist() if hasattr(a, "tolist") else a == b


@pytest.fixture
def studied(seeded: ReviewStore, fill_rating) -> ReviewStore:  # type: ignore[no-untyped-def]
    """Runs 1–5; study "s1" (blind, ann and bob on every run, half of them revealed
    first): ann's first four runs rated, final with a revised score in the blind arm
    but the fourth (sealed blind), final at once in the control arm."""
    seeded.create_study(
        StudySpec(name="s1", raters=("ann", "bob"), per_run=2, seed=3, protocol="blind",
                  reveal_first=0.5)
    )  # fmt: skip
    runs = seeded.list_runs(study="s1", rater="ann")
    assert {bool(run.reveal_first) for run in runs} == {False, True}  # both arms
    for n, run in enumerate(runs[:4]):
        r = fill_rating(seeded, seeded.start_study_rating("s1", run.run_pk, "ann"), score=2)
        if run.reveal_first:  # the control arm: no blind phase
            seeded.submit_final(r.rating_pk, expected_version=r.version)
            continue
        r = seeded.submit_blind(r.rating_pk, expected_version=r.version)
        if n == 3:
            continue  # sealed: submitted blind, its final values not given yet
        r = seeded.reveal(r.rating_pk, expected_version=r.version)
        metric = next(iter(r.items))
        r = seeded.save_item(r.rating_pk, metric, outcome="applicable", score=3,
                             comment="x", expected_version=r.version)  # fmt: skip
        r = seeded.save_revision_reason(r.rating_pk, metric, "missed it",
                                        expected_version=r.version)  # fmt: skip
        seeded.submit_final(r.rating_pk, expected_version=r.version)
    return seeded


def test_the_packed_ratings_are_the_rows(studied: ReviewStore, fill_rating) -> None:
    _assert_readings_agree(studied)
    for pk in (1, 2):
        r = fill_rating(studied, studied.start_rating(pk, "cy"), score=1)
        studied.submit(r.rating_pk, expected_version=r.version)
    _assert_readings_agree(studied)
    draft = studied.start_rating(3, "cy")  # a draft's items do not count
    studied.save_item(draft.rating_pk, "safety", outcome="applicable", score=2, comment="",
                      expected_version=draft.version)  # fmt: skip
    _assert_readings_agree(studied)
    # A submitted correction of cy's rating of run 1 replaces it; a draft one does not.
    old = studied.live_rating(1, "cy")
    assert old is not None
    fix = fill_rating(studied, studied.supersede(old.rating_pk, rater="cy"), score=3)
    _assert_readings_agree(studied)
    studied.submit(fix.rating_pk, expected_version=fix.version)
    _assert_readings_agree(studied)
    study_items = studied.decided_columns().study
    assert (study_items >= 0).any() and (study_items < 0).any()  # both kinds were read


def test_keys_that_do_not_pack_are_read_as_rows(seeded: ReviewStore, fill_rating) -> None:
    """A negative key or keys too wide for one integer: ``None``, the rows then."""
    r = fill_rating(seeded, seeded.start_rating(1, "ann"))
    seeded.submit(r.rating_pk, expected_version=r.version)
    conn: sqlite3.Connection = seeded._db.conn
    assert _packed_ratings(conn) is not None
    conn.execute("PRAGMA foreign_keys = OFF")
    named = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name LIKE 'rating%'"
    triggers = [n for (n,) in conn.execute(named)]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    for wide in (-5, 1 << 61):
        conn.execute("UPDATE rating_items SET rating_pk = ? WHERE rating_pk = ?",
                     (wide, r.rating_pk))  # fmt: skip
        conn.execute("UPDATE ratings SET rating_pk = ? WHERE rating_pk = ?", (wide, r.rating_pk))
        assert _packed_ratings(conn) is None
        _assert_readings_agree(seeded)
        conn.execute("UPDATE rating_items SET rating_pk = ? WHERE rating_pk = ?",
                     (r.rating_pk, wide))  # fmt: skip
        conn.execute("UPDATE ratings SET rating_pk = ? WHERE rating_pk = ?", (r.rating_pk, wide))


def test_codes_are_places_in_the_known_keys() -> None:
    import numpy as np

    keys = np.array([7, 3, 9, 3, 4], dtype=np.int64)
    assert _codes(keys, [9, 3, 7]).tolist() == [2, 1, 0, 1, -1]  # 4 is not known
    assert _codes(keys, []).tolist() == [-1] * 5

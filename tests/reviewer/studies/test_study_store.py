"""Studies in the store: assignments stored, the blind phases, frozen values, visibility."""

from __future__ import annotations

import sqlite3

import pytest

from reviewer.evidence import Citation
from reviewer.store import RatingIncompleteError, RatingStateError, StoreError
from reviewer.studies.model import Selection, StudySpec
from reviewer.workspace import ReviewStore


def _study(store: ReviewStore, **kw) -> str:
    spec = StudySpec(name="s1", raters=("ann", "bob", "cat"), per_run=2, seed=3, **kw)
    store.create_study(spec)
    return "s1"


def test_create_assigns_every_run_to_k_raters_and_stores_the_queue(seeded) -> None:
    _study(seeded)
    rows = seeded.study_assignments("s1")
    assert len(rows) == 5 * 2
    assert {r.rater for r in rows} == {"ann", "bob", "cat"}
    loads = sorted(sum(r.rater == n for r in rows) for n in ("ann", "bob", "cat"))
    assert loads in ([3, 3, 4], [3, 4, 3])  # 10 / 3 = 3.33: every load within one
    queue = seeded.list_runs(study="s1", rater="ann")
    assert [r.position for r in queue] == list(range(1, len(queue) + 1))
    assert all(r.per_run == 2 and r.ratings_in == 0 for r in queue)


def test_extending_keeps_existing_assignments(seeded, make_card) -> None:
    _study(seeded, selection=Selection(run_ids=tuple(f"20260724T101500Z-{n:06d}" for n in (0, 1))))
    before = {(r.run_pk, r.rater, r.position) for r in seeded.study_assignments("s1")}
    assert seeded.add_study_raters("s1", ["dan"]) == 1
    assert seeded.add_study_runs("s1", Selection()) == 3
    after = {(r.run_pk, r.rater, r.position) for r in seeded.study_assignments("s1")}
    assert before <= after and len(after) == 10
    with pytest.raises(sqlite3.IntegrityError, match="never move"):
        seeded.db.conn.execute("UPDATE assignments SET position = 99")


_GT0 = Citation(metric_id="safety", kind="ground_truth", ref=0, step="GT:1", label="GT:1")


def _blind_rating(store: ReviewStore, fill, rater: str):
    row = store.list_runs(study="s1", rater=rater)[0]
    rating = fill(store, store.start_study_rating("s1", row.run_pk, rater), score=2)
    return row.run_pk, rating


def test_blind_rating_is_frozen_and_revisions_need_reasons(seeded, fill_rating) -> None:
    _study(seeded, protocol="blind")
    run_pk, rating = _blind_rating(seeded, fill_rating, "ann")
    assert seeded.rating_state(run_pk, "ann").phase == "blind"
    assert not seeded.rating_state(run_pk, "ann").scorer_visible
    with pytest.raises(StoreError, match="blind"):  # no final submit in the blind phase
        seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    rating = seeded.submit_blind(rating.rating_pk, expected_version=rating.version)
    state = seeded.rating_state(run_pk, "ann")
    assert state.phase == "sealed" and not state.scorer_visible
    metric = next(iter(rating.items))
    with pytest.raises(RatingStateError):  # sealed: nothing changes before the reveal
        seeded.save_item(rating.rating_pk, metric, outcome="applicable", score=1,
                         comment="x", expected_version=rating.version)  # fmt: skip
    with pytest.raises(RatingStateError, match="reveal the scorer"):  # evidence is sealed too
        seeded.cite(rating.rating_pk, _GT0.model_copy(update={"metric_id": metric}),
                    expected_version=rating.version)  # fmt: skip
    rating = seeded.reveal(rating.rating_pk, expected_version=rating.version)
    assert seeded.rating_state(run_pk, "ann").scorer_visible
    with pytest.raises(sqlite3.IntegrityError, match="frozen"):
        seeded.db.conn.execute("UPDATE rating_items SET blind_score = 0")
    rating = seeded.save_item(rating.rating_pk, metric, outcome="applicable", score=1,
                              comment="x", expected_version=rating.version)  # fmt: skip
    rating = seeded.cite(rating.rating_pk, _GT0.model_copy(update={"metric_id": metric}),
                         expected_version=rating.version)  # fmt: skip
    with pytest.raises(RatingIncompleteError, match="give the reason"):
        seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    with pytest.raises(sqlite3.IntegrityError, match="needs a reason"):  # the trigger, too
        seeded.db.conn.execute(
            "UPDATE ratings SET status = 'submitted', submitted_at = 'now' WHERE rating_pk = ?",
            (rating.rating_pk,),
        )
    rating = seeded.save_revision_reason(rating.rating_pk, metric, "missed the reset",
                                         expected_version=rating.version)  # fmt: skip
    rating = seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    blind = seeded.blind_values(rating.rating_pk)
    assert blind.items[metric].score == 2 and rating.items[metric].score == 1
    assert blind.reasons == {metric: "missed the reset"} and blind.revealed_at is not None
    actions = [a for (a,) in seeded.db.conn.execute("SELECT action FROM audit_log")]
    assert {"blind_submit", "reveal", "revision_reason", "submit"} <= set(actions)
    assert seeded.study_decisions("s1", phase="blind")[0].items[metric].score == 2
    assert seeded.study_decisions("s1")[0].items[metric].score == 1
    # A correction keeps the study and the blind values.
    fixed = seeded.supersede(rating.rating_pk, rater="ann")
    assert seeded.blind_values(fixed.rating_pk).items == blind.items


def test_others_ratings_stay_hidden_until_the_viewer_submitted(seeded, fill_rating) -> None:
    _study(seeded)
    rows = seeded.study_assignments("s1")
    run_pk = rows[0].run_pk
    raters = [r.rater for r in rows if r.run_pk == run_pk]
    first, second = raters
    r1 = fill_rating(seeded, seeded.start_study_rating("s1", run_pk, first))
    seeded.submit_final(r1.rating_pk, expected_version=r1.version)
    assert not seeded.may_see_others(run_pk, second)
    assert [r.rater for r in seeded.visible_ratings(run_pk, second)] == []
    r2 = fill_rating(seeded, seeded.start_study_rating("s1", run_pk, second))
    assert [r.rater for r in seeded.visible_ratings(run_pk, second)] == []  # a draft: not yet
    seeded.submit(r2.rating_pk, expected_version=r2.version)
    assert {r.rater for r in seeded.visible_ratings(run_pk, second)} == {first, second}
    row = next(r for r in seeded.list_runs(study="s1", assigned_only=False) if r.run_pk == run_pk)
    assert row.ratings_in == 2


def test_the_control_arm_sees_the_scorer_first_and_submits_at_once(seeded, fill_rating) -> None:
    _study(seeded, protocol="blind", reveal_first=1.0)  # every assignment in the control arm
    row = seeded.list_runs(study="s1", rater="bob")[0]
    assert row.reveal_first is True
    state = seeded.rating_state(row.run_pk, "bob")
    assert state.phase == "open" and state.scorer_visible and state.reveal_first
    rating = fill_rating(seeded, seeded.start_study_rating("s1", row.run_pk, "bob"))
    with pytest.raises(RatingStateError, match="not in the blind phase"):
        seeded.submit_blind(rating.rating_pk, expected_version=rating.version)
    assert seeded.submit_final(rating.rating_pk, expected_version=rating.version).status == (
        "submitted"
    )
    assert seeded.study_decisions("s1", phase="blind") == []


def test_a_blind_rating_cannot_skip_its_blind_phase(seeded, fill_rating) -> None:
    _study(seeded, protocol="blind")
    _, rating = _blind_rating(seeded, fill_rating, "cat")
    with pytest.raises(RatingStateError, match="blind"):  # the plain submit, refused by trigger
        seeded.submit(rating.rating_pk, expected_version=rating.version)


def test_the_run_list_names_each_blind_stage(seeded, fill_rating) -> None:
    # Every blind stage is a draft by status; the list says which, until the final submit.
    _study(seeded, protocol="blind")
    run_pk, rating = _blind_rating(seeded, fill_rating, "ann")

    def listed() -> tuple[str, int]:
        row = next(r for r in seeded.list_runs(study="s1", rater="ann") if r.run_pk == run_pk)
        return row.rating_state, row.n_ratings

    assert listed() == ("draft", 0)
    rating = seeded.submit_blind(rating.rating_pk, expected_version=rating.version)
    assert listed() == ("blind_submitted", 0)
    rating = seeded.reveal(rating.rating_pk, expected_version=rating.version)
    assert listed() == ("revealed", 0)
    seeded.submit_final(rating.rating_pk, expected_version=rating.version)
    assert listed() == ("submitted", 1)

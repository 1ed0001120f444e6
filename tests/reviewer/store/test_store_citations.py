"""Evidence in the store: cited on drafts, frozen with the rating, carried by corrections."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from reviewer.evidence import Citation
from reviewer.store import (
    ConflictError,
    RatingIncompleteError,
    RatingStateError,
    RatingValidationError,
)
from reviewer.workspace import ReviewStore
from scoring import read_trajectory
from scoring.steps import event_ref, required_ref


@pytest.fixture
def rated(store: ReviewStore, make_run, tmp_path: Path):
    """A real imported run and ann's empty draft of it, with the trajectory."""
    path = make_run(tmp_path / "runs", 1)
    store.import_paths([path])
    [run] = store.list_runs()
    return store, store.start_rating(run.run_pk, "ann"), read_trajectory(path)


def _actions(store: ReviewStore) -> list[tuple[str, dict]]:
    rows = store.db.conn.execute("SELECT action, details FROM audit_log ORDER BY seq")
    return [(a, json.loads(d)) for a, d in rows]


def test_e_toggles_a_citation_and_each_change_is_audited(rated) -> None:
    store, rating, traj = rated
    target = Citation.of("verification", event_ref(traj, 2))  # turn, read_ecam, then this
    assert target.label == "1.1 set_control apu_gen = 0"
    cited = store.toggle_citation(rating.rating_pk, target, expected_version=rating.version)
    assert cited.version == rating.version + 1
    assert cited.citations == (target,) and cited.cited("verification") == [target]
    assert store.citations(rating.rating_pk) == [target]
    gone = store.toggle_citation(rating.rating_pk, target, expected_version=cited.version)
    assert gone.citations == () and gone.version == cited.version + 1
    (a1, d1), (a2, d2) = _actions(store)[-2:]
    assert (a1, a2) == ("cite", "uncite")
    assert d1 == {"rating_pk": rating.rating_pk, "version": cited.version, **target.model_dump()}
    assert d2["step"] == "1.1" and d2["version"] == gone.version


def test_citing_again_replaces_the_note_and_uncite_needs_a_citation(rated) -> None:
    store, rating, traj = rated
    target = Citation.of("safety", event_ref(traj, 0))
    r = store.cite(rating.rating_pk, target, expected_version=rating.version)
    noted = target.model_copy(update={"note": "read before acting"})
    r = store.cite(rating.rating_pk, noted, expected_version=r.version)
    assert r.citations == (noted,)
    r = store.uncite(rating.rating_pk, "safety", kind="event", ref=0, expected_version=r.version)
    assert r.citations == ()
    with pytest.raises(RatingValidationError, match="event 0 is not cited"):
        store.uncite(rating.rating_pk, "safety", kind="event", ref=0, expected_version=r.version)


def test_ground_truth_rows_are_checked_and_labelled_by_the_store(rated) -> None:
    store, rating, _ = rated
    card = store.get_run(rating.run_pk).scorecard
    forged = Citation(
        metric_id="procedure_application",
        kind="ground_truth",
        ref=2,
        step="GT:3",
        label="GT:3 whatever the caller says",
        note="never isolated",
    )
    r = store.cite(rating.rating_pk, forged, expected_version=rating.version)
    [kept] = r.citations
    assert kept.label == required_ref(card, 2).label and kept.note == "never isolated"
    too_far = forged.model_copy(update={"ref": 99, "step": "GT:100"})
    with pytest.raises(
        RatingValidationError, match=r"the ground truth has no action GT:100 \(4 actions\)"
    ):
        store.cite(rating.rating_pk, too_far, expected_version=r.version)


def test_unknown_metrics_and_stale_versions_are_refused(rated) -> None:
    store, rating, traj = rated
    with pytest.raises(RatingValidationError, match="unknown metric 'charm'"):
        store.cite(
            rating.rating_pk,
            Citation.of("charm", event_ref(traj, 0)),
            expected_version=rating.version,
        )
    with pytest.raises(ConflictError):
        store.cite(
            rating.rating_pk,
            Citation.of("safety", event_ref(traj, 0)),
            expected_version=rating.version + 5,
        )


def test_submit_waits_for_evidence_on_low_scores(rated, fill_rating) -> None:
    store, rating, traj = rated
    r = fill_rating(store, rating, score=2)
    r = store.save_item(
        r.rating_pk,
        "verification",
        outcome="applicable",
        score=1,
        comment="",
        expected_version=r.version,
    )
    with pytest.raises(RatingIncompleteError) as info:
        store.submit(r.rating_pk, expected_version=r.version)
    assert info.value.problems == [
        (
            "verification",
            "a score of 1 needs evidence: cite at least one step of the run or a ground-truth row",
        )
    ]
    r = store.cite(
        r.rating_pk, Citation.of("verification", event_ref(traj, 4)), expected_version=r.version
    )
    submitted = store.submit(r.rating_pk, expected_version=r.version)
    assert submitted.status == "submitted" and len(submitted.citations) == 1


def test_a_submitted_ratings_evidence_is_frozen_even_for_raw_sql(rated, fill_rating) -> None:
    store, rating, traj = rated
    r = store.cite(
        rating.rating_pk, Citation.of("safety", event_ref(traj, 1)), expected_version=rating.version
    )
    r = fill_rating(store, r)
    r = store.submit(r.rating_pk, expected_version=r.version)
    with pytest.raises(RatingStateError, match="submitted"):
        store.toggle_citation(
            r.rating_pk, Citation.of("safety", event_ref(traj, 2)), expected_version=r.version
        )
    conn = store.db.conn
    for sql in (
        "INSERT INTO citations (rating_pk, metric_id, kind, ref, step, label, cited_at)"
        " VALUES (?, 'safety', 'event', 5, '1.3', '1.3 x', 'now')",
        "UPDATE citations SET note = 'later' WHERE rating_pk = ?",
        "DELETE FROM citations WHERE rating_pk = ?",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="evidence of a submitted rating"):
            conn.execute(sql, (r.rating_pk,))


def test_a_correction_starts_with_a_copy_and_the_old_evidence_stays(rated, fill_rating) -> None:
    store, rating, traj = rated
    first, second = (Citation.of("safety", event_ref(traj, i)) for i in (1, 3))
    r = store.cite(rating.rating_pk, first, expected_version=rating.version)
    r = store.cite(r.rating_pk, second, expected_version=r.version)
    r = fill_rating(store, r)
    old = store.submit(r.rating_pk, expected_version=r.version)
    new = store.supersede(old.rating_pk, rater="ann")
    assert new.citations == old.citations == (first, second)
    assert _actions(store)[-1][1]["citations"] == 2
    new = store.toggle_citation(new.rating_pk, first, expected_version=new.version)
    assert new.citations == (second,)
    assert store.get_rating(old.rating_pk).citations == (first, second)


def test_audit_verify_sees_evidence_edited_behind_the_triggers(rated, fill_rating) -> None:
    store, rating, traj = rated
    r = store.cite(rating.rating_pk, Citation.of("safety", event_ref(traj, 1)),
                   expected_version=rating.version)  # fmt: skip
    r = fill_rating(store, r)
    store.submit(r.rating_pk, expected_version=r.version)
    assert store.audit_verify().ok
    conn = store.db.conn
    conn.execute("DROP TRIGGER citations_frozen_update")
    conn.execute("UPDATE citations SET step = '1.1', label = '1.1 set_control apu_gen = 0'")
    conn.commit()
    report = store.audit_verify()
    assert not report.ok
    assert f"rating {r.rating_pk}: its items differ from what was submitted" in report.message

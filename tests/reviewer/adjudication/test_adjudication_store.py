"""What needs adjudication, who may adjudicate, and the adjudication lifecycle in the store."""

from __future__ import annotations

import sqlite3

import pytest

from reviewer.cli import main
from reviewer.store import RatingIncompleteError, RatingStateError, StoreError
from reviewer.workspace import ReviewStore

RUN1 = "20260724T101500Z-000000"  # run_pk 1 of the seeded store (fake card 0)
RUN2 = "20260724T101500Z-000001"  # run_pk 2 (fake card 1)


def _by_metric(store: ReviewStore, run_pk: int = 1) -> dict:
    return {d.metric_id: d for d in store.disputes(run_pk=run_pk)}


def test_disputes_follow_the_rule_and_leave_judges_out(disputed: ReviewStore) -> None:
    rows = _by_metric(disputed)
    assert rows["safety"].status == "disputed"
    assert rows["verification"].status == "disputed"
    assert rows["problem_solving"].status == "agreed"  # 1 against 2, threshold 2
    assert rows["problem_solving"].reported.score == 1.5
    assert [v.rater for v in rows["safety"].values] == ["ann", "bob"]
    # The adjudicator sees what each rater cited: ann's 0 on safety points at GT:1.
    ann, bob = (v.evidence for v in rows["safety"].values)
    assert [e.split()[0] for e in ann] == ["GT:1"] and bob == ()
    assert _by_metric(disputed, 2)["safety"].status == "single_rater"
    disputed.db.conn.execute("UPDATE raters SET kind = 'judge' WHERE name = 'bob'")
    assert _by_metric(disputed)["safety"].status == "single_rater"


def test_an_original_rater_is_refused(disputed: ReviewStore, db_path, capsys) -> None:
    with pytest.raises(RatingStateError, match="ann rated this run"):
        disputed.start_adjudication(1, "ann")
    code = main(
        [
            "adjudicate",
            "--run",
            RUN1,
            "--metric",
            "safety",
            "--outcome",
            "applicable",
            "--score",
            "1",
            "--reason",
            "x",
            "--rater",
            "bob",
            "--db",
            str(db_path),
        ]
    )
    assert code == 1
    assert "bob rated this run" in capsys.readouterr().err
    # The database refuses it too, whoever writes.
    with pytest.raises(sqlite3.IntegrityError, match="cannot adjudicate"):
        disputed.db.conn.execute(
            "INSERT INTO adjudications (run_pk, rater_pk, rubric_pk, created_at, updated_at)"
            " SELECT 1, rater_pk, 1, 'now', 'now' FROM raters WHERE name = 'ann'"
        )


def test_submit_needs_every_disputed_metric_with_a_reason(disputed: ReviewStore) -> None:
    draft = disputed.start_adjudication(1, "dana")
    draft = disputed.decide(
        draft.adjudication_pk,
        "safety",
        outcome="applicable",
        score=1,
        reason="",
        expected_version=draft.version,
    )
    with pytest.raises(RatingIncompleteError) as caught:
        disputed.submit_adjudication(draft.adjudication_pk, expected_version=draft.version)
    found = dict(caught.value.problems)
    assert found == {
        "verification": "disputed, not decided yet",
        "safety": "a decision needs a reason",
    }
    with pytest.raises(StoreError, match="carl did not rate this run"):
        disputed.decide(
            draft.adjudication_pk,
            "safety",
            outcome="applicable",
            score=1,
            reason="r",
            sides_with=["carl"],
            expected_version=draft.version,
        )


def test_the_adjudication_is_stored_like_a_rating(disputed: ReviewStore, adjudicate) -> None:
    pk = adjudicate(disputed)
    done = disputed.get_adjudication(pk)
    assert done.status == "submitted"
    assert done.items["safety"].sides_with == ("ann",)
    with pytest.raises(sqlite3.IntegrityError, match="never edited"):
        disputed.db.conn.execute(
            "UPDATE adjudication_items SET score = 3 WHERE adjudication_pk = ?", (pk,)
        )
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        disputed.db.conn.execute("DELETE FROM adjudications WHERE adjudication_pk = ?", (pk,))
    # The adjudicator may not rate the run afterwards either.
    with pytest.raises(sqlite3.IntegrityError, match="cannot rate"):
        disputed.start_rating(1, "dana")
    assert _by_metric(disputed)["safety"].reported.reached == "adjudicated"
    # A correction supersedes; the submitted one stays in force until it is submitted.
    new = disputed.supersede_adjudication(pk, adjudicator="dana")
    assert new.supersedes_pk == pk and new.items == done.items
    new = disputed.decide(
        new.adjudication_pk,
        "safety",
        outcome="applicable",
        score=2,
        reason="on reflection",
        expected_version=new.version,
    )
    assert _by_metric(disputed)["safety"].reported.score == 1.0
    disputed.submit_adjudication(new.adjudication_pk, expected_version=new.version)
    assert _by_metric(disputed)["safety"].reported.score == 2.0
    actions = [a for (a,) in disputed.db.conn.execute("SELECT action FROM audit_log")]
    for action in (
        "adjudication_start",
        "adjudication_save",
        "adjudication_submit",
        "adjudication_supersede",
    ):
        assert action in actions


def test_the_threshold_is_per_study(disputed: ReviewStore) -> None:
    from reviewer.studies.model import Selection, StudySpec

    spec = StudySpec(
        name="pilot", raters=("ann", "bob"), per_run=2, selection=Selection(run_ids=(RUN1,))
    )
    disputed.create_study(spec)
    assert disputed.adjudication_threshold("pilot") == 2
    disputed.set_adjudication_threshold("pilot", 1)
    rows = _by_metric(disputed)
    assert rows["problem_solving"].status == "disputed"  # 1 against 2 now counts
    assert rows["problem_solving"].threshold == 1
    with pytest.raises(StoreError, match="1 to 3"):
        disputed.set_adjudication_threshold("pilot", 0)


def test_audit_verify_checks_adjudications(
    disputed: ReviewStore, signed, adjudicate, tmp_path
) -> None:
    from reviewer.adjudication.signing import AdjudicationSigner
    from reviewer.sheets import keys

    pk = adjudicate(disputed)
    AdjudicationSigner(disputed).sign(1, keys.load_key("dana"), tmp_path / "adj")
    assert disputed.audit_verify().ok, disputed.audit_verify().message
    # Edited behind the triggers' back: audit verify sees it.
    conn = disputed.db.conn
    conn.execute("DROP TRIGGER adjudication_items_frozen_update")
    conn.execute(
        "UPDATE adjudication_items SET score = 3 WHERE adjudication_pk = ? AND metric_id = ?",
        (pk, "safety"),
    )
    report = disputed.audit_verify()
    assert not report.ok
    assert any("decisions differ from what was submitted" in p for p in report.problems)
    assert any("differ from its signed sheet" in p for p in report.problems)


def test_runs_needing_adjudication_match_the_open_disputes(
    disputed: ReviewStore, adjudicate
) -> None:
    def open_in_disputes() -> set[int]:
        return {d.run_pk for d in disputed.disputes() if d.reported.reached == "open"}

    assert disputed.runs_needing_adjudication() == open_in_disputes() == {1}
    adjudicate(disputed)
    assert disputed.runs_needing_adjudication() == open_in_disputes() == set()


def test_a_run_and_a_study_narrow_the_disputes_together(
    disputed: ReviewStore, fill_rating, rate_run
) -> None:
    # The query binds the run, then the study's name, in that order: one list of mixed
    # parameters (an int and a str; mypy had typed it as ints only, which sqlite never
    # minded). Both filters must hold at once: the study's run 1 only, never its run 2,
    # nor the ratings of run 1 made outside the study (ann's 0 against bob's 3).
    from reviewer.studies.model import Selection, StudySpec

    spec = StudySpec(
        name="pilot", raters=("cy", "dee"), per_run=2, selection=Selection(run_ids=(RUN1, RUN2))
    )
    disputed.create_study(spec)
    for run_pk in (1, 2):
        for rater, outcome, score in (("cy", "applicable", 2), ("dee", "not_observed", None)):
            rating = fill_rating(disputed, disputed.start_study_rating("pilot", run_pk, rater))
            rating = disputed.save_item(
                rating.rating_pk, "safety", outcome=outcome, score=score, comment="seen",
                expected_version=rating.version,
            )  # fmt: skip
            disputed.submit(rating.rating_pk, expected_version=rating.version)
    rows = disputed.disputes(study="pilot", run_pk=1)
    assert {row.run_pk for row in rows} == {1}
    safety = next(row for row in rows if row.metric_id == "safety")
    assert [(v.rater, v.outcome) for v in safety.values] == [
        ("cy", "applicable"),
        ("dee", "not_observed"),
    ]
    assert safety.status == "disputed"
    assert {row.run_pk for row in disputed.disputes(study="pilot", run_pk=2)} == {2}


@pytest.mark.parametrize("details", ["[1, 2]", '"text"', "null", '{"adjudication_pk": "x"}'])
def test_a_log_entry_that_is_no_object_is_a_problem_not_a_traceback(
    disputed: ReviewStore, adjudicate, db_path, tamper, problems_of, details: str
) -> None:
    # audit verify reads each adjudication entry's details. A forger who edits one into a
    # JSON list, a string or null and recomputes the chain after it gets past the chain
    # check: the adjudication's start is then not on record, which is a finding, never an
    # AttributeError half-way through the check.
    from reviewer.store.audit import GENESIS, entry_hash

    adjudicate(disputed)
    tamper(
        db_path, f"UPDATE audit_log SET details = '{details}' WHERE action = 'adjudication_start'"
    )
    rows = disputed.db.conn.execute(
        "SELECT seq, at, actor, action, details FROM audit_log ORDER BY seq"
    ).fetchall()
    prev, rechain = GENESIS, []
    for seq, at, actor, action, text in rows:
        digest = entry_hash(prev, seq, at, actor, action, text)
        rechain.append(
            f"UPDATE audit_log SET prev_hash = '{prev}', hash = '{digest}' WHERE seq = {seq}"
        )
        prev = digest
    tamper(db_path, *rechain)
    problems = problems_of(db_path)
    assert any("adjudication" in p for p in problems), problems

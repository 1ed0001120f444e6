"""Judge answers in the store: a rater of kind 'judge', idempotent, superseding, refusing."""

from __future__ import annotations

import json

import pytest

from reviewer.judge.answers import parse_line
from reviewer.judge.prompt import RequestKey, prompt_sha256
from reviewer.rubric import default_rubric
from reviewer.store import StoreError
from reviewer.workspace import ReviewStore

RUBRIC = default_rubric()


def _answer(store: ReviewStore, run_pk: int, make_answer, make_completion, *, coverage=1.0):
    key = RequestKey(
        trajectory_sha256=store.get_run(run_pk).sha256,
        rubric_sha256=RUBRIC.sha256,
        prompt_sha256=prompt_sha256(RUBRIC),
    )
    content = json.dumps(make_answer({"vector": {"coverage": coverage}}))
    line = json.dumps({"custom_id": key.custom_id, **make_completion(content)})
    return parse_line(line, rubric=RUBRIC)


def test_answers_become_submitted_ratings_of_a_judge_with_their_provenance(
    seeded: ReviewStore, make_answer, make_completion
) -> None:
    answers = [_answer(seeded, pk, make_answer, make_completion) for pk in (1, 2)]
    report = seeded.import_judge_answers(answers, judge="gpt-judge", source="out.jsonl")
    assert (report.added, report.superseded, report.unchanged, report.refused) == (2, 0, 0, [])
    rater = next(r for r in seeded.raters() if r.name == "gpt-judge")
    assert rater.kind == "judge"
    rating = seeded.live_rating(1, "gpt-judge")
    assert rating is not None and rating.status == "submitted"
    assert rating.items["procedure_application"].score == 3  # round(3 · 1.0)
    assert rating.overall_comment == "stub judge"
    [meta, _] = seeded.judge_ratings("gpt-judge")
    assert (meta.run_pk, meta.model, meta.input_tokens, meta.output_tokens) == (
        1, "stub-model-1", 1200, 300,
    )  # fmt: skip
    assert meta.prompt_sha256 == prompt_sha256(RUBRIC)
    assert meta.custom_id == answers[0].custom_id and meta.cited_steps["safety"] == [1]
    assert seeded.audit_verify().ok


def test_the_same_answers_again_change_nothing_and_a_changed_one_supersedes(
    seeded: ReviewStore, make_answer, make_completion
) -> None:
    first = _answer(seeded, 1, make_answer, make_completion, coverage=1.0)
    seeded.import_judge_answers([first], judge="j", source="a")
    again = seeded.import_judge_answers([first], judge="j", source="a")
    assert (again.added, again.superseded, again.unchanged) == (0, 0, 1)
    changed = _answer(seeded, 1, make_answer, make_completion, coverage=0.25)
    report = seeded.import_judge_answers([changed], judge="j", source="b")
    assert (report.added, report.superseded, report.unchanged) == (0, 1, 0)
    history = seeded.rating_history(1, "j")
    assert [r.items["procedure_application"].score for r in history] == [3, 1]
    assert history[1].supersedes_pk == history[0].rating_pk
    assert [m.rating_pk for m in seeded.judge_ratings("j")] == [history[1].rating_pk]


def test_an_answer_for_an_unknown_run_or_another_rubric_is_refused_the_rest_kept(
    seeded: ReviewStore, make_answer, make_completion
) -> None:
    good = _answer(seeded, 1, make_answer, make_completion)
    stranger = good.model_copy(
        update={"key": good.key.model_copy(update={"trajectory_sha256": "0" * 64})}
    )
    old_rubric = good.model_copy(
        update={"key": good.key.model_copy(update={"rubric_sha256": "1" * 64})}
    )
    report = seeded.import_judge_answers([stranger, good, old_rubric], judge="j", source="x")
    assert report.added == 1
    assert [reason for _, reason in report.refused] == [
        "no run with this trajectory sha256 here",
        "answered under rubric 111111111111…, but this database rates with another rubric: "
        "export the requests again",
    ]


def test_a_human_who_has_rated_cannot_be_used_as_a_judge_name(
    seeded: ReviewStore, make_answer, make_completion, fill_rating
) -> None:
    rating = fill_rating(seeded, seeded.start_rating(1, "ann"))
    seeded.submit(rating.rating_pk, expected_version=rating.version)
    answer = _answer(seeded, 2, make_answer, make_completion)
    with pytest.raises(StoreError, match="'ann' is a human rater with ratings"):
        seeded.import_judge_answers([answer], judge="ann", source="x")
    assert next(r for r in seeded.raters() if r.name == "ann").kind == "human"
    assert seeded.live_rating(2, "ann") is None


def test_judge_provenance_is_immutable(seeded: ReviewStore, make_answer, make_completion):
    seeded.import_judge_answers(
        [_answer(seeded, 1, make_answer, make_completion)], judge="j", source="x"
    )
    with pytest.raises(Exception, match="never edited in place"):
        seeded.db.conn.execute("UPDATE judge_ratings SET model = 'other'")


def test_a_judges_ratings_pass_audit_verify_and_tampering_with_them_is_found(
    seeded: ReviewStore, db_path, make_answer, make_completion, tamper, problems_of
) -> None:
    seeded.start_rating(3, "ann")  # a person with a rating of their own
    first = _answer(seeded, 1, make_answer, make_completion, coverage=1.0)
    seeded.import_judge_answers([first], judge="j", source="a")
    changed = _answer(seeded, 1, make_answer, make_completion, coverage=0.25)
    seeded.import_judge_answers([changed], judge="j", source="b")  # supersedes
    assert problems_of(db_path) == []
    judged = seeded.live_rating(1, "j")
    assert judged is not None
    ann = "(SELECT rater_pk FROM raters WHERE name = 'ann')"
    tamper(db_path, f"UPDATE ratings SET rater_pk = {ann} WHERE rating_pk = {judged.rating_pk}")
    assert f"rating {judged.rating_pk} is now 'ann''s, the log says 'j' made it (submit)" in (
        problems_of(db_path)
    )
    tamper(db_path, f"UPDATE ratings SET rater_pk = (SELECT rater_pk FROM raters WHERE"
                    f" name = 'j') WHERE rating_pk = {judged.rating_pk}")  # fmt: skip
    tamper(db_path, "UPDATE raters SET kind = 'human' WHERE name = 'j'")
    tamper(db_path, "UPDATE raters SET kind = 'judge' WHERE name = 'ann'")
    assert problems_of(db_path) == [
        "rater 'ann' is marked judge, the audit log says human",
        "rater 'j' is marked human, the audit log says judge",
    ]
    tamper(
        db_path,
        "UPDATE raters SET kind = 'judge' WHERE name = 'j'",
        "UPDATE raters SET kind = 'human' WHERE name = 'ann'",
        f"UPDATE ratings SET supersedes_pk = NULL WHERE rating_pk = {judged.rating_pk}",
    )
    assert problems_of(db_path) == [
        f"rating {judged.rating_pk} now corrects no rating, the log says rating "
        f"{judged.supersedes_pk}"
    ]


def test_the_judges_cited_turns_become_its_ratings_evidence(
    store: ReviewStore, corpus, db_path, make_answer, make_completion, tamper, problems_of
) -> None:
    # cited_steps name agent turns; each one the run has is a citation of that turn, as a
    # rater's evidence is (shown to adjudicators, bound to the submit in the audit log);
    # one the run does not have is kept in cited_steps only and reported.
    store.import_paths([corpus])
    answer = _answer(store, 1, make_answer, make_completion)
    steps = dict(answer.cited_steps) | {"safety": [1, 1, 99]}
    answer = answer.model_copy(update={"cited_steps": steps})
    report = store.import_judge_answers([answer], judge="j", source="a")
    assert report.added == 1
    assert report.uncited == [(answer.custom_id, "safety: cited step 99: no such step in this run")]
    rating = store.live_rating(1, "j")
    assert rating is not None
    cited = {(c.metric_id, c.kind, c.step) for c in rating.citations}
    metrics_citing_one = {m for m, s in steps.items() if 1 in s and m in answer.items}
    assert cited == {(m, "event", "1") for m in metrics_citing_one}
    assert all(c.label.startswith("1 ") for c in rating.citations)
    assert problems_of(db_path) == []
    tamper(db_path, f"DELETE FROM citations WHERE rating_pk = {rating.rating_pk}")
    assert problems_of(db_path) == [
        f"rating {rating.rating_pk}: its items differ from what was submitted (edited after)"
    ]

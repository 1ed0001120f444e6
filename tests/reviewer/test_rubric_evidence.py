"""The rubric's evidence rule: which scores need a cited step, per rubric or per metric."""

from __future__ import annotations

import pytest
import yaml

from reviewer.rubric import (
    DEFAULT_EVIDENCE_SCORES,
    RatingItem,
    Rubric,
    RubricError,
    default_rubric,
    parse_rubric,
)

NEEDS = "needs evidence: cite at least one step"


def _with(**changes) -> Rubric:
    data = default_rubric().model_dump(mode="json", exclude={"sha256"})
    metric_rules = changes.pop("metrics", {})
    data.update(changes)
    for metric in data["metrics"]:
        if metric["id"] in metric_rules:
            metric["evidence_required_for_scores"] = metric_rules[metric["id"]]
    return Rubric.model_validate(data)


def test_by_default_a_score_of_0_or_1_needs_a_cited_step() -> None:
    rubric = default_rubric()
    assert rubric.evidence_required_for_scores == DEFAULT_EVIDENCE_SCORES == (0, 1)
    for score, needs in ((0, True), (1, True), (2, False), (3, False)):
        problems = rubric.validate_item("safety", "applicable", score, "seen", evidence=0)
        assert any(NEEDS in p for p in problems) is needs, score
        assert rubric.validate_item("safety", "applicable", score, "seen", evidence=1) == []


def test_the_rule_never_touches_unscored_outcomes_or_drafts() -> None:
    rubric = default_rubric()
    assert rubric.validate_item("safety", "not_applicable", None, "", evidence=0) == []
    assert rubric.validate_item("safety", "not_observed", None, "gone", evidence=0) == []
    # A draft may hold a low score without evidence; only submit asks for it.
    assert rubric.validate_item("safety", "applicable", 1, "", complete=False, evidence=0) == []
    # Callers that keep evidence elsewhere (the LLM judge) leave the rule out.
    assert rubric.validate_item("safety", "applicable", 1, "") == []


def test_a_missing_comment_and_missing_evidence_are_both_listed() -> None:
    problems = default_rubric().validate_item("safety", "applicable", 0, "", evidence=0)
    assert problems[0] == "a score of 0 needs a comment saying what was seen"
    assert NEEDS in problems[1]


def test_problems_count_evidence_per_metric() -> None:
    rubric = default_rubric()
    items = {
        m: RatingItem(metric_id=m, outcome="applicable", score=1, comment="c")
        for m in rubric.metric_ids
    }
    found = rubric.problems(items, {"safety": 2})
    assert {m for m, _ in found} == set(rubric.metric_ids) - {"safety"}
    assert rubric.problems(items) == []  # without counts the rule is left out


def test_rubric_and_metric_rules_override_the_default() -> None:
    rubric = _with(evidence_required_for_scores=[0, 3], metrics={"safety": []})
    assert rubric.evidence_scores("verification") == (0, 3)
    assert rubric.evidence_scores("safety") == ()
    assert rubric.validate_item("verification", "applicable", 1, "", evidence=0) == []
    assert NEEDS in rubric.validate_item("verification", "applicable", 3, "c", evidence=0)[0]
    assert rubric.validate_item("safety", "applicable", 0, "c", evidence=0) == []


def test_the_default_rule_keeps_the_hash_and_another_rule_changes_it() -> None:
    default = default_rubric()
    # Spelling the default out is the same rubric: files written before the rule existed
    # keep their hash, and their ratings their rubric.
    assert _with(evidence_required_for_scores=[1, 0]).sha256 == default.sha256
    assert _with(evidence_required_for_scores=[]).sha256 != default.sha256
    assert _with(metrics={"safety": [0]}).sha256 != default.sha256
    stricter = _with(metrics={"safety": [0, 1, 2]})
    assert Rubric.model_validate_json(stricter.model_dump_json()) == stricter


def test_a_rule_outside_the_scale_is_refused_with_the_file_named() -> None:
    text = default_rubric().model_dump(mode="json", exclude={"sha256"})
    text["evidence_required_for_scores"] = [0, 4]
    with pytest.raises(RubricError, match=r"(?s)mine\.yaml: .*scores 0–3; got \[4\]"):
        parse_rubric(yaml.safe_dump(text), source="mine.yaml")

"""The rubric: the bundled default, validation of rubric files, item rules, summaries."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from reviewer import assets
from reviewer.rubric import (
    RatingItem,
    Rubric,
    RubricError,
    default_rubric,
    load_rubric,
    parse_rubric,
    summarize,
)
from reviewer.store import Rating

DEFAULT_IDS = (
    "procedure_application",
    "situation_awareness",
    "problem_solving",
    "safety",
    "verification",
    "workload_management",
    "communication",
)


def _default_data() -> dict:
    return default_rubric().model_dump(mode="json", exclude={"sha256"})


def _write(tmp_path: Path, data: object, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_the_default_rubric_reads_the_same_with_libyaml_and_the_python_parser() -> None:
    # default_rubric() reads the bundled file with libyaml (faster start); parse_rubric,
    # which reads users' files, with PyYAML's own parser. Same file, same rubric, same hash.
    text = assets.read_text("rubrics", "default.yaml")
    slow = parse_rubric(text, source="default.yaml")
    assert default_rubric() == slow
    assert default_rubric().sha256 == slow.sha256


def test_default_rubric_has_the_seven_metrics_with_four_anchors_each() -> None:
    rubric = default_rubric()
    assert rubric.id == "default" and rubric.version == 1
    assert rubric.metric_ids == DEFAULT_IDS
    for metric in rubric.metrics:
        assert sorted(metric.anchors) == [0, 1, 2, 3]
        assert metric.question.endswith("?")
        assert all(len(text) > 40 for text in metric.anchors.values()), metric.id


def test_sha256_is_of_the_canonical_form_not_the_yaml_text(tmp_path: Path) -> None:
    data = _default_data()
    reordered = {k: data[k] for k in reversed(list(data))}  # same content, keys reordered
    assert load_rubric(_write(tmp_path, reordered)).sha256 == default_rubric().sha256
    data["metrics"][3]["anchors"]["2"] += " Changed."  # JSON form: keys are text
    assert load_rubric(_write(tmp_path, data, "changed.yaml")).sha256 != default_rubric().sha256


def test_a_dumped_rubric_reads_back_and_its_hash_is_checked() -> None:
    rubric = default_rubric()
    assert Rubric.model_validate_json(rubric.model_dump_json()) == rubric
    tampered = rubric.model_dump(mode="json")
    tampered["title"] = "something else"
    with pytest.raises(ValueError, match="does not match the content"):
        Rubric.model_validate(tampered)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["metrics"][0]["anchors"].pop("3"), "exactly the anchors 0, 1, 2, 3"),
        (lambda d: d["metrics"].append(dict(d["metrics"][0])), "appears twice"),
        (lambda d: d.pop("version"), "version"),
        (lambda d: d.update(version=0), "greater than or equal to 1"),
        (lambda d: d["metrics"][1].update(id="Bad Id"), "metrics.1.id"),
        (lambda d: d.update(metrics=[]), "at least 1 item"),
        (lambda d: d["metrics"][0].update(colour="red"), "Extra inputs"),
    ],
)
def test_bad_rubric_files_are_clear_errors_naming_the_file(tmp_path: Path, mutate, message) -> None:
    data = _default_data()
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(RubricError, match=message) as info:
        load_rubric(path)
    assert str(info.value).startswith(str(path))


def test_unreadable_rubric_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="cannot read"):
        load_rubric(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(RubricError, match="not valid YAML"):
        load_rubric(bad)
    bad.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(RubricError, match="a rubric is a mapping"):
        load_rubric(bad)


@pytest.mark.parametrize(
    ("outcome", "score", "comment", "structural", "complete"),
    [
        ("applicable", 2, "", [], []),
        ("applicable", 0, "", [], ["a score of 0 needs a comment saying what was seen"]),
        ("applicable", 3, "", [], ["a score of 3 needs a comment saying what was seen"]),
        ("applicable", 3, "clear evidence", [], []),
        ("applicable", None, "", [], ["Applicable but no score yet"]),
        ("not_applicable", None, "", [], []),
        ("not_observed", None, "", [], ["Not observed needs a comment saying what evidence"]),
        ("not_observed", None, "no ECAM read", [], []),
        (None, None, "", [], ["no outcome"]),
        ("not_applicable", 1, "", ["a score is only given when the outcome is applicable"], None),
        ("applicable", 4, "", ["score must be an integer 0–3; got 4"], None),
        ("applicable", True, "", ["score must be an integer 0–3; got True"], None),
        ("maybe", None, "", ["outcome must be one of"], None),
    ],
)
def test_item_rules(outcome, score, comment, structural, complete) -> None:
    rubric = default_rubric()
    draft = rubric.validate_item("safety", outcome, score, comment, complete=False)
    assert [p[: len(s)] for p, s in zip(draft, structural, strict=True)] == structural
    full = rubric.validate_item("safety", outcome, score, comment)
    expected = structural if complete is None else complete
    assert [p[: len(s)] for p, s in zip(full, expected, strict=True)] == expected


def test_unknown_metric_and_whole_rating_problems() -> None:
    rubric = default_rubric()
    assert "unknown metric 'charm'" in rubric.validate_item("charm", None, None, "")[0]
    items = rubric.empty_items()
    items["safety"] = RatingItem(metric_id="safety", outcome="applicable", score=3)
    problems = rubric.problems(items)
    # six metrics with no outcome + safety's missing comment for a 3 = seven problems
    assert len(problems) == 7
    assert ("safety", "a score of 3 needs a comment saying what was seen") in problems


def test_rating_item_refuses_impossible_combinations() -> None:
    with pytest.raises(ValueError, match="only given when the outcome is applicable"):
        RatingItem(metric_id="safety", outcome="not_observed", score=1)
    with pytest.raises(ValueError):
        RatingItem(metric_id="safety", outcome="applicable", score=5)


def _rating(items: dict[str, RatingItem]) -> Rating:
    rubric = default_rubric()
    return Rating(
        rating_pk=1,
        run_pk=1,
        rater="a",
        status="submitted",
        version=1,
        rubric_id=rubric.id,
        rubric_version=rubric.version,
        rubric_sha256=rubric.sha256,
        items=items,
        created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00",
    )


def test_summarize_skips_not_applicable_and_not_observed_in_means() -> None:
    def item(outcome, score=None):
        return {"safety": RatingItem(metric_id="safety", outcome=outcome, score=score)}

    ratings = [
        _rating(item("applicable", 3)),
        _rating(item("applicable", 1)),
        _rating(item("not_applicable")),
        _rating(item("not_observed")),
        _rating(item(None)),  # no outcome yet: not counted at all
    ]
    by_id = {s.metric_id: s for s in summarize(ratings, rubric=default_rubric())}
    safety = by_id["safety"]
    assert safety.n == 4 and safety.n_scored == 2
    assert safety.mean == pytest.approx(2.0)  # (3 + 1) / 2
    assert safety.applicable_rate == pytest.approx(0.5)  # 2 of 4
    assert safety.not_applicable_rate == pytest.approx(0.25)  # 1 of 4
    assert safety.not_observed_rate == pytest.approx(0.25)  # 1 of 4
    assert safety.score_counts == {0: 0, 1: 1, 2: 0, 3: 1}
    assert by_id["communication"].n == 0 and by_id["communication"].mean is None
    assert list(by_id) == list(DEFAULT_IDS)


def test_comments_are_bounded_by_the_rubric(tmp_path: Path) -> None:
    from reviewer.rubric import DEFAULT_MAX_COMMENT_CHARS, default_rubric

    rubric = default_rubric()
    assert rubric.max_comment_chars == DEFAULT_MAX_COMMENT_CHARS == 20_000
    metric = rubric.metric_ids[0]
    ok = rubric.validate_item(metric, "applicable", 3, "x" * 20_000, complete=False)
    assert ok == []
    # Too long is structural: even a draft may not hold it.
    [problem] = rubric.validate_item(metric, "applicable", 3, "x" * 20_001, complete=False)
    assert problem == "the comment has 20,001 characters; rubric default v1 allows at most 20,000"
    assert rubric.comment_problem("y" * 20_001) == problem


def test_the_bound_is_in_the_rubric_file_and_the_default_keeps_the_hash(tmp_path: Path) -> None:
    from reviewer.rubric import default_rubric

    text = yaml.safe_load(
        (Path(__file__).parents[2] / "resources/rubrics/default.yaml").read_text()
    )
    assert text["max_comment_chars"] == 20000
    rubric = default_rubric()
    # Rubrics stored before the bound existed (no field) keep their hash and their ratings.
    data = rubric.model_dump(mode="json", exclude={"sha256", "max_comment_chars"})
    assert type(rubric).model_validate(data).sha256 == rubric.sha256
    stricter = type(rubric).model_validate({**data, "max_comment_chars": 10})
    assert stricter.sha256 != rubric.sha256
    assert stricter.comment_problem("x" * 11) is not None

"""Judges are told apart outside SQL (issue 23): every export has a ``rater_kind`` column;
``ratings summary`` and ``agreement`` leave judges out unless asked and say how many they
left out; ``agreement --include-judges`` labels the judge as a judge."""

from __future__ import annotations

import csv
import io
import json

import pytest

from reviewer.cli import main
from reviewer.judge.answers import parse_line
from reviewer.judge.prompt import RequestKey, prompt_sha256
from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore

RUBRIC = default_rubric()


@pytest.fixture
def judged(seeded: ReviewStore, db_path, fill_rating, make_answer, make_completion):
    """ann and bob rated runs 1 and 2; the judge "gpt-judge" rated them too."""
    for rater in ("ann", "bob"):
        for pk in (1, 2):
            rating = fill_rating(seeded, seeded.start_rating(pk, rater))
            seeded.submit(rating.rating_pk, expected_version=rating.version)
    answers = []
    for pk in (1, 2):
        sha = seeded.get_run(pk).sha256
        key = RequestKey(
            trajectory_sha256=sha, rubric_sha256=RUBRIC.sha256, prompt_sha256=prompt_sha256(RUBRIC)
        )
        content = json.dumps(make_answer({"vector": {"coverage": 1.0}}))
        line = json.dumps({"custom_id": key.custom_id, **make_completion(content)})
        answers.append(parse_line(line, rubric=RUBRIC))
    seeded.import_judge_answers(answers, judge="gpt-judge", source="out.jsonl")
    seeded.close()
    return db_path


def _out(capsys, *argv: object) -> tuple[str, str]:
    capsys.readouterr()
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr()


def test_every_export_labels_its_raters(judged, capsys) -> None:
    out, _ = _out(capsys, "ratings", "export", "--db", judged)
    rows = list(csv.DictReader(io.StringIO(out)))
    kinds = {(r["rater"], r["rater_kind"]) for r in rows}
    assert kinds == {("ann", "human"), ("bob", "human"), ("gpt-judge", "judge")}
    out, _ = _out(capsys, "ratings", "export", "--format", "jsonl", "--db", judged)
    assert {(r["rater"], r["rater_kind"]) for r in map(json.loads, out.splitlines())} == kinds
    out, _ = _out(capsys, "consensus", "export", "--db", judged)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and {r["rater_kind"] for r in rows} == {"human"}  # a judge never counts


def test_the_summary_leaves_judges_out_unless_asked_and_says_so(judged, capsys) -> None:
    _, err = _out(capsys, "ratings", "summary", "--db", judged)
    assert err.strip() == (
        "4 ratings; 2 rating(s) by judges left out (gpt-judge): --include-judges counts them"
    )
    _, err = _out(capsys, "ratings", "summary", "--include-judges", "--db", judged)
    assert err.strip() == "6 ratings"


def test_agreement_leaves_judges_out_and_labels_them_when_asked(judged, capsys) -> None:
    out, err = _out(capsys, "agreement", "--format", "csv", "--bootstrap", "0", "--db", judged)
    assert "1 judge(s) left out (gpt-judge): --include-judges counts them as raters" in err
    raters = [r for r in csv.DictReader(io.StringIO(out)) if r["section"] == "raters"]
    assert {(r["rater"], r["rater_kind"]) for r in raters} == {("ann", "human"), ("bob", "human")}
    out, err = _out(capsys, "agreement", "--format", "csv", "--bootstrap", "0",
                    "--include-judges", "--db", judged)  # fmt: skip
    assert "left out" not in err
    raters = [r for r in csv.DictReader(io.StringIO(out)) if r["section"] == "raters"]
    assert ("gpt-judge", "judge") in {(r["rater"], r["rater_kind"]) for r in raters}
    out, _ = _out(capsys, "agreement", "--format", "json", "--bootstrap", "0",
                  "--include-judges", "--db", judged)  # fmt: skip
    data = json.loads(out)
    assert {r["rater"]: r["rater_kind"] for r in data["raters"]}["gpt-judge"] == "judge"

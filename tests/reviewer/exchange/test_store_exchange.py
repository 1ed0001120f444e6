"""Ratings files in long format: every error reported by line, all or nothing, round trip."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from reviewer.store import RatingsFileError
from reviewer.workspace import ReviewStore

R0, R1 = "20260724T101500Z-000000", "20260724T101500Z-000001"
HEADER = "run_id,metric,outcome,score,comment\n"


def _complete_rows(run_id: str, *, score: int = 2) -> str:
    metrics = [
        "procedure_application",
        "situation_awareness",
        "problem_solving",
        "safety",
        "verification",
        "workload_management",
        "communication",
    ]
    return "".join(f"{run_id},{m},applicable,{score},fine\n" for m in metrics)


def _counts(store: ReviewStore) -> tuple[int, int, int]:
    conn = store.db.conn
    return tuple(
        conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("ratings", "raters", "audit_log")
    )


def test_every_error_is_reported_with_its_line_and_nothing_is_written(
    seeded: ReviewStore, tmp_path: Path
) -> None:
    path = tmp_path / "paper.csv"
    path.write_text(
        HEADER
        + f"{R0},procedure_application,applicable,2,\n"  # line 2: fine
        + f'{R0},situation_awareness,applicable,5,"two\nlines"\n'  # lines 3-4
        + f"{R0},problem_solving,not_applicable,1,\n"  # line 5
        + f"{R0},safety,applicable,3,\n"  # line 6
        + f"{R0},verification,not_observed,,\n"  # line 7
        + f"{R0},workload_management,sometimes,,\n"  # line 8
        + f"{R0},charm,applicable,2,\n"  # line 9
        + f"{R0},procedure_application,applicable,1,\n"  # line 10
        + "\n"  # line 11: blank, skipped
        + "20990101T000000Z-ffffff,safety,applicable,2,\n"  # line 12
        + f"{R1},safety,applicable,two,\n",  # line 13
        encoding="utf-8",
    )
    before = _counts(seeded)
    with pytest.raises(RatingsFileError) as info:
        seeded.import_ratings(path, rater="paper")
    assert info.value.errors == [
        f"line 2: {R0}: no row for communication",
        f"line 3: {R0}, situation_awareness: score must be an integer 0–3; got 5",
        f"line 5: {R0}, problem_solving: a score is only given when the outcome is applicable",
        f"line 6: {R0}, safety: a score of 3 needs a comment saying what was seen",
        f"line 7: {R0}, verification: Not observed needs a comment saying what evidence was "
        "missing",
        f"line 8: {R0}, workload_management: outcome must be one of applicable, "
        "not_applicable, not_observed; got 'sometimes'",
        f"line 9: {R0}, charm: unknown metric 'charm' (rubric default v1: procedure_application"
        ", situation_awareness, problem_solving, safety, verification, workload_management, "
        "communication)",
        f"line 10: procedure_application of {R0} again (first on line 2)",
        "line 12: unknown run_id '20990101T000000Z-ffffff' (import the run first)",
        f"line 13: {R1}, safety: score must be an integer 0–3; got 'two'",
        f"line 13: {R1}: no row for procedure_application, situation_awareness, "
        "problem_solving, verification, workload_management, communication",
    ]
    assert str(info.value).startswith(f"{path}: 11 error(s), nothing imported:")
    assert _counts(seeded) == before  # not even the rater was kept


def test_jsonl_format_errors_are_reported_by_line(seeded: ReviewStore, tmp_path: Path) -> None:
    path = tmp_path / "ratings.jsonl"
    path.write_text('{"run_id": "x", "metric": "safety"}\nnot json\n[1, 2]\n{"metric": "m"}\n')
    with pytest.raises(RatingsFileError) as info:
        seeded.import_ratings(path, rater="paper")
    assert info.value.errors == [
        "line 2: not JSON (Expecting value)",
        "line 3: not a JSON object",
        "line 4: missing run_id",
    ]


def test_bad_files_as_a_whole(seeded: ReviewStore, tmp_path: Path) -> None:
    no_header = tmp_path / "a.csv"
    no_header.write_text("run_id,metric\nx,y\n", encoding="utf-8")
    with pytest.raises(RatingsFileError, match=r"lacks the column\(s\) outcome, score, comment"):
        seeded.import_ratings(no_header, rater="p")
    with pytest.raises(RatingsFileError, match="unknown format 'txt'"):
        seeded.import_ratings(tmp_path / "a.txt", rater="p")
    with pytest.raises(RatingsFileError, match="cannot read"):
        seeded.import_ratings(tmp_path / "missing.csv", rater="p")
    empty = tmp_path / "empty.csv"
    empty.write_text(HEADER, encoding="utf-8")
    with pytest.raises(RatingsFileError, match="no rating rows"):
        seeded.import_ratings(empty, rater="p")


def test_a_run_the_rater_already_rated_is_refused(
    seeded: ReviewStore, tmp_path: Path, fill_rating
) -> None:
    seeded.start_rating(1, "paper")
    path = tmp_path / "r.csv"
    path.write_text(HEADER + _complete_rows(R0), encoding="utf-8")
    with pytest.raises(RatingsFileError, match=r"line 2: paper already has a draft rating of"):
        seeded.import_ratings(path, rater="paper")


def test_imported_ratings_are_submitted_ratings_of_the_rater(
    seeded: ReviewStore, tmp_path: Path
) -> None:
    path = tmp_path / "r.csv"
    path.write_text(HEADER + _complete_rows(R0) + _complete_rows(R1, score=3), encoding="utf-8")
    pks = seeded.import_ratings(path, rater="paper")
    assert len(pks) == 2
    rating = seeded.live_rating(2, "paper")
    assert rating is not None and rating.status == "submitted" and rating.rating_pk == pks[1]
    assert {i.score for i in rating.items.values()} == {3}
    assert seeded.progress("paper") == (2, 5)
    assert seeded.audit_verify().ok


def _export(store: ReviewStore, fmt: str) -> str:
    buf = io.StringIO()
    store.export_ratings(buf, fmt=fmt)
    return buf.getvalue()


def test_export_then_import_round_trips(tmp_path: Path, make_card, fill_rating) -> None:
    cards = [make_card(n) for n in range(3)]
    with ReviewStore.open(tmp_path / "one.db") as one:
        one.add_scorecards(cards)
        rating = fill_rating(one, one.start_rating(1, "ann"))
        rating = one.save_item(
            rating.rating_pk, "communication", outcome="not_observed", score=None,
            comment="no report_done", expected_version=rating.version,
        )  # fmt: skip
        rating = one.save_overall_comment(
            rating.rating_pk, "Flew it, but never said so", expected_version=rating.version
        )
        one.submit(rating.rating_pk, expected_version=rating.version)
        one.start_rating(2, "ann")  # a draft: not exported
        exported = _export(one, "csv")
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert len(rows) == 7  # one submitted rating x 7 metrics
    first = rows[0]
    assert (first["rater"], first["run_id"], first["status"]) == ("ann", R0, "submitted")
    assert (first["rubric_id"], first["rubric_version"]) == ("default", "1")
    assert first["scorer_version"] == cards[0].scorer_version
    assert rows[-1]["outcome"] == "not_observed" and rows[-1]["score"] == ""
    file = tmp_path / "export.csv"
    file.write_text(exported, encoding="utf-8")
    with ReviewStore.open(tmp_path / "two.db") as two:
        two.add_scorecards(cards)
        two.import_ratings(file, rater="ann")
        again = list(csv.DictReader(io.StringIO(_export(two, "csv"))))
        jsonl = [json.loads(line) for line in _export(two, "jsonl").splitlines()]
    assert {r["overall_comment"] for r in rows} == {"Flew it, but never said so"}
    stable = (
        "rater", "run_id", "metric", "outcome", "score", "comment", "overall_comment",
        "rubric_sha256",
    )  # fmt: skip
    assert [[r[k] for k in stable] for r in again] == [[r[k] for k in stable] for r in rows]
    assert jsonl[-1]["score"] is None and jsonl[0]["score"] == 2


def test_a_row_with_more_fields_than_the_header_is_refused_not_cut(
    seeded: ReviewStore, tmp_path: Path
) -> None:
    # An unquoted comma in a comment: "Exemplary, but late" would be stored as "Exemplary".
    path = tmp_path / "paper.csv"
    rows = _complete_rows(R0).replace(
        f"{R0},safety,applicable,2,fine", f"{R0},safety,applicable,3,Exemplary, but late"
    )
    path.write_text(HEADER + rows, encoding="utf-8")
    before = _counts(seeded)

    with pytest.raises(RatingsFileError) as info:
        seeded.import_ratings(path, rater="paper")

    assert info.value.errors == [
        "line 5: 6 fields where the header has 5 (quote a comment that holds a comma)"
    ]
    assert _counts(seeded) == before


def test_rows_of_one_run_must_agree_on_the_overall_comment(
    seeded: ReviewStore, tmp_path: Path
) -> None:
    path = tmp_path / "paper.csv"
    rows = [line + ",same" for line in _complete_rows(R0).splitlines()]
    rows[3] = rows[3].removesuffix(",same") + ",different"
    path.write_text(
        HEADER.strip() + ",overall_comment\n" + "\n".join(rows) + "\n", encoding="utf-8"
    )

    with pytest.raises(RatingsFileError) as info:
        seeded.import_ratings(path, rater="paper")

    assert info.value.errors == [
        f"line 2: {R0}: the overall_comment differs between rows (2, 3, 4, 5, 6, 7, 8)"
    ]


def test_a_comment_over_the_rubric_bound_is_refused_on_import(
    seeded: ReviewStore, tmp_path: Path
) -> None:
    path = tmp_path / "paper.csv"
    rows = _complete_rows(R0).splitlines()
    rows[0] = rows[0].removesuffix(",fine") + "," + "x" * 20_001
    path.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(RatingsFileError) as info:
        seeded.import_ratings(path, rater="paper")
    assert info.value.errors == [
        f"line 2: {R0}, procedure_application: the comment has 20,001 characters; "
        "rubric default v1 allows at most 20,000"
    ]
    assert seeded.live_rating(seeded.list_runs()[0].run_pk, "paper") is None

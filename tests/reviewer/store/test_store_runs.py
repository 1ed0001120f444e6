"""Importing trajectories into the store, and listing runs."""

from __future__ import annotations

from pathlib import Path

from reviewer.listing.reader import read_run_columns, read_run_values
from reviewer.listing.run_values import TABLE_FIELDS
from reviewer.store import runs
from reviewer.store.models import STUDY_ROW_FIELDS, RunRow
from reviewer.workspace import ReviewStore
from scoring import SCORER_VERSION, score_file


def test_import_scores_and_stores_every_readable_file(store: ReviewStore, corpus: Path) -> None:
    bad = corpus / "broken" / "torn-in-the-middle.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"type": "meta"\n{"type": "setup"}\n', encoding="utf-8")
    calls: list[tuple[int, int, str]] = []
    report = store.import_paths([corpus], progress=lambda *a: calls.append(a))
    assert (report.added, report.new_versions, report.unchanged) == (4, 0, 0)
    assert report.unreadable == [(str(bad.resolve()), report.unreadable[0][1])]
    assert report.unreadable[0][1].startswith("line 1: ")
    assert [c[:2] for c in calls] == [(n, 5) for n in range(1, 6)]  # 4 good + 1 bad, in order
    rows = store.list_runs()
    assert [r.run_id for r in rows] == [f"20260724T101500Z-00000{n}" for n in range(4)]
    first = rows[0]
    # The full procedure, flown in order: coverage 1, order 1, end state 1 -> scalar 1.00.
    assert (first.coverage, first.end_state, first.scalar) == (1.0, 1.0, 1.0)
    assert (first.status, first.unsafe, first.version, first.rating_state) == (
        "scored",
        False,
        1,
        "unrated",
    )
    assert first.scenario_id == "elec-apu-gen-fault" and first.model == "model-b"
    assert store.count_runs() == 4


def test_the_stored_scorecard_is_the_scorer_s(store: ReviewStore, corpus: Path) -> None:
    store.import_paths([corpus])
    run = store.list_runs()[2]
    detail = store.get_run(run.run_pk)
    expected = score_file(Path(run.path))
    assert expected.judge_bundle is not None
    # Everything but the judge bundle, which is derived, bulky and rebuilt by `score`.
    assert detail.scorecard == expected.model_copy(update={"judge_bundle": None})
    assert detail.sha256 == expected.trajectory_sha256
    assert detail.scorer_version == SCORER_VERSION
    assert detail.imported_at.tzinfo is not None


def test_reimporting_the_same_files_is_a_no_op(store: ReviewStore, corpus: Path) -> None:
    store.import_paths([corpus])
    audit_before = store.audit_verify().entries
    report = store.import_paths([corpus, next(corpus.rglob("*.jsonl"))])
    assert (report.added, report.new_versions, report.unchanged) == (0, 0, 4)
    assert store.count_runs() == 4
    assert store.audit_verify().entries == audit_before


def test_a_changed_file_at_a_stored_path_is_a_new_flagged_version(
    store: ReviewStore, tmp_path: Path, make_run
) -> None:
    root = tmp_path / "runs"
    path = make_run(root, 1)
    store.import_paths([root])
    make_run(root, 1, steps=(("ext_pwr", 1),))  # same path, different agent behaviour
    report = store.import_paths([path])
    assert (report.added, report.new_versions) == (0, 1)
    old, new = store.list_runs()
    assert (old.version, old.superseded_by_version) == (1, True)
    assert (new.version, new.superseded_by_version) == (2, False)
    assert old.path == new.path == str(path.resolve())
    # Only EXT PWR on: coverage 1/4; order null; 0.4·1 + 0.6·0.25 = 0.55.
    assert new.coverage == 0.25 and round(new.scalar, 2) == 0.55


def test_missing_paths_are_reported_and_the_rest_imported(
    store: ReviewStore, corpus: Path, tmp_path: Path
) -> None:
    report = store.import_paths([tmp_path / "nowhere", corpus])
    assert report.added == 4
    assert report.unreadable == [(str(tmp_path / "nowhere"), report.unreadable[0][1])]
    assert "no such file or folder" in report.unreadable[0][1]


def test_cancelling_keeps_what_was_imported(store: ReviewStore, corpus: Path) -> None:
    seen: list[int] = []
    report = store.import_paths(
        [corpus],
        progress=lambda done, total, path: seen.append(done),
        cancelled=lambda: len(seen) >= 2,
    )
    assert report.cancelled and report.added == 2
    assert store.count_runs() == 2
    assert store.import_paths([corpus]).added == 2  # the other two, the first two unchanged


def test_list_runs_shows_the_rater_s_state_and_the_count_of_decisions(
    seeded: ReviewStore, fill_rating
) -> None:
    draft = seeded.start_rating(1, "ann")
    done = fill_rating(seeded, seeded.start_rating(2, "ann"))
    seeded.submit(done.rating_pk, expected_version=done.version)
    other = fill_rating(seeded, seeded.start_rating(2, "bob"))
    seeded.submit(other.rating_pk, expected_version=other.version)
    states = {r.run_pk: (r.rating_state, r.n_ratings) for r in seeded.list_runs(rater="ann")}
    assert states[1] == ("draft", 0)
    assert states[2] == ("submitted", 2)  # ann's and bob's
    assert states[3] == ("unrated", 0)
    assert {r.rating_state for r in seeded.list_runs()} == {"unrated"}
    assert {r.rating_state for r in seeded.list_runs(rater="nobody")} == {"unrated"}
    assert draft.status == "draft"


def test_add_scorecards_reports_unreadable_cards(store: ReviewStore, make_card) -> None:
    bad = make_card(9, status="unreadable").model_copy(update={"error": "x", "error_line": 3})
    report = store.add_scorecards([make_card(1), bad])
    assert report.added == 1
    assert report.unreadable == [(bad.path, "line 3: x")]


def test_the_run_list_agrees_with_each_run_read_alone(
    store: ReviewStore, tmp_path: Path, make_run, fill_rating
) -> None:
    # list_runs reads the whole list in bulk, get_run one run by correlated lookups: the
    # two must tell the same story, versions, corrections and drafts included.
    root = tmp_path / "runs"
    paths = [make_run(root, n) for n in (1, 2, 3)]
    store.import_paths([root])
    make_run(root, 1, steps=(("ext_pwr", 1),))
    store.import_paths([paths[0]])  # run 4: version 2 of run 1's path
    first = fill_rating(store, store.start_rating(1, "ann"))
    first = store.submit(first.rating_pk, expected_version=first.version)
    store.supersede(first.rating_pk, rater="ann")  # a correction: a live draft again
    other = fill_rating(store, store.start_rating(1, "bob"))
    store.submit(other.rating_pk, expected_version=other.version)
    store.start_rating(4, "bob")
    for rater in ("ann", "bob", None):
        listed = store.list_runs(rater=rater)
        assert [r.run_pk for r in listed] == [1, 2, 3, 4]
        values = store.list_run_values(rater=rater)  # what the runs verb prints
        assert values == [r.model_dump(exclude=set(STUDY_ROW_FIELDS)) for r in listed]
        # ... when it reads the file itself, without opening the store.
        assert read_run_values(store.path, rater=rater) == values
        # ... and as the runs table's columns (no path, no reason).
        columns = read_run_columns(store.path, rater=rater)
        assert columns == {f: [v[f] for v in values] for f in TABLE_FIELDS}
        assert [type(v["unsafe"]) for v in values] == [bool] * 4
        for row in listed:
            alone = runs.get_run(store.db.conn, row.run_pk, rater=rater)
            assert row == RunRow(**alone.model_dump(include=set(RunRow.model_fields)))
    rows = {r.run_pk: r for r in store.list_runs(rater="ann")}
    # ann's correction is open: her submitted rating still stands, so both count.
    assert (rows[1].rating_state, rows[1].n_ratings, rows[1].superseded_by_version) == (
        "correcting", 2, True,
    )  # fmt: skip
    assert (rows[4].rating_state, rows[4].superseded_by_version) == ("unrated", False)


def test_a_run_under_correction_is_still_rated(seeded: ReviewStore, fill_rating) -> None:
    # A correction draft supersedes the submitted rating, which stays the rater's word until
    # the correction is submitted: the run is listed as "correcting" and counted as rated.
    done = fill_rating(seeded, seeded.start_rating(1, "ann"))
    done = seeded.submit(done.rating_pk, expected_version=done.version)
    seeded.supersede(done.rating_pk, rater="ann")
    rows = {r.run_pk: r for r in seeded.list_runs(rater="ann")}
    assert (rows[1].rating_state, rows[1].n_ratings) == ("correcting", 1)
    [values] = [v for v in seeded.list_run_values(rater="ann") if v["run_pk"] == 1]
    assert (values["rating_state"], values["n_ratings"]) == ("correcting", 1)
    assert seeded.list_runs(rater="bob")[0].n_ratings == 1  # any rater sees it counted

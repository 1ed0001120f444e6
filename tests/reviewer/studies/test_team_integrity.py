"""``audit verify`` on every database a study makes, honest and tampered (issues 8 and 12).

Honest: the rater's own database after the blind and final imports and signing, a database
that has just joined, the owner's after collecting both raters and corrections (before and
after their original). Tampered: what the sqlite3 shell can do to a collected rating, its
archived sheet, or a blind value after the blind submit, each of which must be found.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.evidence import Citation
from reviewer.workspace import ReviewStore


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _verified(db: Path, capsys) -> None:
    capsys.readouterr()
    code = _run("audit", "verify", "--db", db)
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    assert out.startswith("audit chain ok")


def _correct(team, tmp_path: Path, *, revise: bool) -> Path:
    """Ann corrects her first rating on her own machine and signs it; the sheet folder."""
    with ReviewStore.open(team["ann"]) as store:
        run = store.list_runs(study="pilot", rater="ann")[0]
        fix = store.supersede(store.live_rating(run.run_pk, "ann").rating_pk, rater="ann")
        if revise:
            metric = list(fix.items)[1]
            fix = store.save_item(fix.rating_pk, metric, outcome="applicable", score=1,
                                  comment="ok", expected_version=fix.version)  # fmt: skip
            cited = Citation(metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="x")
            fix = store.cite(fix.rating_pk, cited, expected_version=fix.version)
            fix = store.save_revision_reason(
                fix.rating_pk, metric, "second look", expected_version=fix.version
            )
        store.submit_final(fix.rating_pk, expected_version=fix.version)
    out = tmp_path / "fix"
    assert _run("sign", "--run", run.run_id, "--rater", "ann", "--out", out,
                "--db", team["ann"]) == 0  # fmt: skip
    return out


def test_each_raters_database_verifies_after_blind_final_and_signing(team, capsys) -> None:
    for rater in ("ann", "bob"):
        _verified(team[rater], capsys)


def test_a_database_that_just_joined_verifies(team, tmp_path, capsys) -> None:
    packet = tmp_path / "packet-again"
    assert _run("study", "packet", "pilot", "--rater", "ann", "--out", packet,
                "--db", team["owner"]) == 0  # fmt: skip
    fresh = tmp_path / "fresh.db"
    assert _run("study", "join", packet, "--db", fresh) == 0
    _verified(fresh, capsys)
    _verified(team["owner"], capsys)


def test_the_owners_database_verifies_after_collecting_and_a_correction(
    team, tmp_path, capsys
) -> None:
    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    fix = _correct(team, tmp_path, revise=True)
    _verified(team["ann"], capsys)  # the correction on the rater's side
    assert _run("collect", fix, "--db", team["owner"]) == 0
    _verified(team["owner"], capsys)


def test_a_correction_collected_before_its_original_verifies(team, tmp_path, capsys) -> None:
    fix = _correct(team, tmp_path, revise=True)
    assert _run("collect", fix, "--db", team["owner"]) == 0
    assert _run("collect", team["sheets-ann"], "--db", team["owner"]) == 0
    assert "1 already corrected" in capsys.readouterr().out
    _verified(team["owner"], capsys)


@pytest.fixture
def collected(team, capsys) -> Path:
    """The owner's database with both raters' sheets collected."""
    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    capsys.readouterr()
    return team["owner"]


_ANN = "(SELECT rater_pk FROM raters WHERE name = 'ann')"
_BOB = "(SELECT rater_pk FROM raters WHERE name = 'bob')"
_ANNS = f"(SELECT min(rating_pk) FROM ratings WHERE rater_pk = {_ANN})"

COLLECTED_CASES: dict[str, tuple[tuple[str, ...], str]] = {
    "item-edited": (
        (f"UPDATE rating_items SET score = 0 WHERE rating_pk = {_ANNS}",),
        "its items differ from the signed sheet",
    ),
    "blind-value-edited": (
        (f"UPDATE rating_items SET blind_score = 3 WHERE rating_pk = {_ANNS}",),
        "its items differ from the signed sheet",
    ),
    "reason-edited": (
        (f"UPDATE rating_items SET revision_reason = 'x' WHERE rating_pk = {_ANNS}",),
        "its items differ from the signed sheet",
    ),
    "given-to-another-rater": (
        (f"UPDATE ratings SET rater_pk = {_BOB} WHERE rating_pk = {_ANNS}",),
        "is now 'bob''s, the log says 'ann' made it (collect)",
    ),
    "sheet-swapped": (
        (
            "UPDATE sheets SET sheet_json = (SELECT sheet_json FROM sheets s2"
            f" WHERE s2.rating_pk = {_ANNS} + 1) WHERE rating_pk = {_ANNS}",
        ),
        "its sheet is not the one the collect entry recorded",
    ),
    "archived-sheet-edited": (
        ("UPDATE collected_sheets SET sheet_json = replace(sheet_json, '2', '3')",),
        "is not the sheet that was collected",
    ),
    "collected-without-entry": (
        (
            "INSERT INTO collected_sheets (sheet_id, sheet_sha256, rating_pk, source,"
            " sheet_json, collected_at) SELECT 'forged', sheet_sha256, NULL, source,"
            " sheet_json, collected_at FROM collected_sheets LIMIT 1",
        ),
        "collected sheet forged has no collect entry in the audit log",
    ),
}


@pytest.mark.parametrize("case", list(COLLECTED_CASES))
def test_tampering_with_collected_ratings_is_found(collected, case, tamper, problems_of) -> None:
    assert problems_of(collected) == []
    sql, expected = COLLECTED_CASES[case]
    tamper(collected, *sql)
    problems = problems_of(collected)
    assert any(expected in p for p in problems), problems


def test_a_correction_given_other_blind_values_is_found(team, tamper, problems_of) -> None:
    # A correction carries its original's blind values over: they are not its to change.
    with ReviewStore.open(team["ann"]) as store:
        run = store.list_runs(study="pilot", rater="ann")[0]
        fix = store.supersede(store.live_rating(run.run_pk, "ann").rating_pk, rater="ann")
        fix = store.submit_final(fix.rating_pk, expected_version=fix.version)
    assert problems_of(team["ann"]) == []
    tamper(
        team["ann"], f"UPDATE rating_items SET blind_score = 0 WHERE rating_pk = {fix.rating_pk}"
    )
    assert problems_of(team["ann"]) == [
        f"rating {fix.rating_pk}: its blind values differ from those of rating {fix.supersedes_pk}"
    ]


def test_a_blind_value_edited_in_a_signed_rating_is_found(team, tamper, problems_of) -> None:
    tamper(team["bob"], "UPDATE rating_items SET blind_score = 0 WHERE rating_pk = 1")
    assert problems_of(team["bob"]) == [
        "rating 1: its blind values differ from what was submitted blind",
        "rating 1: its items differ from the signed sheet " + _sheet_id(team["bob"], 1),
    ]


def _sheet_id(db: Path, rating_pk: int) -> str:
    with ReviewStore.open(db, create=False, readonly=True) as store:
        return store.db.conn.execute(
            "SELECT sheet_id FROM sheets WHERE rating_pk = ?", (rating_pk,)
        ).fetchone()[0]


def test_the_statistics_read_each_decision_as_the_whole_ratings_say(team, tmp_path) -> None:
    # rating_records reads plain rows in one query; built from the whole ratings instead
    # (latest_decisions, the study columns, the assignment's arm) they must be the same,
    # in the same order, on a database with a blind study, collected sheets and a
    # correction whose original is superseded.
    from reviewer.agreement.records import RatingRecord
    from reviewer.agreement.source import rating_records

    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    fix = _correct(team, tmp_path, revise=True)
    assert _run("collect", fix, "--db", team["owner"]) == 0
    for db in (team["owner"], team["ann"]):
        with ReviewStore.open(db) as store:
            conn = store.db.conn
            expected = []
            for rating in store.latest_decisions():
                study_pk = conn.execute(
                    "SELECT study_pk FROM ratings WHERE rating_pk = ?", (rating.rating_pk,)
                ).fetchone()[0]
                study = conn.execute(
                    "SELECT name FROM studies WHERE study_pk = ?", (study_pk,)
                ).fetchone()
                arm = conn.execute(
                    "SELECT a.reveal_first FROM assignments a JOIN raters ra"
                    " ON ra.rater_pk = a.rater_pk WHERE a.study_pk = ? AND a.run_pk = ?"
                    " AND ra.name = ?",
                    (study_pk, rating.run_pk, rating.rater),
                ).fetchone()
                for item in rating.items.values():
                    if item.outcome is None:
                        continue
                    blind = conn.execute(
                        "SELECT blind_outcome, blind_score FROM rating_items"
                        " WHERE rating_pk = ? AND metric_id = ?",
                        (rating.rating_pk, item.metric_id),
                    ).fetchone()
                    expected.append(
                        RatingRecord(
                            run_key=str(rating.run_pk),
                            rater=rating.rater,
                            metric_id=item.metric_id,
                            outcome=item.outcome,
                            score=item.score,
                            blind_outcome=blind[0] if study else None,
                            blind_score=blind[1] if study else None,
                            reveal_first=None if arm is None else bool(arm[0]),
                            study=study[0] if study else None,
                        )
                    )
            found = rating_records(store)
            assert found == expected
            assert any(r.blind_score is not None for r in found)

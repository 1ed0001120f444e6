"""``collect`` checks a sheet against its study, not only its signature (issue 23).

Each attack re-signs a real sheet, validly, with the rater's own key (made by ``keygen`` in
the test's home): a run outside the study, a run not assigned to the signer, a false
protocol claim, a correction that changes the frozen blind phase or changes nothing. Each is
refused by ``collect`` with one line naming the file and the rule, nothing of it is stored,
and the same sheet put into the database by hand is found by ``audit verify``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.sheets import keys
from reviewer.sheets.verify import file_sha256


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _first(folder: Path) -> Path:
    return sorted(folder.glob("*.sheet.json"))[0]


def _payload(path: Path) -> dict:
    return json.loads(json.loads(path.read_text())["payload"])


def _refused(db: Path, sheet: Path, capsys, rule: str) -> None:
    """``collect`` refuses ``sheet`` (exit 1) with ``rule`` on its line; nothing stored."""
    before = _count(db, "SELECT count(*) FROM ratings") + _count(
        db, "SELECT count(*) FROM audit_log"
    )
    capsys.readouterr()
    assert _run("collect", sheet, "--db", db) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith(f"{sheet}: "))
    assert line.startswith(f"{sheet}: refused") and rule in line, out
    assert "0 stored" in out
    after = _count(db, "SELECT count(*) FROM ratings") + _count(
        db, "SELECT count(*) FROM audit_log"
    )
    assert after == before


def _extra_run(db: Path, tmp_path: Path, make_run) -> tuple[str, str]:
    """A run imported into ``db`` that the study does not hold: (run_id, sha256)."""
    path = make_run(tmp_path / "more", 9)
    assert _run("import", tmp_path / "more", "--db", db) == 0
    return "20260724T101500Z-000009", file_sha256(path)


def _study(db: Path, name: str, *args: str) -> None:
    assert _run("study", "create", name, *args, "--seed", "1", "--db", db) == 0


def test_a_sheet_for_a_run_outside_the_study_is_refused(
    team, tmp_path, capsys, make_run, resign, tamper, problems_of
) -> None:
    owner = team["owner"]
    run_id, sha = _extra_run(owner, tmp_path, make_run)
    forged = resign(_first(team["sheets-ann"]), keys.load_key("ann"), tmp_path / "x.sheet.json",
                    lambda p: p["run"].update(run_id=run_id, trajectory_sha256=sha))  # fmt: skip
    _refused(owner, forged, capsys, f"run {run_id} is not in study 'pilot'")
    # By hand: an honest collected rating given the forged sheet and moved to that run.
    assert _run("collect", team["sheets-ann"], "--db", owner) == 0
    tamper(owner, f"UPDATE sheets SET sheet_json = {_sql_text(forged.read_text())}"
                  " WHERE rating_pk = 1",
           f"UPDATE ratings SET run_pk = (SELECT run_pk FROM runs WHERE sha256 = '{sha}')"
           " WHERE rating_pk = 1")  # fmt: skip
    assert any(f"run {run_id} is not in study 'pilot'" in p for p in problems_of(owner))


def test_a_sheet_by_a_rater_not_assigned_the_run_is_refused(team, tmp_path, capsys, resign) -> None:
    owner = team["owner"]
    _study(owner, "solo", "--raters", "ann", "--per-run", "1", "--protocol", "blind")
    forged = resign(_first(team["sheets-bob"]), keys.load_key("bob"), tmp_path / "b.sheet.json",
                    lambda p: p["study"].update(name="solo"))  # fmt: skip
    _refused(owner, forged, capsys, "is not assigned to bob in study 'solo'")


@pytest.mark.parametrize(
    ("claim", "rule"),
    [
        ({"protocol": "blind"}, "it claims the blind protocol, but study 'open1' is open"),
        ({"protocol": "open"}, "it carries blind-phase values, but study 'open1' is open"),
    ],
)
def test_a_false_protocol_claim_is_refused(
    team, tmp_path, capsys, resign, tamper, problems_of, claim, rule
) -> None:
    owner = team["owner"]
    _study(owner, "open1", "--raters", "ann,bob", "--per-run", "2", "--protocol", "open")
    forged = resign(_first(team["sheets-ann"]), keys.load_key("ann"), tmp_path / "o.sheet.json",
                    lambda p: p["study"].update(name="open1", **claim))  # fmt: skip
    _refused(owner, forged, capsys, rule)
    assert _run("collect", team["sheets-ann"], "--db", owner) == 0
    tamper(owner, f"UPDATE sheets SET sheet_json = {_sql_text(forged.read_text())}"
                  " WHERE rating_pk = 1",
           "UPDATE ratings SET study_pk = (SELECT study_pk FROM studies WHERE name = 'open1')"
           " WHERE rating_pk = 1")  # fmt: skip
    assert any(rule in p for p in problems_of(owner)), problems_of(owner)


def test_a_sheet_that_skips_the_blind_phase_is_refused(team, tmp_path, capsys, resign) -> None:
    def unblind(p: dict) -> None:
        p["study"].pop("blind_submitted_at", None)
        p["study"].pop("revealed_at", None)
        for item in p["items"]:
            item.pop("blind", None)
            item.pop("reason", None)

    forged = resign(_first(team["sheets-ann"]), keys.load_key("ann"), tmp_path / "u.sheet.json",
                    unblind)  # fmt: skip
    _refused(team["owner"], forged, capsys, "it has no blind phase, but ann's assignment")


def _correction(original: Path, **blind) -> callable:
    """A change making a sheet a correction of ``original``: final value of the first
    metric changed (so it corrects something), blind values changed by ``blind``."""
    first = _payload(original)

    def change(p: dict) -> None:
        p.update(sheet_id="forged-correction", supersedes=first["sheet_id"],
                 signed_at="2031-01-01T00:00:00+00:00")  # fmt: skip
        p["items"][1].update(comment="a second look")
        if "score" in blind:
            p["items"][0]["blind"]["score"] = blind["score"]
        if "at" in blind:
            p["study"]["blind_submitted_at"] = blind["at"]

    return change


@pytest.mark.parametrize(
    "blind", [{"score": 0}, {"at": "2030-01-01T00:00:00+00:00"}], ids=["value", "time"]
)
def test_a_correction_that_changes_the_blind_phase_is_refused(
    team, tmp_path, capsys, resign, tamper, problems_of, blind
) -> None:
    owner = team["owner"]
    assert _run("collect", team["sheets-ann"], "--db", owner) == 0
    original = _first(team["sheets-ann"])
    forged = resign(original, keys.load_key("ann"), tmp_path / "c.sheet.json",
                    _correction(original, **blind))  # fmt: skip
    rule = "blind values or blind submit time differ from those of sheet"
    _refused(owner, forged, capsys, rule)
    honest = resign(original, keys.load_key("ann"), tmp_path / "h" / "c.sheet.json",
                    _correction(original))  # fmt: skip
    capsys.readouterr()
    assert _run("collect", honest, "--db", owner) == 0  # the same correction, blind kept
    assert problems_of(owner) == []
    tamper(owner, f"UPDATE sheets SET sheet_json = {_sql_text(forged.read_text())}"
                  " WHERE sheet_id = 'forged-correction'")  # fmt: skip
    assert any(rule in p for p in problems_of(owner)), problems_of(owner)


def test_a_correction_identical_to_what_it_corrects_is_refused(
    team, tmp_path, capsys, resign
) -> None:
    owner = team["owner"]
    assert _run("collect", team["sheets-ann"], "--db", owner) == 0
    original = _first(team["sheets-ann"])
    first = _payload(original)
    same = resign(original, keys.load_key("ann"), tmp_path / "s.sheet.json",
                  lambda p: p.update(sheet_id="same", supersedes=first["sheet_id"]))  # fmt: skip
    _refused(owner, same, capsys, "it is identical to sheet")


def test_the_honest_team_still_collects_and_verifies(team, capsys, problems_of) -> None:
    capsys.readouterr()
    assert _run("collect", team["sheets-ann"], team["sheets-bob"], "--db", team["owner"]) == 0
    assert "8 stored" in capsys.readouterr().out
    assert problems_of(team["owner"]) == []


def test_a_correction_identical_to_its_original_is_not_signed(team, tmp_path, capsys) -> None:
    from reviewer.workspace import ReviewStore

    with ReviewStore.open(team["ann"]) as store:
        run = store.list_runs(study="pilot", rater="ann")[0]
        fix = store.supersede(store.live_rating(run.run_pk, "ann").rating_pk, rater="ann")
        store.submit_final(fix.rating_pk, expected_version=fix.version)
    out = tmp_path / "fix"
    capsys.readouterr()
    assert _run("sign", "--run", run.run_id, "--rater", "ann", "--out", out,
                "--db", team["ann"]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert "this correction is identical to sheet" in err and "nothing was signed" in err
    assert not out.exists() or not list(out.iterdir())
    with ReviewStore.open(team["ann"]) as store:
        assert store.live_rating(run.run_pk, "ann").status == "submitted"

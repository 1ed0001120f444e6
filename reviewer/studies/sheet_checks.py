"""The study's rules for sheets, asked of this database (:mod:`reviewer.studies.sheet_rules`).

``collect`` calls :func:`rating_sheet_problems` and :func:`adjudication_sheet_problems`
before it stores a sheet (a problem refuses it, nothing is stored); ``audit verify`` calls
:func:`check` over every stored sheet and every study rating, so that a sheet put in by
hand with the sqlite3 shell is found by the same rules.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.sheet import SheetPayload
from reviewer.sheets.verify import PAYLOAD_MODELS
from reviewer.studies import qualifying, sheet_rules
from reviewer.studies.sheet_rules import Claim, StudyFacts

_PAYLOAD = "json_extract(sheet_json, '$.payload')"


def payload_of(sheet_json: str) -> Any:
    """The payload of a stored sheet (rating or adjudication), or None if unreadable (the
    signature checks of ``audit verify`` report a broken sheet)."""
    try:
        text = json.loads(sheet_json)["payload"]
        data = json.loads(text)
        return PAYLOAD_MODELS[data["sheet_format"]].model_validate(data)
    except (ValueError, KeyError, TypeError):
        return None


def study_facts(conn: sqlite3.Connection, study: str, run_pk: int, rater: str) -> StudyFacts | None:
    """What this database holds about ``study`` for ``run_pk`` and ``rater``."""
    row = conn.execute("SELECT study_pk, protocol FROM studies WHERE name = ?", (study,))
    found = row.fetchone()
    if found is None:
        return None
    study_pk, protocol = found
    in_study = conn.execute(
        "SELECT 1 FROM study_runs WHERE study_pk = ? AND run_pk = ?", (study_pk, run_pk)
    ).fetchone()
    arm = conn.execute(
        "SELECT a.reveal_first FROM assignments a JOIN raters ra ON ra.rater_pk = a.rater_pk"
        " WHERE a.study_pk = ? AND a.run_pk = ? AND ra.name = ?",
        (study_pk, run_pk, rater),
    ).fetchone()
    return StudyFacts(
        name=study,
        protocol=str(protocol),
        run_in_study=in_study is not None,
        reveal_first=None if arm is None else bool(arm[0]),
        restriction=qualifying.restriction(conn, study, run_pk, rater),
    )


def stored_sheet(conn: sqlite3.Connection, sheet_id: str | None) -> SheetPayload | None:
    """A rating sheet stored here (live or archived), by id."""
    if sheet_id is None:
        return None
    for table in ("sheets", "collected_sheets"):
        row = conn.execute(f"SELECT sheet_json FROM {table} WHERE sheet_id = ?", (sheet_id,))
        found = row.fetchone()
        if found is not None:
            payload = payload_of(found[0])
            return payload if isinstance(payload, SheetPayload) else None
    return None


def rating_sheet_problems(
    conn: sqlite3.Connection,
    payload: SheetPayload,
    run_pk: int,
    *,
    corrected_by: SheetPayload | None = None,
) -> list[str]:
    """The study rules a rating sheet breaks here; ``corrected_by``: a stored correction of
    it (the correction came first), which must keep this sheet's blind phase."""
    claim = sheet_rules.claim_of(payload)
    rater = payload.rater.name
    facts = None if claim.study is None else study_facts(conn, claim.study, run_pk, rater)
    problems = sheet_rules.study_problems(claim, facts, run=payload.run.run_id, rater=rater)
    original = stored_sheet(conn, payload.supersedes)
    if original is not None:
        problems += sheet_rules.correction_problems(
            claim, sheet_rules.claim_of(original), corrects=f"sheet {payload.supersedes}"
        )
    if corrected_by is not None:
        problems += [
            f"its correction {corrected_by.sheet_id}, stored here, breaks the rule: {p}"
            for p in sheet_rules.correction_problems(
                sheet_rules.claim_of(corrected_by), claim, corrects="this sheet"
            )
        ]
    return problems


def run_rating_sheets(conn: sqlite3.Connection, run_pk: int) -> dict[str, str]:
    """Every rating sheet of the run held here (live or archived): sheet id -> signer."""
    out = {
        str(sid): str(name)
        for sid, name in conn.execute(
            "SELECT s.sheet_id, ra.name FROM sheets s JOIN ratings g ON g.rating_pk = s.rating_pk"
            " JOIN raters ra ON ra.rater_pk = g.rater_pk WHERE g.run_pk = ?",
            (run_pk,),
        )
    }
    sha = conn.execute("SELECT sha256 FROM runs WHERE run_pk = ?", (run_pk,)).fetchone()
    for sid, name in conn.execute(
        f"SELECT sheet_id, json_extract({_PAYLOAD}, '$.rater.name') FROM collected_sheets"
        f" WHERE json_extract({_PAYLOAD}, '$.run.trajectory_sha256') = ?",
        (None if sha is None else sha[0],),
    ):
        out.setdefault(str(sid), str(name))
    return out


def adjudication_sheet_problems(
    conn: sqlite3.Connection, payload: AdjudicationPayload, run_pk: int
) -> list[str]:
    """The ratings an adjudication sheet names that this database does not hold."""
    return sheet_rules.adjudication_problems(payload, run_rating_sheets(conn, run_pk))


def check(conn: sqlite3.Connection) -> list[str]:
    """``audit verify``: every stored sheet and study rating against the study's rules."""
    problems: list[str] = []
    sheeted: set[int] = set()
    for pk, sheet_id, text, run_pk in conn.execute(
        "SELECT s.rating_pk, s.sheet_id, s.sheet_json, g.run_pk FROM sheets s"
        " JOIN ratings g ON g.rating_pk = s.rating_pk ORDER BY s.rating_pk"
    ).fetchall():
        payload = payload_of(text)
        if not isinstance(payload, SheetPayload):
            continue
        sheeted.add(int(pk))
        problems += [
            f"rating {pk} (sheet {sheet_id}): {p}"
            for p in rating_sheet_problems(conn, payload, int(run_pk))
        ]
    problems += _unsigned_study_ratings(conn, sheeted)
    for pk, sheet_id, text, run_pk in conn.execute(
        "SELECT s.adjudication_pk, s.sheet_id, s.sheet_json, a.run_pk FROM adjudication_sheets s"
        " JOIN adjudications a ON a.adjudication_pk = s.adjudication_pk"
        " ORDER BY s.adjudication_pk"
    ).fetchall():
        payload = payload_of(text)
        if isinstance(payload, AdjudicationPayload):
            problems += [
                f"adjudication {pk} (sheet {sheet_id}): {p}"
                for p in adjudication_sheet_problems(conn, payload, int(run_pk))
            ]
    return problems


def _unsigned_study_ratings(conn: sqlite3.Connection, sheeted: set[int]) -> list[str]:
    """Ratings without a sheet that a study holds: the run and the rater's assignment must
    be the study's (their blind values are checked against the log by
    :mod:`reviewer.store.integrity`)."""
    problems = []
    for pk, run_pk, run_id, study, rater in conn.execute(
        "SELECT g.rating_pk, g.run_pk, coalesce(r.run_id, r.path), s.name, ra.name"
        " FROM ratings g JOIN studies s ON s.study_pk = g.study_pk"
        " LEFT JOIN runs r ON r.run_pk = g.run_pk"
        " JOIN raters ra ON ra.rater_pk = g.rater_pk ORDER BY g.rating_pk"
    ).fetchall():
        if pk in sheeted:
            continue
        facts = study_facts(conn, study, int(run_pk), rater)
        problems += [
            f"rating {pk}: {p}"
            for p in sheet_rules.study_problems(
                Claim(study=study), facts, run=str(run_id), rater=rater
            )
        ]
    return problems

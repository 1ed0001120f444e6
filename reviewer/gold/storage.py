"""The gold feature's SQL over the core's connection: references, a study's gold and its
plan, qualification decisions, and what the window may show after a submit.

Writers expect the caller's open write transaction (the facade opens it); readers take a
connection. Envelopes are stored verbatim and verified again whenever they are read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded on first use (reviewer.gold.model imports the sheet format)
    from reviewer.gold.model import GoldPlan


def insert_reference(
    conn: sqlite3.Connection,
    *,
    run_pk: int,
    owner: str,
    owner_fingerprint: str,
    source: str,
    envelope: dict[str, str],
    at: str,
) -> int:
    """Store a signed reference; returns its key."""
    cursor = conn.execute(
        "INSERT INTO gold_references (run_pk, owner, owner_fingerprint, source, envelope,"
        " added_at) VALUES (?, ?, ?, ?, ?, ?)",
        (run_pk, owner, owner_fingerprint, source, json.dumps(envelope), at),
    )
    return int(cursor.lastrowid or 0)


def references(
    conn: sqlite3.Connection, *, active_only: bool = True
) -> list[tuple[int, int, dict[str, Any], str, str | None]]:
    """``(reference_pk, run_pk, envelope, added_at, removed_at)``, oldest first."""
    where = " WHERE removed_at IS NULL" if active_only else ""
    rows = conn.execute(
        "SELECT reference_pk, run_pk, envelope, added_at, removed_at FROM gold_references"
        + where
        + " ORDER BY reference_pk"
    ).fetchall()
    return [(pk, run, json.loads(env), at, gone) for pk, run, env, at, gone in rows]


def withdraw(conn: sqlite3.Connection, reference_pk: int, *, at: str) -> None:
    """Record that a reference is no longer offered as gold (studies that seeded it keep it)."""
    conn.execute(
        "UPDATE gold_references SET removed_at = ? WHERE reference_pk = ? AND removed_at IS NULL",
        (at, reference_pk),
    )


def insert_plan(conn: sqlite3.Connection, study_pk: int, plan: GoldPlan, *, at: str) -> None:
    """Record the study's gold fraction and qualification rule."""
    conn.execute(
        "INSERT INTO study_gold_plans (study_pk, fraction, qualification_measure,"
        " qualification_threshold, created_at) VALUES (?, ?, ?, ?, ?)",
        (study_pk, plan.fraction, plan.measure if plan.qualification else None,
         plan.threshold if plan.qualification else None, at),
    )  # fmt: skip


def plan(conn: sqlite3.Connection, study_pk: int) -> GoldPlan | None:
    """The study's gold plan (None for a study without gold)."""
    from reviewer.gold.model import GoldPlan

    row = conn.execute(
        "SELECT fraction, qualification_measure, qualification_threshold FROM"
        " study_gold_plans WHERE study_pk = ?",
        (study_pk,),
    ).fetchone()
    if row is None:
        return None
    fraction, measure, threshold = row
    n = conn.execute(
        "SELECT count(*) FROM study_gold WHERE study_pk = ? AND qualification = 1", (study_pk,)
    ).fetchone()[0]
    if measure is None:
        return GoldPlan(fraction=fraction)
    return GoldPlan(fraction=fraction, qualification=n, measure=measure, threshold=threshold)


def insert_study_gold(
    conn: sqlite3.Connection, study_pk: int, rows: list[tuple[int, int, bool]]
) -> None:
    """``(run_pk, reference_pk, qualification)`` of each gold run seeded into the study."""
    conn.executemany(
        "INSERT INTO study_gold (study_pk, run_pk, reference_pk, qualification)"
        " VALUES (?, ?, ?, ?)",
        [(study_pk, run, ref, int(q)) for run, ref, q in rows],
    )


def study_gold(
    conn: sqlite3.Connection, study_pk: int
) -> list[tuple[int, int, bool, dict[str, Any], str, str | None]]:
    """``(run_pk, reference_pk, qualification, envelope, added_at, removed_at)`` of the
    study's gold runs."""
    rows = conn.execute(
        "SELECT g.run_pk, g.reference_pk, g.qualification, r.envelope, r.added_at,"
        " r.removed_at FROM study_gold g"
        " JOIN gold_references r ON r.reference_pk = g.reference_pk"
        " WHERE g.study_pk = ? ORDER BY g.run_pk",
        (study_pk,),
    ).fetchall()
    return [(run, ref, bool(q), json.loads(env), at, gone) for run, ref, q, env, at, gone in rows]


def has_study_gold(conn: sqlite3.Connection, study_pk: int, run_pk: int) -> bool:
    """Whether the run is gold in the study already."""
    row = conn.execute(
        "SELECT 1 FROM study_gold WHERE study_pk = ? AND run_pk = ?", (study_pk, run_pk)
    ).fetchone()
    return row is not None


def insert_decision(
    conn: sqlite3.Connection,
    study_pk: int,
    rater_pk: int,
    *,
    qualified: bool,
    envelope: dict[str, str],
    at: str,
) -> None:
    """Record a signed qualification decision (one per rater and study, for good)."""
    conn.execute(
        "INSERT INTO qualification_decisions (study_pk, rater_pk, qualified, envelope,"
        " decided_at) VALUES (?, ?, ?, ?, ?)",
        (study_pk, rater_pk, int(qualified), json.dumps(envelope), at),
    )


def decisions(conn: sqlite3.Connection, study_pk: int) -> dict[str, tuple[bool, dict[str, Any]]]:
    """``{rater: (qualified, envelope)}`` of the study's recorded decisions."""
    rows = conn.execute(
        "SELECT ra.name, d.qualified, d.envelope FROM qualification_decisions d"
        " JOIN raters ra ON ra.rater_pk = d.rater_pk WHERE d.study_pk = ?",
        (study_pk,),
    ).fetchall()
    return {name: (bool(q), json.loads(env)) for name, q, env in rows}


def submitted_gold(
    conn: sqlite3.Connection, run_pk: int, rater: str
) -> tuple[str, dict[str, Any]] | None:
    """``(study, envelope)`` when ``rater``'s live rating of the run is submitted (past its
    final phase) within a study where the run is gold; None otherwise."""
    row = conn.execute(
        "SELECT s.name, r.envelope FROM ratings g"
        " JOIN raters ra ON ra.rater_pk = g.rater_pk"
        " JOIN studies s ON s.study_pk = g.study_pk"
        " JOIN study_gold sg ON sg.study_pk = g.study_pk AND sg.run_pk = g.run_pk"
        " JOIN gold_references r ON r.reference_pk = sg.reference_pk"
        " WHERE g.run_pk = ? AND ra.name = ? AND g.status <> 'draft'"
        " AND NOT EXISTS (SELECT 1 FROM ratings x WHERE x.supersedes_pk = g.rating_pk)"
        " ORDER BY g.rating_pk DESC LIMIT 1",
        (run_pk, rater),
    ).fetchone()
    return None if row is None else (row[0], json.loads(row[1]))


def rated_runs(conn: sqlite3.Connection, raters: Sequence[str]) -> dict[str, set[str]]:
    """``{rater: trajectory sha256s of the runs they have a rating of}``."""
    out: dict[str, set[str]] = {r: set() for r in raters}
    for name, sha in conn.execute(
        "SELECT ra.name, r.sha256 FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk"
        " JOIN runs r ON r.run_pk = g.run_pk"
    ):
        if name in out:
            out[name].add(sha)
    return out


def run_pk_of(conn: sqlite3.Connection, sha256: str) -> int | None:
    """The newest stored run whose trajectory has this sha256 (None if there is none)."""
    row = conn.execute(
        "SELECT run_pk FROM runs WHERE sha256 = ? ORDER BY run_pk DESC LIMIT 1", (sha256,)
    ).fetchone()
    return None if row is None else int(row[0])

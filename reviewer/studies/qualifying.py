"""Who may rate what in a study that requires qualification, read from this database.

A study created with ``--qualification N`` (:mod:`reviewer.gold`) puts N gold runs first
in each queue; until the owner's signed decision says a rater qualified, that rater may
rate only those runs. A rater who failed stays restricted. Gold writes the facts (the
study's plan, which of its gold runs are the qualification set, the decisions) into the
core's tables; this module only reads them, so that the studies layer, and everything
that stores a study rating through it (the window, ``ratings import``, ``collect``,
``audit verify``), keeps the rule without importing gold.
"""

from __future__ import annotations

import sqlite3


def restriction(conn: sqlite3.Connection, study: str, run_pk: int, rater: str) -> str | None:
    """Why ``rater`` may not rate ``run_pk`` in ``study`` yet (one sentence); None when
    they may: the study needs no qualification, the run is one of its qualification set,
    or the rater qualified."""
    row = conn.execute(
        "SELECT s.study_pk FROM studies s JOIN study_gold_plans p ON p.study_pk = s.study_pk"
        " WHERE s.name = ? AND p.qualification_measure IS NOT NULL",
        (study,),
    ).fetchone()
    if row is None:
        return None
    study_pk = int(row[0])
    qualification_run = conn.execute(
        "SELECT 1 FROM study_gold WHERE study_pk = ? AND run_pk = ? AND qualification = 1",
        (study_pk, run_pk),
    ).fetchone()
    if qualification_run is not None:
        return None
    decided = conn.execute(
        "SELECT d.qualified FROM qualification_decisions d"
        " JOIN raters ra ON ra.rater_pk = d.rater_pk WHERE d.study_pk = ? AND ra.name = ?",
        (study_pk, rater),
    ).fetchone()
    if decided is not None and decided[0]:
        return None
    status = "failed qualification" if decided is not None else "has not qualified"
    return f"{rater} {status} for study {study}: only its qualification runs can be rated"

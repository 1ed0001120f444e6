"""A study's runs as its views read them: the rater's queue, how many of each run's k
ratings are in, and the ratings made within the study.

Readers over a connection; the SQL that writes studies is :mod:`reviewer.studies.storage`.
"""

from __future__ import annotations

import sqlite3

from reviewer.store import runs
from reviewer.store.models import RunRow
from reviewer.studies.storage import assignments, get


def rating_pks(conn: sqlite3.Connection, study_pk: int) -> set[int]:
    """Every rating made within the study (any status, superseded ones included)."""
    return {
        pk
        for (pk,) in conn.execute("SELECT rating_pk FROM ratings WHERE study_pk = ?", (study_pk,))
    }


def list_runs(
    conn: sqlite3.Connection, *, study: str, rater: str | None, assigned_only: bool = True
) -> list[RunRow]:
    """The study's runs with how many of their k ratings are in.

    With ``rater`` and ``assigned_only``, the rater's queue ("My queue"): their assignments
    in queue order, with position and control-arm flag.
    """
    s = get(conn, study)
    ratings_in = dict(
        conn.execute(
            "SELECT sr.run_pk, (SELECT count(*) FROM ratings g WHERE g.run_pk = sr.run_pk"
            " AND g.status <> 'draft' AND g.rater_pk IN (SELECT rater_pk FROM study_raters"
            " WHERE study_pk = sr.study_pk) AND NOT EXISTS (SELECT 1 FROM ratings x"
            " WHERE x.supersedes_pk = g.rating_pk AND x.status <> 'draft'))"
            " FROM study_runs sr WHERE sr.study_pk = ?",
            (s.study_pk,),
        )
    )
    mine: dict[int, tuple[int, bool]] = {}
    if rater is not None:
        for assigned in assignments(conn, study, rater=rater):
            mine[assigned.run_pk] = (assigned.position, assigned.reveal_first)
    out: list[RunRow] = []
    for row in runs.list_runs(conn, rater=rater):
        if row.run_pk not in ratings_in or (rater and assigned_only and row.run_pk not in mine):
            continue
        position, arm = mine.get(row.run_pk, (None, None))
        # A run placed in more queues than k (a gold run: reviewer.gold) counts as done at
        # k: "4/2" would tell a rater which runs are gold.
        shown_in = min(ratings_in[row.run_pk], s.per_run)
        extra = {"study": study, "per_run": s.per_run, "ratings_in": shown_in,
                 "position": position, "reveal_first": arm}  # fmt: skip
        out.append(row.model_copy(update=extra))
    if rater is not None and assigned_only:
        out.sort(key=lambda r: r.position or 0)
    return out

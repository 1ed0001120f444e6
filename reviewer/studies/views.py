"""Read-side views of studies: a rater's queue, ratings in per run, what a rater may see.

Visibility rule, held here for every reader that takes a rater: other raters' ratings of a
run stay hidden from a rater until that rater has submitted their own rating of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from reviewer.store import runs
from reviewer.store.exchange import STUDY_EXPORT_COLUMNS
from reviewer.store.models import RunRow
from reviewer.studies import storage as studies


def list_runs(
    conn: sqlite3.Connection, *, study: str, rater: str | None, assigned_only: bool = True
) -> list[RunRow]:
    """The study's runs with how many of their k ratings are in.

    With ``rater`` and ``assigned_only``, the rater's queue ("My queue"): their assignments
    in queue order, with position and control-arm flag.
    """
    s = studies.get(conn, study)
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
        for row in studies.assignments(conn, study, rater=rater):
            mine[row.run_pk] = (row.position, row.reveal_first)
    out = []
    for row in runs.list_runs(conn, rater=rater):
        if row.run_pk not in ratings_in or (rater and assigned_only and row.run_pk not in mine):
            continue
        position, arm = mine.get(row.run_pk, (None, None))
        extra = {"study": study, "per_run": s.per_run, "ratings_in": ratings_in[row.run_pk],
                 "position": position, "reveal_first": arm}  # fmt: skip
        out.append(row.model_copy(update=extra))
    if rater is not None and assigned_only:
        out.sort(key=lambda r: r.position or 0)
    return out


def hidden_from(conn: sqlite3.Connection, viewer: str) -> set[tuple[int, str]]:
    """``(run_pk, rater)`` pairs of other raters' ratings ``viewer`` may not see yet."""
    seen = {
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT g.run_pk FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk"
            " WHERE ra.name = ? AND g.status <> 'draft'",
            (viewer,),
        )
    }
    return {
        (run_pk, name)
        for run_pk, name in conn.execute(
            "SELECT DISTINCT g.run_pk, ra.name FROM ratings g"
            " JOIN raters ra ON ra.rater_pk = g.rater_pk WHERE ra.name <> ?",
            (viewer,),
        )
        if run_pk not in seen
    }


def export_extras(conn: sqlite3.Connection) -> Iterator[tuple[tuple[int, str], dict[str, Any]]]:
    """Per ``(rating_pk, metric_id)``: the study and blind-protocol columns of the export."""
    rows = conn.execute(
        "SELECT i.rating_pk, i.metric_id, s.name, s.protocol,"
        " (SELECT a.reveal_first FROM assignments a WHERE a.study_pk = g.study_pk"
        "  AND a.run_pk = g.run_pk AND a.rater_pk = g.rater_pk),"
        " i.blind_outcome, i.blind_score, i.blind_comment, i.revision_reason,"
        " g.blind_submitted_at, g.revealed_at, g.collected_at"
        " FROM rating_items i JOIN ratings g ON g.rating_pk = i.rating_pk"
        " LEFT JOIN studies s ON s.study_pk = g.study_pk WHERE g.status <> 'draft'"
    )
    for pk, metric, *values in rows:
        extra = dict(zip(STUDY_EXPORT_COLUMNS, values, strict=True))
        if extra["reveal_first"] is not None:
            extra["reveal_first"] = bool(extra["reveal_first"])
        yield (pk, metric), extra

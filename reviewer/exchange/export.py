"""The ratings export: each rater's latest decisions as long-format rows, with their
context (run, rubric, study, blind values), leaving out what a viewer may not see yet.

Visibility rule, the one the window follows: other raters' ratings of a run stay hidden
from a rater until that rater has submitted their own rating of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from reviewer.evidence import format_evidence
from reviewer.exchange.longformat import STUDY_EXPORT_COLUMNS
from reviewer.store.ratings import latest_decisions
from reviewer.store.rubrics import RubricRegistry


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


def export_rows(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    *,
    rater: str | None = None,
    viewer: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Long-format rows of :func:`latest_decisions`, one per rating and metric.

    With ``viewer``, other raters' ratings of runs the viewer has not rated yet are left out.
    Blind-protocol ratings carry their blind values and revision reasons.
    """
    hidden = hidden_from(conn, viewer) if viewer is not None else set()
    extras = dict(export_extras(conn))
    blank = dict.fromkeys(STUDY_EXPORT_COLUMNS)
    runs = {
        row[0]: row[1:]
        for row in conn.execute(
            "SELECT run_pk, run_id, scenario_id, model, scorer_version, path FROM runs"
        )
    }
    kinds = dict(conn.execute("SELECT name, kind FROM raters").fetchall())
    for rating in latest_decisions(conn, rubrics, rater=rater):
        if (rating.run_pk, rating.rater) in hidden:
            continue
        # A rating whose run was deleted behind the store's back (``audit verify`` names
        # it) is still exported: the rater's word is not dropped for a missing run.
        orphan = (None, None, None, None, None)
        run_id, scenario_id, model, scorer_version, path = runs.get(rating.run_pk, orphan)
        for item in rating.items.values():
            yield {
                "rater": rating.rater,
                "rater_kind": kinds.get(rating.rater, "human"),
                "run_id": run_id,
                "scenario_id": scenario_id,
                "model": model,
                "metric": item.metric_id,
                "outcome": item.outcome,
                "score": item.score,
                "comment": item.comment,
                "evidence": format_evidence(rating.cited(item.metric_id)),
                "overall_comment": rating.overall_comment,
                "rubric_id": rating.rubric_id,
                "rubric_version": rating.rubric_version,
                "rubric_sha256": rating.rubric_sha256,
                "scorer_version": scorer_version,
                "status": rating.status,
                "rating_pk": rating.rating_pk,
                "run_pk": rating.run_pk,
                "path": path,
                "created_at": _iso(rating.created_at),
                "updated_at": _iso(rating.updated_at),
                "submitted_at": _iso(rating.submitted_at),
                "signed_at": _iso(rating.signed_at),
                **extras.get((rating.rating_pk, item.metric_id), blank),
            }


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()

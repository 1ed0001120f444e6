"""The human raters' scores as the analyst views hold them (SQL over the core's connection).

See :mod:`reviewer.quality.source` for what a score means. They are read in two parts and
joined by :func:`reviewer.quality.source.score_columns`: a row per live human rating (its
run, rater, queue position and submit time: tens of thousands), and each metric's scores as
one ``group_concat`` string of numbers (``rating_pk * 8 + score``) that numpy parses in C,
no Python object per score (a row per score through the analyst views, joined twice, was
most of the Raters page at 10,000 runs).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from reviewer.store.connection import read_transaction

#: The live ratings of human raters (``current_ratings``' rule: not a draft, not superseded
#: by a rating that is not a draft), of a study when one is named.
_RATINGS = """
SELECT g.rating_pk, g.run_pk, r.run_id, ra.name, a.position, g.submitted_at, st.name
FROM ratings g
JOIN raters ra ON ra.rater_pk = g.rater_pk
JOIN runs r ON r.run_pk = g.run_pk
LEFT JOIN studies st ON st.study_pk = g.study_pk
LEFT JOIN assignments a
    ON a.study_pk = g.study_pk AND a.run_pk = g.run_pk AND a.rater_pk = g.rater_pk
WHERE ra.kind = 'human' AND g.status <> 'draft'
  AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk
                  AND s.status <> 'draft') {study}
ORDER BY g.rating_pk
"""

#: Each metric's scores (every rating's: those of no live human rating are dropped after).
_SCORES = """
SELECT metric_id, group_concat(rating_pk * 8 + {score})
FROM rating_items WHERE {score} IS NOT NULL GROUP BY metric_id
"""


def human_score_parts(
    conn: sqlite3.Connection, *, study: str | None, blind: bool
) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
    """``(ratings, scores)``: ``(rating_pk, run_pk, run_id, rater, position, submitted_at,
    study)`` of every live human rating (of ``study`` when given) in ``rating_pk`` order,
    and per metric ``(metric, "pk*8+score,...")`` of the scores (the blind ones with
    ``blind``), read in one transaction."""
    column = "blind_score" if blind else "score"
    ratings_sql = _RATINGS.format(study="AND st.name = ?" if study else "")
    with read_transaction(conn):
        ratings = conn.execute(ratings_sql, (study,) if study else ()).fetchall()
        scores = conn.execute(_SCORES.format(score=column)).fetchall()
    return ratings, scores

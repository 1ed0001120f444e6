"""The human raters' scores as the analyst views hold them (SQL over the core's connection).

See :mod:`reviewer.quality.source` for what a row means.
"""

from __future__ import annotations

import sqlite3
from typing import Any

_QUERY = """
SELECT i.run_pk, i.run_id, i.rater, i.metric, {score}, a.position, c.submitted_at, i.study
FROM current_rating_items i
JOIN current_ratings c ON c.rating_pk = i.rating_pk
LEFT JOIN studies st ON st.name = i.study
LEFT JOIN raters ra ON ra.name = i.rater
LEFT JOIN assignments a
    ON a.study_pk = st.study_pk AND a.run_pk = i.run_pk AND a.rater_pk = ra.rater_pk
WHERE i.rater_kind = 'human' AND {score} IS NOT NULL {study}
ORDER BY i.rater, a.position, c.submitted_at, i.run_pk, i.metric
"""


def human_scores(
    conn: sqlite3.Connection, *, study: str | None, blind: bool
) -> list[tuple[Any, ...]]:
    """``(run_pk, run_id, rater, metric, score, position, submitted_at, study)`` of every human
    score (the blind one with ``blind``), of ``study`` when given, in queue order."""
    column = "i.blind_score" if blind else "i.score"
    sql = _QUERY.format(score=column, study="AND i.study = ?" if study else "")
    return conn.execute(sql, (study,) if study else ()).fetchall()

"""The human scores read as columns (a row per rating, each metric's scores packed) are the
rows the analyst views gave, in the same order: held to the query they replaced.

On the gold study (a blind study: queue positions, blind and final values, a pseudo-rater
of gold that is not a human's), before and after a rating is superseded and with a draft
left open; with and without the study, final and blind.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from reviewer.quality.source import Score, score_columns
from reviewer.sheets import keys
from reviewer.workspace import ReviewStore

#: The query of the analyst views the columns replaced, as it was.
PLAIN = """
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


def plain_scores(store: ReviewStore, study: str | None, blind: bool) -> list[Score]:
    column = "i.blind_score" if blind else "i.score"
    sql = PLAIN.format(score=column, study="AND i.study = ?" if study else "")
    rows = store._db.conn.execute(sql, (study,) if study else ()).fetchall()
    return [
        Score(
            run_pk=pk,
            run_id=run_id,
            rater=rater,
            metric=metric,
            score=int(score),
            position=position,
            submitted_at=datetime.fromisoformat(at) if at else None,
            study=name,
        )
        for pk, run_id, rater, metric, score, position, at, name in rows
    ]


def check(store: ReviewStore) -> int:
    n = 0
    for study in (None, "g"):
        for phase in ("final", "blind"):
            got = score_columns(store, study=study, phase=phase).scores()
            assert got == plain_scores(store, study, phase == "blind"), (study, phase)
            n += len(got)
    return n


def test_the_columns_are_the_views_rows(gold_db: Path, fill_rating, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        assert check(store) == 0
        gold.qualify(store, keys.load_key("olga"))
        rows = store.study_assignments("g")
        for i, row in enumerate(rows):
            gold.rate(store, fill_rating, "g", row.run_pk, row.rater, score=i % 4)
        before = check(store)
        assert before > 0
        assert any(s.position is not None for s in score_columns(store, study="g").scores())
        # Outside the study (no queue position): a rating superseded (the new values
        # count), and a draft left open on another run (it counts nothing).
        outside = [r.run_pk for r in store.list_runs()][:2]
        r = fill_rating(store, store.start_rating(outside[0], "zed"), score=1)
        r = store.submit(r.rating_pk, expected_version=r.version)
        r = fill_rating(store, store.supersede(r.rating_pk, rater="zed"), score=3)
        store.submit(r.rating_pk, expected_version=r.version)
        fill_rating(store, store.start_rating(outside[1], "zed"), score=0)
        assert check(store) == before + len(r.items)  # final, outside the study only
        zed = [s for s in score_columns(store).scores() if s.rater == "zed"]
        assert {s.score for s in zed} == {3} and all(s.position is None for s in zed)

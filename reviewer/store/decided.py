"""The decided items as integer columns: what the dashboard reads of every rating.

:func:`reviewer.store.ratings.decided_items` gives a Python row per item (210,000 on the
dashboard's benchmark database: the fetch and the rows were most of its reading). Here the
same items, in the same order, come as numpy arrays: the ratings' own fields (run, rater,
rubric, study, arm) from one row per rating, and each item's metric, outcome, score and
blind values packed into one integer with its rating and handed over by SQLite as one
``group_concat`` string, which numpy parses in C. No Python object is made per item.

numpy is imported inside the function: the store's package is imported by every command,
and most never read a column.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from reviewer.rubric import OUTCOMES
from reviewer.store.connection import read_transaction
from reviewer.store.rubrics import RubricRegistry

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Ints = npt.NDArray[np.int64]
    #: The items' metrics (names), and each item's rating and packed fields.
    Found = tuple[tuple[str, ...], Ints, Ints]

#: The live non-draft ratings (as :func:`reviewer.store.ratings.latest_decisions`).
_LIVE = """g.status <> 'draft' AND NOT EXISTS (SELECT 1 FROM ratings s
    WHERE s.supersedes_pk = g.rating_pk AND s.status <> 'draft')"""
_RATINGS = f"""
SELECT g.rating_pk, g.run_pk, g.rater_pk, g.rubric_pk, coalesce(g.study_pk, -1),
       CASE WHEN g.study_pk IS NULL THEN -1 ELSE coalesce((SELECT a.reveal_first
         FROM assignments a WHERE a.study_pk = g.study_pk AND a.run_pk = g.run_pk
         AND a.rater_pk = g.rater_pk), -1) END
FROM ratings g WHERE {_LIVE}"""
#: Every item with an outcome, of every rating: those of a rating not live are dropped
#: after, by their rating (SQLite testing each item's rating cost twice the read).
_ITEMS = "FROM rating_items i WHERE i.outcome IS NOT NULL"
_OF_RUN = " AND i.rating_pk IN (SELECT rating_pk FROM ratings WHERE run_pk = ?)"
_CODE = "CASE {} " + " ".join(f"WHEN '{o}' THEN {k}" for k, o in enumerate(OUTCOMES))
#: An item's small fields, 10 bits below its metric: outcome (2), score + 1 (3),
#: blind outcome + 1 (2), blind score + 1 (3).
_SMALL_BITS = 10
_SMALL = (
    f"((({_CODE.format('i.outcome')} END) * 8 + coalesce(i.score, -1) + 1) * 4"
    f" + ({_CODE.format('i.blind_outcome')} ELSE -1 END) + 1) * 8"
    " + coalesce(i.blind_score, -1) + 1"
)


def _by_distinct(
    conn: sqlite3.Connection, params: tuple[int, ...], of_run: str, top: int, pack: bool
) -> Found:
    """Every metric an item names (a run's: a submit re-reads one run, not the table), in
    the order a scan meets them, then the items: each one's rating and its packed
    metric and small fields."""
    import numpy as np

    named = f"SELECT DISTINCT i.metric_id {_ITEMS}{of_run}"
    metrics = tuple(m for (m,) in conn.execute(named, params))
    metric = "CASE i.metric_id " + " ".join(f"WHEN ? THEN {k}" for k in range(len(metrics)))
    small = f"({metric} END) * {1 << _SMALL_BITS} + {_SMALL}"
    shift = _SMALL_BITS + max(1, len(metrics).bit_length())
    if not metrics:  # no item at all
        rating = item = np.zeros(0, dtype=np.int64)
    elif pack and top.bit_length() + shift <= 62:
        sql = f"SELECT group_concat(i.rating_pk * {1 << shift} + {small}) {_ITEMS}"
        text = conn.execute(sql + of_run, (*metrics, *params)).fetchone()[0]
        packed = (
            np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, dtype=np.int64)
        )
        rating, item = packed >> shift, packed & ((1 << shift) - 1)
    else:
        rows = conn.execute(f"SELECT i.rating_pk, {small} {_ITEMS}" + of_run,
                            (*metrics, *params)).fetchall()  # fmt: skip
        pairs = np.array(rows, dtype=np.int64).reshape(-1, 2)
        rating, item = pairs[:, 0], pairs[:, 1]
    return metrics, rating, item


def _by_rubrics(
    conn: sqlite3.Connection, rubrics: RubricRegistry, rated: list[Any], top: int
) -> Found | None:
    """:func:`_by_distinct` of every item in one pass over them: their metrics coded by the
    live ratings' rubrics, then renumbered in the order the items meet them, which is the
    order of the ``DISTINCT`` scan (a second pass over 210,000 items, a tenth of the
    read); ``None`` (read them that way) when an item names a metric of none of these
    rubrics (an older rating's, say) or the codes do not fit."""
    import numpy as np

    pks = sorted({row[3] for row in rated})
    known = tuple(dict.fromkeys(m for pk in pks for m in rubrics.get(pk).metric_ids))
    other = len(known)  # the code of an item whose metric is not known
    shift = _SMALL_BITS + max(1, other.bit_length())
    if not known or top.bit_length() + shift > 62:
        return None
    metric = "CASE i.metric_id " + " ".join(f"WHEN ? THEN {k}" for k in range(other))
    small = f"({metric} ELSE {other} END) * {1 << _SMALL_BITS} + {_SMALL}"
    sql = f"SELECT group_concat(i.rating_pk * {1 << shift} + {small}) {_ITEMS}"
    text = conn.execute(sql, known).fetchone()[0]
    if not text:  # no item at all
        return (), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    packed = np.fromstring(text, dtype=np.int64, sep=",")
    rating, item = packed >> shift, packed & ((1 << shift) - 1)
    code = item >> _SMALL_BITS
    if (code == other).any():
        return None
    # The codes in the order the items meet them: each present code's first place (a
    # comparison per code, of which there are a handful, instead of sorting the items).
    present = np.flatnonzero(np.bincount(code, minlength=other))
    first = np.array([np.argmax(code == c) for c in present.tolist()], dtype=np.int64)
    met = present[np.argsort(first)]
    recode = np.zeros(other, dtype=np.int64)
    recode[met] = np.arange(len(met))
    item = (recode[code] << _SMALL_BITS) | (item & ((1 << _SMALL_BITS) - 1))
    return tuple(known[c] for c in met.tolist()), rating, item


def _in_order(minor: Ints, middle: Ints, major: Ints) -> bool:
    """Whether the items are sorted by ``major``, then ``middle``, then ``minor`` already:
    then :func:`numpy.lexsort` of the three (a stable sort) leaves them where they are."""
    import numpy as np

    if len(major) < 2:
        return True
    d1, d2, d3 = np.diff(minor), np.diff(middle), np.diff(major)
    return bool(((d3 > 0) | ((d3 == 0) & ((d2 > 0) | ((d2 == 0) & (d1 >= 0))))).all())


class DecidedColumns(NamedTuple):
    """Per item, in :func:`~reviewer.store.ratings.decided_items`' order: its rating's run
    (``run_pk``), rater (index into ``raters``), study (index into ``studies``, -1: none),
    arm (``reveal_first`` 0/1, -1: none), and its metric (index into ``metrics``),
    outcome (index into :data:`~reviewer.rubric.OUTCOMES`), score, blind outcome and
    blind score (-1: none). Outside a study there is no blind value nor arm (-1)."""

    run: Ints
    rater: Ints
    study: Ints
    reveal: Ints
    metric: Ints
    outcome: Ints
    score: Ints
    blind_outcome: Ints
    blind_score: Ints
    raters: tuple[str, ...]
    judges: tuple[bool, ...]  # per rater: whether they are an automatic judge
    studies: tuple[str, ...]
    metrics: tuple[str, ...]


def decided_columns(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    *,
    run_pk: int | None = None,
    pack: bool = True,
) -> DecidedColumns:
    """The items of the live non-draft ratings (of ``run_pk`` when given) as columns.

    ``pack`` False fetches a row per item instead of one packed string (what is done
    anyway when a rating key is too large to pack; the tests compare both)."""
    import numpy as np

    where, params = ("", ()) if run_pk is None else (" AND g.run_pk = ?", (run_pk,))
    of_run = "" if run_pk is None else _OF_RUN
    with read_transaction(conn):
        rated = conn.execute(_RATINGS + where + " ORDER BY g.rating_pk", params).fetchall()
        rater_rows = conn.execute("SELECT rater_pk, name, kind FROM raters").fetchall()
        study_rows = conn.execute("SELECT study_pk, name FROM studies").fetchall()
        top = int(conn.execute("SELECT coalesce(max(rating_pk), 0) FROM ratings").fetchone()[0])
        found = _by_rubrics(conn, rubrics, rated, top) if pack and run_pk is None else None
        if found is None:
            found = _by_distinct(conn, params, of_run, top, pack)
    metrics, rating, item = found
    ratings = np.array(rated, dtype=np.int64).reshape(-1, 6)
    # Each item's rating row (both in rating_pk order); the items of no live rating go.
    row = np.minimum(np.searchsorted(ratings[:, 0], rating), max(len(ratings) - 1, 0))
    live = ratings[row, 0] == rating if len(ratings) else np.zeros(len(rating), np.bool_)
    row, rating, item = row[live], rating[live], item[live]
    metric_code = item >> _SMALL_BITS
    rubric_pks = sorted({int(pk) for pk in ratings[:, 3]})
    rank = np.zeros((len(rubric_pks), len(metrics)), dtype=np.int64)
    for r, pk in enumerate(rubric_pks):
        place = {m: i for i, m in enumerate(rubrics.get(pk).metric_ids)}
        rank[r] = [place.get(m, len(place)) for m in metrics]
    rubric_row = np.searchsorted(np.array(rubric_pks, dtype=np.int64), ratings[row, 3])
    by_id = np.argsort(np.argsort(np.array(metrics, dtype=object), kind="stable"))
    keys = (by_id[metric_code], rank[rubric_row, metric_code], rating)
    if not _in_order(*keys):  # as the items are stored, mostly: no sort then
        order = np.lexsort(keys)
        row, item, metric_code = row[order], item[order], metric_code[order]
    raters = {pk: i for i, (pk, _name, _kind) in enumerate(rater_rows)}
    studies = {pk: i for i, (pk, _name) in enumerate(study_rows)}
    rater_code = np.array([raters[pk] for pk in ratings[:, 2].tolist()], dtype=np.int64)
    study_code = np.array([studies.get(pk, -1) for pk in ratings[:, 4].tolist()], dtype=np.int64)
    study = study_code[row]
    outside = study < 0  # outside a study there is no blind phase nor arm
    return DecidedColumns(
        run=ratings[row, 1],
        rater=rater_code[row],
        study=study,
        reveal=np.where(outside, -1, ratings[row, 5]),
        metric=metric_code,
        outcome=(item >> 8) & 3,
        score=((item >> 5) & 7) - 1,
        blind_outcome=np.where(outside, -1, ((item >> 3) & 3) - 1),
        blind_score=np.where(outside, -1, (item & 7) - 1),
        raters=tuple(name for _pk, name, _kind in rater_rows),
        judges=tuple(kind == "judge" for _pk, _name, kind in rater_rows),
        studies=tuple(name for _pk, name in study_rows),
        metrics=metrics,
    )

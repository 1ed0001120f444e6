"""The decided items as integer columns: what the dashboard reads of every rating.

:func:`reviewer.store.ratings.decided_items` gives a Python row per item (210,000 on the
dashboard's benchmark database: the fetch and the rows were most of its reading). Here the
same items, in the same order, come as numpy arrays: each item's metric, outcome, score
and blind values packed into one integer with its rating and handed over by SQLite as one
``group_concat`` string, which numpy parses in C, and the ratings' own keys (run, rater,
rubric) packed the same way, one integer per rating (a study rating's study and arm read
as a row). No Python object is made per item, nor per rating outside a study.

numpy is imported inside the function: the store's package is imported by every command,
and most never read a column.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, NamedTuple

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
_ARM = """CASE WHEN g.study_pk IS NULL THEN -1 ELSE coalesce((SELECT a.reveal_first
         FROM assignments a WHERE a.study_pk = g.study_pk AND a.run_pk = g.run_pk
         AND a.rater_pk = g.rater_pk), -1) END"""
_RATINGS = f"""
SELECT g.rating_pk, g.run_pk, g.rater_pk, g.rubric_pk, coalesce(g.study_pk, -1), {_ARM}
FROM ratings g WHERE {_LIVE}"""
#: The packed reading's parts (:func:`_packed_ratings`): each key's largest and smallest
#: value (each an index's first or last entry, but the rubric's: a scan of 30,000 keys),
#: the non-draft ratings' four keys packed in one integer, the ratings a non-draft
#: correction supersedes, and the study ratings' study and arm.
_RANGE = """SELECT (SELECT min(rating_pk) FROM ratings), (SELECT max(rating_pk) FROM ratings),
    (SELECT min(run_pk) FROM ratings), (SELECT max(run_pk) FROM ratings),
    (SELECT min(rater_pk) FROM ratings), (SELECT max(rater_pk) FROM ratings),
    min(rubric_pk), max(rubric_pk) FROM ratings"""
_PACKED = "SELECT group_concat({}) FROM ratings g WHERE g.status <> 'draft'"
_SUPERSEDED = (
    "SELECT group_concat(supersedes_pk) FROM ratings"
    " WHERE supersedes_pk IS NOT NULL AND status <> 'draft'"
)
_IN_STUDIES = (
    f"SELECT g.rating_pk, g.study_pk, {_ARM} FROM ratings g"
    " WHERE g.study_pk IS NOT NULL AND g.status <> 'draft'"
)
#: Every item with an outcome, of every rating: those of a rating not live are dropped
#: after, by their rating (SQLite testing each item's rating cost twice the read).
_ITEMS = "FROM rating_items i WHERE i.outcome IS NOT NULL"
_OF_RUN = " AND i.rating_pk IN (SELECT rating_pk FROM ratings WHERE run_pk = ?)"
_CODE = "CASE {} " + " ".join(f"WHEN '{o}' THEN {k}" for k, o in enumerate(OUTCOMES))
#: An item's small fields, 10 bits below its metric: outcome (2), score + 1 (3),
#: blind outcome + 1 (2), blind score + 1 (3).
_SMALL_BITS = 10
_FINAL = f"({_CODE.format('i.outcome')} END) * 8 + coalesce(i.score, -1) + 1"
#: Outside a blind study both blind values are NULL: the final fields shifted past them
#: (their codes, 0) then, without testing the blind outcome against each name (a tenth of
#: the items' read).
_SMALL = (
    f"CASE WHEN i.blind_outcome IS NULL AND i.blind_score IS NULL THEN ({_FINAL}) * 32"
    f" ELSE (({_FINAL}) * 4 + ({_CODE.format('i.blind_outcome')} ELSE -1 END) + 1) * 8"
    " + coalesce(i.blind_score, -1) + 1 END"
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
    conn: sqlite3.Connection, rubrics: RubricRegistry, rubric_pks: list[int], top: int
) -> Found | None:
    """:func:`_by_distinct` of every item in one pass over them: their metrics coded by the
    live ratings' rubrics, then renumbered in the order the items meet them, which is the
    order of the ``DISTINCT`` scan (a second pass over 210,000 items, a tenth of the
    read); ``None`` (read them that way) when an item names a metric of none of these
    rubrics (an older rating's, say) or the codes do not fit."""
    import numpy as np

    known = tuple(dict.fromkeys(m for pk in rubric_pks for m in rubrics.get(pk).metric_ids))
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


def _packed_ratings(conn: sqlite3.Connection) -> Ints | None:
    """Every live non-draft rating as :data:`_RATINGS` gives them, by ``rating_pk``: a
    row of its rating, run, rater, rubric, study (-1: none) and arm (-1: none). Without a
    Python row per rating (30,000 on the dashboard's database, a tenth of its reading):
    the four keys of each non-draft rating packed in one integer and handed over as one
    ``group_concat`` string, those a non-draft correction supersedes dropped after, and
    the study and arm of the study ratings alone read as rows. ``None`` (read them as
    rows then) when a key is negative or the four do not fit in 62 bits."""
    import numpy as np

    bounds = conn.execute(_RANGE).fetchone()
    if bounds[1] is None:  # no rating at all
        return np.zeros((0, 6), dtype=np.int64)
    if min(bounds[0::2]) < 0:
        return None
    bits = [max(1, int(top).bit_length()) for top in bounds[1::2]]
    if sum(bits) > 62:
        return None
    _rating, run_bits, rater_bits, rubric_bits = bits
    expr = (
        f"((g.rating_pk * {1 << run_bits} + g.run_pk) * {1 << rater_bits} + g.rater_pk)"
        f" * {1 << rubric_bits} + g.rubric_pk"
    )
    packed = _parsed(conn.execute(_PACKED.format(expr)).fetchone()[0])
    superseded = _parsed(conn.execute(_SUPERSEDED).fetchone()[0])
    out = np.full((len(packed), 6), -1, dtype=np.int64)
    for column, width in ((3, rubric_bits), (2, rater_bits), (1, run_bits)):
        out[:, column] = packed & ((1 << width) - 1)
        packed = packed >> width
    out[:, 0] = packed
    if len(superseded):
        out = out[~np.isin(out[:, 0], superseded)]
    if len(out) > 1 and (np.diff(out[:, 0]) < 0).any():  # the scan's order, mostly by key
        out = out[np.argsort(out[:, 0], kind="stable")]
    in_studies = conn.execute(_IN_STUDIES).fetchall()
    if in_studies:
        found = np.array(in_studies, dtype=np.int64).reshape(-1, 3)
        at = np.minimum(np.searchsorted(out[:, 0], found[:, 0]), max(len(out) - 1, 0))
        live = out[at, 0] == found[:, 0] if len(out) else np.zeros(len(found), np.bool_)
        out[at[live], 4:] = found[live, 1:]
    return out


def _parsed(text: str | None) -> Ints:
    """The integers of a ``group_concat`` string (none for ``NULL``)."""
    import numpy as np

    if not text:
        return np.zeros(0, dtype=np.int64)
    return np.fromstring(text, dtype=np.int64, sep=",")


def _codes(keys: Ints, known: list[int]) -> Ints:
    """Each key's index in ``known`` (distinct keys), -1 where it is not there."""
    import numpy as np

    if not known:
        return np.full(len(keys), -1, dtype=np.int64)
    pks = np.array(known, dtype=np.int64)
    order = np.argsort(pks, kind="stable")
    at = np.minimum(np.searchsorted(pks[order], keys), len(pks) - 1)
    index = order[at]
    return np.where(pks[index] == keys, index, -1)


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
        ratings = _packed_ratings(conn) if pack and run_pk is None else None
        if ratings is None:
            rated = conn.execute(_RATINGS + where + " ORDER BY g.rating_pk", params).fetchall()
            ratings = np.array(rated, dtype=np.int64).reshape(-1, 6)
        rater_rows = conn.execute("SELECT rater_pk, name, kind FROM raters").fetchall()
        study_rows = conn.execute("SELECT study_pk, name FROM studies").fetchall()
        top = int(conn.execute("SELECT coalesce(max(rating_pk), 0) FROM ratings").fetchone()[0])
        rubric_pks = sorted(set(ratings[:, 3].tolist()))
        found = _by_rubrics(conn, rubrics, rubric_pks, top) if pack and run_pk is None else None
        if found is None:
            found = _by_distinct(conn, params, of_run, top, pack)
    metrics, rating, item = found
    # Each item's rating row (both in rating_pk order); the items of no live rating go.
    row = np.minimum(np.searchsorted(ratings[:, 0], rating), max(len(ratings) - 1, 0))
    live = ratings[row, 0] == rating if len(ratings) else np.zeros(len(rating), np.bool_)
    row, rating, item = row[live], rating[live], item[live]
    metric_code = item >> _SMALL_BITS
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
    rater_code = _codes(ratings[:, 2], [pk for pk, _name, _kind in rater_rows])
    if (rater_code < 0).any():  # the foreign key keeps this from happening
        raise KeyError(f"rater {int(ratings[rater_code < 0, 2][0])} is not in the raters table")
    study_code = _codes(ratings[:, 4], [pk for pk, _name in study_rows])
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

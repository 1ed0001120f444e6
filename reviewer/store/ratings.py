"""Reading ratings and raters, and the low-level writes the rating lifecycle is made of.

The lifecycle itself (draft → submitted → signed, superseding) is in
:mod:`reviewer.store.lifecycle`; the functions here do one thing each and expect the caller
to hold the right transaction.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from reviewer import evidence
from reviewer.evidence import Citation
from reviewer.raters import RaterNameError, check_rater_name
from reviewer.rubric import RatingItem
from reviewer.store import audit
from reviewer.store.connection import read_transaction
from reviewer.store.errors import NotFoundError, StoreError
from reviewer.store.models import Rater, Rating
from reviewer.store.rubrics import RubricRegistry

_RATING = """
SELECT g.rating_pk, g.run_pk, ra.name, g.status, g.version, g.rubric_pk, g.overall_comment,
    g.created_at, g.updated_at, g.submitted_at, g.signed_at, g.supersedes_pk,
    (SELECT s.rating_pk FROM ratings s WHERE s.supersedes_pk = g.rating_pk),
    (SELECT sh.sheet_id FROM sheets sh WHERE sh.rating_pk = g.rating_pk)
FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk
"""
_LIVE = "NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk)"


@dataclass(frozen=True)
class Head:
    """The columns of a rating that the lifecycle checks before a write."""

    rating_pk: int
    run_pk: int
    rater_pk: int
    rater: str
    status: str
    version: int
    rubric_pk: int
    superseded_by: int | None


def head(conn: sqlite3.Connection, rating_pk: int) -> Head:
    """The rating's state; :class:`NotFoundError` if there is no such rating."""
    row = conn.execute(
        "SELECT g.rating_pk, g.run_pk, g.rater_pk, ra.name, g.status, g.version, g.rubric_pk,"
        " (SELECT s.rating_pk FROM ratings s WHERE s.supersedes_pk = g.rating_pk)"
        " FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk WHERE g.rating_pk = ?",
        (rating_pk,),
    ).fetchone()
    if row is None:
        raise NotFoundError(f"no rating {rating_pk} in this database")
    return Head(*row)


def load(conn: sqlite3.Connection, rubrics: RubricRegistry, rating_pk: int) -> Rating:
    """One rating with all its items; :class:`NotFoundError` if there is none."""
    ratings = load_where(conn, rubrics, "g.rating_pk = ?", (rating_pk,))
    if not ratings:
        raise NotFoundError(f"no rating {rating_pk} in this database")
    return ratings[0]


def load_where(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    where: str,
    params: Iterable[object] = (),
    *,
    live_only: bool = False,
) -> list[Rating]:
    """Ratings matching a WHERE clause over ``ratings g``, by ``rating_pk``."""
    clause = f"({where}) AND {_LIVE}" if live_only else where
    with read_transaction(conn):  # ratings and their items from the same snapshot
        query = f"{_RATING} WHERE {clause} ORDER BY g.rating_pk"
        rows = conn.execute(query, tuple(params)).fetchall()
        items = _items_of(conn, [r[0] for r in rows])
        cited = citations_of(conn, [r[0] for r in rows])
    out = []
    for row in rows:
        (pk, run_pk, rater, status, version, rubric_pk, overall, created, updated) = row[:9]
        rubric = rubrics.get(rubric_pk)
        merged = rubric.empty_items() | items.get(pk, {})
        # Rubric order, then timeline order: the order the form, the sheet and exports use.
        order = {m: i for i, m in enumerate(rubric.metric_ids)}
        mine = sorted(
            cited.get(pk, []),
            key=lambda c: (order.get(c.metric_id, len(order)), *evidence.sort_key(c)),
        )
        out.append(
            Rating(
                rating_pk=pk,
                run_pk=run_pk,
                rater=rater,
                status=status,
                version=version,
                rubric_id=rubric.id,
                rubric_version=rubric.version,
                rubric_sha256=rubric.sha256,
                items=merged,
                overall_comment=overall,
                created_at=created,
                updated_at=updated,
                submitted_at=row[9],
                signed_at=row[10],
                supersedes_pk=row[11],
                superseded_by_pk=row[12],
                sheet_id=row[13],
                citations=tuple(mine),
            )
        )
    return out


def _items_of(conn: sqlite3.Connection, pks: list[int]) -> dict[int, dict[str, RatingItem]]:
    out: dict[int, dict[str, RatingItem]] = {}
    # Chunked: SQLite limits the number of bound parameters of one statement.
    for start in range(0, len(pks), 500):
        chunk = pks[start : start + 500]
        marks = ",".join("?" for _ in chunk)
        for pk, metric_id, outcome, score, comment in conn.execute(
            "SELECT rating_pk, metric_id, outcome, score, comment FROM rating_items"
            f" WHERE rating_pk IN ({marks})",
            chunk,
        ):
            item = RatingItem(metric_id=metric_id, outcome=outcome, score=score, comment=comment)
            out.setdefault(pk, {})[metric_id] = item
    return out


_CITATION_FIELDS = ("metric_id", "kind", "ref", "step", "label", "note")


def citations_of(conn: sqlite3.Connection, pks: list[int]) -> dict[int, list[Citation]]:
    """The citations of each rating in ``pks`` (ratings without any are absent)."""
    out: dict[int, list[Citation]] = {}
    for start in range(0, len(pks), 500):
        chunk = pks[start : start + 500]
        marks = ",".join("?" for _ in chunk)
        for pk, *values in conn.execute(
            f"SELECT rating_pk, {', '.join(_CITATION_FIELDS)} FROM citations"
            f" WHERE rating_pk IN ({marks})",
            chunk,
        ):
            citation = Citation(**dict(zip(_CITATION_FIELDS, values, strict=True)))
            out.setdefault(pk, []).append(citation)
    return out


def insert_citation(conn: sqlite3.Connection, rating_pk: int, c: Citation, *, at: str) -> None:
    """Add (or re-note) one citation of a draft (the triggers refuse any other status)."""
    conn.execute(
        "INSERT INTO citations (rating_pk, metric_id, kind, ref, step, label, note, cited_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (rating_pk, metric_id, kind, ref)"
        " DO UPDATE SET step = excluded.step, label = excluded.label, note = excluded.note",
        (rating_pk, c.metric_id, c.kind, c.ref, c.step, c.label, c.note, at),
    )


def live_pk(conn: sqlite3.Connection, run_pk: int, rater_pk: int) -> int | None:
    """The live rating of ``rater_pk`` for ``run_pk``, if any."""
    row = conn.execute(
        f"SELECT g.rating_pk FROM ratings g WHERE g.run_pk = ? AND g.rater_pk = ? AND {_LIVE}",
        (run_pk, rater_pk),
    ).fetchone()
    return None if row is None else int(row[0])


_RATER_FIELDS = ("rater_pk", "name", "fingerprint", "public_key", "created_at", "kind")


def get_raters(conn: sqlite3.Connection, name: str | None = None) -> list[Rater]:
    """Every rater by name, or the one called ``name`` (an empty list if unknown)."""
    sql = f"SELECT {', '.join(_RATER_FIELDS)} FROM raters"
    rows = conn.execute(sql + " WHERE name = ?", (name,)) if name else conn.execute(sql)
    found = [Rater(**dict(zip(_RATER_FIELDS, row, strict=True))) for row in rows]
    return sorted(found, key=lambda r: r.name)


def get_rater(conn: sqlite3.Connection, name: str) -> Rater | None:
    """The rater called ``name``, if registered."""
    found = get_raters(conn, name)
    return found[0] if found else None


def check_name(name: str) -> str:
    """A rater name as stored: trimmed, then held to :func:`reviewer.raters.check_rater_name`."""
    try:
        return check_rater_name(name.strip())
    except RaterNameError as exc:
        raise StoreError(str(exc)) from None


def add_rater(conn: sqlite3.Connection, name: str, *, at: str) -> Rater:
    """Register ``name`` (inside a write transaction) unless it exists; returns the rater."""
    name = check_name(name)
    existing = get_rater(conn, name)
    if existing is not None:
        return existing
    conn.execute("INSERT INTO raters (name, created_at) VALUES (?, ?)", (name, at))
    audit.append(conn, [("rater_add", name, {"name": name})], at=at)
    rater = get_rater(conn, name)
    assert rater is not None
    return rater


def insert_rating(
    conn: sqlite3.Connection,
    *,
    run_pk: int,
    rater_pk: int,
    rubric_pk: int,
    at: str,
    overall_comment: str = "",
    supersedes_pk: int | None = None,
) -> int:
    """A new draft; the one-live-rating trigger refuses a second live one."""
    cursor = conn.execute(
        "INSERT INTO ratings (run_pk, rater_pk, rubric_pk, status, version, overall_comment,"
        " created_at, updated_at, supersedes_pk) VALUES (?, ?, ?, 'draft', 1, ?, ?, ?, ?)",
        (run_pk, rater_pk, rubric_pk, overall_comment, at, at, supersedes_pk),
    )
    return int(cursor.lastrowid or 0)


def upsert_item(conn: sqlite3.Connection, rating_pk: int, item: RatingItem, *, at: str) -> None:
    """Write one item of a draft (the triggers refuse it for any other status)."""
    conn.execute(
        "INSERT INTO rating_items (rating_pk, metric_id, outcome, score, comment, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (rating_pk, metric_id) DO UPDATE SET"
        " outcome = excluded.outcome, score = excluded.score, comment = excluded.comment,"
        " updated_at = excluded.updated_at",
        (rating_pk, item.metric_id, item.outcome, item.score, item.comment, at),
    )


def content_sha256(
    items: Mapping[str, RatingItem],
    overall_comment: str,
    rubric_sha: str,
    citations: Iterable[Citation] = (),
) -> str:
    """Digest of what a rater decided, recorded in the audit log on submit."""
    data: dict[str, object] = {
        "rubric_sha256": rubric_sha,
        "overall_comment": overall_comment,
        "items": {k: v.model_dump(mode="json") for k, v in sorted(items.items())},
    }
    cited = [c.model_dump(mode="json") for c in sorted(citations, key=lambda c: c.key)]
    if cited:  # absent when empty: digests of ratings without evidence stay as they were
        data["citations"] = cited
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def blind_sha256(items: Mapping[str, RatingItem], rubric_sha: str) -> str:
    """Digest of a rating's blind values, recorded in the audit log by the blind submit.

    The blind values are frozen while the final ones (and the overall comment) may still
    change after the reveal, so they get their own digest: :func:`content_sha256` of the
    blind items alone, with no overall comment.
    """
    return content_sha256(items, "", rubric_sha)


def reasons_sha256(reasons: Mapping[str, str]) -> str | None:
    """Digest of the reasons given for metrics revised after the reveal, recorded by the
    submit that follows (None when there are none: the entry then leaves it out)."""
    if not reasons:
        return None
    text = json.dumps(dict(sorted(reasons.items())), separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def reasons_of(conn: sqlite3.Connection, rating_pk: int) -> dict[str, str]:
    """The revision reasons of a rating, by metric (the empty ones left out)."""
    return {
        m: r
        for m, r in conn.execute(
            "SELECT metric_id, revision_reason FROM rating_items WHERE rating_pk = ?",
            (rating_pk,),
        )
        if r
    }


def latest_decisions(
    conn: sqlite3.Connection, rubrics: RubricRegistry, *, rater: str | None = None
) -> list[Rating]:
    """Each rater's latest submitted or signed rating per run (of ``rater`` if given).

    While a correction is still a draft, the rating it corrects remains the rater's word.
    """
    where = (
        "g.status <> 'draft' AND NOT EXISTS (SELECT 1 FROM ratings s"
        " WHERE s.supersedes_pk = g.rating_pk AND s.status <> 'draft')"
    )
    params: list[object] = []
    if rater is not None:
        where += " AND ra.name = ?"
        params.append(rater)
    return load_where(conn, rubrics, where, params)


#: One row per decided item: each rater's latest submitted or signed rating per run, as
#: :func:`latest_decisions` selects them, with the study context of its items.
_DECIDED_ITEMS = """
SELECT g.rating_pk, g.rubric_pk, g.run_pk, ra.name, ra.kind, i.metric_id, i.outcome, i.score,
       st.name, i.blind_outcome, i.blind_score,
       (SELECT a.reveal_first FROM assignments a WHERE a.study_pk = g.study_pk
          AND a.run_pk = g.run_pk AND a.rater_pk = g.rater_pk)
FROM ratings g
JOIN raters ra ON ra.rater_pk = g.rater_pk
JOIN rating_items i ON i.rating_pk = g.rating_pk
LEFT JOIN studies st ON st.study_pk = g.study_pk
WHERE g.status <> 'draft' AND i.outcome IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk
                  AND s.status <> 'draft')
"""
_DECIDED_ORDER = " ORDER BY g.rating_pk"


class DecidedItem(NamedTuple):
    """One item of a rater's latest decision on a run, with its study context."""

    run_pk: int
    rater: str
    is_judge: bool
    metric_id: str
    outcome: str
    score: int | None
    study: str | None
    blind_outcome: str | None
    blind_score: int | None
    reveal_first: bool | None


def decided_items(
    conn: sqlite3.Connection, rubrics: RubricRegistry, *, run_pk: int | None = None
) -> list[DecidedItem]:
    """The items (with an outcome) of :func:`latest_decisions` (of ``run_pk`` when given),
    in the same order: by rating, then its rubric's metric order (a metric the rubric lacks
    after, by id).

    Plain rows from one query, for the statistics, which read every decided item of the
    database: the whole ratings would cost ten times as much to build."""
    sql, params = _DECIDED_ITEMS, tuple[int, ...]()
    if run_pk is not None:  # the dashboard re-reads the run a rater just submitted
        sql, params = sql + " AND g.run_pk = ?", (run_pk,)
    with read_transaction(conn):
        rows = conn.execute(sql + _DECIDED_ORDER, params).fetchall()
    rank: dict[int, dict[str, int]] = {}
    out: list[DecidedItem] = []
    for _, group in itertools.groupby(rows, key=lambda row: row[0]):
        items = list(group)
        rubric_pk = items[0][1]
        if rubric_pk not in rank:
            ids = rubrics.get(rubric_pk).metric_ids
            rank[rubric_pk] = {m: i for i, m in enumerate(ids)}
        order = rank[rubric_pk]
        items.sort(key=lambda row: (order.get(row[5], len(order)), row[5]))
        for _, _, run_pk, rater, kind, metric, outcome, score, study, b_out, b_score, arm in items:
            if study is None:  # outside a study there is no blind phase nor arm
                b_out = b_score = arm = None
            out.append(
                DecidedItem(run_pk, rater, kind == "judge", metric, outcome, score, study,
                            b_out, b_score, None if arm is None else bool(arm))
            )  # fmt: skip
    return out

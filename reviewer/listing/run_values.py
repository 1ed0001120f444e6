"""The run list's one read: plain values per run version, with the rater's rating state.

One implementation for every listing: the store's ``list_runs`` validates these values
into ``RunRow`` models, the ``runs`` verb prints them as they are (:mod:`.reader`).
"""

from __future__ import annotations

import gc
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from reviewer.listing.rows import RunValues

# The state a live rating ``g`` is listed in. A draft says how far it is: a correction
# (it supersedes a submitted or signed rating, which is still the rater's word), a blind
# rating submitted and frozen (sealed) or revealed, or a plain draft.
STATE_SQL = (
    "CASE WHEN g.status <> 'draft' THEN g.status"
    " WHEN g.supersedes_pk IS NOT NULL THEN 'correcting'"
    " WHEN g.revealed_at IS NOT NULL THEN 'revealed'"
    " WHEN g.blind_submitted_at IS NOT NULL THEN 'blind_submitted'"
    " ELSE 'draft' END"
)
# A live rating that stands for a submitted or signed one: itself, or the correction draft
# superseding one (only submitted and signed ratings are ever corrected).
COUNTED_SQL = "(g.status <> 'draft' OR g.supersedes_pk IS NOT NULL)"

# The whole list in three plain reads instead of one query with four correlated lookups
# per run: the listed columns come from the covering index ``runs_list`` in run_pk order,
# and the live ratings (a few per run at most) are read once and counted here.
_LIST_COLUMNS = (
    "SELECT run_pk, run_id, path, version, scenario_id, model, status, reason, scalar,"
    " coverage, end_state, unsafe FROM runs ORDER BY run_pk"
)
_LIVE_RATINGS = (
    f"SELECT g.run_pk, g.rater_pk, {STATE_SQL}, {COUNTED_SQL} FROM ratings g"
    " WHERE NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk)"
)


def rater_pk(conn: sqlite3.Connection, rater: str | None) -> int | None:
    """The key of rater ``rater``, or None for no or unknown rater."""
    if rater is None:
        return None
    row = conn.execute("SELECT rater_pk FROM raters WHERE name = ?", (rater,)).fetchone()
    return None if row is None else int(row[0])


def list_run_values(conn: sqlite3.Connection, *, rater: str | None) -> list[dict[str, Any]]:
    """The run list as plain dicts, one per run version in import order: the fields of a
    ``RunRow`` but the study fields (None there), for a caller that prints them and needs
    no model (the ``runs`` verb: 50,000 rows)."""
    with gc_paused():
        rows, state, counted, latest = _read(conn, rater)
        return [
            {
                "run_pk": row[0],
                "run_id": row[1],
                "path": row[2],
                "version": row[3],
                "superseded_by_version": row[3] < latest[row[2]],
                "scenario_id": row[4],
                "model": row[5],
                "status": row[6],
                "reason": row[7],
                "scalar": row[8],
                "coverage": row[9],
                "end_state": row[10],
                "unsafe": row[11] == 1,
                "rating_state": state.get(row[0], "unrated"),
                "n_ratings": counted.get(row[0], 0),
            }
            for row in rows
        ]


def list_run_rows(conn: sqlite3.Connection, *, rater: str | None) -> list[RunValues]:
    """The same list as :func:`list_run_values`, as :class:`RunValues` (the window's queue)."""
    # Each tuple built whole, without _make's call and check: a fifth of the build time.
    new, row_type = tuple.__new__, RunValues
    with gc_paused():
        rows, state, counted, latest = _read(conn, rater)
        rated, count = state.get, counted.get
        return [
            new(row_type, (r[0], r[1], r[2], r[3], r[3] < latest[r[2]], r[4], r[5], r[6], r[7],
                           r[8], r[9], r[10], r[11] == 1, rated(r[0], "unrated"), count(r[0], 0),
                           None, None, None, None, None))  # no study: those fields are None
            for r in rows
        ]  # fmt: skip


#: The fields :func:`list_run_columns` gives, in ``RunRow``'s order.
TABLE_FIELDS = (
    "run_pk", "run_id", "version", "superseded_by_version", "scenario_id", "model", "status",
    "scalar", "coverage", "end_state", "unsafe", "rating_state", "n_ratings",
)  # fmt: skip
# The columns of the list but the path and the reason, which the table does not show (half
# of the read's objects at 50,000 runs); still the covering index ``runs_list``.
_TABLE_COLUMNS = (
    "SELECT run_pk, run_id, version, scenario_id, model, status, scalar, coverage,"
    " end_state, unsafe FROM runs ORDER BY run_pk"
)
# The run versions a newer version of their file replaced (a few, if any), answered by
# the (path, version) unique index without handing a path over.
_SUPERSEDED = (
    "SELECT r.run_pk FROM runs r WHERE EXISTS"
    " (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)"
)


def list_run_columns(conn: sqlite3.Connection, *, rater: str | None) -> dict[str, list[Any]]:
    """:func:`list_run_values` as columns (each field of :data:`TABLE_FIELDS`: its values,
    one per run version in import order), for the ``runs`` table: 50,000 runs without a
    dict per row, nor their paths and reasons, which the table does not show."""
    with gc_paused():
        who = rater_pk(conn, rater)
        rows = conn.execute(_TABLE_COLUMNS).fetchall()
        older = {pk for (pk,) in conn.execute(_SUPERSEDED)}
        state, counted = _live_ratings(conn, who)
        columns = [list(c) for c in zip(*rows, strict=True)] or [[] for _ in range(10)]
        run_pk, run_id, version, scenario, model, status, scalar, cov, end, unsafe = columns
        rated, count = state.get, counted.get
        return {
            "run_pk": run_pk,
            "run_id": run_id,
            "version": version,
            "superseded_by_version": [pk in older for pk in run_pk],
            "scenario_id": scenario,
            "model": model,
            "status": status,
            "scalar": scalar,
            "coverage": cov,
            "end_state": end,
            "unsafe": [u == 1 for u in unsafe],
            "rating_state": [rated(pk, "unrated") for pk in run_pk],
            "n_ratings": [count(pk, 0) for pk in run_pk],
        }


class FirstRows(NamedTuple):
    """The head of the run list and what the window says about the whole of it, read
    without reading the whole (:func:`list_first_rows`)."""

    rows: list[RunValues]
    """The first rows, exactly as :func:`list_run_rows` lists them."""
    total: int
    """How many rows the whole list has."""
    states: dict[str, int]
    """Per rating state, how many rows of the whole list are in it (``unrated`` too)."""


def list_first_rows(conn: sqlite3.Connection, *, rater: str | None, limit: int) -> FirstRows:
    """The first ``limit`` rows of :func:`list_run_rows`, the list's length and its rows
    per rating state: the window's first screen at 50,000 runs, which shows a screenful
    and "k of n rated" but reads no more rows than it shows (the rest after its paint)."""
    new, row_type = tuple.__new__, RunValues
    who = rater_pk(conn, rater)
    state, counted = _live_ratings(conn, who)
    rows = conn.execute(f"{_LIST_COLUMNS} LIMIT ?", (limit,)).fetchall()
    total = int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    # The newest version of each path shown (the (path, version) unique index answers).
    paths = sorted({r[2] for r in rows})
    latest: dict[str, int] = {}
    for at in range(0, len(paths), 500):  # within any SQLite's limit of bound values
        chunk = paths[at : at + 500]
        marks = ",".join("?" * len(chunk))
        sql = f"SELECT path, MAX(version) FROM runs WHERE path IN ({marks}) GROUP BY path"
        latest.update((path, int(version)) for path, version in conn.execute(sql, chunk))
    # The rater's rating rows name existing runs (a foreign key): counted over all of them.
    states = Counter(state.values())
    states["unrated"] = total - sum(states.values())
    rated, count = state.get, counted.get
    head = [
        new(row_type, (r[0], r[1], r[2], r[3], r[3] < latest[r[2]], r[4], r[5], r[6], r[7],
                       r[8], r[9], r[10], r[11] == 1, rated(r[0], "unrated"), count(r[0], 0),
                       None, None, None, None, None))
        for r in rows
    ]  # fmt: skip
    return FirstRows(head, total, dict(states))


def _read(
    conn: sqlite3.Connection, rater: str | None
) -> tuple[list[Any], dict[int, str], dict[int, int], dict[str, int]]:
    """The listed columns, the rater's rating state and the count of ratings per run, and
    the newest version per path."""
    who = rater_pk(conn, rater)
    rows = conn.execute(_LIST_COLUMNS).fetchall()
    state, counted = _live_ratings(conn, who)
    latest: dict[str, int] = {}
    for row in rows:
        if row[3] > latest.get(row[2], 0):
            latest[row[2]] = row[3]
    return rows, state, counted, latest


def _live_ratings(
    conn: sqlite3.Connection, who: int | None
) -> tuple[dict[int, str], dict[int, int]]:
    """Per run, rater ``who``'s rating state and the count of submitted or signed ratings."""
    state: dict[int, str] = {}
    counted: dict[int, int] = {}
    for run_pk, by, status, rated in conn.execute(_LIVE_RATINGS):
        if who is not None and by == who:
            state[run_pk] = status
        if rated:
            counted[run_pk] = counted.get(run_pk, 0) + 1
    return state, counted


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a bulk read builds many long-lived objects.

    Every 700 new container objects start a collection, and the older generations are
    collected over everything built so far: at 50,000 rows that made ``list_runs`` grow
    faster than the rows (6.8x for 5x the runs). The rows hold no cycles, so reference
    counting frees them all the same.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

"""Runs: trajectories scored at import, one row per file version, and the run list.

A run is its bytes: a file whose sha256 is already stored is unchanged (a no-op, wherever
it lies now), a different file at a path already stored becomes version 2, 3, ... of that
path and the older versions are flagged ``superseded_by_version``. Unreadable files are
reported, never stored.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from reviewer.listing.run_values import COUNTED_SQL, STATE_SQL, gc_paused, rater_pk
from reviewer.listing.run_values import list_run_values as list_run_values  # the store's too
from reviewer.store import audit
from reviewer.store.errors import NotFoundError
from reviewer.store.models import STUDY_ROW_FIELDS, ImportReport, RunDetail, RunRow
from scoring import VECTOR_FIELDS, ScoreCard
from scoring.paths import shown

# Plain columns copied from the card, so that listing runs never parses its JSON.
_CARD_COLUMNS = (
    "run_id", "scenario_id", "model", "status", "reason", "scalar",
    *VECTOR_FIELDS,
    "scorer_version",
)  # fmt: skip
_INSERT = (
    "INSERT INTO runs (path, version, sha256, unsafe, scorecard, imported_at, "
    + ", ".join(f'"{c}"' for c in _CARD_COLUMNS)
    + ") VALUES (?, ?, ?, ?, ?, ?, "
    + ", ".join("?" for _ in _CARD_COLUMNS)
    + ") ON CONFLICT (sha256) DO NOTHING"
)

# One run's row by correlated lookups on indexed columns (get_run): the live rating of the
# run for one rater, and how many live submitted or signed ratings it has.
_LIST = f"""
SELECT r.run_pk, r.run_id, r.path, r.version,
    EXISTS (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version),
    r.scenario_id, r.model, r.status, r.reason, r.scalar, r.coverage, r.end_state, r.unsafe,
    COALESCE((SELECT {STATE_SQL} FROM ratings g WHERE g.run_pk = r.run_pk
        AND g.rater_pk = :rater_pk
        AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk)), 'unrated'),
    (SELECT count(*) FROM ratings g WHERE g.run_pk = r.run_pk AND {COUNTED_SQL}
        AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk))
    {{extra}}
FROM runs r {{where}} ORDER BY r.run_pk
"""
_ROW_FIELDS = tuple(f for f in RunRow.model_fields if f not in STUDY_ROW_FIELDS)
_NOT_STORED = {"judge_bundle"}


@dataclass
class Tally:
    """Counts of one import, filled batch by batch."""

    added: int = 0
    new_versions: int = 0
    unchanged: int = 0
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    #: The line and bare reason of an ``unreadable`` entry that has a line, by its index.
    located: dict[int, tuple[int, str]] = field(default_factory=dict)

    def unreadable_card(self, path: str | Path, card: ScoreCard) -> None:
        """Note a file the scorer could not read, with the line its problem is on."""
        reason = card.error or "unreadable"
        if card.error_line:
            self.located[len(self.unreadable)] = (card.error_line, reason)
        self.unreadable.append((shown(path), unreadable_message(card)))

    def report(self, *, cancelled: bool = False) -> ImportReport:
        """The frozen report of these counts."""
        return ImportReport(
            added=self.added,
            unchanged=self.unchanged,
            new_versions=self.new_versions,
            unreadable=self.unreadable,
            unreadable_at=[
                (path, *self.located.get(i, (None, message)))
                for i, (path, message) in enumerate(self.unreadable)
            ],
            cancelled=cancelled,
        )


def discover_files(paths: Sequence[Path], tally: Tally) -> list[Path]:
    """Files to import (folders searched for ``*.jsonl``), as absolute paths; missing paths
    go to unreadable."""
    # Imported here: the batch module loads the scorer, which a store opened to read never
    # runs (the dashboard's start).
    from reviewer.batch import DiscoveryError, discover, path_order

    try:
        found = discover(paths, tally.unreadable)  # every path at once: the usual case
    except DiscoveryError:  # a path that does not exist: one by one, to name each
        found = []
        for path in paths:
            try:
                found += discover([path], tally.unreadable)
            except DiscoveryError as exc:
                tally.unreadable.append((shown(path), str(exc)))
    # abspath, not resolve(): the same normal form for a tenth of the system calls.  Sorted
    # as Paths sort (part by part, in the platform's case rules), without building a Path
    # per comparison.
    absolute = {os.path.abspath(p) for p in found}
    return [Path(p) for p in sorted(absolute, key=path_order)]


def file_sha256(path: Path) -> str:
    """Hex sha256 of the file's bytes (the same digest the scorer records)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def known(conn: sqlite3.Connection) -> tuple[set[str], set[str]]:
    """The sha256 and the path of every stored run (one query, not one per file)."""
    hashes, paths = set(), set()
    for sha, path in conn.execute("SELECT sha256, path FROM runs"):
        hashes.add(sha)
        paths.add(path)
    return hashes, paths


def unreadable_message(card: ScoreCard) -> str:
    """``line N: reason`` for an unreadable card."""
    reason = card.error or "unreadable"
    return f"line {card.error_line}: {reason}" if card.error_line else reason


class PreparedRun(NamedTuple):
    """A scored card reduced to what its row needs (the card itself can then be freed)."""

    path: str
    sha256: str
    unsafe: bool
    scorecard_json: str
    values: tuple[object, ...]


def prepare(card: ScoreCard) -> PreparedRun:
    """The row values of ``card``; ``ValueError`` if it has no trajectory sha256.

    The judge bundle is left out: it is four fifths of a card's JSON, nothing in the review
    reads it, and ``a320-review score`` rebuilds it from the trajectory at any time.
    """
    if card.trajectory_sha256 is None:
        raise ValueError(f"{card.path}: a stored run needs the trajectory's sha256")
    values = tuple(getattr(card, c) for c in _CARD_COLUMNS)
    # The serialiser's bytes decoded once (model_dump_json would do the same, slower).
    text = card.__pydantic_serializer__.to_json(card, by_alias=True, exclude=_NOT_STORED).decode()
    return PreparedRun(card.path, card.trajectory_sha256, card.unsafe, text, values)


def write_runs(
    conn: sqlite3.Connection, prepared: Sequence[PreparedRun], tally: Tally, *, at: str
) -> list[int]:
    """Store prepared runs inside the caller's write transaction; returns the new run_pks."""
    entries = []
    new_pks: list[int] = []
    for run in prepared:
        last = conn.execute("SELECT max(version) FROM runs WHERE path = ?", (run.path,))
        version = (last.fetchone()[0] or 0) + 1
        cursor = conn.execute(
            _INSERT,
            (run.path, version, run.sha256, run.unsafe, run.scorecard_json, at, *run.values),
        )
        if cursor.rowcount == 0:
            # Another importer stored the same bytes since we looked: still a no-op.
            tally.unchanged += 1
            continue
        if version == 1:
            tally.added += 1
        else:
            tally.new_versions += 1
        run_pk = int(cursor.lastrowid or 0)
        new_pks.append(run_pk)
        details = {"run_pk": run_pk, "path": run.path, "version": version}
        entries.append(("import", None, {**details, "sha256": run.sha256}))
    audit.append(conn, entries, at=at)
    return new_pks


def list_runs(conn: sqlite3.Connection, *, rater: str | None) -> list[RunRow]:
    """Every run version in import order, with the rater's rating state (the values of
    :func:`reviewer.listing.run_values.list_run_values`, validated)."""
    values = list_run_values(conn, rater=rater)
    # Plain validation is pydantic-core's fast path, faster than model_construct, which
    # runs in Python, and the rows stay checked. Calling the core validator directly skips
    # model_validate's wrapper: 0.79x the build time at 50k rows.
    validate = RunRow.__pydantic_validator__.validate_python
    with gc_paused():
        return [validate(v) for v in values]


def get_run(conn: sqlite3.Connection, run_pk: int, *, rater: str | None = None) -> RunDetail:
    """One run with its parsed ScoreCard; :class:`NotFoundError` if there is none."""
    sql = _LIST.format(
        extra=", r.sha256, r.scorer_version, r.imported_at, r.scorecard",
        where="WHERE r.run_pk = :run_pk",
    )
    row = conn.execute(sql, {"rater_pk": rater_pk(conn, rater), "run_pk": run_pk}).fetchone()
    if row is None:
        raise NotFoundError(f"no run {run_pk} in this database")
    base = dict(zip(_ROW_FIELDS, row[: len(_ROW_FIELDS)], strict=True))
    sha256, scorer_version, imported_at, scorecard = row[len(_ROW_FIELDS) :]
    return RunDetail(
        **base,
        sha256=sha256,
        scorer_version=scorer_version,
        imported_at=imported_at,
        scorecard=ScoreCard.model_validate_json(scorecard),
    )


#: The columns :func:`run_table` may read: identity, status and the ScoreCard's vector.
TABLE_COLUMNS = frozenset(
    ("run_pk", "run_id", "sha256", "scenario_id", "model", "status", "scalar", "unsafe",
     "scorer_version", *VECTOR_FIELDS)
)  # fmt: skip


def run_table(
    conn: sqlite3.Connection, columns: Sequence[str], *, newest_only: bool = False
) -> list[tuple[Any, ...]]:
    """``columns`` of every run version (only each path's newest with ``newest_only``), by
    ``run_pk``: what the statistics and the report read of the scorer's side."""
    unknown = set(columns) - TABLE_COLUMNS
    if unknown:
        raise ValueError(f"not a run column: {', '.join(sorted(unknown))}")
    where = (
        " WHERE NOT EXISTS (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)"
        if newest_only
        else ""
    )
    names = ", ".join(f'"{c}"' for c in columns)
    return conn.execute(f"SELECT {names} FROM runs r{where} ORDER BY run_pk").fetchall()


def scenario_ids(conn: sqlite3.Connection) -> list[str]:
    """Every scenario id of a stored run, sorted."""
    rows = conn.execute("SELECT DISTINCT scenario_id FROM runs WHERE scenario_id IS NOT NULL")
    return sorted(r[0] for r in rows)


def resolve_run(conn: sqlite3.Connection, run_id: str) -> tuple[int | None, str | None]:
    """The newest version of the run ``run_id``: ``(run_pk, None)`` or ``(None, problem)``."""
    found = conn.execute(
        "SELECT r.run_pk FROM runs r WHERE r.run_id = ? AND NOT EXISTS"
        " (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)",
        (run_id,),
    ).fetchall()
    if not found:
        return None, f"unknown run_id {run_id!r} (import the run first)"
    if len(found) > 1:
        return None, f"run_id {run_id!r} is ambiguous: {len(found)} files carry it"
    return int(found[0][0]), None

"""``audit verify`` for studies: what the tables say against what the audit log recorded.

Checked here, beside :mod:`reviewer.store.integrity` (ratings, sheets, raters):

- each study has the entry that made it (``study_create`` or ``study_join``), its stored
  definition is the one logged and its columns (protocol, per_run, seed, reveal_first,
  owner) are the definition's;
- its assignments are as many as the log made, and, where the log holds their digest
  (every study since the digest was added), exactly the ones it recorded;
- a rating is in the study its entries name (``rating_start``, ``study_attach``,
  ``blind_submit``, ``reveal``, ``submit``); a rating the log never put in a study is
  reported when its study's entries carry the digest, i.e. when everything that puts a
  rating in that study has been logged;
- the blind submit and reveal times are those of the entries that recorded them.

Ratings collected from another database are checked against their signed sheets instead
(:mod:`reviewer.sheets.integrity`).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

#: Entries that make or extend a study, and those that say which study a rating is in.
_STUDY_ACTIONS = ("study_create", "study_add_runs", "study_add_raters", "study_join")
_RATING_ACTIONS = ("rating_start", "study_attach", "blind_submit", "reveal", "submit", "collect")
_DEFINED = ("protocol", "per_run", "seed", "reveal_first", "owner")


def assignments_sha256(conn: sqlite3.Connection, study_pk: int) -> str:
    """Digest of a study's whole assignment set: run (by file hash), rater, queue position
    and arm, in a fixed order.  Logged after every change to the set."""
    rows = conn.execute(
        "SELECT r.sha256, ra.name, a.position, a.reveal_first FROM assignments a"
        " JOIN runs r ON r.run_pk = a.run_pk JOIN raters ra ON ra.rater_pk = a.rater_pk"
        " WHERE a.study_pk = ? ORDER BY r.sha256, ra.name",
        (study_pk,),
    ).fetchall()
    text = json.dumps([list(row) for row in rows], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class _StudyLog:
    made: bool = False
    definition: dict[str, Any] | None = None
    assignments: int = 0
    digest: str | None = None
    raters: set[str] = field(default_factory=set)


@dataclass
class _RatingLog:
    study: str | None = None
    blind_at: str | None = None
    revealed_at: str | None = None
    file_submits: set[str] = field(default_factory=set)
    collected: bool = False


def check(conn: sqlite3.Connection) -> list[str]:
    """Every disagreement between the study tables, the ratings' study columns and the log."""
    studies: dict[str, _StudyLog] = defaultdict(_StudyLog)
    rated: dict[Any, _RatingLog] = defaultdict(_RatingLog)
    actions = _STUDY_ACTIONS + _RATING_ACTIONS
    for at, action, text in conn.execute(
        f"SELECT at, action, details FROM audit_log WHERE action IN ({_marks(actions)})"
        " ORDER BY seq",
        actions,
    ):
        try:
            d = json.loads(text)
        except ValueError:
            continue  # the chain check reports an altered entry
        if not isinstance(d, dict):
            continue
        if action in _STUDY_ACTIONS:
            _read_study(studies[str(d.get("study"))], action, d)
        else:
            _read_rating(rated[d.get("rating_pk")], action, at, d)
    return _study_problems(conn, studies) + _rating_problems(conn, studies, rated)


def _read_study(log: _StudyLog, action: str, d: dict[str, Any]) -> None:
    if action in ("study_create", "study_join"):
        log.made = True
        if isinstance(d.get("definition"), dict):
            log.definition = d["definition"]
            log.raters |= set(map(str, log.definition.get("raters") or ()))
    if action == "study_add_raters":
        log.raters |= set(map(str, d.get("raters") or ()))
    if isinstance(d.get("assignments"), int):
        log.assignments += d["assignments"]
    if "assignments_sha256" in d:
        log.digest = str(d["assignments_sha256"])


def _read_rating(log: _RatingLog, action: str, at: str, d: dict[str, Any]) -> None:
    if action == "collect":
        log.collected = True
    if log.study is None and isinstance(d.get("study"), str):
        log.study = d["study"]
    if action == "blind_submit" and log.blind_at is None:
        log.blind_at = at
    elif action == "reveal" and log.revealed_at is None:
        log.revealed_at = at
    elif action == "submit" and d.get("source") == "file":
        log.file_submits.add(at)  # a final phase imported from a file reveals the rating


def _study_problems(conn: sqlite3.Connection, logged: dict[str, _StudyLog]) -> list[str]:
    problems = []
    for pk, name, definition, *columns in conn.execute(
        f"SELECT study_pk, name, definition, {', '.join(_DEFINED)} FROM studies ORDER BY study_pk"
    ):
        where = f"study {name!r}"
        log = logged.get(name)
        if log is None or not log.made:
            problems.append(f"{where} has no create or join entry in the audit log")
            continue
        stored = _json(definition)
        if log.definition is not None and stored != log.definition:
            problems.append(f"{where}: its definition differs from the one the audit log recorded")
        if isinstance(stored, dict):
            for column, value in zip(_DEFINED, columns, strict=True):
                if column in stored and stored[column] != value:
                    problems.append(f"{where}: its {column} ({value!r}) is not its definition's")
        count = conn.execute("SELECT count(*) FROM assignments WHERE study_pk = ?", (pk,))
        have = int(count.fetchone()[0])
        if have != log.assignments:
            problems.append(f"{where} has {have} assignments, the audit log made {log.assignments}")
        elif log.digest is not None and assignments_sha256(conn, pk) != log.digest:
            problems.append(f"{where}: its assignments differ from those the audit log recorded")
        if log.definition is not None:
            raters = {
                r for (r,) in conn.execute(
                    "SELECT ra.name FROM study_raters s JOIN raters ra ON ra.rater_pk = s.rater_pk"
                    " WHERE s.study_pk = ?", (pk,))
            }  # fmt: skip
            if raters != log.raters:
                problems.append(f"{where}: its raters differ from those the audit log added")
    return problems


def _rating_problems(
    conn: sqlite3.Connection, studies: dict[str, _StudyLog], logged: dict[Any, _RatingLog]
) -> list[str]:
    problems = []
    # What the log implies for each rating, by rating_pk: (study, blind time, reveal time).
    # A correction inherits its original's (a trigger copies them when it is created).
    implied: dict[int, tuple[str | None, str | None, str | None]] = {}
    for pk, original, study, blind_at, revealed_at in conn.execute(
        "SELECT g.rating_pk, g.supersedes_pk, s.name, g.blind_submitted_at, g.revealed_at"
        " FROM ratings g LEFT JOIN studies s ON s.study_pk = g.study_pk ORDER BY g.rating_pk"
    ):
        log = logged.get(pk, _RatingLog())
        if log.collected:  # checked against its signed sheet
            implied[pk] = (study, blind_at, revealed_at)
            continue
        parent = implied.get(original, (None, None, None))
        want_study = log.study or parent[0]
        want_blind = log.blind_at or parent[1]
        want_reveal = log.revealed_at or parent[2]
        if want_reveal is None and revealed_at in log.file_submits:
            want_reveal = revealed_at  # a final phase imported from a file revealed it
        implied[pk] = (want_study, want_blind, want_reveal)
        where = f"rating {pk}"
        if want_study is not None and study != want_study:
            shown = "in no study" if study is None else f"in study {study!r}"
            problems.append(f"{where} is {shown}, the audit log put it in study {want_study!r}")
        elif want_study is None and study is not None and studies[study].digest is not None:
            problems.append(f"{where} is in study {study!r}, but the audit log never put it there")
        if blind_at != want_blind:
            problems.append(f"{where}: its blind submit time differs from the audit log's")
        if revealed_at != want_reveal:
            problems.append(f"{where}: its reveal time differs from the audit log's")
    return problems


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _marks(values: tuple[str, ...]) -> str:
    return ", ".join("?" for _ in values)

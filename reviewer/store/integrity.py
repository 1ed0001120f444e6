"""``audit verify`` beyond the hash chain: the database's state against its log.

The chain (:func:`reviewer.store.audit.verify`) proves the log was not edited; this module
proves the *tables* still say what the log says happened, which catches direct edits of
the database file with the triggers dropped or the foreign keys off. It is the one rule
set: every workflow that writes ratings (the window, ``ratings import`` of every phase, a
judge's answers, ``collect``) writes the entries these rules read.

Runs and raters

* every run has its ``import`` entry with the same file hash;
* every rater has its ``rater_add`` entry, the public key the last ``rater_key`` entry
  recorded (``collect`` logs the key a collected sheet brings), and the kind (person or
  judge) the last ``rater_kind`` entry recorded (a person unless one says otherwise).

Ratings: the first entry naming a rating created it (``rating_start``, ``supersede``,
``collect``, or the ``submit`` / ``blind_submit`` of a file or a judge's answers, which
create and submit at once). It records the run, the rater (its actor) and the rating it
corrects; the rating must still say the same, and point at rows that exist
(``PRAGMA foreign_key_check``: no orphans).

* submitted, or signed here: complete, its items (and cited evidence) still hash to the
  ``content_sha256`` of its last ``submit`` entry, and its revision reasons to its
  ``reasons_sha256`` (none recorded: no reasons);
* signed here (a ``sign`` entry): :mod:`reviewer.sheets.integrity` (the sheet
  verifies, equals the rows, its key was logged for the rater, its ``audit_head`` is
  still in this log, the ``sign`` entry names its bytes);
* collected (a ``collect`` entry): the signed sheet is the record: the same sheet checks
  except ``audit_head`` (it names the rater's own database), no ``submit`` needed;
* blind values (frozen at the blind submit) hash to the ``blind_sha256`` of the
  ``blind_submit`` entry; a correction's are its original's; a collected rating's are its
  sheet's; nothing else has blind values;
* a draft has no sheet.

Collected sheets kept on record (``collected_sheets``) verify and each has its
``collect`` or ``collect_superseded`` entry with the same bytes. Finally the log still
reaches the head witnessed outside the database (:mod:`reviewer.store.witness`).
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, cast

from reviewer.evidence import Citation
from reviewer.rubric import RatingItem
from reviewer.store import audit, ratings, witness
from reviewer.store.errors import StoreError
from reviewer.store.rubrics import RubricRegistry

#: The entries that can be the first to name a rating, and so create it.
CREATING = ("rating_start", "supersede", "submit", "blind_submit", "collect")


class RatingState(NamedTuple):
    """What a signed sheet must equal: a rating's rows as the tables hold them now."""

    items: dict[str, RatingItem]
    overall: str
    blind: dict[str, RatingItem]
    reasons: dict[str, str]
    citations: tuple[Citation, ...] = ()


class SignedSheetCheck(Protocol):
    """Every way a signed rating disagrees with its sheet
    (:func:`reviewer.sheets.integrity.sheet_problems`)."""

    def __call__(
        self,
        where: str,
        pk: int,
        stored: tuple[str, str] | None,
        state: RatingState,
        rater: str,
        run_sha: str | None,
        log: Log,
        conn: sqlite3.Connection,
        *,
        collected: bool,
    ) -> list[str]: ...


@dataclass(frozen=True)
class Checks:
    """What the features add to the core's rules; :mod:`reviewer.workspace` passes them.

    The core knows no signature scheme and no study: it asks ``key_fingerprint`` for the
    fingerprint of a stored public key (``None``: not a key), ``signed_sheet`` to check a
    signed rating against its sheet, and runs each of ``more`` (a feature's own tables
    against the log) after its own rules.
    """

    key_fingerprint: Callable[[str], str | None]
    signed_sheet: SignedSheetCheck
    more: Sequence[Callable[[sqlite3.Connection, Log], list[str]]] = ()


class Created(NamedTuple):
    """What the entry that created a rating recorded."""

    action: str
    run_pk: Any
    rater: str | None
    supersedes_pk: Any


class Log:
    """What the audit log says happened, indexed by the keys the tables use."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.imports: dict[int, str] = {}
        self.created: dict[int, Created] = {}
        self.submits: dict[int, str] = {}  # rating_pk -> content_sha256 of the last submit
        self.blind: dict[int, Any] = {}  # rating_pk -> blind_sha256
        self.reasons: dict[int, Any] = {}  # rating_pk -> reasons_sha256 of the last submit
        self.signs: dict[int, dict[str, Any]] = {}  # signed here
        self.collects: dict[int, dict[str, Any]] = {}  # collected from another database
        self.archived: dict[str, Any] = {}  # sheet_id -> sheet_sha256 of each collected sheet
        self.raters: set[str] = set()
        self.keys: dict[str, list[str]] = defaultdict(list)  # name -> fingerprints in order
        self.kinds: dict[str, str] = {}
        for actor, action, text in conn.execute(
            "SELECT actor, action, details FROM audit_log ORDER BY seq"
        ):
            try:
                d = json.loads(text)
            except ValueError:
                continue  # the chain check reports an altered entry
            if isinstance(d, dict):
                self._read(actor, action, d)

    def _read(self, actor: str | None, action: str, d: dict[str, Any]) -> None:
        # The details are the log's own JSON: keys as the writers of each action put them
        # (a tampered entry is the chain check's finding, not a type error here).
        pk = cast(int, d.get("rating_pk"))
        if action in CREATING and pk not in self.created:
            self.created[pk] = Created(action, d.get("run_pk"), actor, d.get("supersedes_pk"))
        if action == "import":
            self.imports[cast(int, d.get("run_pk"))] = cast(str, d.get("sha256"))
        elif action == "submit":
            self.submits[pk] = cast(str, d.get("content_sha256"))
            self.reasons[pk] = d.get("reasons_sha256")
        elif action == "blind_submit":
            self.blind[pk] = d.get("blind_sha256")
        elif action == "sign":
            self.signs[pk] = d
        elif action == "collect":
            self.collects[pk] = d
            self.archived[str(d.get("sheet_id"))] = d.get("sheet_sha256")
        elif action == "collect_superseded":
            self.archived[str(d.get("sheet_id"))] = d.get("sheet_sha256")
        elif action == "rater_add":
            self.raters.add(str(d.get("name", actor)))
        elif action == "rater_key":
            self.keys[str(d.get("name", actor))].append(str(d.get("fingerprint")))
        elif action == "rater_kind":
            self.kinds[str(d.get("name", actor))] = str(d.get("kind"))


def check(
    conn: sqlite3.Connection, rubrics: RubricRegistry, path: Path, checks: Checks
) -> list[str]:
    """Every disagreement between the tables, the log, the sheets and the witness."""
    log = Log(conn)
    problems = _witness_problems(conn, path)
    problems += _orphans(conn)
    stored_runs = {pk for (pk,) in conn.execute("SELECT run_pk FROM runs")}
    for run_pk, sha in log.imports.items():
        if run_pk not in stored_runs:
            problems.append(
                f"run {run_pk} (sha256 {str(sha)[:12]}…) was imported, the audit log says, but "
                "is no longer in the database: it was deleted; restore the database from a copy"
            )
    for run_pk, sha in conn.execute("SELECT run_pk, sha256 FROM runs ORDER BY run_pk"):
        if run_pk not in log.imports:
            problems.append(f"run {run_pk} has no import entry in the audit log")
        elif log.imports[run_pk] != sha:
            problems.append(
                f"run {run_pk}: its file hash differs from the one it was imported with"
            )
    problems += _rater_problems(conn, log, checks.key_fingerprint)
    problems += _rating_problems(conn, rubrics, log, checks.signed_sheet)
    for more in checks.more:
        problems += more(conn, log)
    return problems


def _witness_problems(conn: sqlite3.Connection, path: Path) -> list[str]:
    first = audit.hash_at(conn, 1)
    key = witness.key_of(conn, path)
    seen = witness.witnessed(key, first) or witness.witnessed(path, first)
    if seen is None:
        return []
    found = audit.hash_at(conn, seen.count)
    end = audit.head(conn).count
    if found is None:
        return [
            f"the audit log ends at entry {end}, but entry {seen.count} was witnessed for "
            f"this database or a copy of it ({witness.witness_path()}): entries were cut "
            "from its end, or this is an older copy that lost them"
        ]
    if found != seen.hash:
        return [f"audit entry {seen.count} differs from the one witnessed: the log was rewritten"]
    return []


def _orphans(conn: sqlite3.Connection) -> list[str]:
    problems = []
    for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check"):
        what = {"ratings": "rating", "rating_items": "an item of a rating", "sheets": "sheet"}
        name = what.get(table, f"{table} row")
        problems.append(f"{name} (row {rowid}) points at a missing {parent} row (deleted?)")
    return problems


def _rater_problems(
    conn: sqlite3.Connection, log: Log, key_fingerprint: Callable[[str], str | None]
) -> list[str]:
    problems = []
    for rater in ratings.get_raters(conn):
        if rater.name not in log.raters:
            problems.append(f"rater {rater.name!r} has no rater_add entry in the audit log")
        if rater.kind != log.kinds.get(rater.name, "human"):
            problems.append(
                f"rater {rater.name!r} is marked {rater.kind}, the audit log says "
                f"{log.kinds.get(rater.name, 'human')}"
            )
        logged = log.keys.get(rater.name)
        if rater.public_key is None:
            if logged:
                problems.append(f"rater {rater.name!r}: the key the log records was removed")
            continue
        actual = key_fingerprint(rater.public_key)
        if actual is None or actual != rater.fingerprint:
            problems.append(
                f"rater {rater.name!r}: the stored public key does not match its fingerprint"
            )
        elif not logged or logged[-1] != actual:
            problems.append(
                f"rater {rater.name!r}: the public key differs from the one in the audit log"
            )
    return problems


class Row(NamedTuple):
    """One rating as the tables hold it now."""

    pk: int
    run_pk: int
    rater: str
    rubric_pk: int
    status: str
    overall: str
    supersedes_pk: int | None
    blind_submitted_at: str | None


def _rating_problems(
    conn: sqlite3.Connection, rubrics: RubricRegistry, log: Log, signed_sheet: SignedSheetCheck
) -> list[str]:
    problems: list[str] = []
    items: dict[int, dict[str, RatingItem]] = defaultdict(dict)
    blind: dict[int, dict[str, RatingItem]] = defaultdict(dict)
    reasons: dict[int, dict[str, str]] = defaultdict(dict)
    for pk, metric_id, outcome, score, comment, bo, bs, bc, reason in conn.execute(
        "SELECT rating_pk, metric_id, outcome, score, comment, blind_outcome, blind_score,"
        " blind_comment, revision_reason FROM rating_items"
    ):
        items[pk][metric_id] = RatingItem(
            metric_id=metric_id, outcome=outcome, score=score, comment=comment
        )
        if bo is not None:
            blind[pk][metric_id] = RatingItem(
                metric_id=metric_id, outcome=bo, score=bs, comment=bc or ""
            )
        if reason:
            reasons[pk][metric_id] = reason
    sheets = {
        pk: (sheet_id, text)
        for sheet_id, pk, text in conn.execute("SELECT sheet_id, rating_pk, sheet_json FROM sheets")
    }
    runs = dict(conn.execute("SELECT run_pk, sha256 FROM runs").fetchall())
    rows = [
        Row(*r)
        for r in conn.execute(
            "SELECT g.rating_pk, g.run_pk, COALESCE(ra.name, '?'), g.rubric_pk, g.status,"
            " g.overall_comment, g.supersedes_pk, g.blind_submitted_at FROM ratings g"
            " LEFT JOIN raters ra ON ra.rater_pk = g.rater_pk ORDER BY g.rating_pk"
        )
    ]
    evidence = ratings.citations_of(conn, [row.pk for row in rows])
    for row in rows:
        where = f"rating {row.pk}"
        problems += _creation_problems(where, row, log)
        problems += _blind_problems(where, row, blind, log, rubrics)
        if row.status == "draft":
            if row.pk in sheets:
                problems.append(f"{where} is a draft but has a signed sheet")
            continue
        try:
            rubric = rubrics.get(row.rubric_pk)
        except StoreError:
            problems.append(f"{where} uses a rubric that is not stored ({row.rubric_pk})")
            continue
        current = rubric.empty_items() | items.get(row.pk, {})
        if rubric.problems(current):
            problems.append(f"{where} is {row.status} but incomplete (items missing or empty)")
        collected = row.pk in log.collects
        if not collected:
            cited = evidence.get(row.pk, [])
            digest = ratings.content_sha256(current, row.overall, rubric.sha256, cited)
            if row.pk not in log.submits:
                problems.append(
                    f"{where} is {row.status} but the audit log has no submit entry for it"
                )
            elif log.submits[row.pk] != digest:
                problems.append(f"{where}: its items differ from what was submitted (edited after)")
            elif log.reasons[row.pk] != ratings.reasons_sha256(reasons.get(row.pk, {})):
                problems.append(f"{where}: its revision reasons differ from those submitted")
        if row.status == "signed":
            state = RatingState(
                current,
                row.overall,
                blind.get(row.pk, {}),
                reasons.get(row.pk, {}),
                tuple(evidence.get(row.pk, [])),
            )
            problems += signed_sheet(
                where, row.pk, sheets.get(row.pk), state, row.rater, runs.get(row.run_pk),
                log, conn, collected=collected,
            )  # fmt: skip
        elif row.pk in sheets:
            problems.append(f"{where} is {row.status} but has a signed sheet")
    return problems


def _creation_problems(where: str, row: Row, log: Log) -> list[str]:
    made = log.created.get(row.pk)
    if made is None:
        return [f"{where} has no entry in the audit log that created it"]
    problems = []
    if made.run_pk != row.run_pk:
        problems.append(f"{where} now rates run {row.run_pk}, the log says run {made.run_pk}")
    if made.rater != row.rater:
        problems.append(
            f"{where} is now {row.rater!r}'s, the log says {made.rater!r} made it ({made.action})"
        )
    if made.supersedes_pk != row.supersedes_pk:
        now, logged = (
            "no rating" if pk is None else f"rating {pk}"
            for pk in (row.supersedes_pk, made.supersedes_pk)
        )
        problems.append(f"{where} now corrects {now}, the log says {logged}")
    return problems


def _blind_problems(
    where: str,
    row: Row,
    blind: dict[int, dict[str, RatingItem]],
    log: Log,
    rubrics: RubricRegistry,
) -> list[str]:
    values = blind.get(row.pk, {})
    if row.pk in log.collects or (not values and row.blind_submitted_at is None):
        return []  # a collected rating's blind values are checked against its sheet
    if row.pk in log.blind:
        try:
            rubric_sha = rubrics.get(row.rubric_pk).sha256
        except StoreError:
            return []  # reported with its status
        if log.blind[row.pk] != ratings.blind_sha256(values, rubric_sha):
            return [f"{where}: its blind values differ from what was submitted blind"]
        return []
    if row.supersedes_pk is not None:
        original = blind.get(row.supersedes_pk, {})
        if any(original.get(m) != v for m, v in values.items()):
            return [f"{where}: its blind values differ from those of rating {row.supersedes_pk}"]
        return []
    return [f"{where} has blind values, but the audit log has no blind submit for it"]

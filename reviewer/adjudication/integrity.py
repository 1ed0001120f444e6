"""``audit verify`` for adjudications: the adjudication tables against the audit log.

As :mod:`reviewer.store.integrity` does for ratings: every adjudication has the entry that
created it (against the same run); a submitted one's decisions still hash to what its
``adjudication_submit`` entry recorded; a signed one has its sheet, which verifies, is the
one its sign (or collect) entry names, is signed by the adjudicator, and holds the same
decisions as the tables.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict

from reviewer.adjudication.model import AdjudicationItem
from reviewer.adjudication.storage import content_sha256
from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.verify import verify_sheet

_CREATED = ("adjudication_start", "adjudication_supersede", "adjudication_collect")


def check(conn: sqlite3.Connection) -> list[str]:
    """Every disagreement between the adjudication tables, their sheets and the log."""
    created: dict[int, int] = {}
    submits: dict[int, str] = {}
    sheets_logged: dict[int, str] = {}
    for action, text in conn.execute("SELECT action, details FROM audit_log ORDER BY seq"):
        if not action.startswith("adjudication_"):
            continue
        try:
            d = json.loads(text)
        except ValueError:
            continue
        # An entry edited into no object, or naming no adjudication by number, records
        # nothing: the adjudication it should have recorded is then reported below.
        pk = d.get("adjudication_pk") if isinstance(d, dict) else None
        if not isinstance(pk, int):
            continue
        if action in _CREATED:
            created[pk] = d.get("run_pk")
        if action == "adjudication_submit":
            submits[pk] = d.get("content_sha256")
        if action in ("adjudication_sign", "adjudication_collect"):
            sheets_logged[pk] = d.get("sheet_sha256")
    items: dict[int, list[AdjudicationItem]] = defaultdict(list)
    for pk, metric, outcome, score, reason, sides in conn.execute(
        "SELECT adjudication_pk, metric_id, outcome, score, reason, sides_with"
        " FROM adjudication_items"
    ):
        items[pk].append(
            AdjudicationItem(
                metric_id=metric,
                outcome=outcome,
                score=score,
                reason=reason,
                sides_with=tuple(json.loads(sides)),
            )
        )
    sheets = {
        pk: text
        for pk, text in conn.execute(
            "SELECT adjudication_pk, sheet_json FROM adjudication_sheets"
            " WHERE adjudication_pk IS NOT NULL"
        )
    }
    problems: list[str] = []
    for pk, run_pk, status, adjudicator, collected in conn.execute(
        "SELECT a.adjudication_pk, a.run_pk, a.status, ra.name, a.collected_at"
        " FROM adjudications a JOIN raters ra ON ra.rater_pk = a.rater_pk"
        " ORDER BY a.adjudication_pk"
    ).fetchall():
        where = f"adjudication {pk}"
        if created.get(pk, -1) != run_pk:
            problems.append(
                f"{where} has no entry in the audit log that created it for run {run_pk}"
            )
        if status == "draft":
            continue
        mine = items.get(pk, [])
        if collected is None and submits.get(pk) != content_sha256(mine):
            problems.append(f"{where}: its decisions differ from what was submitted")
        if status == "signed":
            problems += _sheet_problems(
                where, sheets.get(pk), sheets_logged.get(pk), mine, adjudicator
            )
    return problems


def _sheet_problems(
    where: str, text: str | None, logged: str | None, items: list[AdjudicationItem], who: str
) -> list[str]:
    if text is None:
        return [f"{where} is marked signed but has no signed sheet"]
    problems = []
    if logged != hashlib.sha256(text.encode("utf-8")).hexdigest():
        problems.append(f"{where}: its sheet is not the one the audit log recorded")
    result = verify_sheet(text)
    payload = result.sheet.payload if result.ok and result.sheet is not None else None
    if not isinstance(payload, AdjudicationPayload):
        return [*problems, f"{where}: its sheet does not verify ({result.reason})"]
    signed = {
        (d.metric_id, d.outcome, d.score, d.reason, tuple(d.sides_with)) for d in payload.decisions
    }
    actual = {(i.metric_id, i.outcome, i.score, i.reason, i.sides_with) for i in items}
    if signed != actual:
        problems.append(f"{where}: its decisions differ from its signed sheet")
    if payload.rater.name != who:
        problems.append(f"{where} is {who}'s but its sheet is signed as {payload.rater.name!r}")
    return problems

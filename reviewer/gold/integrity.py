"""``audit verify`` for gold: every stored reference and decision verifies, and a study's
gold is its owner's.

- each gold reference's envelope verifies, and its ``owner`` and ``owner_fingerprint``
  columns are the signer's;
- each gold run of a study has a reference that keeps the study's rules (the owner's key,
  never the sheet of one of its raters, the study's rubric);
- each qualification decision verifies, is signed by the study's owner (with the study's
  key) and names the study and the rater it is stored for.

A storage module: it reads the tables on the connection ``audit verify`` holds.
"""

from __future__ import annotations

import json
import sqlite3

from reviewer.gold import rules
from reviewer.gold.envelope import GoldError, unseal
from reviewer.gold.model import DecisionPayload, GoldPayload

_STUDY_GOLD = (
    "SELECT s.name, s.owner, s.owner_fingerprint, s.rubric_sha256, g.run_pk, r.envelope"
    " FROM study_gold g JOIN studies s ON s.study_pk = g.study_pk"
    " JOIN gold_references r ON r.reference_pk = g.reference_pk ORDER BY g.study_pk, g.run_pk"
)
_DECISIONS = (
    "SELECT s.name, s.owner, s.owner_fingerprint, ra.name, d.envelope"
    " FROM qualification_decisions d JOIN studies s ON s.study_pk = d.study_pk"
    " JOIN raters ra ON ra.rater_pk = d.rater_pk ORDER BY d.study_pk, ra.name"
)


def check(conn: sqlite3.Connection) -> list[str]:
    """One line per gold reference, study gold run or decision that breaks a rule."""
    problems: list[str] = []
    for pk, owner, fp, envelope in conn.execute(
        "SELECT reference_pk, owner, owner_fingerprint, envelope FROM gold_references"
    ):
        try:
            payload, signer = unseal(json.loads(envelope), GoldPayload, what=f"gold reference {pk}")
        except GoldError as exc:
            problems.append(str(exc))
            continue
        if (payload.owner.name, signer) != (owner, fp):
            problems.append(f"gold reference {pk}: its columns name {owner} ({fp}), "
                            f"its signature {payload.owner.name} ({signer})")  # fmt: skip
    raters = dict(_raters(conn))
    for study, owner, owner_fp, rubric, run_pk, envelope in conn.execute(_STUDY_GOLD):
        try:
            payload, signer = unseal(json.loads(envelope), GoldPayload, what=f"run {run_pk}")
            rules.check_reference(
                payload, signer, study=study, owner=owner, owner_fingerprint=owner_fp,
                raters=raters.get(study, ()), rubric_sha256=rubric,
            )  # fmt: skip
        except GoldError as exc:
            problems.append(f"study {study}: {exc}")
    for study, owner, owner_fp, rater, envelope in conn.execute(_DECISIONS):
        what = f"study {study}: the qualification decision of {rater}"
        try:
            d, signer = unseal(json.loads(envelope), DecisionPayload, what=what)
        except GoldError as exc:
            problems.append(str(exc))
            continue
        if d.owner.name != owner or (owner_fp is not None and signer != owner_fp):
            problems.append(f"{what} is signed by {d.owner.name} ({signer}), not its owner")
        elif (d.study, d.rater) != (study, rater):
            problems.append(f"{what} names study {d.study} and rater {d.rater}")
    return problems


def _raters(conn: sqlite3.Connection) -> list[tuple[str, tuple[str, ...]]]:
    rows = conn.execute(
        "SELECT s.name, ra.name FROM study_raters sr JOIN studies s ON s.study_pk = sr.study_pk"
        " JOIN raters ra ON ra.rater_pk = sr.rater_pk"
    ).fetchall()
    by: dict[str, list[str]] = {}
    for study, rater in rows:
        by.setdefault(study, []).append(rater)
    return [(s, tuple(r)) for s, r in by.items()]

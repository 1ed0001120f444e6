"""Gold references made from a consensus or from a reference rater's sheet (pure).

A consensus value is a reference only where the raters agreed or an adjudicator decided,
and only when it is a score of the rubric (the median of two scores, 1.5, is not one): an
open or single-rater value is no gold. A sheet is a reference as signed: its values, its
comments and its cited steps, named by the sheet's id and its file's sha256.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from reviewer.gold.envelope import GoldError
from reviewer.gold.model import GoldItem, GoldPayload, GoldRun, GoldSource
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetPayload, SheetRater

#: How a consensus value was reached that makes it a reference.
SETTLED = ("agreed", "adjudicated")


@dataclass(frozen=True)
class ConsensusValue:
    """One metric of a run as the earlier study's consensus reports it."""

    metric_id: str
    outcome: str | None
    score: float | None
    reached: str
    reason: str = ""


def from_consensus(
    run: GoldRun,
    values: Sequence[ConsensusValue],
    *,
    study: str,
    rubric_sha256: str,
    key: RaterKey,
    at: datetime,
) -> GoldPayload:
    """The reference of ``run`` from ``study``'s consensus; :class:`GoldError` when a
    metric is not settled or not a score."""
    name = run.run_id or run.sha256[:12]
    if not values:
        raise GoldError(f"run {name}: study {study!r} has no consensus for it")
    items = []
    for v in sorted(values, key=lambda v: v.metric_id):
        if v.reached not in SETTLED:
            raise GoldError(
                f"run {name}: metric {v.metric_id} is {v.reached} in study {study!r}, "
                "not agreed or adjudicated: adjudicate it first"
            )
        if v.score is not None and v.score != int(v.score):
            raise GoldError(
                f"run {name}: metric {v.metric_id} has consensus {v.score:g}, not a score"
            )
        score = None if v.score is None else int(v.score)
        items.append(
            GoldItem(metric_id=v.metric_id, outcome=v.outcome, score=score, comment=v.reason)
        )
    return GoldPayload(
        run=run,
        rubric_sha256=rubric_sha256,
        source=GoldSource(kind="consensus", study=study),
        items=items,
        owner=SheetRater.of(key),
        signed_at=at,
    )


def from_sheet(
    sheet: SheetPayload, *, sheet_sha256: str, rubric_sha256: str, key: RaterKey, at: datetime
) -> GoldPayload:
    """The reference a reference rater's verified sheet gives its run."""
    if sheet.rubric.sha256 != rubric_sha256:
        raise GoldError(
            f"sheet {sheet.sheet_id}: rubric {sheet.rubric.sha256[:12]}…, this database uses "
            f"{rubric_sha256[:12]}…"
        )
    items = [
        GoldItem(
            metric_id=i.metric_id,
            outcome=i.outcome,
            score=i.score,
            comment=i.comment,
            citations=list(i.citations),
        )
        for i in sheet.items
    ]
    return GoldPayload(
        run=GoldRun(run_id=sheet.run.run_id, sha256=sheet.run.trajectory_sha256),
        rubric_sha256=rubric_sha256,
        source=GoldSource(
            kind="sheet",
            sheet_id=sheet.sheet_id,
            rater=sheet.rater.name,
            sheet_sha256=sheet_sha256,
        ),
        items=items,
        owner=SheetRater.of(key),
        signed_at=at,
    )

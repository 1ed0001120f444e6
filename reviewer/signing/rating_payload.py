"""The payload of a rating's sheet, assembled from what the signing service read.

:class:`~reviewer.signing.service.SigningService` reads the run, the rating, the rubric, the
rater's study state and the audit head from the store and checks that the rating may be
signed; this module only puts those values into a
:class:`~reviewer.sheets.sheet.SheetPayload`, item by item, with nothing read or written.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import (
    SheetAuditHead,
    SheetBlindItem,
    SheetCitation,
    SheetItem,
    SheetPayload,
    SheetRater,
    SheetRubric,
    SheetRun,
    SheetScorer,
    SheetStudy,
)

if TYPE_CHECKING:
    from reviewer.rubric import Rubric
    from reviewer.store.models import Rating, RunDetail
    from reviewer.studies.rows import RaterRunState


def rating_payload(
    run: RunDetail,
    run_id: str,
    rating: Rating,
    rubric: Rubric,
    state: RaterRunState,
    key: RaterKey,
    *,
    audit_head: SheetAuditHead,
    sheet_id: str,
    supersedes: str | None,
    signed_at: datetime,
) -> SheetPayload:
    """The sheet of ``rating`` (of ``run``, known as ``run_id``, under ``rubric``) as
    ``key`` signs it.

    In a study, ``state`` holds the blind values and reasons beside the final ones: each
    item carries both, and the payload names the study and when the blind phase ended.
    """
    card = run.scorecard
    blind = state.blind if state.study is not None else None
    items = []
    for metric in rubric.metrics:
        item = rating.items[metric.id]
        was = blind.items.get(metric.id) if blind else None
        items.append(
            SheetItem(
                metric_id=metric.id,
                title=metric.title,
                outcome=item.outcome,
                score=item.score,
                anchor=None if item.score is None else metric.anchors[item.score],
                comment=item.comment,
                citations=[
                    SheetCitation(**c.model_dump(exclude={"metric_id"}))
                    for c in rating.cited(metric.id)
                ],
                blind=None
                if was is None
                else SheetBlindItem(**was.model_dump(exclude={"metric_id"})),
                reason=blind.reasons.get(metric.id) if blind else None,
            )
        )
    return SheetPayload(
        sheet_id=sheet_id,
        supersedes=supersedes,
        signed_at=signed_at,
        run=SheetRun.of(run_id, card),
        scorer=SheetScorer(version=card.scorer_version, vector=card.vector()),
        rubric=SheetRubric(id=rubric.id, version=rubric.version, sha256=rubric.sha256),
        items=items,
        overall_comment=rating.overall_comment,
        rater=SheetRater.of(key),
        study=None
        if blind is None
        else SheetStudy(
            name=state.study,
            protocol=state.protocol,
            reveal_first=state.reveal_first,
            blind_submitted_at=blind.blind_submitted_at,
            revealed_at=blind.revealed_at,
        ),
        audit_head=audit_head,
    )

"""The signed adjudication sheet: a third rater's decisions on a run the raters disagreed on.

Same envelope, signature and canonical form (RFC 8785) as the rating sheet
(:mod:`reviewer.sheets.sheet`); the payload's ``sheet_format`` is
:data:`ADJUDICATION_FORMAT`. It carries the decisions (outcome, score, reason, the raters it
sides with, and the raters' values it resolved) and, under ``resolves``, the sheet id and
SHA-256 of each rating sheet it resolves, so a reader holding those sheets can check that
they are the ones the adjudicator saw (:mod:`reviewer.sheets.resolved`).
``docs/sheet-format.md`` describes it field by field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from reviewer.sheets.sheet import (
    SheetAuditHead,
    SheetRater,
    SheetRubric,
    SheetRun,
    _Frozen,
    _omit_none,
    canonical_bytes,
    sheet_file_name,
)

ADJUDICATION_FORMAT = "a320-review-adjudication/1"
_HEX64 = r"^[0-9a-f]{64}$"


class ResolvedSheet(_Frozen):
    """A rating sheet the adjudication resolves: whose, which, and the SHA-256 of its file."""

    rater: str
    sheet_id: str
    sha256: str = Field(pattern=_HEX64, description="SHA-256 of the .sheet.json file's bytes")


class ResolvedValue(_Frozen):
    """One rater's value of the metric, as the adjudicator saw it."""

    rater: str
    outcome: str
    score: int | None


class AdjudicationDecision(_Frozen):
    """The adjudicator's decision on one metric, with the reason and what it resolved."""

    metric_id: str
    title: str
    outcome: str
    score: int | None
    anchor: str | None = Field(description="the rubric's text for the chosen score")
    reason: str
    sides_with: list[str] = Field(description="the raters whose value the decision follows")
    disputed: bool = Field(description="whether the raters disagreed under the threshold")
    values: list[ResolvedValue] = Field(description="the raters' values it resolves")


class AdjudicationStudy(_Frozen):
    """The study the run was adjudicated in."""

    name: str
    protocol: str


class AdjudicationPayload(_Frozen):
    """Everything the adjudicator's signature binds.

    ``rater`` is the adjudicator (the envelope's key is theirs), named ``rater`` so that the
    envelope, the trust list and ``verify`` treat both kinds of sheet alike.
    """

    sheet_format: str = ADJUDICATION_FORMAT
    sheet_id: str
    supersedes: str | None = Field(description="sheet_id of the adjudication sheet it corrects")
    signed_at: datetime
    run: SheetRun
    rubric: SheetRubric
    threshold: int = Field(ge=1, le=3, description="the score gap that counts as a dispute")
    study: AdjudicationStudy | None = None
    resolves: list[ResolvedSheet]
    decisions: list[AdjudicationDecision]
    rater: SheetRater
    audit_head: SheetAuditHead

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _omit_none(handler(self), ("study",))

    def canonical_bytes(self) -> bytes:
        """The bytes that are signed (RFC 8785)."""
        return canonical_bytes(self.model_dump(mode="json"), self.sheet_format)


def adjudication_file_name(payload: AdjudicationPayload) -> str:
    """``<run_id>.<adjudicator>.<short id>.adjudication.sheet.json``: found by ``collect``
    like every sheet, and told apart from a rating sheet by its name."""
    name = sheet_file_name(payload)
    return name[: -len(".sheet.json")] + ".adjudication.sheet.json"


def is_adjudication(payload: object) -> bool:
    """Whether a verified payload is an adjudication sheet's."""
    return isinstance(payload, AdjudicationPayload)

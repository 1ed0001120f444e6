"""The values adjudication hands out: frozen pydantic models, never live database rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reviewer.adjudication.rule import RaterValue, Reported, Status
from reviewer.rubric import Outcome


class _Value(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, defer_build=True)


class AdjudicationItem(_Value):
    """The adjudicator's decision on one metric, the reason, and the raters it sides with."""

    metric_id: str
    outcome: Outcome
    score: int | None = None
    reason: str = ""
    sides_with: tuple[str, ...] = ()


class Adjudication(_Value):
    """One adjudicator's adjudication of one run (like a rating: draft → submitted → signed).

    ``items`` holds the decided metrics only, in rubric order. ``version`` is the optimistic
    token: pass it back as ``expected_version``.
    """

    adjudication_pk: int
    run_pk: int
    adjudicator: str
    status: Literal["draft", "submitted", "signed"]
    version: int
    rubric_sha256: str
    study: str | None = None
    items: dict[str, AdjudicationItem] = Field(default_factory=dict)
    created_at: datetime
    updated_at: datetime
    submitted_at: datetime | None = None
    signed_at: datetime | None = None
    collected_at: datetime | None = None
    supersedes_pk: int | None = None
    superseded_by_pk: int | None = None
    sheet_id: str | None = None

    @property
    def live(self) -> bool:
        """Not superseded by a later adjudication."""
        return self.superseded_by_pk is None


class RatedValue(RaterValue):
    """A rater's value with what the adjudication view shows beside it."""

    comment: str = ""
    blind_outcome: Outcome | None = None
    blind_score: int | None = None
    reason: str | None = Field(default=None, description="why final differs from blind")
    sheet_id: str | None = None
    evidence: tuple[str, ...] = Field(
        default=(), description="the labels of the steps the rater cited for this metric"
    )


class MetricDispute(_Value):
    """One (run, metric): the human raters' values, whether they agree, what is reported."""

    run_pk: int
    run_id: str | None
    study: str | None
    metric_id: str
    threshold: int
    status: Status
    values: tuple[RatedValue, ...]
    decision: AdjudicationItem | None = None
    adjudicator: str | None = None
    reported: Reported | None = None


@dataclass(frozen=True)
class ReportedValue:
    """The reported value of one (run, metric) and how it was reached.

    ``reached`` is ``agreed``, ``adjudicated``, ``single_rater`` or ``open``; ``median`` is
    the median of the human raters' scores (the sensitivity value of an open dispute).
    """

    outcome: str | None
    score: float | None
    reached: str
    median: float | None = None

"""What gold is, as data: the owner's signed reference of a run, the study's gold plan and
a qualification decision. Pure pydantic models; the signatures are in :mod:`.envelope`."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reviewer.sheets.sheet import SheetCitation, SheetRater

GOLD_FORMAT = "a320-review-gold/1"
DECISION_FORMAT = "a320-review-qualification/1"
#: The name the reference goes by among the raters' scores: not a valid rater name, so it
#: never collides with a person (rater names start with a letter or a digit).
GOLD_RATER = "(gold)"
Measure = Literal["exact", "within_one"]
MEASURES: tuple[str, ...] = ("exact", "within_one")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GoldRun(_Frozen):
    """The run the reference is of, by its trajectory's sha256 (the run id for people)."""

    run_id: str | None
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class GoldSource(_Frozen):
    """Where the reference values come from."""

    kind: Literal["consensus", "sheet"]
    study: str | None = Field(default=None, description="consensus: the earlier study")
    sheet_id: str | None = Field(default=None, description="sheet: the reference rater's sheet")
    rater: str | None = Field(default=None, description="sheet: the reference rater")
    sheet_sha256: str | None = None

    def describe(self) -> str:
        """``consensus of pilot`` or ``sheet of olga (abc…)``, for lists and messages."""
        if self.kind == "consensus":
            return f"consensus of {self.study}"
        return f"sheet of {self.rater} ({(self.sheet_id or '')[:12]})"


class GoldItem(_Frozen):
    """The reference value of one metric, with its comment and cited steps."""

    metric_id: str
    outcome: str | None
    score: int | None = Field(default=None, ge=0, le=3)
    comment: str = ""
    citations: list[SheetCitation] = Field(default_factory=list)


class GoldPayload(_Frozen):
    """Everything the owner's signature of a reference binds."""

    gold_format: str = GOLD_FORMAT
    run: GoldRun
    rubric_sha256: str
    source: GoldSource
    items: list[GoldItem] = Field(min_length=1)
    owner: SheetRater
    signed_at: datetime


class GoldReference(_Frozen):
    """A stored, verified reference."""

    reference_pk: int
    run_pk: int
    payload: GoldPayload
    added_at: str
    removed_at: str | None = None

    @property
    def owner(self) -> str:
        return self.payload.owner.name


class GoldPlan(_Frozen):
    """What ``study create`` was told about gold: the fraction and the qualification rule."""

    fraction: float = Field(default=0.0, ge=0.0, lt=1.0)
    qualification: int = Field(default=0, ge=0, description="how many runs to qualify on")
    measure: Measure = "within_one"
    threshold: float = Field(default=0.8, ge=0.0, le=1.0)

    @property
    def any(self) -> bool:
        return self.fraction > 0 or self.qualification > 0


class DecisionPayload(_Frozen):
    """Everything the owner's signature of a qualification decision binds."""

    decision_format: str = DECISION_FORMAT
    study: str
    rater: str
    qualified: bool
    measure: Measure
    threshold: float
    #: The measure on each metric, over the qualification runs.
    per_metric: dict[str, float]
    runs: list[str] = Field(description="the qualification set's sha256s")
    owner: SheetRater
    decided_at: datetime

"""The values the store hands out: frozen pydantic models, never live database rows."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reviewer.evidence import Citation

# One list of the scorer's fields and of the study fields, for RunRow and the queue's rows.
from reviewer.listing.rows import SCORER_FIELDS as SCORER_FIELDS
from reviewer.listing.rows import STUDY_ROW_FIELDS as STUDY_ROW_FIELDS
from reviewer.rubric import RatingItem
from scoring import ScoreCard

RatingStatus = Literal["draft", "submitted", "signed"]
#: A run's state for one rater. Besides the rating statuses, a live draft that is a
#: correction of a submitted or signed rating is ``correcting``, and a blind-study draft is
#: ``blind_submitted`` (frozen, not yet revealed) or ``revealed`` until its final submit.
RatingState = Literal[
    "unrated", "draft", "submitted", "signed", "correcting", "blind_submitted", "revealed"
]


class _Value(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, defer_build=True)


class RunRow(_Value):
    """One imported run version, as the run list shows it (no ScoreCard parsing)."""

    run_pk: int
    run_id: str | None
    path: str
    version: int = Field(description="1 for the first file seen at this path, then 2, 3, ...")
    superseded_by_version: bool = Field(
        description="the file at this path changed since: a newer version exists"
    )
    scenario_id: str | None
    model: str | None
    status: str
    reason: str | None
    scalar: float | None
    coverage: float | None
    end_state: float | None
    unsafe: bool | None = Field(description="a dangerous command was flown; None while hidden")
    rating_state: RatingState = Field(
        description="the state of the given rater's live rating; 'unrated' without a rater"
    )
    n_ratings: int = Field(default=0, description="live submitted or signed ratings, any rater")
    # Filled only when the run list is asked for within a study (list_runs(study=...)).
    study: str | None = Field(default=None, description="the study this row was listed in")
    per_run: int | None = Field(default=None, description="k: ratings the study wants per run")
    ratings_in: int | None = Field(default=None, description="the study's k ratings that are in")
    position: int | None = Field(default=None, description="place in the rater's queue")
    reveal_first: bool | None = Field(default=None, description="control arm: scorer shown first")

    def without_scorer(self) -> RunRow:
        """The row as a rater in the blind phase may see it: nothing the scorer decided."""
        return self.model_copy(update=dict.fromkeys(SCORER_FIELDS))


class RunDetail(RunRow):
    """A run with its full ScoreCard."""

    sha256: str
    scorer_version: str
    imported_at: datetime
    scorecard: ScoreCard


class Rater(_Value):
    """A person (or an LLM judge) who rates; a person's key arrives once signing is set up."""

    rater_pk: int
    name: str
    fingerprint: str | None = None
    public_key: str | None = None
    created_at: datetime
    kind: Literal["human", "judge"] = Field(
        default="human", description="a person, or an LLM judge (left out of human agreement)"
    )


class Rating(_Value):
    """One rater's rating of one run under one rubric version.

    ``items`` holds every metric of the rating's rubric, in rubric order; an item nobody
    has touched yet has no outcome. ``version`` grows with every save and is the token of
    the optimistic check: pass it back as ``expected_version``.
    """

    rating_pk: int
    run_pk: int
    rater: str
    status: RatingStatus
    version: int
    rubric_id: str
    rubric_version: int
    rubric_sha256: str
    items: dict[str, RatingItem]
    overall_comment: str = ""
    created_at: datetime
    updated_at: datetime
    submitted_at: datetime | None = None
    signed_at: datetime | None = None
    supersedes_pk: int | None = None
    superseded_by_pk: int | None = None
    sheet_id: str | None = None
    citations: tuple[Citation, ...] = Field(
        default=(), description="cited steps, by metric in rubric order, then timeline order"
    )

    @property
    def live(self) -> bool:
        """Not superseded by a later rating."""
        return self.superseded_by_pk is None

    def cited(self, metric_id: str) -> list[Citation]:
        """The steps cited for ``metric_id``, in timeline order."""
        return [c for c in self.citations if c.metric_id == metric_id]


class SheetRow(_Value):
    """A signed rating sheet as stored (the JSON text exactly as signed)."""

    sheet_id: str
    rating_pk: int
    run_id: str | None
    rater: str
    sheet_json: str
    signed_at: datetime


class ImportReport(_Value):
    """What one import did. ``unreadable`` holds ``(path, message with line)`` pairs."""

    added: int = 0
    unchanged: int = 0
    new_versions: int = 0
    unreadable: list[tuple[str, str]] = Field(default_factory=list)
    cancelled: bool = False
    #: The same files as ``(path, line or None, reason)``, for ``FILE:LINE: reason``.
    unreadable_at: list[tuple[str, int | None, str]] = Field(default_factory=list)

    def summary(self) -> str:
        """One line for a status bar or a terminal."""
        text = (
            f"{self.added} new runs, {self.new_versions} new versions of changed files, "
            f"{self.unchanged} unchanged, {len(self.unreadable)} unreadable"
        )
        return text + (" (cancelled)" if self.cancelled else "")


class AuditReport(_Value):
    """The result of checking the audit chain."""

    ok: bool
    entries: int
    first_bad: int | None = Field(description="seq of the first entry that does not fit")
    message: str
    #: Every disagreement of the tables, sheets or witness with the log (chain intact).
    problems: list[str] = Field(default_factory=list)

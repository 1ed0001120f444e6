"""The study: which runs, which raters, how many raters per run, the protocol and the seed.

A study is data: it is stored in the review database, written into packets and named on
every sheet made within it. Runs are named by their trajectory's sha256 wherever a study
leaves the database, because run keys differ from one database to the next.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Protocol = Literal["open", "blind"]
PROTOCOLS: tuple[str, ...] = ("open", "blind")
_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


class _Frozen(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Selection(_Frozen):
    """Which runs a study takes: every filter given must match; none means every run."""

    scenarios: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    run_ids: tuple[str, ...] = Field(default=(), description="from --runs FILE")

    def matches(
        self, *, run_id: str | None, scenario: str | None, model: str | None, status: str
    ) -> bool:
        """Whether a run with these attributes is selected."""
        checks = (
            (self.scenarios, scenario),
            (self.models, model),
            (self.statuses, status),
            (self.run_ids, run_id),
        )
        return all(not wanted or value in wanted for wanted, value in checks)


class StudySpec(_Frozen):
    """What ``study create`` is given; the store turns it into a stored :class:`Study`."""

    name: str = Field(pattern=_NAME)
    raters: tuple[str, ...] = Field(min_length=1)
    per_run: int = Field(ge=1, description="k: how many distinct raters rate each run")
    protocol: Protocol = "open"
    reveal_first: float = Field(
        default=0.0, ge=0.0, le=1.0, description="control-arm fraction shown the scorer first"
    )
    #: Stored in an SQLite INTEGER (64-bit signed): a larger seed is refused, not overflowed.
    seed: int = Field(default=0, ge=-(2**63), le=2**63 - 1)
    selection: Selection = Selection()
    owner: str | None = Field(default=None, description="who signs the study's packets")

    @model_validator(mode="after")
    def _consistent(self) -> StudySpec:
        if len(set(self.raters)) != len(self.raters):
            raise ValueError("a rater is named twice")
        if self.per_run > len(self.raters):
            raise ValueError(
                f"per_run is {self.per_run} but the study has {len(self.raters)} rater(s)"
            )
        if self.reveal_first and self.protocol != "blind":
            raise ValueError("reveal_first only applies to the blind protocol")
        return self


class Study(StudySpec):
    """A stored study: the spec plus its rubric, its owner's key and where it came from."""

    study_pk: int
    rubric_sha256: str
    owner_fingerprint: str | None = None
    joined: bool = Field(default=False, description="imported from a packet: read-only here")
    created_at: str
    n_runs: int = 0


class Assignment(_Frozen):
    """One rater's assignment to one run (named by sha256), at a place in their queue."""

    run_sha256: str
    rater: str
    position: int = Field(ge=1)
    reveal_first: bool = False

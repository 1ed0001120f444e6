"""The values the studies' store hands out about assignments and the blind protocol: frozen
pydantic models, never live database rows. (The study itself is :mod:`.model`.)"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reviewer.rubric import RatingItem
from reviewer.store.models import Rating


class _Value(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, defer_build=True)


RatingPhase = Literal["open", "blind", "sealed", "revealed"]


class AssignmentRow(_Value):
    """One rater's assignment to one run of a study, as the store holds it."""

    study: str
    run_pk: int
    run_id: str | None
    sha256: str
    rater: str
    position: int
    reveal_first: bool


class BlindValues(_Value):
    """What a blind-protocol rating recorded beside its final values.

    ``items`` are the blind values per metric (empty before the blind submit); ``reasons``
    the reason given for each metric revised after the reveal.
    """

    items: dict[str, RatingItem] = Field(default_factory=dict)
    reasons: dict[str, str] = Field(default_factory=dict)
    blind_submitted_at: datetime | None = None
    revealed_at: datetime | None = None


class RaterRunState(_Value):
    """Everything the window needs to show one run to one rater within a study.

    ``scorer_visible`` is False exactly while the automatic score must stay hidden (phase
    1 of a blind study, outside the control arm). ``may_see_others`` says whether other
    raters' ratings of the run may be shown to this rater.
    """

    run_pk: int
    rater: str
    study: str | None
    protocol: str
    phase: RatingPhase
    reveal_first: bool
    assigned: bool
    position: int | None
    rating: Rating | None
    blind: BlindValues
    scorer_visible: bool
    may_see_others: bool

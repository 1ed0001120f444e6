"""The run list's row as plain values: what the window's queue holds, one per run version.

A named tuple, not a model: the queue shows 50,000 of them and builds them before the store
is even imported (the window's first screen, :mod:`ui.app`). Its fields are those of the
store's ``RunRow`` (tests/reviewer/test_listing.py holds them equal), read the same way.
"""

from __future__ import annotations

from typing import Any, NamedTuple

#: What the scorer decided, among a row's fields (hidden in a blind study's phase 1).
SCORER_FIELDS = ("scalar", "coverage", "end_state", "unsafe")

#: Fields filled only within a study; the plain run list leaves them None.
STUDY_ROW_FIELDS = ("study", "per_run", "ratings_in", "position", "reveal_first")


class RunValues(NamedTuple):
    """One run version as the queue lists it: ``RunRow``'s fields, plain."""

    run_pk: int
    run_id: str | None
    path: str
    version: int
    superseded_by_version: bool
    scenario_id: str | None
    model: str | None
    status: str
    reason: str | None
    scalar: float | None
    coverage: float | None
    end_state: float | None
    unsafe: bool | None
    rating_state: str
    n_ratings: int = 0
    study: str | None = None
    per_run: int | None = None
    ratings_in: int | None = None
    position: int | None = None
    reveal_first: bool | None = None

    @classmethod
    def of(cls, row: Any) -> RunValues:
        """The values of any row with these attributes (a store's ``RunRow``)."""
        return cls._make(getattr(row, name) for name in cls._fields)

    def without_scorer(self) -> RunValues:
        """The row as a rater in the blind phase may see it: nothing the scorer decided."""
        return self._replace(scalar=None, coverage=None, end_state=None, unsafe=None)

    # (SCORER_FIELDS named one by one: tests/reviewer/test_listing.py holds them equal.)

    def with_rating_state(self, state: str) -> RunValues:
        """The row with the rater's rating state changed (a save, a submit)."""
        return self._replace(rating_state=state)

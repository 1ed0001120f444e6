"""Errors of the review store. Every message is meant to be shown to a user as it is."""

from __future__ import annotations

from collections.abc import Sequence


class StoreError(Exception):
    """The store cannot do what was asked; the message says why and names the database."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer a320-review; this one must not touch it."""


class NotFoundError(StoreError, LookupError):
    """No run, rating or rater with that key."""


class ConflictError(StoreError):
    """Someone saved the rating since it was read (optimistic version check): reload it."""

    def __init__(self, rating_pk: int, expected: int, actual: int) -> None:
        super().__init__(
            f"rating {rating_pk} was saved elsewhere since you loaded it "
            f"(it is at version {actual}, you had version {expected}); "
            "reload it and apply your change again"
        )
        self.rating_pk = rating_pk
        self.expected = expected
        self.actual = actual


class RatingStateError(StoreError):
    """The rating is not in a state that allows this (e.g. editing a submitted rating)."""


class RatingValidationError(StoreError, ValueError):
    """A rating item that can never be valid (unknown metric, score outside 0–3, ...)."""


class RatingIncompleteError(StoreError):
    """Submit refused: ``problems`` lists every ``(metric_id, message)`` still to fix."""

    def __init__(self, rating_pk: int, problems: list[tuple[str, str]]) -> None:
        lines = "\n".join(f"  {metric}: {message}" for metric, message in problems)
        super().__init__(f"rating {rating_pk} is not complete:\n{lines}")
        self.rating_pk = rating_pk
        self.problems = problems


class RatingsFileError(StoreError):
    """A ratings file was refused; ``problems`` holds every ``(line, reason)`` (line None
    for the file as a whole), in line order; ``errors`` the same as ``line N: reason``."""

    def __init__(self, source: str, problems: Sequence[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = list(problems)
        self.errors = [f"line {n}: {m}" if n else m for n, m in self.problems]
        shown = "\n".join(f"  {e}" for e in self.errors)
        super().__init__(f"{source}: {len(self.errors)} error(s), nothing imported:\n{shown}")


class DiskFullError(StoreError):
    """The disk (or SQLite's page limit) is full: the change was rolled back, earlier
    commits are kept."""

"""The disagreement rule and the reported value of one (run, metric). Pure: no store.

A (run, metric) needs adjudication when its raters' outcomes differ, or when two of their
scores differ by at least the study's threshold (default :data:`DEFAULT_THRESHOLD`). Judges
(automatic raters) are never counted: the caller passes human values only. Without an
adjudication the reported value is the agreed one: the common outcome and the median score.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from reviewer.rubric import Outcome

#: Scores this far apart (or more) need adjudication unless the study sets another threshold.
DEFAULT_THRESHOLD = 2

Status = Literal["agreed", "disputed", "single_rater"]
Reached = Literal["agreed", "adjudicated", "single_rater", "open"]
REACHED: tuple[str, ...] = ("agreed", "adjudicated", "single_rater", "open")

#: How the consensus is reached, as every view and ``--help`` words it: this rule's reported
#: value, and the sensitivity figure of :mod:`reviewer.agreement.consensus`. (Here, below
#: the agreement statistics and the judge, so that both can say it.)
CONSENSUS_RULE = (
    "adjudicated value, else the agreed median of the human raters; open disputes left out "
    "(their count shown), with a sensitivity figure taking them at the raters' median"
)


class RaterValue(BaseModel):
    """One human rater's outcome (and score when applicable) on one metric of one run."""

    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, defer_build=True)

    rater: str
    outcome: Outcome
    score: int | None = None


class Decided(BaseModel):
    """An adjudicator's decision on one metric: the value that replaces the raters'."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    adjudicator: str
    outcome: Outcome
    score: int | None = None


class Reported(BaseModel):
    """The value the benchmark reports for one (run, metric), and how it was reached.

    ``open``: still disputed, no value (``outcome`` and ``score`` are ``None``). ``score``
    is a float because the median of an even number of scores may fall between two.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    outcome: Outcome | None
    score: float | None
    reached: Reached
    adjudicator: str | None = None


def check_threshold(threshold: int) -> int:
    """``threshold`` if it is a usable score gap (1–3); ``ValueError`` otherwise."""
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 1 <= threshold <= 3:
        raise ValueError(f"the adjudication threshold is a score gap of 1 to 3; got {threshold!r}")
    return threshold


def status(values: Sequence[RaterValue], threshold: int = DEFAULT_THRESHOLD) -> Status:
    """``single_rater`` (fewer than two raters), ``disputed`` or ``agreed``."""
    return status_of([(v.outcome, v.score) for v in values], threshold)


def status_of(
    pairs: Sequence[tuple[str, int | None]], threshold: int = DEFAULT_THRESHOLD
) -> Status:
    """:func:`status` over plain ``(outcome, score)`` pairs (no model per value: the queue's
    filter judges every rated metric of the database at once)."""
    check_threshold(threshold)
    if len(pairs) < 2:
        return "single_rater"
    if len({outcome for outcome, _ in pairs}) > 1:
        return "disputed"
    scores = [score for _, score in pairs if score is not None]
    if scores and max(scores) - min(scores) >= threshold:
        return "disputed"
    return "agreed"


def needs_adjudication(values: Sequence[RaterValue], threshold: int = DEFAULT_THRESHOLD) -> bool:
    """Whether the raters' values of one (run, metric) disagree enough to adjudicate."""
    return status(values, threshold) == "disputed"


def reported(
    values: Sequence[RaterValue],
    decided: Decided | None = None,
    threshold: int = DEFAULT_THRESHOLD,
) -> Reported | None:
    """The reported value of one (run, metric); ``None`` when nobody rated it.

    An adjudication wins wherever there is one (also on a metric that was not disputed:
    the adjudicator was asked and answered). Otherwise agreed values give the common outcome
    and the median score, a single rater's value is reported as it is, and a dispute with no
    adjudication yet is ``open``.
    """
    if decided is not None:
        score = None if decided.score is None else float(decided.score)
        return Reported(
            outcome=decided.outcome,
            score=score,
            reached="adjudicated",
            adjudicator=decided.adjudicator,
        )
    found = reported_of([(v.outcome, v.score) for v in values], threshold)
    if found is None:
        return None
    outcome, score, reached = found
    return Reported(outcome=outcome, score=score, reached=reached)


def reported_of(
    pairs: Sequence[tuple[str, int | None]], threshold: int = DEFAULT_THRESHOLD
) -> tuple[str | None, float | None, Reached] | None:
    """:func:`reported` without an adjudication, over plain ``(outcome, score)`` pairs:
    ``(outcome, score, reached)``, or ``None`` when nobody rated (results and validity read
    every rated metric of the database at once)."""
    if not pairs:
        return None
    found = status_of(pairs, threshold)
    if found == "disputed":
        return None, None, "open"
    scores = [score for _, score in pairs if score is not None]
    median = float(statistics.median(scores)) if scores else None
    return pairs[0][0], median, "single_rater" if found == "single_rater" else "agreed"

"""What a rater's accuracy is measured against: a reference rater today, gold later.

Every view of accuracy (the dashboard's Raters tab, the report's Raters page) goes through
:func:`load_reference` with a name the person chose, and measures each rater against the
:class:`Reference` it returns with :func:`reviewer.quality.report.accuracy_against`. A new
source of reference scores (gold runs) is a new branch of :func:`load_reference` and a new
entry of :func:`reference_choices`; no view changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from reviewer.quality.facade import QualityStore
from reviewer.quality.report import raters, scores_of
from reviewer.quality.source import Score, ScoreColumns


@dataclass(frozen=True)
class Reference:
    """Reference scores of (run, metric) items, and who is not measured against them."""

    kind: Literal["rater", "gold"]
    name: str
    #: ``{(run_pk, metric): reference score}``.
    scores: Mapping[tuple[int, str], int]
    #: The rater left out of the accuracy table (the reference rater: 100% against self).
    skip: str | None = None

    @property
    def label(self) -> str:
        """How the views name it: ``rater olga``, ``gold``."""
        return f"{self.kind} {self.name}" if self.kind == "rater" else self.name


def rater_reference(scores: Sequence[Score] | ScoreColumns, name: str) -> Reference | None:
    """``name``'s own scores as the reference (``None`` when they scored nothing here)."""
    mine = scores_of(scores, name)
    return Reference("rater", name, mine, skip=name) if mine else None


def reference_choices(scores: Sequence[Score] | ScoreColumns) -> list[str]:
    """The names :func:`load_reference` accepts for these scores (the dashboard's list):
    every rater who scored something."""
    return raters(scores)


def load_reference(
    store: QualityStore, name: str, scores: Sequence[Score] | ScoreColumns
) -> Reference | None:
    """The reference called ``name`` for ``scores`` (read from ``store`` where it is not one
    of them), ``None`` when there is none of that name. Today only raters: ``name`` is a
    rater whose scores are among ``scores`` (so runs the viewer may not see stay out)."""
    del store  # a rater's reference is among the scores; gold will be read from the store
    return rater_reference(scores, name)

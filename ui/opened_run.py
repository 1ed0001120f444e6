"""What the window shows of one opened run, and of the study around it.

Values the controller hands to the window (``run_opened``, ``scorer_revealed``). Kept apart
from :mod:`ui.controller` so that the study flow, which builds the :class:`TeamView`, and the
window, which shows an :class:`OpenedRun`, need not import the controller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reviewer.rubric import Rubric
from reviewer.store.models import Rating, RunDetail
from reviewer.studies.rows import RaterRunState
from scoring import ScoreCard, Trajectory, read_trajectory, score_trajectory


@dataclass(frozen=True)
class TeamView:
    """What the rating pane shows of the study around one run, read when the run opens (and
    after a reveal or a submit), so the window never asks the store itself."""

    blind: dict[str, Any] = field(default_factory=dict)  # metric -> frozen blind item
    reasons: dict[str, str] = field(default_factory=dict)
    others_allowed: bool = False  # the rater submitted theirs: others' ratings may show
    others: tuple[Rating, ...] = ()
    judges: frozenset[str] = frozenset()  # which of the others are LLM judges, not people


@dataclass(frozen=True)
class OpenedRun:
    """Everything the window shows for one run."""

    run_pk: int
    run_id: str | None
    path: str
    trajectory: Trajectory
    card: ScoreCard
    rubric: Rubric
    rating: Rating | None  # None until the rater's first edit creates the draft
    editable: bool
    warning: str | None = None
    state: RaterRunState | None = None  # within a study: the phase, control arm, visibility
    team: TeamView = field(
        default_factory=TeamView
    )  # blind values, reasons, the others' ratings the rater may see

    @property
    def scorer_visible(self) -> bool:
        """False while the automatic score must stay hidden (blind phase 1)."""
        return self.state is None or self.state.scorer_visible


def is_empty(rating: Rating | None) -> bool:
    """A draft with nothing in it (every edit undone): shown as not rated."""
    if rating is None:
        return True
    if rating.status != "draft" or rating.overall_comment.strip() or rating.citations:
        return False
    return all(
        i.outcome is None and i.score is None and not i.comment.strip()
        for i in rating.items.values()
    )


@dataclass(frozen=True)
class RunRequest:
    """What the store says of a run when it is asked for, before its file is read."""

    run_pk: int
    detail: RunDetail
    rubric: Rubric
    rating: Rating | None
    state: RaterRunState
    team: TeamView

    def opened(self, loaded: tuple[Trajectory, ScoreCard, str | None]) -> OpenedRun:
        """The run as shown, once :func:`load_run` read its file."""
        traj, card, warning = loaded
        rating, state = self.rating, self.state
        editable = warning is None and (rating is None or rating.status == "draft")
        editable = editable and state.phase != "sealed"  # frozen until the reveal
        detail = self.detail
        return OpenedRun(
            self.run_pk, detail.run_id, detail.path, traj, card, self.rubric, rating,
            editable, warning, state, self.team,
        )  # fmt: skip


def load_run(path: str, card: ScoreCard) -> tuple[Trajectory, ScoreCard, str | None]:
    """Read the trajectory at ``path`` (on a pool thread); a file changed since its import
    is scored afresh, with a warning saying so."""
    traj = read_trajectory(path)
    if traj.sha256 == card.trajectory_sha256:
        return traj, card, None
    # The file changed since import: show what the file says now, and say so.
    return (
        traj,
        score_trajectory(traj),
        (
            "This file changed since it was imported: the ScoreCard shown is a fresh score of "
            "the new content. Re-import it to rate the new version."
        ),
    )

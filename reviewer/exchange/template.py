"""``a320-review ratings template``: the rating file a rater fills in headless.

One row per run still to rate in the chosen phase and per metric of the rubric, in queue
order, with the columns ``ratings import`` reads. A final-phase template repeats every
metric with its blind value already filled in, so the rater edits only what they revise
and says why in ``reason``; control-arm runs of a blind study are left to an open-phase
template, and the command says so. In a study that requires qualification, a rater not
qualified gets rows for its qualification runs only (``ratings import`` refuses the rest).
"""

from __future__ import annotations

from typing import Any, Literal

from reviewer.store import RunRow
from reviewer.studies.facade import StudiesStore

Phase = Literal["open", "blind", "final"]

COLUMNS = ("run_id", "metric", "outcome", "score", "comment", "evidence", "overall_comment")
FINAL_COLUMNS = (*COLUMNS[:6], "reason", COLUMNS[6])

#: The rating states in which each phase still has work to do.
_TODO: dict[Phase, frozenset[str]] = {
    "open": frozenset({"unrated", "draft"}),
    "blind": frozenset({"unrated", "draft"}),
    "final": frozenset({"blind_submitted", "revealed"}),
}


def columns(phase: Phase) -> tuple[str, ...]:
    """The template's columns for ``phase``."""
    return FINAL_COLUMNS if phase == "final" else COLUMNS


def template_rows(
    store: StudiesStore, *, rater: str, study: str | None, phase: Phase
) -> tuple[list[dict[str, Any]], list[RunRow]]:
    """The rows to fill in, and the runs of the queue left out because another phase
    applies to them (a blind study's control arm, or the other arm)."""
    if study is None:
        queue = [r for r in store.list_runs(rater=rater) if r.run_id and r.status != "unreadable"]
        blind_study = False
    else:
        queue = store.list_runs(study=study, rater=rater)
        blind_study = store.get_study(study).protocol == "blind"
    rubric = store.rubric()
    rows: list[dict[str, Any]] = []
    other_phase: list[RunRow] = []
    for run in queue:
        arm_phase = "open" if not blind_study or run.reveal_first else "blind"
        if run.rating_state not in _TODO[phase]:
            continue
        if study is not None and store.rating_restriction(study, run.run_pk, rater):
            continue
        if (phase == "open") != (arm_phase == "open"):
            other_phase.append(run)
            continue
        items = rubric.empty_items()
        if phase == "final":
            live = store.live_rating(run.run_pk, rater)
            items = dict(live.items) if live is not None else items
        for metric_id in rubric.metric_ids:
            item = items[metric_id]
            rows.append(
                {
                    "run_id": run.run_id,
                    "metric": metric_id,
                    "outcome": item.outcome or "",
                    "score": "" if item.score is None else item.score,
                    "comment": item.comment,
                    "evidence": "",
                    "reason": "",
                    "overall_comment": "",
                }
            )
    return rows, other_phase

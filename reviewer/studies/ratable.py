"""Which runs a rater could not rate under the rubric's evidence rule.

A score the rubric names in ``evidence_required_for_scores`` (0 and 1 by default) must
cite a step of the run: a timeline event or a ground-truth action. A run with neither (an
invalid scenario's run that never reached the agent, say) can still be rated 2 or 3, but a
rater who finds it poor cannot say so. ``study create`` leaves such runs out unless asked.
"""

from __future__ import annotations

from collections.abc import Iterable

from reviewer.rubric import Rubric
from reviewer.store import RunRow
from reviewer.store.core import CoreStore
from scoring import read_trajectory


def needs_evidence(rubric: Rubric) -> bool:
    """Whether any metric of ``rubric`` asks for evidence for some score."""
    return any(rubric.evidence_scores(m) for m in rubric.metric_ids)


def unratable(store: CoreStore, runs: Iterable[RunRow]) -> list[RunRow]:
    """The runs with no step to cite, when the store's rubric asks for evidence.

    A run whose file cannot be read here is kept: absence of evidence is only claimed
    when the trajectory was read and holds no event, and the ground truth has no action.
    """
    if not needs_evidence(store.rubric()):
        return []
    out = []
    for run in runs:
        if store.get_run(run.run_pk).scorecard.required:
            continue
        try:
            events = read_trajectory(run.path).events
        except (OSError, ValueError):
            continue
        if not events:
            out.append(run)
    return out

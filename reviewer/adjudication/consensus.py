"""The consensus the benchmark reports, per run and metric, read from a review store.

Each (run, metric) a human rated gets the value :func:`reviewer.adjudication.rule.reported`
gives it: the adjudicated value where there is an adjudication in force, else the agreed
one (equal outcomes, median score), a single rater's value, or nothing while the dispute is
still ``open``. ``a320-review consensus export`` writes these rows; validity, judge
comparison, the dashboard and the report read the same values (:func:`reported_values`,
turned into figures by :mod:`reviewer.agreement.consensus`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from reviewer.adjudication.disputes import Pairs
from reviewer.adjudication.model import ReportedValue
from reviewer.adjudication.rule import Reached

if TYPE_CHECKING:
    from reviewer.adjudication.facade import AdjudicationStore

#: Column order of ``consensus export``.
CONSENSUS_COLUMNS = (
    "run_id",
    "scenario_id",
    "model",
    "study",
    "metric",
    "outcome",
    "score",
    "reached",
    "raters",
    "rater_kind",
    "adjudicator",
    "threshold",
    "run_pk",
)


class ConsensusRow(BaseModel):
    """One (run, metric): the reported outcome and score, and how they were reached."""

    model_config = ConfigDict(frozen=True)

    run_id: str | None
    scenario_id: str | None
    model: str | None
    study: str | None
    metric: str
    outcome: str | None
    score: float | None
    reached: Reached
    raters: int
    #: Who the ``raters`` are: always people, a judge never counts towards the consensus
    #: (the column says so, as every export labels its raters).
    rater_kind: str = "human"
    adjudicator: str | None
    threshold: int
    run_pk: int


def consensus_rows(store: AdjudicationStore, *, study: str | None = None) -> list[ConsensusRow]:
    """Every (run, metric) rated by a human (within ``study``), in run then rubric order."""
    runs = {
        pk: (scenario, model)
        for pk, scenario, model in store.run_table(("run_pk", "scenario_id", "model"))
    }
    out = []
    for d in store.disputes(study=study):
        if d.reported is None:
            continue
        scenario, model = runs.get(d.run_pk, (None, None))
        out.append(
            ConsensusRow(
                run_id=d.run_id,
                scenario_id=scenario,
                model=model,
                study=d.study,
                metric=d.metric_id,
                outcome=d.reported.outcome,
                score=d.reported.score,
                reached=d.reported.reached,
                raters=len(d.values),
                adjudicator=d.reported.adjudicator,
                threshold=d.threshold,
                run_pk=d.run_pk,
            )
        )
    return out


def reported_values(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    run_pk: int | None = None,
    pairs: Pairs | None = None,
) -> dict[tuple[str, str], ReportedValue]:
    """``{(run_key, metric_id): reported value}`` of every (run, metric) a person rated
    (of ``run_pk`` when given): the same values :func:`consensus_rows` exports, with the
    raters' median score beside (an open dispute's sensitivity value). Run keys are
    ``run_pk`` as text, as :mod:`reviewer.agreement.source` names runs. ``pairs``: the
    people's values of each (run_pk, metric), when the caller has read them already."""
    found = store.reported_values(study=study, run_pk=run_pk, pairs=pairs)
    return {(str(pk), metric): value for (pk, metric), value in found.items()}

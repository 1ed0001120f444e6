"""Each view's per-run values, read from a review store.

- **scorer**: the run's scalar (0–1; a dangerous command floors it to 0);
- **humans**: the consensus score (adjudicated, else agreed; 0–3) of one metric, or the
  mean over the metrics the consensus scores for the run; open disputes have no value;
- **judge:NAME**: that judge's live scores (0–3), one metric or their mean.

Runs are the newest version of each file (:func:`reviewer.leaderboard.runs.read_runs`), of
the study's runs when a study is named, and of the given scenarios.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from reviewer.adjudication.consensus import consensus_rows
from reviewer.adjudication.facade import AdjudicationStore
from reviewer.judge.facade import JudgeStore
from reviewer.leaderboard.runs import RunPoint, read_runs, study_runs
from reviewer.leaderboard.values import ViewValues, scorer_values_of, values_of
from reviewer.studies.facade import StudiesStore


def _runs(store: StudiesStore, study: str | None, scenarios: Sequence[str]) -> list[RunPoint]:
    runs, _versions = read_runs(store, scenarios)
    if study is not None:
        runs = study_runs(store, study, runs)
    return [r for r in runs if r.scenario_id is not None and r.model is not None]


def scorer_values(
    store: StudiesStore, *, study: str | None = None, scenarios: Sequence[str] = ()
) -> ViewValues:
    """The scalar of every run that has one."""
    return scorer_values_of(_runs(store, study, scenarios))


def human_values(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    metric: str | None = None,
) -> ViewValues:
    """The consensus score of ``metric`` (or the mean over metrics) of every rated run."""
    runs = _runs(store, study, scenarios)
    scores: dict[int, list[float]] = defaultdict(list)
    opened: set[int] = set()
    for row in consensus_rows(store, study=study):
        if metric is not None and row.metric != metric:
            continue
        if row.reached == "open":
            opened.add(row.run_pk)
        elif row.score is not None:
            scores[row.run_pk].append(float(row.score))
    value_of = {pk: sum(v) / len(v) for pk, v in scores.items()}
    only_open = len({pk for pk in opened if pk not in value_of} & {r.run_pk for r in runs})
    return values_of("humans", metric, runs, value_of, only_open)


def judge_values(
    store: JudgeStore,
    judge: str,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    metric: str | None = None,
) -> ViewValues:
    """The judge's live score of ``metric`` (or its mean over metrics) of every run it rated."""
    runs = _runs(store, study, scenarios)
    scores: dict[int, list[float]] = defaultdict(list)
    for run_pk, item_metric, score in store.judge_scores(judge):
        if metric is None or item_metric == metric:
            scores[run_pk].append(float(score))
    value_of = {pk: sum(v) / len(v) for pk, v in scores.items()}
    return values_of(f"judge:{judge}", metric, runs, value_of)


def judges(store: JudgeStore) -> list[str]:
    """The judges with a live rating in the store."""
    return store.judges()

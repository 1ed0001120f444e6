"""Each view's per-run values, read from a review store.

- **scorer**: the run's scalar (0–1; a dangerous command floors it to 0);
- **humans**: the consensus score (adjudicated, else agreed; 0–3) of one metric, or the
  mean over the metrics the consensus scores for the run; open disputes have no value;
- **judge:NAME**: that judge's live scores (0–3), one metric or their mean.

Runs are the newest version of each file (:func:`reviewer.results.source.read_runs`), of
the study's runs when a study is named, and of the given scenarios.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from reviewer.adjudication.consensus import consensus_rows
from reviewer.adjudication.facade import AdjudicationStore
from reviewer.judge.facade import JudgeStore
from reviewer.results.data import RunPoint
from reviewer.results.source import read_runs, study_runs
from reviewer.studies.facade import StudiesStore


@dataclass(frozen=True)
class RunValue:
    """One run's value in a view, with the scorer's facts the leaderboard counts apart."""

    run_pk: int
    run_id: str | None
    scenario: str
    model: str
    value: float | None
    unsafe: bool
    passed: bool | None


@dataclass(frozen=True)
class ViewValues:
    """A view's runs, and what it could not give a value (said beside every figure)."""

    view: str
    metric: str | None
    runs: tuple[RunValue, ...]
    #: runs of the selection with no value in this view (not rated, open dispute, no scalar)
    without_value: int
    #: of those, runs whose only consensus is an open dispute
    open_disputes: int = 0


def _runs(store: StudiesStore, study: str | None, scenarios: Sequence[str]) -> list[RunPoint]:
    runs, _versions = read_runs(store, scenarios)
    if study is not None:
        runs = study_runs(store, study, runs)
    return [r for r in runs if r.scenario_id is not None and r.model is not None]


def _values(
    view: str, metric: str | None, runs: list[RunPoint], value_of: dict[int, float], opened: int = 0
) -> ViewValues:
    out = tuple(
        RunValue(
            r.run_pk,
            r.run_id,
            r.scenario_id or "",
            r.model or "",
            value_of.get(r.run_pk),
            r.unsafe,
            r.all_passed,
        )
        for r in runs
    )
    missing = sum(v.value is None for v in out)
    return ViewValues(view, metric, out, missing, opened)


def scorer_values(
    store: StudiesStore, *, study: str | None = None, scenarios: Sequence[str] = ()
) -> ViewValues:
    """The scalar of every run that has one."""
    return scorer_values_of(_runs(store, study, scenarios))


def scorer_values_of(runs: Sequence[RunPoint]) -> ViewValues:
    """The scalar of each of ``runs`` that has one (the dashboard passes the runs it shows,
    already narrowed to what the viewer may see)."""
    runs = [r for r in runs if r.scenario_id is not None and r.model is not None]
    return _values("scorer", None, runs, {r.run_pk: r.scalar for r in runs if r.scalar is not None})


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
    return _values("humans", metric, runs, value_of, only_open)


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
    return _values(f"judge:{judge}", metric, runs, value_of)


def judges(store: JudgeStore) -> list[str]:
    """The judges with a live rating in the store."""
    return store.judges()

"""Reading a :class:`~reviewer.results.data.ResultsData` from a review store, once.

Runs come from one query over the ``runs`` columns (never the ScoreCard JSON), keeping the
newest version of each file; ratings come through :func:`reviewer.agreement.source.load_inputs`
so that studies, phases and the consensus rule are the agreement package's, not a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.agreement.records import RunInfo
from reviewer.agreement.report import agreement_report
from reviewer.agreement.source import load_inputs
from reviewer.agreement.validity import rubric_validity
from reviewer.leaderboard.board import build as build_board
from reviewer.leaderboard.runs import all_scenarios, read_runs, study_runs
from reviewer.leaderboard.values import scorer_values_of
from reviewer.results.data import MetricInfo, ResultsData, ResultsMeta
from reviewer.store.core import CoreStore
from reviewer.studies.visibility import hidden_runs, left_out_note

#: ``progress(step, steps, text)``; the report prints it on stderr, the window in a bar.
Progress = Callable[[int, int, str], None]


def _quiet(_step: int, _steps: int, _text: str) -> None:
    pass


def gather(
    store: AdjudicationStore,
    *,
    study: str | None = None,
    scenarios: Sequence[str] = (),
    seed: int = 0,
    resamples: int = 1000,
    progress: Progress = _quiet,
    viewer: str | None = None,
) -> ResultsData:
    """Everything the charts need for the runs of ``scenarios`` (all when empty).

    Runs still in the blind phase of ``viewer`` (without one: of the raters whose own
    database this is) are left out, with their ratings, and the meta says how many
    (:func:`reviewer.studies.visibility.hidden_runs`, the one rule every view applies).

    ``study`` is passed to :func:`~reviewer.agreement.source.load_inputs`, which raises
    :class:`~reviewer.agreement.source.UnknownStudyError` for a study it does not know.
    """
    progress(0, 4, "reading runs")
    runs, versions = read_runs(store, scenarios)
    progress(1, 4, "reading ratings")
    inputs = load_inputs(store, study=study)
    if study is not None:
        runs = study_runs(store, study, runs)
    hidden, blind_for = hidden_runs(store, viewer)
    if hidden:
        hidden_ids = {
            run_id
            for (run_pk, run_id) in store.run_table(("run_pk", "run_id"))
            if run_pk in hidden and run_id
        }
        kept = [r for r in runs if r.run_pk not in hidden and r.run_id not in hidden_ids]
        n_left_out, runs = len(runs) - len(kept), kept
    else:
        n_left_out = 0
    keys = {str(r.run_pk) for r in runs}
    records = [r for r in inputs.records if r.run_key in keys]
    unselected = [r for r in inputs.unselected if r.run_key in keys]
    rubric = inputs.rubric
    agreement = validity = None
    consensus = inputs.consensus(keys)
    if records:
        progress(2, 4, "agreement (bootstrap)")
        agreement = agreement_report(
            records, metric_ids=rubric.metric_ids, seed=seed, resamples=resamples
        )
        progress(3, 4, "validity")
        run_infos: dict[str, RunInfo] = {k: v for k, v in inputs.runs.items() if k in keys}
        validity = rubric_validity(
            records, unselected, run_infos, rubric, top=10, consensus=consensus
        )
    progress(4, 4, "done")
    n_ratings = len({(r.run_key, r.rater) for r in records})
    meta = ResultsMeta(
        generated_at=datetime.now(UTC),
        database=str(store.path.resolve()),
        scorer_versions=sorted(versions),
        rubric=f"{rubric.id} v{rubric.version} ({rubric.title})",
        study=study,
        scenario_filter=list(scenarios),
        n_runs=len(runs),
        n_ratings=n_ratings,
        n_raters=len({r.rater for r in records}),
        n_left_out=n_left_out,
        left_out_note=left_out_note(n_left_out, blind_for),
    )
    data = ResultsData(
        meta=meta,
        scenarios=all_scenarios(store),
        runs=runs,
        metrics=[
            MetricInfo(id=m.id, title=m.title, counterpart=m.counterpart) for m in rubric.metrics
        ],
        records=records,
        agreement=agreement,
        validity=validity,
        human_consensus=consensus,
        judges=sorted(store_judges(store)),
        leaderboard=build_board(scorer_values_of(runs), resamples=resamples, seed=seed),
    )
    return data.warm()


def store_judges(store: CoreStore) -> set[str]:
    """The raters that are automatic judges."""
    return {r.name for r in store.raters() if r.kind == "judge"}

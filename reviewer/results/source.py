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
from reviewer.leaderboard.values import scorer_values_of
from reviewer.results.data import MetricInfo, ResultsData, ResultsMeta, RunPoint
from reviewer.store.core import CoreStore
from reviewer.studies.facade import StudiesStore
from reviewer.studies.visibility import hidden_runs, left_out_note

#: ``progress(step, steps, text)``; the report prints it on stderr, the window in a bar.
Progress = Callable[[int, int, str], None]

# The newest version of each file only: an older version's numbers were replaced by a
# re-import and would count the same run twice.
#: What the report reads of each run (its newest version).
_RUNS = (
    "run_pk", "run_id", "scenario_id", "model", "status", "scalar", "coverage", "order",
    "end_state", "all_passed", "safety_dangerous", "safety_anti_procedure", "extraneous",
    "unsafe", "scorer_version",
)  # fmt: skip


def _quiet(_step: int, _steps: int, _text: str) -> None:
    pass


def read_runs(store: CoreStore, scenarios: Sequence[str] = ()) -> tuple[list[RunPoint], set[str]]:
    """The newest run versions (of ``scenarios`` when given) and their scorer versions."""
    wanted = set(scenarios)
    runs: list[RunPoint] = []
    versions: set[str] = set()
    for row in store.run_table(_RUNS, newest_only=True):
        (pk, run_id, scenario, model, status, scalar, cov, order, end, passed, *rest) = row
        dangerous, anti, extraneous, unsafe, scorer_version = rest
        if wanted and scenario not in wanted:
            continue
        versions.add(scorer_version)
        runs.append(
            RunPoint(
                run_pk=pk,
                run_id=run_id,
                scenario_id=scenario,
                model=model,
                status=status,
                scalar=scalar,
                coverage=cov,
                order=order,
                end_state=end,
                all_passed=None if passed is None else bool(passed),
                dangerous=dangerous or 0,
                anti_procedure=anti or 0,
                extraneous=extraneous or 0,
                unsafe=bool(unsafe),
            )
        )
    return runs, versions


def all_scenarios(store: CoreStore) -> list[str]:
    """Every scenario id in the store, sorted (for the selector and ``--scenario`` checks)."""
    return store.scenario_ids()


def study_runs(store: StudiesStore, study: str, runs: list[RunPoint]) -> list[RunPoint]:
    """The runs the study assigns (by run id, so a newer version of a run stays in), or
    ``runs`` unchanged when this database does not hold the study's definition (its ratings
    came in through ``collect`` alone): then the study selects ratings only."""
    from reviewer.store import NotFoundError

    try:
        assigned = store.study_assignments(study)
    except NotFoundError:
        return runs
    pks = {a.run_pk for a in assigned}
    ids = {a.run_id for a in assigned if a.run_id}
    return [r for r in runs if r.run_pk in pks or r.run_id in ids]


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

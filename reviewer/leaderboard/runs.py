"""The runs every figure counts: the newest version of each file (of a study's runs when
a study is named), as :class:`RunPoint` values read in one query over the ``runs`` columns
(never the ScoreCard JSON).

The leaderboard reads them here, and so do the results (the dashboard and the report),
which stand above the leaderboard and draw its board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from reviewer.prevalidated import prevalidated
from reviewer.store.core import CoreStore
from reviewer.studies.facade import StudiesStore

# The newest version of each file only: an older version's numbers were replaced by a
# re-import and would count the same run twice.
#: What the report reads of each run (its newest version).
RUN_COLUMNS = (
    "run_pk", "run_id", "scenario_id", "model", "status", "scalar", "coverage", "order",
    "end_state", "all_passed", "safety_dangerous", "safety_anti_procedure", "extraneous",
    "unsafe", "scorer_version",
)  # fmt: skip


class RunPoint(BaseModel):
    """One run (the newest version of its file) with the vector the charts use."""

    model_config = ConfigDict(frozen=True)

    run_pk: int
    run_id: str | None
    scenario_id: str | None
    model: str | None
    status: str
    scalar: float | None
    coverage: float | None
    order: float | None
    end_state: float | None
    all_passed: bool | None
    dangerous: int
    anti_procedure: int
    extraneous: int
    unsafe: bool

    @classmethod
    def from_store(cls, fields: dict[str, Any]) -> RunPoint:
        """A run of values the store's schema has already typed (REAL columns hold floats,
        INTEGER ones ints; :func:`runs_of` makes the booleans and the counts), built
        without validating again, as :meth:`~reviewer.agreement.records.RunInfo.from_store`:
        the dashboard reads 10,000 of them. ``fields`` names every field, in their order."""
        return prevalidated(cls, fields)

    @property
    def scored(self) -> bool:
        """Scored normally (provider errors are left out of the means, as in the spec)."""
        return self.status == "scored"


def read_runs(store: CoreStore, scenarios: Sequence[str] = ()) -> tuple[list[RunPoint], set[str]]:
    """The newest run versions (of ``scenarios`` when given) and their scorer versions."""
    return runs_of(store.run_table(RUN_COLUMNS, newest_only=True), scenarios)


def runs_of(
    rows: Iterable[Sequence[Any]], scenarios: Sequence[str] = ()
) -> tuple[list[RunPoint], set[str]]:
    """:func:`read_runs` of rows of :data:`RUN_COLUMNS` (the newest versions, by
    ``run_pk``) already read: the dashboard reads the runs table once for these and for
    validity's :class:`~reviewer.agreement.records.RunInfo`."""
    wanted = set(scenarios)
    runs: list[RunPoint] = []
    versions: set[str] = set()
    for row in rows:
        if wanted and row[_SCENARIO] not in wanted:
            continue
        versions.add(row[_SCORER_VERSION])
        runs.append(point_of_row(row))
    return runs, versions


_SCENARIO, _SCORER_VERSION = RUN_COLUMNS.index("scenario_id"), RUN_COLUMNS.index("scorer_version")


def point_of_row(row: Sequence[Any]) -> RunPoint:
    """One row of :data:`RUN_COLUMNS` as a :class:`RunPoint`, built from a dict literal
    without validation (10,000 validations were a tenth of the dashboard's wait); the one
    place that maps the columns to the point's fields."""
    (pk, run_id, scenario, model, status, scalar, cov, order, end, passed, *rest) = row
    dangerous, anti, extraneous, unsafe, _scorer_version = rest
    return RunPoint.from_store(
        {
            "run_pk": pk,
            "run_id": run_id,
            "scenario_id": scenario,
            "model": model,
            "status": status,
            "scalar": scalar,
            "coverage": cov,
            "order": order,
            "end_state": end,
            "all_passed": None if passed is None else bool(passed),
            "dangerous": dangerous or 0,
            "anti_procedure": anti or 0,
            "extraneous": extraneous or 0,
            "unsafe": bool(unsafe),
        }
    )


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

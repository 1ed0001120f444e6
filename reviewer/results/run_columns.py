"""The runs the dashboard reads, as columns where a loop per run and metric was.

:class:`~reviewer.results.live.LiveResults` reads 10,000 runs: :func:`runs_of_rows` makes
validity's :class:`~reviewer.agreement.records.RunInfo` and the charts'
:class:`~reviewer.leaderboard.runs.RunPoint` in one pass over the rows, and
:func:`counterparts` and :func:`counterpart_table` give the scorer's counterparts a column
per metric instead of a dict of fields and a call per run and metric (40,000 of each).
Each equals the plain computation it replaces, to the bit and in the same order (the
tests hold them to :func:`~reviewer.agreement.source.run_infos_of`,
:func:`~reviewer.leaderboard.runs.runs_of`,
:attr:`~reviewer.results.data.ResultsData.counterparts` and
:func:`~reviewer.agreement.counterparts.counterpart_table`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from reviewer.agreement.counterparts import counterpart_of
from reviewer.agreement.records import RunInfo, RunInfos
from reviewer.leaderboard.runs import RunPoint, point_of_row


def runs_of_rows(
    rows: Iterable[Sequence[Any]], scenarios: Sequence[str] = ()
) -> tuple[RunInfos, tuple[list[RunPoint], set[str]]]:
    """``(run_infos_of(rows), runs_of(rows, scenarios))`` of rows of
    :data:`~reviewer.leaderboard.runs.RUN_COLUMNS` (which holds every column of
    :data:`~reviewer.agreement.source.RUN_COLUMNS`), in one pass: the same objects, made
    from dict literals without a second loop nor a ``zip`` per run (10,000 of each on the
    dashboard; the tests hold it to both functions). The infos are :class:`RunInfos`,
    each made when read whole."""
    wanted = set(scenarios)
    fields: dict[str, tuple[Any, ...]] = {}
    runs: list[RunPoint] = []
    versions: set[str] = set()
    for row in rows:
        (pk, run_id, scenario, model, _status, scalar, cov, order, end, passed, *rest) = row
        dangerous, anti, _extraneous, _unsafe, scorer_version = rest
        flag = None if passed is None else bool(passed)
        # RunInfos' fields: the run's RunInfo is made only when it is read whole.
        fields[str(pk)] = (run_id, scenario, model, scalar, cov, order, end, flag, dangerous, anti)
        if wanted and scenario not in wanted:
            continue
        versions.add(scorer_version)
        runs.append(point_of_row(row))
    return RunInfos(fields), (runs, versions)


#: The counterparts a ScoreCard field gives as a float (as :func:`counterpart_of` reads).
_FLOAT_COUNTERPARTS = ("coverage", "order", "end_state")
Column = list[Any]


def _counterpart_column(
    name: str, scalar: Column, field: Callable[[str], Column]
) -> list[float | None]:
    """Counterpart ``name`` of each run, as :func:`counterpart_of` gives it of the run's
    ``scalar`` and ScoreCard fields (``field(name)``: that field of each run), a column
    at a time."""
    if name == "scalar":
        return scalar
    if name in _FLOAT_COUNTERPARTS:
        return [None if v is None else float(v) for v in field(name)]
    if name == "all_passed":
        return [None if v is None else float(bool(v)) for v in field(name)]
    if name == "safety":
        return [
            None if d is None or a is None else 0.0 if d else 0.5 ** int(a)
            for d, a in zip(field("safety_dangerous"), field("safety_anti_procedure"), strict=True)
        ]
    counterpart_of(name, None, {})  # raises for an unknown name, as the runs' loop did
    return [None] * len(scalar)


def _table(
    keys: list[str], columns: list[tuple[str, list[float | None]]]
) -> dict[tuple[str, str], float]:
    """``{(key, metric_id): value}`` run by run, the metrics in their order, where the
    value is not None."""
    out: dict[tuple[str, str], float] = {}
    for i, key in enumerate(keys):
        for metric_id, column in columns:
            value = column[i]
            if value is not None:
                out[(key, metric_id)] = value
    return out


#: A :class:`RunPoint`'s attribute for each ScoreCard field a counterpart reads.
_POINT_FIELDS = {"safety_dangerous": "dangerous", "safety_anti_procedure": "anti_procedure"}


def counterparts(runs: Sequence[RunPoint], named: dict[str, str]) -> dict[tuple[str, str], float]:
    """:attr:`ResultsData.counterparts` of ``runs`` and ``{metric_id: counterpart}``: the
    same keys in the same order (run by run, the metrics in ``named``'s order) and the same
    values, without a dict of fields and a call per run and metric (40,000 on the
    dashboard; the tests hold it to the property)."""
    scalar = [run.scalar for run in runs]

    def field(name: str) -> Column:
        return list(map(attrgetter(_POINT_FIELDS.get(name, name)), runs))

    columns = [(m, _counterpart_column(name, scalar, field)) for m, name in named.items()]
    return _table([str(run.run_pk) for run in runs], columns)


def counterpart_table(
    runs: Mapping[str, RunInfo], named: dict[str, str]
) -> dict[tuple[str, str], float]:
    """:func:`~reviewer.agreement.counterparts.counterpart_table` of ``runs`` a column
    at a time: the same keys in the same order, the same values (the tests hold it to it)."""
    if isinstance(runs, RunInfos):  # the fields as they were read: no RunInfo made
        scalar, field = runs.column("scalar"), runs.column
    else:
        infos = list(runs.values())
        scalar = [info.scalar for info in infos]

        def field(name: str) -> Column:
            return [info.automatic.get(name) for info in infos]

    columns = [(m, _counterpart_column(name, scalar, field)) for m, name in named.items()]
    return _table(list(runs), columns)


def counterparts_and_table(
    runs: Sequence[RunPoint], infos: RunInfos, named: dict[str, str]
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]:
    """``(counterparts(runs, named), counterpart_table(infos, named))``, the dashboard's
    two tables of the same runs: built once when their keys and columns are the same
    (the points and the infos differ only where a run's safety counts are NULL, which a
    :class:`RunPoint` reads as 0), the first then a copy of the second."""
    scalar = [run.scalar for run in runs]

    def field(name: str) -> Column:
        return list(map(attrgetter(_POINT_FIELDS.get(name, name)), runs))

    points = [(m, _counterpart_column(name, scalar, field)) for m, name in named.items()]
    scalars = infos.column("scalar")
    columns = [(m, _counterpart_column(name, scalars, infos.column)) for m, name in named.items()]
    table = _table(list(infos), columns)
    keys = [str(run.run_pk) for run in runs]
    if keys == list(infos) and _same(points, columns):
        return dict(table), table
    return _table(keys, points), table


def _same(a: list[tuple[str, list[float | None]]], b: list[tuple[str, list[float | None]]]) -> bool:
    """Whether two sets of columns hold the same values of the same types, in order."""
    return a == b and all(
        list(map(type, x)) == list(map(type, y)) for (_m, x), (_n, y) in zip(a, b, strict=True)
    )

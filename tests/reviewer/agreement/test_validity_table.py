"""Validity read from its table equals a plain computation over the mappings, to the bit.

:class:`ValidityTable` keeps validity's inputs as arrays, a row per run, and the dashboard
replaces one row after a submit. Here random consensus tables (open disputes with and
without a median, adjudicated keys, runs without a scalar, without a scenario, without a
run at all, several scenarios and models) are reported through the table and by a plain
computation written for this test from the definitions (sorted keys, lists, ``sorted``),
and compared exactly; and a table whose rows were replaced one by one equals one built
from scratch.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats

from reviewer.agreement.consensus import Consensus
from reviewer.agreement.records import AUTOMATIC_FIELDS, RunInfo, RunInfos
from reviewer.agreement.unit_consensus import UnitConsensus
from reviewer.agreement.validity import human_scores, validity_report
from reviewer.agreement.validity_table import ValidityTable

METRICS = ("procedure_application", "safety", "verification")
COUNTERPARTS = {"procedure_application": "coverage", "safety": "safety"}


def world(seed: int) -> tuple[Consensus, dict[str, RunInfo], dict[tuple[str, str], float]]:
    rnd = random.Random(seed)
    runs: dict[str, RunInfo] = {}
    scores: dict[tuple[str, str], float] = {}
    open_: dict[tuple[str, str], float | None] = {}
    adjudicated = set()
    keys = [str(k) for k in rnd.sample(range(1, 400), 120)]
    for key in keys:
        if rnd.random() > 0.05:  # a few consensus keys have no run
            runs[key] = RunInfo(
                run_key=key,
                run_id=f"id-{key}",
                scenario_id=None if rnd.random() < 0.05 else rnd.choice(("s1", "s2", "s3")),
                model=None if rnd.random() < 0.05 else rnd.choice(("m1", "m2", "m3", "m4")),
                scalar=None if rnd.random() < 0.1 else rnd.choice((0.25, 0.5, rnd.random())),
                automatic={"coverage": rnd.random() if rnd.random() > 0.1 else None,
                           "safety_dangerous": 0, "safety_anti_procedure": rnd.randint(0, 2)},
            )  # fmt: skip
        for m in METRICS:
            roll = rnd.random()
            if roll < 0.1:
                open_[(key, m)] = None if rnd.random() < 0.3 else rnd.choice((1.0, 1.5, 2.5))
            elif roll < 0.9:
                scores[(key, m)] = float(rnd.choice((0, 1, 1.5, 2, 2.5, 3)))
                if rnd.random() < 0.1:
                    adjudicated.add((key, m))
    auto: dict[tuple[str, str], float] = {}
    for key, run in runs.items():
        if run.automatic.get("coverage") is not None:
            auto[(key, "procedure_application")] = run.automatic["coverage"]
        auto[(key, "safety")] = 0.5 ** run.automatic["safety_anti_procedure"]
    return Consensus(scores, open_, frozenset(adjudicated)), runs, auto


def plain_rho(table: dict, auto: dict, m: str) -> tuple[int, float | None]:
    keys = sorted(k for k in auto if k[1] == m and k in table)
    x, y = [table[k] for k in keys], [auto[k] for k in keys]
    if len(keys) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return len(keys), None
    return len(keys), float(stats.spearmanr(x, y).statistic)


def plain(consensus: Consensus, runs: dict, auto: dict, order: list[str] | None = None) -> dict:
    """The figures from the mappings, as the definitions say, without the table; a model's
    runs are taken in ``order`` (by default the consensus's)."""
    human = human_scores(consensus.scores)
    if order is not None:
        human = {k: human[k] for k in order if k in human}
    metrics = {}
    for m in COUNTERPARTS:
        left_out = sum(1 for k in consensus.open if k[1] == m and k in auto)
        at_median = dict(consensus.scores)
        at_median.update({k: v for k, v in consensus.open.items() if v is not None})
        metrics[m] = (plain_rho(consensus.scores, auto, m), left_out,
                      plain_rho(at_median, auto, m) if left_out else None)  # fmt: skip
    groups: dict = {}
    for key, value in human.items():
        run = runs.get(key)
        if run is not None and run.scenario_id is not None:
            group = groups.setdefault(run.scenario_id, {}).setdefault(run.model or "(unknown)", [])
            group.append((value, run.scalar))
    means = {
        (s, m): (len(g), float(np.mean([h for h, _ in g])),
                 float(np.mean(sc)) if (sc := [x for _, x in g if x is not None]) else None)
        for s, models in groups.items() for m, g in models.items()
    }  # fmt: skip
    found = sorted(
        ((-abs(v - runs[k].scalar), k, v - runs[k].scalar) for k, v in human.items()
         if k in runs and runs[k].scalar is not None)
    )[:10]  # fmt: skip
    return {
        "counts": (len(consensus.open), len({r for r, _ in consensus.open}),
                   len(consensus.adjudicated)),
        "metrics": metrics,
        "means": means,
        "disagreements": [(k, d) for _, k, d in found],
    }  # fmt: skip


def through_table(report) -> dict:  # type: ignore[no-untyped-def]
    return {
        "counts": (report.open_disputes, report.runs_with_open_disputes, report.adjudicated),
        "metrics": {
            v.metric_id: ((v.n, v.rho), v.open_left_out,
                          (v.n_open_at_median, v.rho_open_at_median) if v.open_left_out else None)
            for v in report.metrics
        },
        "means": {(s.scenario_id, r.model): (r.runs, r.human, r.scorer)
                  for s in report.scenarios for r in s.models},
        "disagreements": [(d.run_key, d.difference) for d in report.disagreements],
    }  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_the_table_gives_the_plain_figures_to_the_bit(seed: int) -> None:
    consensus, runs, auto = world(seed)
    report = validity_report([], runs, COUNTERPARTS, consensus=consensus, auto=auto)
    assert through_table(report) == plain(consensus, runs, auto)
    assert any(v.open_left_out for v in report.metrics)  # the sensitivity was computed
    for s in report.scenarios:  # tau between the means, as the definition has it
        both = [(r.human, r.scorer) for r in s.models if r.scorer is not None]
        if s.kendall_tau is not None:
            expected = stats.kendalltau([a for a, _ in both], [b for _, b in both]).statistic
            assert s.kendall_tau == float(expected)


def split(consensus: Consensus, key: str) -> Consensus:
    return Consensus(
        {k: v for k, v in consensus.scores.items() if k[0] == key},
        {k: v for k, v in consensus.open.items() if k[0] == key},
        frozenset(k for k in consensus.adjudicated if k[0] == key),
    )


@pytest.mark.parametrize("seed", range(4))
def test_rows_replaced_one_by_one_equal_a_table_built_afresh(seed: int) -> None:
    before, runs, auto = world(seed)
    after, _runs, _auto = world(seed + 100)  # other values for the same kind of runs
    rows = sorted({k for k, _ in before.scores} | set(runs), key=int)
    table = ValidityTable.of(before, human_scores(before.scores), runs, COUNTERPARTS, auto,
                             rows=rows)  # fmt: skip
    keys = sorted({k for k, _ in (*after.scores, *after.open, *before.scores, *before.open)})
    for key in random.Random(seed).sample(keys, len(keys)):  # new rows appended too
        part = split(after, key)
        table.set_run(key, part, human_scores(part.scores).get(key))
    # The rows came in another order: a fresh table with that order is the reference.
    fresh = ValidityTable.of(after, human_scores(after.scores), runs, COUNTERPARTS, auto,
                             rows=table.keys)  # fmt: skip
    assert fresh.keys == table.keys
    for name in ("human", "scalar", "group", "n_open", "n_adjudicated"):
        assert np.array_equal(getattr(table, name), getattr(fresh, name), equal_nan=True)
    for m in COUNTERPARTS:
        for name in ("score", "open", "median", "auto"):
            assert np.array_equal(getattr(table, name)[m], getattr(fresh, name)[m],
                                  equal_nan=name != "open")  # fmt: skip
    report = validity_report([], runs, COUNTERPARTS, table=table)
    assert through_table(report) == plain(after, runs, auto, order=table.keys)
    assert not math.isnan(sum(d.difference for d in report.disagreements))


@pytest.mark.parametrize("seed", range(4))
def test_each_rows_counterpart_is_its_runs_value_or_nan(seed: int) -> None:
    """The scorer's column of every metric, those with a counterpart and those without
    (``verification``; looked up or not), row by row as the mapping has it."""
    consensus, runs, auto = world(seed)
    table = ValidityTable.of(consensus, human_scores(consensus.scores), runs, METRICS, auto)
    assert set(table.metrics) == set(METRICS) and "verification" not in COUNTERPARTS
    for m in METRICS:
        plain_auto = [auto.get((k, m), math.nan) for k in table.keys]
        assert [repr(v) for v in table.auto[m].tolist()] == [repr(v) for v in plain_auto]
    table.set_run("9999", Consensus({("9999", "safety"): 2.0}, {}, frozenset()), 2 / 3)
    assert math.isnan(table.auto["verification"][-1])


def units_of(consensus: Consensus) -> UnitConsensus:
    """The consensus as units, in run order (each run's metrics in METRICS' order)."""
    keys = sorted({*consensus.scores, *consensus.open}, key=lambda k: (int(k[0]), k[1]))
    value = [consensus.scores.get(k, math.nan) for k in keys]
    median = [math.nan if consensus.open.get(k) is None else consensus.open[k] for k in keys]
    return UnitConsensus(
        run=np.array([int(r) for r, _ in keys], dtype=np.int64),
        metric=np.array([METRICS.index(m) for _, m in keys], dtype=np.int64),
        value=np.array(value, dtype=np.float64),
        open=np.array([k in consensus.open for k in keys], dtype=np.bool_),
        median=np.array(median, dtype=np.float64),
        adjudicated=np.array([k in consensus.adjudicated for k in keys], dtype=np.bool_),
        metrics=METRICS,
    )


def assert_same_table(a: ValidityTable, b: ValidityTable) -> None:
    assert a.keys == b.keys and a.groups == b.groups
    for name in ("human", "scalar", "group", "n_open", "n_adjudicated"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True)
    for m in METRICS:
        for name in ("score", "open", "median", "auto"):
            assert np.array_equal(getattr(a, name)[m], getattr(b, name)[m],
                                  equal_nan=name != "open")  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_the_units_table_is_the_consensus_table(seed: int) -> None:
    """``of_units`` equals ``of`` of the units' consensus: rows given for every run (the
    dashboard's: nothing added after), for some, for none; and the runs as
    :class:`RunInfos` (read without making a RunInfo) give the table the dict gives."""
    consensus, runs, auto = world(seed)
    units = units_of(consensus)
    human = human_scores(units.consensus().scores)
    lazy = RunInfos(
        {k: (r.run_id, r.scenario_id, r.model, r.scalar,
             *(r.automatic.get(f) for f in AUTOMATIC_FIELDS)) for k, r in runs.items()}
    )  # fmt: skip
    every = sorted({str(pk) for pk in units.run.tolist()} | set(runs), key=int)
    for rows in (every, every[::3], []):
        want = ValidityTable.of(units.consensus(), human, runs, METRICS, auto, rows=rows)
        for infos in (runs, lazy):
            assert_same_table(ValidityTable.of_units(units, human, infos, METRICS, auto,
                                                     rows=rows), want)  # fmt: skip

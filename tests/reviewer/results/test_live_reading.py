"""What LiveResults does around its reading: the collector's thresholds come back, and the
modules of writing stay unloaded."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

from reviewer.results import live, run_columns


def test_the_collector_thresholds_come_back_after_overlapping_readings() -> None:
    before = gc.get_threshold()
    entered, outer_may_end = threading.Event(), threading.Event()

    def outer() -> None:  # the window's load, say, while a report is exported
        with live._fewer_collections():
            entered.set()
            outer_may_end.wait(5)

    thread = threading.Thread(target=outer)
    thread.start()
    assert entered.wait(5)
    with live._fewer_collections():  # overlaps the other reading
        assert gc.get_threshold()[0] == 100_000
    assert gc.get_threshold()[0] == 100_000  # the other reading still runs
    outer_may_end.set()
    thread.join(5)
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_when_reading_fails() -> None:
    before = gc.get_threshold()
    try:
        with live._fewer_collections():
            raise OSError("disk gone")
    except OSError:
        pass
    assert gc.get_threshold() == before


def test_the_run_order_sorts_as_run_order_keys_do() -> None:
    """``_in_run_order`` (``int`` as the key when every key is digits) equals sorting by
    ``_run_order``, with keys that are not digits too (they sort as 0, stably)."""
    import random

    rnd = random.Random(5)
    for _ in range(50):
        keys = [str(rnd.randint(1, 10_000)) for _ in range(rnd.randint(0, 40))]
        if rnd.random() < 0.4:
            keys += rnd.sample(["", "x", "-3", "12a", " 7"], rnd.randint(1, 3))
        rnd.shuffle(keys)
        assert live._in_run_order(keys) == sorted(keys, key=live._run_order)
        once = dict.fromkeys(keys)  # a dict of figures by run, as the callers pass
        assert live._in_run_order(once) == sorted(once, key=live._run_order)


#: What the dashboard's reading loads: the store opened to read, the point values built.
_READ_PATH = """
import sys
from pathlib import Path
from reviewer.results.live import LiveResults
from reviewer.workspace import ReviewStore
with ReviewStore.open(Path(sys.argv[1]), create=False, readonly=True) as store:
    data = LiveResults(store).data()
assert data.agreement is not None and data.meta.n_ratings == 2, data.meta
print(" ".join(sorted(sys.modules)))
"""

#: Loaded by writing only (sqlite-utils, importing runs and ratings files, collecting
#: sheets) or by the bootstrap and the charts after the point values: never before them.
_NOT_READ = (
    "sqlite_utils", "scoring.reader", "scoring.scorer", "scoring.aggregate", "reviewer.batch",
    "reviewer.store.importer", "reviewer.exchange.rating_import",
    "reviewer.exchange.phase_import", "reviewer.collecting.storage",
    "reviewer.collecting.adjudications", "reviewer.store.integrity", "reviewer.store.witness",
    "scoring.records", "scipy", "matplotlib",
    "cryptography",
)  # fmt: skip


def test_the_dashboard_reads_without_the_writers_modules(seeded, fill_rating) -> None:
    for rater in ("ann", "bob"):
        rating = fill_rating(seeded, seeded.start_rating(1, rater))
        seeded.submit(rating.rating_pk, expected_version=rating.version)
    done = subprocess.run(
        [sys.executable, "-c", _READ_PATH, str(seeded.path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "reviewer.workspace" in loaded  # the composed store, its features unloaded
    assert sorted(loaded & set(_NOT_READ)) == []


@pytest.mark.parametrize("seed", range(5))
def test_the_runs_read_in_one_pass_equal_the_two_readers(seed: int) -> None:
    """``_runs_of_rows`` (one pass, both kinds of run) makes what ``run_infos_of`` and
    ``runs_of`` make of the same rows: equal objects with their fields (and the
    ``automatic`` keys) in the same order, of the same types, the same scorer versions."""
    from reviewer.agreement.source import RUN_COLUMNS as INFO_COLUMNS
    from reviewer.agreement.source import run_infos_of
    from reviewer.leaderboard.runs import RUN_COLUMNS, runs_of

    table = run_rows(seed)
    as_info = [tuple(r[RUN_COLUMNS.index(c)] for c in INFO_COLUMNS) for r in table]
    for scenarios in ((), ("apu_fire",), ("engine_fail", "nowhere")):
        infos, (points, versions) = run_columns.runs_of_rows(table, scenarios)
        plain_infos = run_infos_of(as_info)
        plain_points, plain_versions = runs_of(table, scenarios)
        assert list(infos) == list(plain_infos) and versions == plain_versions
        pairs = [*zip(infos.values(), plain_infos.values(), strict=True)]
        pairs += [*zip(points, plain_points, strict=True)]
        for a, b in pairs:
            assert a == b and repr(a) == repr(b) and a.model_fields_set == b.model_fields_set
            assert list(vars(a).items()) == list(vars(b).items())
            assert [type(x) for x in vars(a).values()] == [type(x) for x in vars(b).values()]
        for a, b in zip(infos.values(), plain_infos.values(), strict=True):
            assert list(a.automatic.items()) == list(b.automatic.items())
            assert [type(x) for x in a.automatic.values()] == [
                type(x) for x in b.automatic.values()
            ]


@pytest.mark.parametrize("seed", range(5))
def test_the_counterparts_by_columns_equal_the_results_property(seed: int) -> None:
    """``_counterparts`` (a column per metric) equals ``ResultsData.counterparts`` (a call
    per run and metric) on runs with missing values, for every counterpart name, and
    raises as it does for a name it does not know."""
    from reviewer.leaderboard.runs import runs_of
    from reviewer.results.data import MetricInfo, ResultsData

    points, _ = runs_of(run_rows(seed))
    rnd = random.Random(seed)
    names = ["coverage", "order", "end_state", "all_passed", "safety", "scalar"]
    rnd.shuffle(names)
    metrics = [MetricInfo(id=f"m{i}", title="", counterpart=n) for i, n in enumerate(names)]
    metrics.insert(2, MetricInfo(id="plain", title="", counterpart=None))
    data = ResultsData.model_construct(runs=points, metrics=metrics)
    named = {m.id: m.counterpart for m in metrics if m.counterpart is not None}
    fast = run_columns.counterparts(points, named)
    plain = data.counterparts
    assert list(fast.items()) == list(plain.items())
    assert [type(v) for v in fast.values()] == [type(v) for v in plain.values()]
    with pytest.raises(ValueError, match="unknown counterpart"):
        run_columns.counterparts(points, {"m": "nonsense"})


@pytest.mark.parametrize("seed", range(5))
def test_validitys_counterparts_by_columns_equal_counterpart_table(seed: int) -> None:
    """``_counterpart_table`` equals ``counterpart_table`` (a call per run and metric) on
    runs whose ScoreCard fields are None or missing, for every counterpart name."""
    from reviewer.agreement.counterparts import counterpart_table
    from reviewer.agreement.records import RunInfo

    lazy, _ = run_columns.runs_of_rows(run_rows(seed))
    infos = dict(lazy)  # every RunInfo made
    rnd = random.Random(seed)
    for key in rnd.sample(sorted(infos), 10):  # a run read elsewhere, with fewer fields
        auto = {k: v for k, v in infos[key].automatic.items() if rnd.random() < 0.5}
        infos[key] = RunInfo(run_key=key, scalar=infos[key].scalar, automatic=auto)
    names = ["coverage", "order", "end_state", "all_passed", "safety", "scalar"]
    rnd.shuffle(names)
    named = {f"m{i}": n for i, n in enumerate(names)}
    for runs in (infos, lazy):  # the RunInfos' own columns, then the RunInfo objects'
        fast = run_columns.counterpart_table(runs, named)
        plain = counterpart_table(dict(runs), named)
        assert list(fast.items()) == list(plain.items())
        assert [type(v) for v in fast.values()] == [type(v) for v in plain.values()]
        with pytest.raises(ValueError, match="unknown counterpart"):
            run_columns.counterpart_table(runs, {"m": "nonsense"})


@pytest.mark.parametrize("seed", range(3))
def test_the_lazy_run_infos_read_what_their_run_infos_hold(seed: int) -> None:
    """``RunInfos.brief`` and ``RunInfos.column`` (no RunInfo made) give the scalar,
    scenario, model and ScoreCard fields the RunInfo objects hold, in the same order; a
    selection keeps its runs' order; the fields are those validity's reader names."""
    from reviewer.agreement.records import AUTOMATIC_FIELDS
    from reviewer.agreement.source import _AUTOMATIC

    assert AUTOMATIC_FIELDS == _AUTOMATIC
    lazy, _ = run_columns.runs_of_rows(run_rows(seed))
    made = dict(lazy)
    for key, info in made.items():
        assert lazy.brief(key) == (info.scalar, info.scenario_id, info.model)
    assert lazy.brief("no such run") is None
    for name in (*AUTOMATIC_FIELDS, "scalar", "extraneous"):
        want = [info.scalar if name == "scalar" else info.automatic.get(name)
                for info in made.values()]  # fmt: skip
        assert lazy.column(name) == want
    keys = set(random.Random(seed).sample(sorted(made), 5))
    assert list(lazy.only(keys).items()) == [(k, v) for k, v in made.items() if k in keys]


def run_rows(seed: int) -> list[tuple[Any, ...]]:
    """Rows of the leaderboard's ``RUN_COLUMNS`` as the ``runs`` table types them (REAL
    columns give floats, INTEGER ones ints), with NULLs wherever a column may hold one."""
    from reviewer.leaderboard.runs import RUN_COLUMNS

    rnd = random.Random(seed)

    def real() -> float | None:
        return None if rnd.random() < 0.2 else rnd.choice([0.0, 1.0, rnd.random()])

    def count() -> int | None:
        return None if rnd.random() < 0.2 else rnd.choice([0, 1, 3])

    out = []
    for pk in sorted(rnd.sample(range(1, 1000), 80)):
        values = {
            "run_pk": pk,
            "run_id": None if rnd.random() < 0.1 else f"run-{pk}",
            "scenario_id": rnd.choice([None, "apu_fire", "engine_fail"]),
            "model": rnd.choice([None, "m1", "m2"]),
            "status": rnd.choice(["scored", "provider_error"]),
            "scalar": real(),
            "coverage": real(),
            "order": real(),
            "end_state": real(),
            "all_passed": rnd.choice([None, 0, 1]),
            "safety_dangerous": count(),
            "safety_anti_procedure": count(),
            "extraneous": count(),
            "unsafe": rnd.choice([0, 1]),
            "scorer_version": rnd.choice(["1.0", "1.1"]),
        }
        out.append(tuple(values[c] for c in RUN_COLUMNS))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_the_two_counterpart_tables_built_together_equal_each_alone(seed: int) -> None:
    """``counterparts_and_table`` gives ``counterparts`` of the points and
    ``counterpart_table`` of the infos: built once when the runs' safety counts are all
    there (the two tables then hold the same values), apart when some are NULL (a
    RunPoint reads them as 0); two dicts either way."""
    from reviewer.agreement.counterparts import counterpart_table
    from reviewer.leaderboard.runs import RUN_COLUMNS

    at = (RUN_COLUMNS.index("safety_dangerous"), RUN_COLUMNS.index("safety_anti_procedure"))
    names = ["coverage", "order", "end_state", "all_passed", "safety", "scalar"]
    random.Random(seed).shuffle(names)
    named = {f"m{i}": n for i, n in enumerate(names)}
    rows = run_rows(seed)
    filled = [tuple(0 if i in at and v is None else v for i, v in enumerate(r)) for r in rows]
    assert any(r[at[0]] is None for r in rows)  # the first kind has NULL counts
    for table in (rows, filled):
        infos, (points, _versions) = run_columns.runs_of_rows(table, ("apu_fire",))
        infos = infos.only({str(p.run_pk) for p in points})
        made, auto = run_columns.counterparts_and_table(points, infos, named)
        want_made = run_columns.counterparts(points, named)
        want_auto = counterpart_table(dict(infos), named)
        assert list(made.items()) == list(want_made.items()) and made is not auto
        assert list(auto.items()) == list(want_auto.items())
        assert [type(v) for v in made.values()] == [type(v) for v in want_made.values()]
        assert [type(v) for v in auto.values()] == [type(v) for v in want_auto.values()]

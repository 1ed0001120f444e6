"""Runs read from the store's rows without validating again
(:meth:`RunPoint.from_store`, what :func:`runs_of` builds) equal the validated model of the
same values, on random rows as the ``runs`` table types them (REAL columns give floats,
INTEGER ones ints, NULL None): the same fields in the same order, of the same types,
equal, dumped and shown alike.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from reviewer.leaderboard.runs import RUN_COLUMNS, RunPoint, runs_of


def rows(seed: int) -> list[tuple[Any, ...]]:
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


def validated(row: tuple[Any, ...]) -> RunPoint:
    v = dict(zip(RUN_COLUMNS, row, strict=True))
    return RunPoint(
        run_pk=v["run_pk"], run_id=v["run_id"], scenario_id=v["scenario_id"],
        model=v["model"], status=v["status"], scalar=v["scalar"], coverage=v["coverage"],
        order=v["order"], end_state=v["end_state"],
        all_passed=None if v["all_passed"] is None else bool(v["all_passed"]),
        dangerous=v["safety_dangerous"] or 0, anti_procedure=v["safety_anti_procedure"] or 0,
        extraneous=v["extraneous"] or 0, unsafe=bool(v["unsafe"]),
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(5))
def test_points_from_rows_equal_validated_points(seed: int) -> None:
    table = rows(seed)
    fast, versions = runs_of(table)
    slow = [validated(r) for r in table]
    assert fast == slow
    assert versions == {r[RUN_COLUMNS.index("scorer_version")] for r in table}
    for a, b in zip(fast, slow, strict=True):
        assert list(vars(a).items()) == list(vars(b).items())
        assert [type(x) for x in vars(a).values()] == [type(x) for x in vars(b).values()]
        assert a.model_dump() == b.model_dump() and repr(a) == repr(b)
        assert a.model_fields_set == b.model_fields_set and hash(a) == hash(b)
    chosen, _ = runs_of(table, ["apu_fire"])
    assert chosen == [p for p in slow if p.scenario_id == "apu_fire"]

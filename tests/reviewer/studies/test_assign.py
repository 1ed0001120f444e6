"""The assignment algorithm's properties, for any sizes (hypothesis)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.studies.assign import AssignmentError, draw, extend


def _runs(n: int, tag: str = "") -> list[str]:
    return [hashlib.sha256(f"run {tag}{i}".encode()).hexdigest() for i in range(n)]


def _raters(n: int, tag: str = "r") -> list[str]:
    return [f"{tag}{i}" for i in range(n)]


@st.composite
def sizes(draw_: st.DrawFn) -> tuple[int, int, int, int, float]:
    n_raters = draw_(st.integers(1, 9))
    k = draw_(st.integers(1, n_raters))
    n_runs = draw_(st.integers(0, 60))
    seed = draw_(st.integers(0, 2**31))
    fraction = draw_(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    return n_runs, n_raters, k, seed, fraction


def _check_queues(assignments, raters) -> None:
    for rater in raters:
        positions = sorted(a.position for a in assignments if a.rater == rater)
        assert positions == list(range(1, len(positions) + 1))


@settings(max_examples=150, deadline=None)
@given(sizes())
def test_each_run_gets_k_distinct_raters_and_loads_are_balanced(params) -> None:
    n_runs, n_raters, k, seed, fraction = params
    runs, raters = _runs(n_runs), _raters(n_raters)
    out = extend(runs, raters, per_run=k, seed=seed, reveal_first=fraction)
    per_run = Counter(a.run_sha256 for a in out)
    assert set(per_run) == set(runs)
    assert all(count == k for count in per_run.values())
    assert len({(a.run_sha256, a.rater) for a in out}) == len(out)  # distinct raters per run
    loads = {r: sum(a.rater == r for a in out) for r in raters}
    mean = n_runs * k / n_raters
    assert all(abs(loads[r] - mean) < 1 for r in raters)  # every load within one of the mean
    _check_queues(out, raters)
    for rater in raters:  # the control arm is round(F · queue length) of each queue
        mine = [a for a in out if a.rater == rater]
        assert sum(a.reveal_first for a in mine) == round(fraction * len(mine))


@settings(max_examples=100, deadline=None)
@given(sizes(), st.integers(0, 30), st.integers(0, 3))
def test_extending_never_moves_existing_assignments(params, more_runs, more_raters) -> None:
    n_runs, n_raters, k, seed, fraction = params
    runs, raters = _runs(n_runs), _raters(n_raters)
    first = extend(runs, raters, per_run=k, seed=seed, reveal_first=fraction)
    raters2 = raters + _raters(more_raters, "new")
    runs2 = runs + _runs(more_runs, "more")
    added = extend(runs2, raters2, per_run=k, seed=seed, existing=first, reveal_first=fraction)
    assert {a.run_sha256 for a in added} == set(runs2) - set(runs)  # only the new runs
    both = first + added
    assert all(c == k for c in Counter(a.run_sha256 for a in both).values())
    _check_queues(both, raters2)
    if more_raters == 0:  # with the same raters, adding runs keeps the balance
        loads = {r: sum(a.rater == r for a in both) for r in raters}
        assert max(loads.values()) - min(loads.values()) <= 1


@settings(max_examples=50, deadline=None)
@given(sizes())
def test_same_inputs_same_assignment_in_any_input_order(params) -> None:
    n_runs, n_raters, k, seed, fraction = params
    runs, raters = _runs(n_runs), _raters(n_raters)
    a = extend(runs, raters, per_run=k, seed=seed, reveal_first=fraction)
    b = extend(list(reversed(runs)), raters, per_run=k, seed=seed, reveal_first=fraction)
    assert sorted(a, key=repr) == sorted(b, key=repr)


def test_a_new_rater_takes_new_runs_first() -> None:
    first = extend(_runs(12), ["a", "b", "c"], per_run=2, seed=1)  # loads 8, 8, 8
    added = extend(
        _runs(12) + _runs(4, "x"), ["a", "b", "c", "d"], per_run=2, seed=1, existing=first
    )
    # 4 new runs × 2 raters: d (load 0) is on every one of them.
    assert sum(a.rater == "d" for a in added) == 4


def test_the_draw_is_pinned_across_machines() -> None:
    # sha256("7\x1fpick\x1fabc\x1falice")[:8], big-endian: a fixed number on any machine.
    expected = int.from_bytes(hashlib.sha256(b"7\x1fpick\x1fabc\x1falice").digest()[:8], "big")
    assert draw(7, "pick", "abc", "alice") == expected


def test_too_many_raters_per_run_is_refused() -> None:
    with pytest.raises(AssignmentError, match="3 distinct raters of 2"):
        extend(_runs(2), ["a", "b"], per_run=3, seed=0)

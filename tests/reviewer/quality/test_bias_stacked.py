"""The bias bootstrap's replicates, weighted in one product for every table, equal a plain
weighted sum run by run.

:func:`reviewer.quality.consensus.panel_biases` weights each table's per-run Gram matrices
and moments by each replicate's counts of the runs with one product per stack of tables
(:func:`~reviewer.quality.consensus._stacked`: the tables side by side, zeros where a
table lacks a run). Here the same replicates (the same draws of the same seed) are summed
plainly, entry by entry over the runs with ``math.fsum``, then fitted and centred, and the
intervals compared: equal up to the order of floating-point additions (the draws are the
same, so it is the same bootstrap, not one equal in distribution only). Stacks cut small
give the same replicates as one stack.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reviewer.quality import consensus
from reviewer.quality.consensus import Cell, panel_biases
from reviewer.quality.panel import centre, columns, nullity, solve


def tables(seed: int) -> dict[str, list[Cell]]:
    """Three metrics of the same 30 runs (one of them missing some runs), and all pooled."""
    rng = np.random.default_rng(seed)
    cells: dict[str, list[Cell]] = {"a": [], "b": [], "c": []}
    for run in range(30):
        who = rng.choice(5, size=rng.integers(2, 5), replace=False)
        for metric in cells:
            if metric == "c" and run % 4 == 0:
                continue
            truth = rng.uniform(1, 2)
            for r in who:
                score = int(np.clip(round(truth + (r == 0) * 0.7 + rng.normal(0, 0.5)), 0, 3))
                cells[metric].append(Cell(run, (run, metric), f"r{r}", score))
    return {**cells, "all": [c for part in cells.values() for c in part]}


def plain_biases(cells: dict[str, list[Cell]], *, resamples: int, seed: int):
    """:func:`panel_biases` with each replicate's sums made run by run with ``math.fsum``."""
    fits = {key: consensus._Fit(columns(c)) for key, c in cells.items()}
    runs = np.unique(np.concatenate([f.d.runs for f in fits.values()]))
    n = len(runs)
    rng = np.random.default_rng(seed)
    block = max(1, min(resamples, 1_000_000 // n))
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        draws = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n)
        for fit in fits.values():
            mine = counts[:, np.searchsorted(runs, fit.d.runs)]
            k = fit.d.k
            gram = np.array([[[math.fsum(c * g for c, g in zip(row, fit.d.gram[:, i, j],
                                                                 strict=True))
                               for j in range(k)] for i in range(k)] for row in mine])  # fmt: skip
            moment = np.array([[math.fsum(c * m for c, m in zip(row, fit.d.moment[:, i],
                                                                 strict=True))
                                for i in range(k)] for row in mine])  # fmt: skip
            there = np.einsum("bii->bi", gram) > 0
            linked = nullity(gram) - (~there).sum(axis=1) == fit.nullity
            effects = solve(gram[linked], moment[linked])
            fit.replicates.append(centre(effects, fit.d.groups, there[linked]))
    return {key: fit.estimates(resamples) for key, fit in fits.items()}


@pytest.mark.parametrize("seed", range(3))
def test_the_stacked_replicates_are_the_plain_sums(seed: int) -> None:
    cells = tables(seed)
    got = panel_biases(cells, resamples=120, seed=seed)
    want = plain_biases(cells, resamples=120, seed=seed)
    assert got.keys() == want.keys()
    for key in got:
        assert got[key].keys() == want[key].keys() and got[key]
        for rater, e in got[key].items():
            w = want[key][rater]
            assert e.n == w.n and e.value == w.value  # the point estimate is not bootstrapped
            assert e.low == pytest.approx(w.low, rel=1e-12, abs=1e-12)
            assert e.high == pytest.approx(w.high, rel=1e-12, abs=1e-12)


def test_small_stacks_give_what_one_stack_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    cells = tables(7)
    one = panel_biases(cells, resamples=80, seed=3)
    monkeypatch.setattr(consensus, "STACK_BYTES", 1)  # every table a stack of its own
    apart = panel_biases(cells, resamples=80, seed=3)
    for key in one:
        for rater, e in one[key].items():
            w = apart[key][rater]
            assert (e.n, e.value) == (w.n, w.value)
            assert (e.low, e.high) == pytest.approx((w.low, w.high), rel=1e-12, abs=1e-12)

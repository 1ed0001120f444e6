"""The panel's consensus: a two-way additive model of the scores, robustly centred.

Each score is modelled as ``score[r, j] = item[j] + bias[r] (+ drift[r] · x[r, j]) + noise``
over whatever incomplete design the raters worked (raters see different runs). The item
effects are nuisance parameters eliminated by centring within each item (Frisch–Waugh), and
the rater effects solved by least squares. The model fixes them only up to a constant per
connected group of raters (raters linked by the runs they share), so each group's effects are
**centred on their median**: a rater's bias is their difference from the panel's consensus,
and one or two biased raters among several do not move the reference for the others, as the
median of "the other raters" of a run did (a +1 rater shifted every other rater's
leave-one-out median). What this cannot tell apart: when two raters only ever share runs
with each other, their difference is split between them; with half the raters or more biased
the same way, the centre follows them.

Intervals come from a cluster bootstrap over runs (all of a run's scores drawn together,
the fit and its centring redone in each replicate), as the replicates' standard deviation
with Student's t tails on the rater's runs - 1 (Hesterberg 2015, "What teachers should know
about the bootstrap", The American Statistician 69(4)). Replicates that leave a rater out or
split a group of raters are set aside.

:func:`corrected_differences` gives, per rater and run, the rater's score minus the mean of
the other raters' scores of that run each corrected for their own estimated bias (and drift):
the leave-one-out difference with the others' biases taken out, whose slope is the drift.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TypeVar

import numpy as np

from reviewer.quality.panel import Cell, Columns, Design, centre, columns, nullity, solve
from reviewer.quality.stats import Estimate
from reviewer.stats_kernels import t_quantile

__all__ = ["Cell", "Columns", "corrected_differences", "panel_biases", "rater_biases"]

K = TypeVar("K")


def rater_biases(
    cells: Sequence[Cell] | Columns, *, resamples: int = 1000, seed: int = 0
) -> dict[str, Estimate]:
    """``{rater: bias}`` for the raters who share an item with another: their effect in the
    additive model centred on the median rater of their group, with a cluster-bootstrap 95%
    interval over runs (``resamples`` replicates); its ``n`` is the runs it rests on."""
    return panel_biases({"": cells}, resamples=resamples, seed=seed)[""]


class _Fit:
    """One table's fit and the centred effects of its bootstrap replicates."""

    def __init__(self, data: Columns) -> None:
        self.d = d = Design(data, drift=False)
        self.present = d.n_runs > 0
        self.replicates: list[np.ndarray] = []
        if not d.n:
            return  # nobody shares an item: nothing to fit
        whole = d.gram.sum(axis=0)
        self.estimate = centre(solve(whole, d.moment.sum(axis=0)), d.groups, self.present)
        self.nullity = int(nullity(whole)) - int((~self.present).sum())

    def sums(self) -> np.ndarray:
        """Per run, its Gram matrix's entries then its moment vector (``(runs, k·k + k)``):
        what a replicate sums, each run weighted by its count."""
        d = self.d
        return np.concatenate([d.gram.reshape(len(d.runs), d.k * d.k), d.moment], axis=1)

    def add(self, sums: np.ndarray) -> None:
        """Refit and recentre each replicate from its weighted :meth:`sums` (a row each)."""
        k = self.d.k
        gram = sums[:, : k * k].reshape(len(sums), k, k)
        moment = sums[:, k * k :]
        # A replicate that leaves a rater out or splits a group has more unidentified
        # directions than the data's: its centring would compare what cannot be compared.
        there = np.einsum("bii->bi", gram) > 0
        linked = nullity(gram) - (~there).sum(axis=1) == self.nullity
        effects = solve(gram[linked], moment[linked])
        self.replicates.append(centre(effects, self.d.groups, there[linked]))

    def estimates(self, resamples: int) -> dict[str, Estimate]:
        drawn = np.concatenate(self.replicates) if self.replicates else np.zeros((0, self.d.k))
        out = {}
        for r, name in enumerate(self.d.raters):
            if not self.present[r]:
                continue
            m, value = int(self.d.n_runs[r]), float(self.estimate[r])
            mine = drawn[:, r][np.isfinite(drawn[:, r])]
            low = high = math.nan
            if m >= 2 and len(mine) >= max(20, resamples // 2):
                half = float(t_quantile(0.975, m - 1) * np.std(mine, ddof=1))
                low, high = value - half, value + half
            out[name] = Estimate(value, low, high, m)
        return out


def panel_biases(
    tables: Mapping[K, Sequence[Cell] | Columns], *, resamples: int = 1000, seed: int = 0
) -> dict[K, dict[str, Estimate]]:
    """:func:`rater_biases` of several tables of the same runs (each metric, and all of
    them) with one bootstrap: each replicate draws the runs once, for every table."""
    fits = {key: _Fit(columns(cells)) for key, cells in tables.items()}
    fits = {key: fit for key, fit in fits.items() if fit.d.n}
    runs = np.unique(np.concatenate([np.zeros(0, int), *(f.d.runs for f in fits.values())]))
    n = len(runs)
    where = {key: np.searchsorted(runs, fit.d.runs) for key, fit in fits.items()}
    stacks = _stacked(fits, where, n)
    rng = np.random.default_rng(seed)
    # Replicates in blocks, so that the counts (block x runs) stay small on large tables.
    block = max(1, min(resamples, 1_000_000 // max(n, 1)))
    for start in range(0, resamples if n else 0, block):
        size = min(block, resamples - start)
        # Each replicate's count of each run: n runs drawn with replacement.
        draws = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n).astype(float)
        for stack, parts in stacks:
            summed = counts @ stack  # every table of the stack, weighted, in one product
            for key, (a, b) in parts.items():
                fits[key].add(summed[:, a:b])
    return {key: fits[key].estimates(resamples) if key in fits else {} for key in tables}


#: The most a stack of tables' sums may take (bytes): the tables of one stack share a product.
STACK_BYTES = 64 << 20


def _stacked(
    fits: Mapping[K, _Fit], where: Mapping[K, np.ndarray], n: int
) -> list[tuple[np.ndarray, dict[K, tuple[int, int]]]]:
    """The tables' per-run :meth:`_Fit.sums` side by side, a row per run of all the tables
    (0 where a table lacks the run), in stacks of at most :data:`STACK_BYTES` (a table
    larger than that alone), with each table's columns in its stack. One product of a
    block's counts with a stack weights every table of it: a product per table of the
    counts gathered to its runs (and one more for the moments) was most of the bootstrap's
    time; the sums are the same up to the order of floating-point additions."""
    out: list[tuple[np.ndarray, dict[K, tuple[int, int]]]] = []
    group: list[K] = []
    width = 0

    def close() -> None:
        stack = np.zeros((n, width))
        parts: dict[K, tuple[int, int]] = {}
        at = 0
        for key in group:
            sums = fits[key].sums()
            parts[key] = (at, at + sums.shape[1])
            stack[where[key], at : at + sums.shape[1]] = sums
            at += sums.shape[1]
        out.append((stack, parts))

    for key, fit in fits.items():
        w = fit.d.k * fit.d.k + fit.d.k
        if group and (width + w) * n * 8 > STACK_BYTES:
            close()
            group, width = [], 0
        group.append(key)
        width += w
    if group:
        close()
    return out


def corrected_differences(
    cells: Sequence[Cell] | Columns, *, drift: bool
) -> dict[str, dict[int, float]]:
    """``{rater: {run: difference}}``: per run (the mean over its items), the rater's score
    minus the mean of the other raters' scores of the item, each less that rater's centred
    bias (and, with ``drift``, their centred drift times their covariate ``x``)."""
    d = Design(columns(cells), drift=drift)
    if not d.n:
        return {}
    coef = solve(d.gram.sum(axis=0), d.moment.sum(axis=0))
    k = d.k
    present = d.n_runs > 0
    bias = np.nan_to_num(centre(coef[:k], d.groups, present))
    slope = np.zeros(k)
    if drift:
        has_x = np.zeros(k, bool)
        has_x[np.unique(d.rater_idx[d.xc != 0])] = True
        slope = np.nan_to_num(centre(coef[k:], d.groups, has_x))
    # What each score says about its item once its rater's own bias and drift are taken out.
    z = d.y - bias[d.rater_idx] - slope[d.rater_idx] * d.xc
    n_items = int(d.item_idx.max()) + 1
    total = np.bincount(d.item_idx, weights=z, minlength=n_items)
    m = np.bincount(d.item_idx, minlength=n_items)
    diff = d.y - (total[d.item_idx] - z) / (m[d.item_idx] - 1)
    # The mean over each (rater, run)'s items.
    pairs, at = np.unique(d.rater_idx * len(d.runs) + d.run_idx, return_inverse=True)
    means = np.bincount(at, weights=diff) / np.bincount(at)
    out: dict[str, dict[int, float]] = {}
    for pair, mean in zip(pairs.tolist(), means.tolist(), strict=True):
        r, u = divmod(pair, len(d.runs))
        out.setdefault(d.raters[r], {})[int(d.runs[u])] = mean
    return out

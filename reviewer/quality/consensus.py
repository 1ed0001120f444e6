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
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import numpy as np
from scipy import stats

from reviewer.quality.stats import Estimate

#: Singular values below this fraction of the largest are the model's unidentified directions.
RTOL = 1e-9

K = TypeVar("K")


class Cell(NamedTuple):
    """One score: of ``rater`` on ``item`` (a run, or a run's metric) of ``run`` (the
    bootstrap's cluster), with the rater's covariate ``x`` for drift (NaN when unknown)."""

    run: int
    item: Hashable
    rater: str
    score: float
    x: float = math.nan


@dataclass(frozen=True)
class Columns:
    """Scores as columns, one entry a score (what the model reads; :meth:`of` makes them from
    cells): the rater (an index into ``raters``), the run, the item (any integer naming it
    apart from every other item), the score and the covariate."""

    raters: tuple[str, ...]
    rater: np.ndarray
    run: np.ndarray
    item: np.ndarray
    score: np.ndarray
    x: np.ndarray

    @classmethod
    def of(cls, cells: Sequence[Cell]) -> Columns:
        raters = tuple(sorted({c.rater for c in cells}))
        at = {r: i for i, r in enumerate(raters)}
        items: dict[Hashable, int] = {}
        return cls(
            raters,
            np.array([at[c.rater] for c in cells], dtype=int),
            np.array([c.run for c in cells], dtype=int),
            np.array([items.setdefault(c.item, len(items)) for c in cells], dtype=int),
            np.array([c.score for c in cells], dtype=float),
            np.array([c.x for c in cells], dtype=float),
        )

    def where(self, keep: np.ndarray) -> Columns:
        """The scores where ``keep`` is true."""
        return Columns(self.raters, self.rater[keep], self.run[keep], self.item[keep],
                       self.score[keep], self.x[keep])  # fmt: skip


def _columns(cells: Sequence[Cell] | Columns) -> Columns:
    return cells if isinstance(cells, Columns) else Columns.of(cells)


class _Design:
    """The scores laid out for least squares: per run, the Gram matrix and moment vector of
    the item-centred rater columns (``k`` bias columns, then ``k`` drift columns)."""

    def __init__(self, data: Columns, *, drift: bool) -> None:
        self.raters = data.raters
        self.k = k = len(data.raters)
        # Only items at least two raters scored say anything about the raters.
        _, items, counts = np.unique(data.item, return_inverse=True, return_counts=True)
        kept = data.where(counts[items] >= 2)
        self.n = n = len(kept.score)
        _, self.item_idx = np.unique(kept.item, return_inverse=True)
        runs, self.run_idx = np.unique(kept.run, return_inverse=True)
        self.runs = runs
        self.rater_idx, self.y = kept.rater, kept.score
        p = 2 * k if drift else k
        features = np.zeros((n, p))
        features[np.arange(n), self.rater_idx] = 1.0
        self.xc = self._centred_x(kept.x) if drift else np.zeros(n)
        if drift:
            features[np.arange(n), k + self.rater_idx] = self.xc
        # Centring within items removes the item effects (the columns' item means).
        n_items = int(self.item_idx.max()) + 1 if n else 0
        sums = np.zeros((n_items, p))
        np.add.at(sums, self.item_idx, features)
        m = np.bincount(self.item_idx, minlength=n_items).astype(float)
        centred = features - sums[self.item_idx] / np.maximum(m, 1)[self.item_idx, None]
        # Per run, the Gram matrix's entries one pair of columns at a time (an outer product
        # per score would take scores x p x p memory).
        self.gram = np.zeros((len(runs), p, p))
        for a in range(p):
            for b in range(a, p):
                entry = np.bincount(self.run_idx, centred[:, a] * centred[:, b], len(runs))
                self.gram[:, a, b] = self.gram[:, b, a] = entry
        self.moment = np.zeros((len(runs), p))
        for a in range(p):
            self.moment[:, a] = np.bincount(self.run_idx, centred[:, a] * self.y, len(runs))
        self.groups = self._groups()
        # Runs each rater shares with another rater.
        pairs = np.unique(self.rater_idx * max(len(runs), 1) + self.run_idx)
        self.n_runs = np.bincount(pairs // max(len(runs), 1), minlength=k)

    def _centred_x(self, x: np.ndarray) -> np.ndarray:
        """Each rater's covariate about their own mean (0 where unknown), so a rater's bias
        stays their average difference and their drift the slope about it."""
        known = np.isfinite(x)
        sums = np.bincount(self.rater_idx[known], weights=x[known], minlength=self.k)
        counts = np.bincount(self.rater_idx[known], minlength=self.k)
        means = sums / np.maximum(counts, 1)
        return np.where(known, x - means[self.rater_idx], 0.0)

    def _groups(self) -> list[list[int]]:
        """The raters linked (directly or through others) by shared items: two raters who
        share an item have a nonzero entry off the Gram matrix's diagonal."""
        linked = self.gram.sum(axis=0)[: self.k, : self.k] != 0
        group = [-1] * self.k
        groups: list[list[int]] = []
        for start in range(self.k):
            if group[start] >= 0 or not linked[start, start]:
                continue
            group[start], members, todo = len(groups), [start], [start]
            while todo:
                for other in np.flatnonzero(linked[todo.pop()]):
                    if group[other] < 0:
                        group[other] = len(groups)
                        members.append(int(other))
                        todo.append(int(other))
            groups.append(sorted(members))
        return groups


def _solve(gram: np.ndarray, moment: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of (a stack of) normal equations, the unidentified
    directions set to 0 (pseudo-inverse)."""
    inverse = np.linalg.pinv(gram, rtol=RTOL, hermitian=True)
    return np.asarray((inverse @ moment[..., None])[..., 0])


def _centre(effects: np.ndarray, groups: list[list[int]], present: np.ndarray) -> np.ndarray:
    """``effects`` (``(..., k)``) minus the median of the present raters' of each group;
    NaN for raters not present."""
    out = np.where(present, effects, np.nan)
    for group in groups:
        block = out[..., group]
        # A group with nobody present stays NaN (the 0s only keep nanmedian quiet).
        some = np.isfinite(block).any(axis=-1, keepdims=True)
        out[..., group] = block - np.nanmedian(np.where(some, block, 0), axis=-1, keepdims=True)
    return out


def _nullity(gram: np.ndarray) -> np.ndarray:
    values = np.linalg.eigvalsh(gram)
    top = np.max(values, axis=-1, keepdims=True)
    return np.asarray(np.sum(values <= RTOL * np.maximum(top, 1e-300), axis=-1))


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
        self.d = d = _Design(data, drift=False)
        self.present = d.n_runs > 0
        self.replicates: list[np.ndarray] = []
        if not d.n:
            return  # nobody shares an item: nothing to fit
        whole = d.gram.sum(axis=0)
        self.estimate = _centre(_solve(whole, d.moment.sum(axis=0)), d.groups, self.present)
        self.nullity = int(_nullity(whole)) - int((~self.present).sum())

    def add(self, counts: np.ndarray) -> None:
        """Refit and recentre with each run weighted by its count in each replicate."""
        gram = np.tensordot(counts, self.d.gram, axes=1)
        moment = counts @ self.d.moment
        # A replicate that leaves a rater out or splits a group has more unidentified
        # directions than the data's: its centring would compare what cannot be compared.
        there = np.einsum("bii->bi", gram) > 0
        linked = _nullity(gram) - (~there).sum(axis=1) == self.nullity
        effects = _solve(gram[linked], moment[linked])
        self.replicates.append(_centre(effects, self.d.groups, there[linked]))

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
                half = float(stats.t.ppf(0.975, m - 1) * np.std(mine, ddof=1))
                low, high = value - half, value + half
            out[name] = Estimate(value, low, high, m)
        return out


def panel_biases(
    tables: Mapping[K, Sequence[Cell] | Columns], *, resamples: int = 1000, seed: int = 0
) -> dict[K, dict[str, Estimate]]:
    """:func:`rater_biases` of several tables of the same runs (each metric, and all of
    them) with one bootstrap: each replicate draws the runs once, for every table."""
    fits = {key: _Fit(_columns(cells)) for key, cells in tables.items()}
    fits = {key: fit for key, fit in fits.items() if fit.d.n}
    runs = np.unique(np.concatenate([np.zeros(0, int), *(f.d.runs for f in fits.values())]))
    n = len(runs)
    where = {key: np.searchsorted(runs, fit.d.runs) for key, fit in fits.items()}
    rng = np.random.default_rng(seed)
    # Replicates in blocks, so that the counts (block x runs) stay small on large tables.
    block = max(1, min(resamples, 1_000_000 // max(n, 1)))
    for start in range(0, resamples if n else 0, block):
        size = min(block, resamples - start)
        # Each replicate's count of each run: n runs drawn with replacement.
        draws = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n).astype(float)
        for key, fit in fits.items():
            fit.add(counts[:, where[key]])
    return {key: fits[key].estimates(resamples) if key in fits else {} for key in tables}


def corrected_differences(
    cells: Sequence[Cell] | Columns, *, drift: bool
) -> dict[str, dict[int, float]]:
    """``{rater: {run: difference}}``: per run (the mean over its items), the rater's score
    minus the mean of the other raters' scores of the item, each less that rater's centred
    bias (and, with ``drift``, their centred drift times their covariate ``x``)."""
    d = _Design(_columns(cells), drift=drift)
    if not d.n:
        return {}
    coef = _solve(d.gram.sum(axis=0), d.moment.sum(axis=0))
    k = d.k
    present = d.n_runs > 0
    bias = np.nan_to_num(_centre(coef[:k], d.groups, present))
    slope = np.zeros(k)
    if drift:
        has_x = np.zeros(k, bool)
        has_x[np.unique(d.rater_idx[d.xc != 0])] = True
        slope = np.nan_to_num(_centre(coef[k:], d.groups, has_x))
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

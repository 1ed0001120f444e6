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
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from reviewer.quality.stats import Estimate

#: Singular values below this fraction of the largest are the model's unidentified directions.
RTOL = 1e-9


@dataclass(frozen=True)
class Cell:
    """One score: of ``rater`` on ``item`` (a run, or a run's metric) of ``run`` (the
    bootstrap's cluster), with the rater's covariate ``x`` for drift (NaN when unknown)."""

    run: int
    item: Hashable
    rater: str
    score: float
    x: float = math.nan


class _Design:
    """The scores laid out for least squares: per run, the Gram matrix and moment vector of
    the item-centred rater columns (``k`` bias columns, then ``k`` drift columns)."""

    def __init__(self, cells: Sequence[Cell], *, drift: bool) -> None:
        self.raters = sorted({c.rater for c in cells})
        self.k = k = len(self.raters)
        rater_at = {r: i for i, r in enumerate(self.raters)}
        item_at: dict[Hashable, int] = {}
        run_at: dict[int, int] = {}
        items = np.array([item_at.setdefault(c.item, len(item_at)) for c in cells], dtype=int)
        counts = np.bincount(items, minlength=len(item_at)) if len(cells) else np.zeros(0, int)
        shared = counts[items] >= 2 if len(cells) else np.zeros(0, bool)
        kept = [c for c, s in zip(cells, shared, strict=True) if s]
        self.cells = kept
        self.rater_idx = np.array([rater_at[c.rater] for c in kept], dtype=int)
        self.item_idx = np.array([item_at[c.item] for c in kept], dtype=int)
        self.run_idx = np.array([run_at.setdefault(c.run, len(run_at)) for c in kept], dtype=int)
        self.runs = list(run_at)
        self.y = np.array([c.score for c in kept], dtype=float)
        n, p = len(kept), 2 * k if drift else k
        features = np.zeros((n, p))
        features[np.arange(n), self.rater_idx] = 1.0
        if drift:
            self.xc = self._centred_x(np.array([c.x for c in kept], dtype=float))
            features[np.arange(n), k + self.rater_idx] = self.xc
        else:
            self.xc = np.zeros(n)
        # Centring within items removes the item effects (the columns' item means).
        n_items = len(item_at)
        sums = np.zeros((n_items, p))
        np.add.at(sums, self.item_idx, features)
        m = np.bincount(self.item_idx, minlength=n_items).astype(float)
        centred = features - sums[self.item_idx] / np.maximum(m, 1)[self.item_idx, None]
        self.gram = np.zeros((len(run_at), p, p))
        np.add.at(self.gram, self.run_idx, centred[:, :, None] * centred[:, None, :])
        self.moment = np.zeros((len(run_at), p))
        np.add.at(self.moment, self.run_idx, centred * self.y[:, None])
        self.groups = self._groups()
        # Runs each rater shares with another rater.
        pairs = {(int(r), int(u)) for r, u in zip(self.rater_idx, self.run_idx, strict=True)}
        self.n_runs = np.bincount([r for r, _ in pairs], minlength=k)

    def _centred_x(self, x: np.ndarray) -> np.ndarray:
        """Each rater's covariate about their own mean (0 where unknown), so a rater's bias
        stays their average difference and their drift the slope about it."""
        out = np.zeros_like(x)
        for r in range(self.k):
            mine = (self.rater_idx == r) & np.isfinite(x)
            if mine.any():
                out[mine] = x[mine] - x[mine].mean()
        return out

    def _groups(self) -> list[list[int]]:
        """The raters linked (directly or through others) by shared items."""
        parent = list(range(self.k))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        first: dict[int, int] = {}
        for r, j in zip(self.rater_idx, self.item_idx, strict=True):
            other = first.setdefault(int(j), int(r))
            parent[find(int(r))] = find(other)
        seen = sorted(set(int(r) for r in self.rater_idx))
        groups: dict[int, list[int]] = {}
        for r in seen:
            groups.setdefault(find(r), []).append(r)
        return list(groups.values())


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
    cells: Sequence[Cell], *, resamples: int = 1000, seed: int = 0
) -> dict[str, Estimate]:
    """``{rater: bias}`` for the raters who share an item with another: their effect in the
    additive model centred on the median rater of their group, with a cluster-bootstrap 95%
    interval over runs (``resamples`` replicates); its ``n`` is the runs it rests on."""
    d = _Design(cells, drift=False)
    if not d.cells:
        return {}
    present = d.n_runs > 0
    estimate = _centre(_solve(d.gram.sum(axis=0), d.moment.sum(axis=0)), d.groups, present)
    n = len(d.runs)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n, np.full(n, 1 / n), size=resamples).astype(float)
    gram = np.tensordot(weights, d.gram, axes=1)
    moment = weights @ d.moment
    # A replicate that leaves a rater out or splits a group has more unidentified
    # directions than the data's: the centring would compare what cannot be compared.
    there = np.einsum("bii->bi", gram) > 0
    linked = (_nullity(gram) - (~there).sum(axis=1)) == (
        _nullity(d.gram.sum(axis=0)) - (~present).sum()
    )
    replicates = _centre(_solve(gram[linked], moment[linked]), d.groups, there[linked])
    out = {}
    for r, name in enumerate(d.raters):
        if not present[r]:
            continue
        m = int(d.n_runs[r])
        drawn = replicates[:, r][np.isfinite(replicates[:, r])]
        low = high = math.nan
        if m >= 2 and len(drawn) >= max(20, resamples // 2):
            spread = float(np.std(drawn, ddof=1))
            half = float(stats.t.ppf(0.975, m - 1)) * spread
            low, high = float(estimate[r] - half), float(estimate[r] + half)
        out[name] = Estimate(float(estimate[r]), low, high, m)
    return out


def corrected_differences(cells: Sequence[Cell], *, drift: bool) -> dict[str, dict[int, float]]:
    """``{rater: {run: difference}}``: per run (the mean over its items), the rater's score
    minus the mean of the other raters' scores of the item, each less that rater's centred
    bias (and, with ``drift``, their centred drift times their covariate ``x``)."""
    d = _Design(cells, drift=drift)
    if not d.cells:
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
    sums: dict[tuple[int, int], list[float]] = {}
    for r, u, v in zip(d.rater_idx, d.run_idx, diff, strict=True):
        sums.setdefault((int(r), int(u)), []).append(float(v))
    out: dict[str, dict[int, float]] = {}
    for (r, u), values in sorted(sums.items()):
        out.setdefault(d.raters[r], {})[d.runs[u]] = sum(values) / len(values)
    return out

"""The scores as the consensus model reads them (:mod:`reviewer.quality.consensus`).

:class:`Columns` holds the scores as numpy columns; :class:`Design` lays them out for least
squares: centred within each item (which removes the item effects, Frisch–Waugh), summed
per run (the bootstrap's cluster) into Gram matrices and moment vectors, with the groups of
raters the shared items link. :func:`solve`, :func:`centre` and :func:`nullity` are the
linear algebra the fits share.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

#: Singular values below this fraction of the largest are the model's unidentified directions.
RTOL = 1e-9


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


def columns(cells: Sequence[Cell] | Columns) -> Columns:
    """``cells`` as columns (as they are when they already are)."""
    return cells if isinstance(cells, Columns) else Columns.of(cells)


class Design:
    """The scores laid out for least squares: per run, the Gram matrix and moment vector of
    the item-centred rater columns (``k`` bias columns, then ``k`` drift columns)."""

    def __init__(self, data: Columns, *, drift: bool) -> None:
        self.raters = data.raters
        self.k = k = len(data.raters)
        # Only items at least two raters scored say anything about the raters.
        _, items, counts = np.unique(data.item, return_inverse=True, return_counts=True)
        items = items.reshape(-1)
        keep = counts[items] >= 2
        kept = data.where(keep)
        self.n = n = len(kept.score)
        # The kept items numbered in order (as np.unique of the kept items would).
        renumber = np.cumsum(counts >= 2) - 1
        self.item_idx = renumber[items[keep]]
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
        for a in range(p):  # each column summed in the scores' order, as np.add.at sums
            sums[:, a] = np.bincount(self.item_idx, features[:, a], n_items)
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


def solve(gram: np.ndarray, moment: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of (a stack of) normal equations, the unidentified
    directions set to 0 (pseudo-inverse)."""
    inverse = np.linalg.pinv(gram, rtol=RTOL, hermitian=True)
    return np.asarray((inverse @ moment[..., None])[..., 0])


def centre(effects: np.ndarray, groups: list[list[int]], present: np.ndarray) -> np.ndarray:
    """``effects`` (``(..., k)``) minus the median of the present raters' of each group;
    NaN for raters not present."""
    out = np.where(present, effects, np.nan)
    for group in groups:
        block = out[..., group]
        # A group with nobody present stays NaN (the 0s only keep nanmedian quiet).
        some = np.isfinite(block).any(axis=-1, keepdims=True)
        out[..., group] = block - np.nanmedian(np.where(some, block, 0), axis=-1, keepdims=True)
    return out


def nullity(gram: np.ndarray) -> np.ndarray:
    """How many directions (a stack of) Gram matrices leave unidentified."""
    values = np.linalg.eigvalsh(gram)
    top = np.max(values, axis=-1, keepdims=True)
    return np.asarray(np.sum(values <= RTOL * np.maximum(top, 1e-300), axis=-1))

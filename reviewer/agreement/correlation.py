"""Average ranks, Spearman's rho and Kendall's tau-b with numpy alone.

Validity reads rho per metric, tau per scenario and the models' ranks on the dashboard's
first figures; importing ``scipy.stats`` for them was half a second of every start. Each
function does the arithmetic SciPy 1.17's ``rankdata``, ``spearmanr`` and ``kendalltau``
do, in the same order, so the figures are the same to the bit (the tests hold them to
SciPy on random data with ties).

References: Spearman's rho is Pearson's correlation of the average ranks; Kendall's
tau-b is ``(concordant − discordant) / sqrt((n0 − n1)(n0 − n2))`` with ``n0`` the pairs,
``n1`` and ``n2`` the pairs tied in x and in y (Kendall 1945, "The treatment of ties in
ranking problems").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def average_ranks(values: Sequence[float] | Floats) -> Floats:
    """Ranks 1..n of ``values``, ties sharing the average of the ranks they span."""
    x = np.asarray(values)
    n = len(x)
    order = np.argsort(x, kind="stable")
    ordered = x[order]
    first = np.concatenate([[True], ordered[:-1] != ordered[1:]]) if n else np.ones(0, bool)
    starts = np.flatnonzero(first)
    counts = np.diff(starts, append=n)
    ordinal = np.arange(1, n + 1, dtype=np.float64)
    ranks = np.repeat(ordinal[first] + (counts.astype(np.float64) - 1) / 2, counts)
    out = np.empty(n, dtype=np.float64)
    out[order] = ranks
    return out


def spearman_rho(x: Floats, y: Floats) -> float:
    """Spearman's rho of two equally long arrays, neither constant, without NaN."""
    ranked = np.column_stack((average_ranks(x), average_ranks(y)))
    matrix: Floats = np.asarray(np.corrcoef(ranked, rowvar=False))
    return float(matrix[1, 0])


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two equally long sequences, each with two distinct values or
    more (a pair at a time: the scenarios rank a handful of models)."""
    n = len(x)
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(n, 1)
    dx, dy = np.sign(xs[i] - xs[j]), np.sign(ys[i] - ys[j])
    discordant = int((dx * dy < 0).sum())
    x_ties, y_ties = int((dx == 0).sum()), int((dy == 0).sum())
    joint = int(((dx == 0) & (dy == 0)).sum())
    total = n * (n - 1) // 2
    con_minus_dis = total - x_ties - y_ties + joint - 2 * discordant
    tau = con_minus_dis / np.sqrt(total - x_ties) / np.sqrt(total - y_ties)
    return float(min(1.0, max(-1.0, tau)))

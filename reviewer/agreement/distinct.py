"""The distinct values of an integer array and each value's code, as :func:`numpy.unique`
gives them, in one pass over small keys.

``numpy.unique`` sorts (or, without ``return_*``, hashes, after asking ``numpy.ma``
whether its input is masked: an import of the masked-array module, 9 ms of the
dashboard's first figures). Run keys, (run, metric) units and name codes are small
non-negative integers: a table indexed by value gives the same results without a sort, a
twentieth of the time on the dashboard's 210,000 items. Other values (negative, or spread
far wider than there are values) go to ``numpy.unique`` itself.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]


def _small(values: Ints) -> bool:
    """Whether a table indexed by ``values`` is no larger than a few copies of them."""
    return (
        bool(len(values)) and int(values.min()) >= 0 and int(values.max()) < 4 * len(values) + 1024
    )


def distinct(values: Ints) -> Ints:
    """``numpy.unique(values)`` of an integer array (its dtype kept)."""
    if not len(values):
        return np.zeros(0, dtype=values.dtype)
    if _small(values):
        present = np.zeros(int(values.max()) + 1, dtype=np.bool_)
        present[values] = True
        return np.flatnonzero(present).astype(values.dtype, copy=False)
    found: Ints = np.unique(values, return_counts=True)[0]
    return found


def sorted_codes(values: Ints) -> tuple[Ints, Ints]:
    """``numpy.unique(values, return_inverse=True)`` of a 1-d integer array: the distinct
    values, sorted, and each value's index among them."""
    if not _small(values):
        found, inverse = np.unique(values, return_inverse=True)
        return found, inverse.reshape(-1).astype(np.int64, copy=False)
    present = np.zeros(int(values.max()) + 1, dtype=np.bool_)
    present[values] = True
    found = np.flatnonzero(present)
    code = np.cumsum(present, dtype=np.int64) - 1  # a present value's place among them
    return found.astype(values.dtype, copy=False), code[values]


def first_appearance(values: Ints) -> tuple[Ints, Ints]:
    """``(codes, distinct)`` of a 1-d integer array: the distinct values in the order they
    first appear, and each value's index among them."""
    n = len(values)
    if not _small(values):
        found, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return rank[inverse.reshape(-1)], found[order]
    top = int(values.max()) + 1
    first = np.full(top, n, dtype=np.int64)
    np.minimum.at(first, values, np.arange(n, dtype=np.int64))  # each value's first place
    present = np.flatnonzero(first < n)
    in_order = present[np.argsort(first[present], kind="stable")]
    code = np.zeros(top, dtype=np.int64)
    code[in_order] = np.arange(len(in_order))
    return code[values], in_order.astype(values.dtype, copy=False)

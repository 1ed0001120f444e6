"""The distinct values of an integer array, sorted, as :func:`numpy.unique` gives them.

``numpy.unique`` without ``return_*`` asks ``numpy.ma`` whether its input is masked, which
imports the masked-array module (9 ms of the dashboard's first figures, which never use
it) and hashes every value. Run keys and codes are small non-negative integers: a table of
the values present gives them sorted in one pass. Other values go to ``numpy.unique``
with ``return_counts``, which sorts without asking ``numpy.ma``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]


def distinct(values: Ints) -> Ints:
    """``numpy.unique(values)`` of an integer array (its dtype kept)."""
    if not len(values):
        return np.zeros(0, dtype=values.dtype)
    low, high = int(values.min()), int(values.max())
    if low >= 0 and high < 4 * len(values) + 1024:  # a table no larger than a few copies
        present = np.zeros(high + 1, dtype=np.bool_)
        present[values] = True
        return np.flatnonzero(present).astype(values.dtype, copy=False)
    found: Ints = np.unique(values, return_counts=True)[0]
    return found

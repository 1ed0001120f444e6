"""``distinct`` is ``numpy.unique`` of an integer array: by a table of the values present
(small non-negative keys) or by sorting (negative or far-apart values), and an empty one."""

from __future__ import annotations

import numpy as np
import pytest

from reviewer.agreement.distinct import distinct


@pytest.mark.parametrize("seed", range(10))
def test_distinct_is_numpys_unique(seed: int) -> None:
    rnd = np.random.default_rng(seed)
    for n in (0, 1, 2, 7, 100, 5_000):
        for low, high in ((0, 3), (0, 10 * n + 2_000), (-5, 5), (0, 1 << 40)):
            values = rnd.integers(low, high, size=n, dtype=np.int64)
            got = distinct(values)
            assert got.dtype == values.dtype
            assert got.tolist() == np.unique(values).tolist()


def test_the_table_and_the_sort_meet_at_the_tables_limit() -> None:
    for top in (4 * 3 + 1023, 4 * 3 + 1024):  # the last a table takes, the first it does not
        values = np.array([top, 0, top], dtype=np.int64)
        assert distinct(values).tolist() == [0, top]

"""``distinct`` is ``numpy.unique`` of an integer array: by a table of the values present
(small non-negative keys) or by sorting (negative or far-apart values), and an empty one."""

from __future__ import annotations

import numpy as np
import pytest

from reviewer.agreement.distinct import distinct, first_appearance, sorted_codes


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


def _first_appearance_by_unique(values: np.ndarray) -> tuple[list[int], list[int]]:
    found, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)].tolist(), found[order].tolist()


@pytest.mark.parametrize("seed", range(10))
def test_the_codes_are_numpys_unique(seed: int) -> None:
    """``sorted_codes`` is ``numpy.unique`` with the inverse; ``first_appearance`` the
    distinct values in the order they first come, each value coded by its place there."""
    rnd = np.random.default_rng(seed)
    for n in (0, 1, 2, 7, 100, 5_000):
        for low, high in ((0, 3), (0, 10 * n + 2_000), (-5, 5), (0, 1 << 40)):
            values = rnd.integers(low, high, size=n, dtype=np.int64)
            found, inverse = sorted_codes(values)
            want_found, want_inverse = np.unique(values, return_inverse=True)
            assert found.tolist() == want_found.tolist() and found.dtype == values.dtype
            assert inverse.tolist() == want_inverse.reshape(-1).tolist()
            codes, in_order = first_appearance(values)
            assert (codes.tolist(), in_order.tolist()) == _first_appearance_by_unique(values)
            assert in_order.dtype == values.dtype
            assert [in_order[c] for c in codes.tolist()] == values.tolist()

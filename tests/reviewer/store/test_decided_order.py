"""The decided columns skip their sort when the items are stored in order already:
``_in_order`` says so exactly when the stable ``numpy.lexsort`` of the same keys would
leave every item where it is."""

from __future__ import annotations

import random

import numpy as np
import pytest

from reviewer.store.decided import _in_order


@pytest.mark.parametrize("seed", range(20))
def test_in_order_is_lexsort_leaving_the_items_in_place(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(200):
        n = rnd.randint(0, 12)
        keys = [np.array([rnd.randint(0, 2) for _ in range(n)], dtype=np.int64) for _ in "abc"]
        if rnd.random() < 0.5:  # sorted more often than chance would give
            rows = sorted(zip(*(k.tolist() for k in reversed(keys)), strict=True))
            keys = [np.array([r[2 - i] for r in rows], dtype=np.int64) for i in range(3)]
        minor, middle, major = keys
        stays = bool((np.lexsort((minor, middle, major)) == np.arange(n)).all())
        assert _in_order(minor, middle, major) == stays

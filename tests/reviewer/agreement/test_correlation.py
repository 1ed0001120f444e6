"""The numpy ranks, rho and tau equal SciPy's, to the bit, on random data with ties."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy import stats

from reviewer.agreement.correlation import average_ranks, kendall_tau_b, spearman_rho


def _values(rng: random.Random, n: int) -> list[float]:
    # Few distinct values (many ties), or thirds as the consensus means are, or floats.
    kind = rng.choice(("ties", "thirds", "floats"))
    if kind == "ties":
        return [float(rng.randint(0, 3)) for _ in range(n)]
    if kind == "thirds":
        return [rng.randint(0, 9) / 9 for _ in range(n)]
    return [rng.random() for _ in range(n)]


@pytest.mark.parametrize("seed", range(40))
def test_average_ranks_are_scipys(seed: int) -> None:
    rng = random.Random(seed)
    values = _values(rng, rng.randint(0, 30))
    assert average_ranks(values).tolist() == stats.rankdata(values).tolist()


@pytest.mark.parametrize("seed", range(60))
def test_spearman_is_scipys(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 200)
    x, y = np.array(_values(rng, n)), np.array(_values(rng, n))
    if x.min() == x.max() or y.min() == y.max():
        x[0], y[0] = x.max() + 1, y.min() - 1  # neither side constant, as the caller checks
    assert spearman_rho(x, y) == float(stats.spearmanr(x, y).statistic)


@pytest.mark.parametrize("seed", range(60))
def test_kendall_tau_b_is_scipys(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 12)
    x, y = _values(rng, n), _values(rng, n)
    if len(set(x)) < 2 or len(set(y)) < 2:
        x[0], y[0] = max(x) + 1, min(y) - 1
    assert kendall_tau_b(x, y) == float(stats.kendalltau(x, y).statistic)


def test_kendall_tau_b_by_hand() -> None:
    # x 1 2 3, y 1 3 2: pairs (1,2) concordant, (1,3) concordant, (2,3) discordant:
    # (2 − 1) / sqrt(3 · 3) = 1/3.
    assert kendall_tau_b([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)

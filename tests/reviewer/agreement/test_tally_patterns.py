"""The coincidence tally sums over the distinct count patterns: the same integers as the
plain sums over the units, from the definitions, whatever the units."""

from __future__ import annotations

import numpy as np
import pytest

from reviewer.agreement.tally import CoincidenceTally, patterns


def _plain(counts: np.ndarray, domain: tuple[float, ...]) -> dict[str, object]:
    """Each sum unit by unit, as the docstrings define them."""
    v = len(domain)
    by_size: dict[int, np.ndarray] = {}
    out = {"all": 0, "equal": 0, "near": 0, "units": 0, "pairable": 0}
    marginal = np.zeros(v, np.int64)
    for row in counts.tolist():
        m = sum(row)
        out["all"] += m * (m - 1) // 2
        out["equal"] += sum(n * (n - 1) // 2 for n in row)
        out["near"] += sum(
            row[c] * row[k] for c in range(v) for k in range(c + 1, v)
            if abs(domain[c] - domain[k]) == 1
        )  # fmt: skip
        if m >= 2:
            out["units"] += 1
            out["pairable"] += m
            marginal += np.array(row)
            cell = np.array([[row[c] * (row[k] - (c == k)) for k in range(v)] for c in range(v)])
            by_size[m] = by_size.get(m, np.zeros((v, v), np.int64)) + cell
    return {**out, "marginal": marginal.tolist(),
            "by_size": {k: t.tolist() for k, t in sorted(by_size.items()) if t.any()}}  # fmt: skip


def _tallied(tally: CoincidenceTally) -> dict[str, object]:
    return {
        "all": tally.all_pairs, "equal": tally.equal_pairs, "near": tally.adjacent_pairs,
        "units": tally.n_units, "pairable": tally.n_pairable,
        "marginal": tally.marginal.tolist(),
        "by_size": {k: t.tolist() for k, t in sorted(tally.by_size.items())},
    }  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_pattern_sums_are_the_unit_sums(seed: int) -> None:
    rng = np.random.default_rng(seed)
    domain = ((0.0, 1.0, 2.0, 3.0), (0.0, 1.0, 2.0), (0.0, 2.0, 3.0, 7.0))[seed % 3]
    # Few raters per unit (the dashboard), or many (a wide count: codes in another base).
    top = (4, 12, 300)[seed % 3 if seed < 9 else 2]
    counts = rng.integers(0, top, size=(int(rng.integers(0, 400)), len(domain)))
    tally = CoincidenceTally(domain)
    tally.add(counts)
    assert _tallied(tally) == _plain(counts, domain)
    half = len(counts) // 2  # taken out again with the counts they came with
    tally.add(counts[:half], sign=-1)
    assert _tallied(tally) == _plain(counts[half:], domain)


def test_patterns_count_every_unit_once() -> None:
    counts = np.array([[1, 0, 2], [0, 0, 0], [1, 0, 2], [3, 1, 0]])
    rows, units = patterns(counts)
    found = sorted(zip(map(tuple, rows.tolist()), units.tolist(), strict=True))
    assert found == [((0, 0, 0), 1), ((1, 0, 2), 2), ((3, 1, 0), 1)]
    huge = np.array([[1 << 40, 0], [1 << 40, 0], [0, 1]])  # base**width would overflow
    rows, units = patterns(huge)
    assert sorted(zip(map(tuple, rows.tolist()), units.tolist(), strict=True)) == [
        ((0, 1), 1), ((1 << 40, 0), 2),
    ]  # fmt: skip
    assert [len(x) for x in patterns(np.zeros((0, 4), np.int64))] == [0, 0]

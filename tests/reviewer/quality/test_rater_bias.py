"""The panel's consensus model (rater bias) on simulated raters with planted biases, in
incomplete designs, and against an independent least-squares fit.

Each run has 2-4 of the raters; its items' true values are drawn in [1.25, 1.75]. A score
is ``floor(truth + bias + noise + V)`` with V uniform on [0, 1) (dithered rounding, so the
integer's expectation is exactly ``truth + bias + noise``) and noise uniform on ±0.25,
clipped to 0-3: with planted biases of ±1 the clip never binds, so the planted bias is the
true one. The other simulation draws the house's integer noise (-1, 0, 0, 0, +1) and clips,
which shrinks a biased rater's effect but leaves every unbiased rater's true bias at 0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from reviewer.quality.consensus import Cell, corrected_differences, rater_biases


def _scores(rng, truth: float, bias: float, dither: bool) -> int:
    if dither:
        value = math.floor(truth + bias + rng.uniform(-0.25, 0.25) + rng.uniform())
    else:
        value = round(truth + bias + rng.choice([-1, 0, 0, 0, 1]))
    return int(np.clip(value, 0, 3))


def panel(rng, biases: list[float], *, runs: int, metrics: int = 1, dither: bool = True,
          per_run: tuple[int, ...] = (2, 3, 4)) -> list[Cell]:  # fmt: skip
    """Cells of ``runs`` runs, each scored on ``metrics`` items by 2-4 of the raters."""
    cells = []
    for run in range(runs):
        who = rng.choice(len(biases), size=min(len(biases), rng.choice(per_run)), replace=False)
        for metric in range(metrics):
            truth = rng.uniform(1.25, 1.75) if dither else float(rng.choice([1, 2]))
            for r in who:
                score = _scores(rng, truth, biases[r], dither)
                cells.append(Cell(run, (run, metric), f"r{r}", score))
    return cells


def _planted(rng) -> list[float]:
    """4-8 raters, one or two of them biased (two: of opposite signs among four, else any)."""
    k = int(rng.integers(4, 9))
    biases = [0.0] * k
    biases[0] = float(rng.choice([-1, 1]))
    if rng.uniform() < 0.5:
        biases[1] = -biases[0] if k == 4 else float(rng.choice([-1, 1]))
    return biases


def test_planted_biases_are_covered_at_the_nominal_rate_and_unbiased_raters_rarely_flagged():
    rng = np.random.default_rng(30)
    covered = biased = flagged = unbiased = 0
    for trial in range(200):
        biases = _planted(rng)
        found = rater_biases(panel(rng, biases, runs=24), resamples=200, seed=trial)
        for r, planted in enumerate(biases):
            e = found[f"r{r}"]
            if planted:
                biased += 1
                covered += e.low <= planted <= e.high
            else:
                unbiased += 1
                flagged += e.excludes_zero
    # Nominal 95%: about 300 biased raters, so a 0.1% two-sided binomial test.
    assert binomtest(covered, biased, 0.95).pvalue > 0.001, covered / biased
    # Nominal 5% (the median rater sits at 0 exactly, so a little below): about 900 raters.
    assert flagged / unbiased <= 0.10, flagged / unbiased


def test_unbiased_raters_beside_a_biased_one_are_not_flagged_with_integer_noise():
    """Five raters (one +1 point), 16 runs x 7 metrics: the median of the others flagged
    the unbiased four in about 3 trials of 4; the centred consensus, about 1 in 20."""
    rng = np.random.default_rng(31)
    flagged = found = 0
    for trial in range(60):
        cells = panel(rng, [1, 0, 0, 0, 0], runs=16, metrics=7, dither=False, per_run=(5,))
        fit = rater_biases(cells, resamples=200, seed=trial)
        found += fit["r0"].excludes_zero and fit["r0"].value > 0
        flagged += sum(fit[f"r{r}"].excludes_zero for r in range(1, 5))
    assert found == 60
    assert flagged / 240 <= 0.10, flagged / 240


def _lstsq_effects(cells: list[Cell]) -> dict[str, float]:
    """Independent: numpy's least squares on the dummy-coded design (one column per item,
    one per rater), its minimum-norm solution, the raters' coefficients less their median."""
    items = sorted({c.item for c in cells})
    raters = sorted({c.rater for c in cells})
    design = np.zeros((len(cells), len(items) + len(raters)))
    for row, c in enumerate(cells):
        design[row, items.index(c.item)] = 1
        design[row, len(items) + raters.index(c.rater)] = 1
    coef = np.linalg.lstsq(design, [c.score for c in cells], rcond=None)[0][len(items) :]
    return dict(zip(raters, coef - np.median(coef), strict=True))


@pytest.mark.parametrize("per_run", [(6,), (2, 3, 4)], ids=["complete", "incomplete"])
def test_the_estimate_matches_least_squares_on_the_dummy_coded_design(per_run) -> None:
    rng = np.random.default_rng(32)
    cells = panel(rng, [1, -1, 0, 0, 0, 0], runs=30, metrics=2, per_run=per_run)
    mine = rater_biases(cells, resamples=50)
    theirs = _lstsq_effects(cells)
    assert set(mine) == set(theirs)
    for rater, value in theirs.items():
        assert mine[rater].value == pytest.approx(value, abs=1e-9)


def test_two_raters_who_only_share_runs_with_each_other_split_their_difference() -> None:
    # Ann always 1 point above Bob on the same runs: the data cannot say who is off, so
    # each gets half (their group's median is their mean), and the interval says so.
    cells = [Cell(u, u, "ann", 2 + u % 2) for u in range(10)]
    cells += [Cell(u, u, "bob", 1 + u % 2) for u in range(10)]
    found = rater_biases(cells, resamples=100)
    assert found["ann"].value == pytest.approx(0.5) and found["bob"].value == pytest.approx(-0.5)
    assert found["ann"].n == 10


def test_edges() -> None:
    assert rater_biases([]) == {} and corrected_differences([], drift=True) == {}
    lone = [Cell(0, 0, "ann", 2), Cell(1, 1, "bob", 1)]  # nobody shares a run
    assert rater_biases(lone) == {} and corrected_differences(lone, drift=False) == {}
    one = rater_biases([Cell(0, 0, "ann", 2), Cell(0, 0, "bob", 1)])
    assert one["ann"].value == pytest.approx(0.5) and math.isnan(one["ann"].low)  # one run


def test_corrected_differences_take_the_others_bias_out() -> None:
    # Run 0: ann 3, bob 1, cat 1; run 1: ann 3, bob 1, cat 2; run 2: ann 2, bob 0, cat 1.
    cells = [Cell(u, u, r, s) for u, row in enumerate([(3, 1, 1), (3, 1, 2), (2, 0, 1)])
             for r, s in zip(("ann", "bob", "cat"), row, strict=True)]  # fmt: skip
    # Complete design: effects are the raters' means less the grand mean, centred on the
    # median: means 8/3, 2/3, 4/3 -> ann +4/3, bob -2/3, cat 0 after centring on cat.
    fit = rater_biases(cells, resamples=50)
    assert fit["ann"].value == pytest.approx(4 / 3) and fit["cat"].value == pytest.approx(0)
    d = corrected_differences(cells, drift=False)
    # Ann on run 0: 3 - mean(1 + 2/3, 1 - 0) = 3 - 4/3 = 5/3; her mean difference is her bias.
    assert d["ann"][0] == pytest.approx(5 / 3)
    assert np.mean(list(d["ann"].values())) == pytest.approx(4 / 3)


def test_raters_who_share_no_runs_are_centred_within_their_own_group() -> None:
    # Two panels that never meet: each is centred on its own median rater, since nothing
    # says how one panel's level compares with the other's. Ann and Dan score 1 point high.
    rng = np.random.default_rng(34)
    cells = []
    for group, names in enumerate((("ann", "bob", "cat"), ("dan", "eve", "fay"))):
        for run in range(group * 20, group * 20 + 20):
            truth = rng.choice([1, 2]) + group * 0.5  # the second panel's runs are better
            for name, bias in zip(names, (1, 0, 0), strict=True):
                cells.append(Cell(run, run, name, truth + bias + rng.choice([-0.5, 0, 0.5])))
    found = rater_biases(cells, resamples=200)
    for name in ("ann", "dan"):
        assert found[name].low <= 1 <= found[name].high and found[name].excludes_zero
    # The first panel's median rater is Bob or Cat (the higher of the two): exactly 0.
    assert max(found["bob"].value, found["cat"].value) == pytest.approx(0, abs=1e-12)
    assert math.isnan(rater_biases(cells, resamples=0)["ann"].low)  # no replicates, no interval

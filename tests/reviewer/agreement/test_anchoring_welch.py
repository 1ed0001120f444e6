"""Welch's interval of the anchoring difference when an arm does not vary."""

from __future__ import annotations

import warnings

from reviewer.agreement.anchoring import _welch


def test_an_arm_that_does_not_vary_gives_an_interval_and_no_warning() -> None:
    # Distances computed as 3 x a 0-1 counterpart differ in their last bits: the walkthrough
    # in docs/team.md printed scipy's "Precision loss" warning on such data.
    constant = [0.3 * 3, 0.9000000000000001, 0.9, 0.8999999999999999]
    varied = [0.0, 1.0, 2.0, 1.5]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        low, high, note = _welch(varied, constant)
    assert note is None and low < high
    # Welch with one exact-zero variance: mean difference 1.125 - 0.9, t(3) half-width.
    assert low < 1.125 - 0.9 < high


def test_two_arms_that_do_not_vary_give_no_interval() -> None:
    low, high, note = _welch([0.9, 0.9000000000000001], [1.2, 1.2])
    assert low is None and high is None and note is not None

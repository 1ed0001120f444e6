"""Confidence intervals shared by the features (pure: plain numbers in, numbers out)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
#: The bootstrap replicates of every interval by default (the ``agreement`` and
#: ``leaderboard`` verbs, the report, the dashboard's export): one number, so that a figure
#: the report shows is the one its command prints (the leaderboard verb once drew 2,000 and
#: the report's page 1,000: the same board with other ends). The window previews with
#: fewer (ui/results/results_loader.py) and says so.
RESAMPLES = 1000


def wilson(successes: int, n: int, *, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion (NaN, NaN for n = 0).

    Wilson, E. B. (1927) "Probable inference, the law of succession, and statistical
    inference", JASA 22, 209–212.
    """
    if n == 0:
        return math.nan, math.nan
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At 0 and n successes an end is exactly 0 or 1: rounding must not put it past the rate.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high

"""Average ranks, Spearman's rho and Kendall's tau-b with numpy alone, for validity.

They live in :mod:`reviewer.stats_kernels`, the lowest floor, so that the leaderboard and
the raters' quality use them too (neither may import this feature); the arithmetic is
SciPy 1.17's, the same to the bit (the tests hold them to ``scipy.stats``).
"""

from __future__ import annotations

from reviewer.stats_kernels import average_ranks, kendall_tau_b, spearman_rho

__all__ = ["average_ranks", "kendall_tau_b", "spearman_rho"]

"""Paired timing for the bench scripts: A and B alternate, the figure is the median ratio.

On a shared 2-core machine a neighbour can slow any single timing by half. Timing A and B
back to back, again and again (A B A B ...), and taking the median of the per-pair ratios
B/A keeps the figure about the code: a slow spell hits both halves of a pair. Every figure
is printed with its spread (min and max of the ratios) and the number of pairs.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Paired:
    """The timings of ``pairs`` A B pairs, and their ratios B/A."""

    a: list[float]
    b: list[float]

    @property
    def ratios(self) -> list[float]:
        """B/A per pair."""
        return [b / a for a, b in zip(self.a, self.b, strict=True)]

    def ratio(self) -> str:
        """``median× (min–max, N pairs)`` of B/A."""
        return spread(self.ratios, "×", 2)

    def seconds(self, which: str) -> str:
        """Median seconds of A or B with min and max."""
        return spread(self.a if which == "a" else self.b, " s", 3)


def spread(values: list[float], unit: str, digits: int) -> str:
    """``median<unit> (min–max, n=N)``."""
    med, lo, hi = statistics.median(values), min(values), max(values)
    return f"{med:.{digits}f}{unit} ({lo:.{digits}f}–{hi:.{digits}f}, n={len(values)})"


def timed(fn: Callable[[], object]) -> float:
    """Wall seconds of one call."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def paired(a: Callable[[], object], b: Callable[[], object], pairs: int, label: str) -> Paired:
    """Time ``a`` and ``b`` alternately ``pairs`` times (A B A B ...)."""
    result = Paired([], [])
    for n in range(pairs):
        result.a.append(timed(a))
        result.b.append(timed(b))
        print(f"bench: {label} pair {n + 1}/{pairs}: A {result.a[-1]:.3f} s, "
              f"B {result.b[-1]:.3f} s", file=sys.stderr)  # fmt: skip
    return result


def distribution(fn: Callable[[], object], repeat: int) -> list[float]:
    """``repeat`` wall timings of ``fn``, in order (no best-of: the spread is the figure)."""
    return [timed(fn) for _ in range(repeat)]


def histogram(values: list[float], unit_ms: bool = True) -> str:
    """Sorted values, for a distribution that is not one bump (e.g. a GC pause in some)."""
    scale, suffix = (1000, " ms") if unit_ms else (1, " s")
    return ", ".join(f"{v * scale:.0f}" for v in sorted(values)) + suffix

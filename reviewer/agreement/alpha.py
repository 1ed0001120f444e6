"""Krippendorff's alpha over units of values.

A :class:`Units` table counts, for each unit (a run), how many raters gave each value of
the value domain (for rubric scores 0..3; for outcomes their three codes). Missing values
simply are not counted. Alpha is undefined, and reported as ``None`` with a note, when
fewer than two values are pairable or the pairable values show no variation at all: the
formula would divide by zero there, and 0 or 1 would be a claim the data cannot make.
Alpha itself is computed by :class:`reviewer.agreement.tally.CoincidenceTally` (the one
implementation; the tests hold it to the ``krippendorff`` package).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from reviewer.agreement.tally import Alpha as Alpha
from reviewer.agreement.tally import Level as Level
from reviewer.agreement.tally import tally_of

LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")
#: The 0–3 scale of the rubric.
SCORE_DOMAIN: tuple[int, ...] = (0, 1, 2, 3)


@dataclass(frozen=True)
class Units:
    """Value counts per unit: ``counts[u, v]`` raters gave unit ``keys[u]`` ``domain[v]``.

    Units are sorted by key, so the order records arrive in never changes a result
    (the bootstrap included).
    """

    keys: tuple[Hashable, ...]
    domain: tuple[float, ...]
    counts: np.ndarray

    @classmethod
    def from_values(
        cls, values: Iterable[tuple[Hashable, float | None]], domain: Sequence[float]
    ) -> Units:
        """Units from ``(unit_key, value)`` pairs; a ``None`` value is missing."""
        index = {v: i for i, v in enumerate(domain)}
        unit_of: dict[Hashable, int] = {}  # unit key -> its row, in order of arrival
        cells: list[int] = []  # row * len(domain) + value index, one per value
        width = len(domain)
        for key, value in values:
            row = unit_of.setdefault(key, len(unit_of))
            if value is None:
                continue
            column = index.get(value)
            if column is None:
                raise ValueError(f"value {value!r} of unit {key!r} is outside the domain {domain}")
            cells.append(row * width + column)
        # Counted at once (a Python increment per value was most of the agreement report).
        flat = np.bincount(np.asarray(cells, dtype=np.int64), minlength=len(unit_of) * width)
        arrived = list(unit_of)
        order = sorted(range(len(arrived)), key=lambda row: str(arrived[row]))
        keys = tuple(arrived[row] for row in order)
        counts = flat.reshape(-1, width)[order] if order else np.zeros((0, width), np.int64)
        return cls(keys=keys, domain=tuple(domain), counts=counts)

    def pairable(self) -> Units:
        """Only the units with at least two values: the others carry no information."""
        keep = self.counts.sum(axis=1) >= 2
        keys = tuple(k for k, kept in zip(self.keys, keep, strict=True) if kept)
        return Units(keys=keys, domain=self.domain, counts=self.counts[keep])

    @property
    def n_units(self) -> int:
        """How many units have at least two values."""
        return int((self.counts.sum(axis=1) >= 2).sum())

    @property
    def n_pairable(self) -> int:
        """How many values sit in units with at least two values."""
        return int(self.pairable().counts.sum())

    def undefined_because(self) -> str | None:
        """Why alpha is undefined for these units, or ``None`` when it is defined."""
        return tally_of(self.counts, self.domain).undefined_because()

    def alpha(self, level: Level) -> Alpha:
        """Krippendorff's alpha at ``level``, or ``None`` with the reason it is undefined."""
        return tally_of(self.counts, self.domain).alpha(level)

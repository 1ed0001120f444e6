"""Krippendorff's alpha from integer sums that units can be added to and taken out of.

Alpha depends on the data only through the coincidence matrix
``o[c, k] = Σ_u n_uc·(n_uk − [c = k]) / (m_u − 1)`` (Krippendorff 2011, "Computing
Krippendorff's alpha-reliability", eq. for the coincidences), a sum over units. The
numerator ``n_uc·(n_uk − [c = k])`` of a unit is an integer matrix, so a
:class:`CoincidenceTally` keeps, per unit size ``m``, the integer sum of the numerators of
the units of that size, and divides only when alpha is asked for. Adding a unit and taking
it out again are exact; so a tally updated run by run holds the very integers a tally built
from scratch holds, and gives the same alpha to the last bit.

A unit's contribution depends on all of its values (``n_uc·n_uk`` is not additive), so a
changed unit is taken out with its old value counts and added with its new ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from reviewer.agreement.distinct import distinct

Level = Literal["nominal", "ordinal", "interval", "ratio"]


@dataclass(frozen=True)
class Alpha:
    """An alpha value, or ``None`` with the reason it is undefined."""

    value: float | None
    note: str | None = None


def _distances(n_c: np.ndarray, domain: np.ndarray, level: Level) -> np.ndarray:
    """``δ²`` per resample: shape ``(B, V, V)`` from marginals ``n_c`` of shape ``(B, V)``."""
    v = domain[None, :]
    if level == "nominal":
        d = 1.0 - np.eye(len(domain))
        return np.broadcast_to(d, (len(n_c), *d.shape))
    if level == "interval":
        d = (v.T - v) ** 2
        return np.broadcast_to(d, (len(n_c), *d.shape))
    if level == "ratio":
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.nan_to_num(((v.T - v) / (v.T + v)) ** 2)
        return np.broadcast_to(d, (len(n_c), *d.shape))
    if level == "ordinal":
        # Σ_{g=c..k} n_g − (n_c + n_k)/2 = C_k − C_c + (n_c − n_k)/2 with C the cumulative
        # marginals; the same expression holds for c > k, so no triangle needs special care.
        cum = np.cumsum(n_c, axis=1)
        d2: np.ndarray = (
            (cum[:, None, :] - cum[:, :, None]) + (n_c[:, :, None] - n_c[:, None, :]) / 2
        ) ** 2
        return d2
    raise ValueError(f"unknown level {level!r}")


def alphas_from_coincidences(o: np.ndarray, domain: np.ndarray, level: Level) -> np.ndarray:
    """Alpha for each coincidence matrix in ``o`` (shape ``(B, V, V)``); NaN where undefined.

    ``alpha = 1 − (n − 1)·Σ o_ck·δ_ck / Σ n_c·n_k·δ_ck`` with the marginals
    ``n_c = Σ_k o_ck``. The ordinal distance depends on those marginals, so it is computed
    per matrix (per bootstrap resample).
    """
    n_c = o.sum(axis=2)
    n = n_c.sum(axis=1)
    d = _distances(n_c, domain, level)
    observed = (o * d).sum(axis=(1, 2))
    expected = ((n_c[:, :, None] * n_c[:, None, :]) * d).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = 1.0 - (n - 1) * observed / expected
    out[~(expected > 0)] = np.nan
    return out


@dataclass
class CoincidenceTally:
    """Sums over units of value counts on ``domain``: what alpha and the pair shares need.

    ``by_size[m]``: the integer sum of ``n_u·n_uᵀ − diag(n_u)`` over the units of ``m``
    values (``m ≥ 2``); ``marginal``: the pairable values per domain value. The pair
    counts (equal, one apart, all) run over every unit, as the pair shares do.
    """

    domain: tuple[float, ...]
    by_size: dict[int, np.ndarray] = field(default_factory=dict)
    marginal: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    n_units: int = 0
    n_pairable: int = 0
    equal_pairs: int = 0
    adjacent_pairs: int = 0
    all_pairs: int = 0

    def __post_init__(self) -> None:
        if len(self.marginal) != len(self.domain):
            self.marginal = np.zeros(len(self.domain), np.int64)

    def add(self, counts: np.ndarray, sign: int = 1) -> None:
        """Add (``sign`` 1) or take out (``sign`` −1) units given by their value counts
        (shape ``(U, V)``, integers); a unit is taken out with the counts it was added with."""
        counts = np.asarray(counts, dtype=np.int64).reshape(-1, len(self.domain))
        # Every sum below is over units of a function of the unit's counts alone: summed
        # over the distinct count patterns (tens of them) times their units, it is the
        # same integer as over the units (tens of thousands on the dashboard).
        counts, units = patterns(counts)
        m = counts.sum(axis=1)
        # Pairs within each unit: m(m−1)/2 in all, n_c(n_c−1)/2 equal, n_c·n_k one apart.
        self.all_pairs += sign * int(units @ (m * (m - 1) // 2))
        self.equal_pairs += sign * int(units @ (counts * (counts - 1) // 2).sum(axis=1))
        domain = np.asarray(self.domain, dtype=np.float64)
        near = np.triu(np.abs(domain[:, None] - domain[None, :]) == 1).astype(np.int64)
        # Σ_u Σ_ck n_uc·n_uk·near_ck, in integers (einsum's three-operand loop was a third
        # of the dashboard's tally).
        self.adjacent_pairs += sign * int(units @ ((counts @ near) * counts).sum(axis=1))
        pairable = m >= 2
        self.n_units += sign * int(units[pairable].sum())
        self.n_pairable += sign * int(units[pairable] @ m[pairable])
        self.marginal = self.marginal + sign * (units[pairable] @ counts[pairable])
        diagonal = np.arange(len(self.domain))
        for size in distinct(m[pairable]):
            group, n = counts[m == size], units[m == size]
            numerator = (group * n[:, None]).T @ group  # Σ_u n_uc·n_uk
            numerator[diagonal, diagonal] -= n @ group  # a value never pairs itself
            key = int(size)
            total = self.by_size.get(key, 0) + sign * numerator
            if np.any(total):
                self.by_size[key] = total
            else:
                self.by_size.pop(key, None)  # no unit of this size left

    def coincidences(self) -> np.ndarray:
        """The coincidence matrix ``o`` (``V×V``), summed in one fixed order (by size)."""
        v = len(self.domain)
        o = np.zeros((v, v), dtype=np.float64)
        for size in sorted(self.by_size):
            o += self.by_size[size] / (size - 1)
        return o

    def undefined_because(self) -> str | None:
        """Why alpha is undefined for these units, or ``None`` when it is defined."""
        n = self.n_pairable
        if n < 2:
            return f"fewer than two pairable values ({n}): no run has two scores"
        used = np.flatnonzero(self.marginal)
        if len(used) == 1:
            value = self.domain[int(used[0])]
            return f"no variation: every pairable value is {value:g}, so alpha is undefined"
        return None

    def alpha(self, level: Level) -> Alpha:
        """Krippendorff's alpha at ``level``, or ``None`` with the reason it is undefined."""
        note = self.undefined_because()
        if note is not None:
            return Alpha(None, note)
        o = self.coincidences()[None, :, :]
        value = alphas_from_coincidences(o, np.asarray(self.domain, np.float64), level)[0]
        return Alpha(float(value))

    def pair_shares(self) -> tuple[float | None, float | None]:
        """Over all pairs of values of the same unit, pooled: share equal, share within one."""
        if self.all_pairs == 0:
            return None, None
        equal, near = self.equal_pairs, self.equal_pairs + self.adjacent_pairs
        return equal / self.all_pairs, near / self.all_pairs


def patterns(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``counts`` (shape ``(U, V)``, integers ≥ 0), in no set order,
    and how many units have each: ``(P, V)`` and ``(P,)``."""
    if not len(counts):
        return counts, np.zeros(0, np.int64)
    base = int(counts.max()) + 1
    width = counts.shape[1]
    if base**width >= 1 << 62:  # codes would overflow: the rows compared as they are
        rows, n = np.unique(counts, axis=0, return_counts=True)
        return rows, n.astype(np.int64)
    place = base ** np.arange(width, dtype=np.int64)
    code = counts @ place  # each row as one integer in base ``base``
    if base**width <= 1 << 16:
        n = np.bincount(code, minlength=base**width)
        code = np.flatnonzero(n)
        n = n[code]
    else:
        code, n = np.unique(code, return_counts=True)
    return (code[:, None] // place) % base, n.astype(np.int64)


def unit_counts(units: np.ndarray, values: np.ndarray, n_units: int, width: int) -> np.ndarray:
    """Value counts per unit (shape ``(n_units, width)``) from one unit index and one value
    index per value (``values`` −1: a missing value, not counted)."""
    kept = values >= 0
    cells = units[kept] * width + values[kept]
    flat = np.bincount(cells, minlength=n_units * width)
    return flat.reshape(n_units, width)


def tally_of(counts: np.ndarray, domain: Sequence[float]) -> CoincidenceTally:
    """A tally of the units ``counts`` (shape ``(U, V)``)."""
    tally = CoincidenceTally(tuple(domain))
    tally.add(counts)
    return tally

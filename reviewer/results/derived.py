"""Per-run and per-metric figures derived from the rating records, each in one pass.

:class:`~reviewer.results.data.ResultsData` caches them (computed off the GUI thread when
the data is gathered), so drawing a chart on 30,000 ratings only plots.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from reviewer.agreement.records import RatingRecord


def outcome_counts(records: Iterable[RatingRecord]) -> dict[str, tuple[int, int, int]]:
    """``{metric_id: (rated items, Not applicable, Not observed)}``: sums over runs."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in records:
        c = counts[r.metric_id]
        c[0] += 1
        c[1] += r.outcome == "not_applicable"
        c[2] += r.outcome == "not_observed"
    return {m: (n, na, no) for m, (n, na, no) in counts.items()}


def rates_of(counts: Mapping[str, tuple[int, int, int]]) -> dict[str, tuple[int, float, float]]:
    """``{metric_id: (rated items, N/A share, N/O share)}`` of :func:`outcome_counts`."""
    return {m: (n, na / n, no / n) for m, (n, na, no) in counts.items() if n}


def outcome_rates(records: Iterable[RatingRecord]) -> dict[str, tuple[int, float, float]]:
    """``{metric_id: (rated items, Not applicable share, Not observed share)}``."""
    return rates_of(outcome_counts(records))


def rater_spread(records: Sequence[RatingRecord]) -> dict[str, tuple[int, float]]:
    """``{run_key: (raters, largest max−min score gap over metrics)}`` for runs rated by two
    or more: where the raters disagree most."""
    scores: dict[tuple[str, str], list[int]] = defaultdict(list)
    raters: dict[str, set[str]] = defaultdict(set)
    for r in records:
        raters[r.run_key].add(r.rater)
        if r.score is not None:
            scores[(r.run_key, r.metric_id)].append(r.score)
    widest: dict[str, float] = defaultdict(float)
    for (run, _metric), given in scores.items():
        gap = float(max(given) - min(given))
        if gap > widest[run]:
            widest[run] = gap
    return {k: (len(v), widest[k]) for k, v in raters.items() if len(v) > 1}

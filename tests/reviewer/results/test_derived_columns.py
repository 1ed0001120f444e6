"""The per-run and per-metric sums read from record columns equal a plain count.

:func:`derived.outcome_counts` and :func:`derived.rater_spread` work on
:class:`~reviewer.agreement.records.Columns` (numpy, read once for the tally too); here
they are held, on random records, to a computation written from the definitions with
dicts, record by record, including the order of the keys.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from reviewer.agreement.records import Columns, RatingRecord
from reviewer.results import derived


def records(seed: int) -> list[RatingRecord]:
    rnd = random.Random(seed)
    out = []
    for run in rnd.sample(range(200), 60):
        for rater in rnd.sample(["ann", "bob", "cy", "dee"], rnd.randint(1, 4)):
            for metric in rnd.sample(["safety", "procedure", "verification", "extra"], 3):
                outcome = rnd.choice(["applicable"] * 4 + ["not_applicable", "not_observed"])
                score = rnd.randint(0, 3) if outcome == "applicable" else None
                out.append(RatingRecord(run_key=str(run), rater=rater, metric_id=metric,
                                        outcome=outcome, score=score))  # fmt: skip
    return out


def plain_counts(recs: list[RatingRecord]) -> dict[str, tuple[int, int, int]]:
    counts: dict[str, list[int]] = {}
    for r in recs:
        c = counts.setdefault(r.metric_id, [0, 0, 0])
        c[0] += 1
        c[1] += r.outcome == "not_applicable"
        c[2] += r.outcome == "not_observed"
    return {m: (a, b, c) for m, (a, b, c) in counts.items()}


def plain_spread(recs: list[RatingRecord]) -> dict[str, tuple[int, float]]:
    raters: dict[str, set[str]] = {}
    scores: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in recs:
        raters.setdefault(r.run_key, set()).add(r.rater)
        if r.score is not None:
            scores[(r.run_key, r.metric_id)].append(r.score)
    widest = {k: max([float(max(v) - min(v)) for (run, _m), v in scores.items() if run == k],
                     default=0.0) for k in raters}  # fmt: skip
    return {k: (len(v), widest[k]) for k, v in raters.items() if len(v) > 1}


@pytest.mark.parametrize("seed", range(5))
def test_column_sums_equal_a_plain_count(seed: int) -> None:
    recs = records(seed)
    counts, spread = derived.outcome_counts(recs), derived.rater_spread(recs)
    assert list(counts.items()) == list(plain_counts(recs).items())  # same keys, same order
    assert list(spread.items()) == list(plain_spread(recs).items())
    assert derived.rater_spread(Columns.of(recs)) == spread
    assert any(gap > 0 for _n, gap in spread.values())
    singles = {r.run_key for r in recs} - set(spread)
    assert singles  # runs rated by one rater are left out, and there are some


def test_no_records_no_sums() -> None:
    assert derived.outcome_counts([]) == {} and derived.rater_spread([]) == {}

"""The agreement tally: updated run by run it equals a tally built from scratch, and its
alpha equals a textbook Krippendorff alpha written plainly here and the ``krippendorff``
package."""

from __future__ import annotations

from collections import defaultdict
from itertools import permutations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.agreement.alpha import SCORE_DOMAIN, Units
from reviewer.agreement.records import RatingRecord
from reviewer.agreement.report import agreement_report, tally_report
from reviewer.agreement.running import AgreementTally
from reviewer.agreement.tally import tally_of

RATERS = ("ann", "bob", "cy", "dee")
METRICS = ("safety", "procedure", "comms")


def textbook_alpha(units: dict[object, list[float]], level: str) -> float | None:
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability", step by step:
    the coincidence matrix from pairs of values within each unit, then 1 − D_o / D_e with the
    nominal, interval or ordinal metric. ``None`` when undefined."""
    values = sorted({v for vs in units.values() for v in vs})
    o = {(c, k): 0.0 for c in values for k in values}
    for vs in units.values():
        m = len(vs)
        if m < 2:
            continue
        for i, j in permutations(range(m), 2):  # ordered pairs of different raters
            o[(vs[i], vs[j])] += 1.0 / (m - 1)
    n_c = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(n_c.values())

    def delta(c: float, k: float) -> float:
        if level == "nominal":
            return 0.0 if c == k else 1.0
        if level == "interval":
            return (c - k) ** 2
        lo, hi = min(c, k), max(c, k)
        between = sum(n_c[g] for g in values if lo <= g <= hi)
        return (between - (n_c[c] + n_c[k]) / 2) ** 2

    observed = sum(o[(c, k)] * delta(c, k) for c in values for k in values)
    expected = sum(n_c[c] * n_c[k] * delta(c, k) for c in values for k in values)
    if n < 2 or expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected


def record(run: int, rater: str, metric: str, value: int) -> RatingRecord:
    """``value`` 0–3 a score, 4 Not applicable, 5 Not observed."""
    if value <= 3:
        return RatingRecord(
            run_key=str(run), rater=rater, metric_id=metric, outcome="applicable", score=value
        )
    outcome = "not_applicable" if value == 4 else "not_observed"
    return RatingRecord(run_key=str(run), rater=rater, metric_id=metric, outcome=outcome)


# A rating: (run, rater) -> {metric: value}; one rater's word on a run.
ratings = st.dictionaries(
    st.tuples(st.integers(1, 8), st.sampled_from(RATERS)),
    st.dictionaries(st.sampled_from(METRICS), st.integers(0, 5), min_size=1),
    max_size=24,
)


def records_of(table: dict[tuple[int, str], dict[str, int]]) -> list[RatingRecord]:
    return [
        record(run, rater, metric, value)
        for (run, rater), items in sorted(table.items())
        for metric, value in items.items()
    ]


def by_run(records: list[RatingRecord]) -> dict[str, list[RatingRecord]]:
    out: dict[str, list[RatingRecord]] = defaultdict(list)
    for r in records:
        out[r.run_key].append(r)
    return out


@settings(max_examples=150, deadline=None)
@given(before=ratings, after=ratings, order=st.randoms(use_true_random=False))
def test_a_tally_updated_run_by_run_equals_one_built_from_scratch(before, after, order) -> None:
    # Start from ``before`` (its runs added in any order), then every run of ``after`` is
    # submitted again: its old records taken out, its new ones added (runs ``after`` does
    # not rate keep their old records). The result must be the fresh tally of the outcome.
    old = by_run(records_of(before))
    tally = AgreementTally()
    keys = list(old)
    order.shuffle(keys)
    for key in keys:
        tally.add(old[key])
    new = by_run(records_of(after))
    for key in sorted(new):
        tally.add(old.get(key, []), sign=-1)
        tally.add(new[key])
    final = [r for key in sorted(set(old) | set(new)) for r in new.get(key, old.get(key, []))]
    fresh = agreement_report(final, metric_ids=METRICS, resamples=0)
    assert tally_report(tally, METRICS) == fresh  # to the last bit: integer sums


@settings(max_examples=150, deadline=None)
@given(table=ratings)
def test_the_tally_alpha_is_the_textbook_alpha_and_the_packages(table) -> None:
    records = [r for r in records_of(table) if r.score is not None]
    units: dict[object, list[float]] = defaultdict(list)
    for r in records:
        units[(r.run_key, r.metric_id)].append(float(r.score))  # type: ignore[arg-type]
    report = agreement_report(records_of(table), metric_ids=METRICS, resamples=0)
    pooled = textbook_alpha(units, "ordinal")
    for rater in report.raters:
        if pooled is None:
            assert rater.alpha_with is None
        else:
            assert rater.alpha_with == pytest.approx(pooled, abs=1e-9)
        left = {
            u: [
                float(r.score)
                for r in records
                if (r.run_key, r.metric_id) == u and r.rater != rater.rater
            ]  # type: ignore[arg-type]
            for u in units
        }
        expected = textbook_alpha(left, "ordinal")
        got = rater.alpha_without
        assert (got is None) == (expected is None)
        if expected is not None:
            assert got == pytest.approx(expected, abs=1e-9)
    counts = Units.from_values(((u, v) for u, vs in units.items() for v in vs), SCORE_DOMAIN)
    tally = tally_of(counts.counts, SCORE_DOMAIN)
    for level in ("nominal", "ordinal", "interval"):
        alpha = tally.alpha(level).value  # type: ignore[arg-type]
        if alpha is None:
            assert textbook_alpha(units, level) is None
            continue
        assert alpha == pytest.approx(textbook_alpha(units, level), abs=1e-9)
        package = krippendorff.alpha(
            value_counts=counts.pairable().counts, value_domain=list(SCORE_DOMAIN),
            level_of_measurement=level,
        )  # fmt: skip
        assert alpha == pytest.approx(float(package), abs=1e-9)


def test_a_rater_who_arrives_late_and_one_who_leaves() -> None:
    # cy rates only run 3, submitted last; bob's only rating is withdrawn (taken out).
    first = [record(1, "ann", "safety", 0), record(1, "bob", "safety", 1)]
    second = [record(2, "ann", "safety", 3), record(2, "bob", "safety", 3)]
    third = [record(3, "ann", "safety", 2), record(3, "cy", "safety", 0)]
    tally = AgreementTally()
    for run in (first, second, third):
        tally.add(run)
    assert tally.raters() == ["ann", "bob", "cy"]
    assert tally_report(tally, METRICS) == agreement_report(
        first + second + third, metric_ids=METRICS, resamples=0
    )
    tally.add(first, sign=-1)
    tally.add([record(1, "ann", "safety", 0)])
    assert tally_report(tally, METRICS) == agreement_report(
        [record(1, "ann", "safety", 0), *second, *third], metric_ids=METRICS, resamples=0
    )


def test_taking_everything_out_leaves_nothing() -> None:
    records = [record(1, "ann", "safety", 0), record(1, "bob", "safety", 2)]
    tally = AgreementTally.of(records)
    tally.add(records, sign=-1)
    assert tally.pooled.by_size == {} and tally.pooled.n_pairable == 0
    assert tally.raters() == [] and tally.metrics(METRICS) == []
    assert np.all(tally.pooled.marginal == 0)


def test_a_score_outside_the_domain_is_named() -> None:
    tally = AgreementTally(domain=(0, 1, 2))
    ok = RatingRecord(run_key="1", rater="a", metric_id="m", outcome="applicable", score=2)
    bad = RatingRecord(run_key="1", rater="b", metric_id="m", outcome="applicable", score=3)
    with pytest.raises(ValueError, match=r"score 3 is outside the domain \(0, 1, 2\)"):
        tally.add([ok, bad])

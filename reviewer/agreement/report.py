"""The agreement report: per metric, per rater and per pair of raters.

Pure: takes :class:`~reviewer.agreement.records.RatingRecord` values (already
:func:`~reviewer.agreement.records.select`-ed for a study and phase) and returns pydantic
models whose JSON is what ``a320-review agreement --format json`` prints.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from reviewer.agreement.alpha import SCORE_DOMAIN, Units
from reviewer.agreement.bootstrap import bca_interval, bootstrap_alpha, jackknife_alpha
from reviewer.agreement.records import Output, RatingRecord, metric_order
from reviewer.rubric import OUTCOMES


class MetricAgreement(Output):
    """Agreement on one metric; alphas are ``None`` (with ``note``) when undefined.

    ``ci_low``/``ci_high``: the 95% bias-corrected and accelerated (BCa) bootstrap interval
    of ``alpha_ordinal`` over samples of the runs with at least two scores (runs with fewer
    add nothing to alpha), drawn with replacement, the acceleration from the jackknife over
    runs; samples where alpha is undefined are left out. ``ci_method`` says so, with n.
    Below :data:`RELIABLE_INTERVAL_RUNS` runs the note says the interval is unreliable.
    """

    metric_id: str
    alpha_ordinal: float | None
    alpha_interval: float | None
    alpha_outcome: float | None
    ci_low: float | None
    ci_high: float | None
    units: int
    pairable_values: int
    exact_agreement: float | None
    within_one: float | None
    note: str | None
    ci_method: str | None = None


#: Below this many runs with two scores, simulated 95% BCa intervals of alpha covered the
#: true alpha clearly less often than 95% (docs/agreement.md gives the measurements).
RELIABLE_INTERVAL_RUNS = 30
CI_METHOD = "BCa bootstrap over runs, jackknife acceleration"


class RaterAgreement(Output):
    """One rater: volume, habits, and whether the others agree better without them.

    ``alpha_with``/``alpha_without``: ordinal alpha pooled over metrics (each run × metric
    is a unit) with every rater, and with this rater left out.
    """

    rater: str
    n_ratings: int
    mean_score: dict[str, float | None]
    not_applicable_rate: float | None
    not_observed_rate: float | None
    alpha_with: float | None
    alpha_without: float | None


class PairAgreement(Output):
    """Two raters: the runs both rated, and how often their scores are equal."""

    rater_a: str
    rater_b: str
    runs_shared: int
    score_pairs: int
    exact_agreement: float | None


class AgreementReport(Output):
    """Everything ``a320-review agreement`` reports."""

    metrics: list[MetricAgreement]
    raters: list[RaterAgreement]
    pairs: list[PairAgreement]


def score_units(records: Sequence[RatingRecord], domain: Sequence[float] = SCORE_DOMAIN) -> Units:
    """Scores by run; Not applicable and Not observed are missing, never a score."""
    return Units.from_values(((r.run_key, r.score) for r in records), domain)


def outcome_units(records: Sequence[RatingRecord]) -> Units:
    """Outcomes by run, coded by their position in ``OUTCOMES``; every item counts."""
    code = {o: i for i, o in enumerate(OUTCOMES)}
    return Units.from_values(((r.run_key, code[r.outcome]) for r in records), range(len(code)))


def pair_shares(units: Units) -> tuple[float | None, float | None]:
    """Over all pairs of values of the same unit, pooled: share equal, share within one."""
    counts = units.counts.astype(np.float64)
    domain = np.asarray(units.domain, dtype=np.float64)
    # Unordered pairs in a unit: (m² − Σ n_c²)/2 unequal, Σ n_c(n_c − 1)/2 equal.
    m = counts.sum(axis=1)
    total = float((m * (m - 1) / 2).sum())
    if total == 0:
        return None, None
    equal = float((counts * (counts - 1) / 2).sum())
    near = np.abs(domain[:, None] - domain[None, :]) == 1
    # Pairs one apart: Σ_u Σ_{c<k, |c−k|=1} n_uc·n_uk (upper triangle of the outer product).
    adjacent = float(np.einsum("uc,uk,ck->", counts, counts, np.triu(near)))
    return equal / total, (equal + adjacent) / total


def metric_agreement(
    metric_id: str,
    records: Sequence[RatingRecord],
    *,
    domain: Sequence[float] = SCORE_DOMAIN,
    seed: int = 0,
    resamples: int = 1000,
) -> MetricAgreement:
    """Alphas, bootstrap interval and pair shares of one metric's records."""
    scores = score_units(records, domain)
    ordinal = scores.alpha("ordinal")
    interval = scores.alpha("interval")
    outcome = outcome_units(records).alpha("nominal")
    ci: tuple[float, float] | None = None
    if ordinal.value is not None and resamples > 0:
        # One stream per (seed, metric): a metric's interval does not depend on which other
        # metrics are in the report or on their order.
        rng = np.random.default_rng([seed, zlib.crc32(metric_id.encode())])
        replicates = bootstrap_alpha(scores, "ordinal", resamples=resamples, rng=rng)
        ci = bca_interval(ordinal.value, replicates, jackknife_alpha(scores, "ordinal"))
    exact, within = pair_shares(scores)
    notes = [a.note for a in (ordinal,) if a.note]

    if outcome.note and not notes:
        notes.append(f"outcome: {outcome.note}")
    if ci is not None and scores.n_units < RELIABLE_INTERVAL_RUNS:
        notes.append(
            f"interval unreliable: {scores.n_units} runs with two scores, fewer than "
            f"{RELIABLE_INTERVAL_RUNS}"
        )
    return MetricAgreement(
        metric_id=metric_id,
        alpha_ordinal=ordinal.value,
        alpha_interval=interval.value,
        alpha_outcome=outcome.value,
        ci_low=ci[0] if ci else None,
        ci_high=ci[1] if ci else None,
        units=scores.n_units,
        pairable_values=scores.n_pairable,
        exact_agreement=exact,
        within_one=within,
        note="; ".join(notes) or None,
        ci_method=f"{CI_METHOD}, {resamples} resamples, n = {scores.n_units} runs" if ci else None,
    )


def pooled_alpha(
    records: Sequence[RatingRecord], domain: Sequence[float] = SCORE_DOMAIN
) -> float | None:
    """Ordinal alpha with each (run, metric) as a unit: one figure for the whole rubric."""
    values = (((r.run_key, r.metric_id), r.score) for r in records)
    return Units.from_values(values, domain).alpha("ordinal").value


def rater_agreement(
    rater: str,
    records: Sequence[RatingRecord],
    metric_ids: Sequence[str],
    *,
    domain: Sequence[float] = SCORE_DOMAIN,
    alpha_with: float | None = None,
) -> RaterAgreement:
    """One rater's row; ``records`` are everyone's. ``alpha_with`` may be passed in when
    already computed (it is the same for every rater)."""
    own = [r for r in records if r.rater == rater]
    scores: dict[str, list[int]] = defaultdict(list)
    for r in own:
        if r.score is not None:
            scores[r.metric_id].append(r.score)
    n_items = len(own)

    def rate(outcome: str) -> float | None:
        return sum(r.outcome == outcome for r in own) / n_items if n_items else None

    return RaterAgreement(
        rater=rater,
        n_ratings=len({r.run_key for r in own}),
        mean_score={m: float(np.mean(scores[m])) if scores[m] else None for m in metric_ids},
        not_applicable_rate=rate("not_applicable"),
        not_observed_rate=rate("not_observed"),
        alpha_with=pooled_alpha(records, domain) if alpha_with is None else alpha_with,
        alpha_without=pooled_alpha([r for r in records if r.rater != rater], domain),
    )


def pair_agreement(a: str, b: str, records: Sequence[RatingRecord]) -> PairAgreement:
    """Runs rated by both ``a`` and ``b``, and the share of their equal scores."""
    by_key: dict[tuple[str, str], dict[str, int | None]] = defaultdict(dict)
    runs: dict[str, set[str]] = {a: set(), b: set()}
    for r in records:
        if r.rater in runs:
            runs[r.rater].add(r.run_key)
            by_key[(r.run_key, r.metric_id)][r.rater] = r.score
    both = [(v[a], v[b]) for v in by_key.values() if v.get(a) is not None and v.get(b) is not None]
    return PairAgreement(
        rater_a=a,
        rater_b=b,
        runs_shared=len(runs[a] & runs[b]),
        score_pairs=len(both),
        exact_agreement=sum(x == y for x, y in both) / len(both) if both else None,
    )


def agreement_report(
    records: Sequence[RatingRecord],
    *,
    metric_ids: Sequence[str] = (),
    domain: Sequence[float] = SCORE_DOMAIN,
    seed: int = 0,
    resamples: int = 1000,
) -> AgreementReport:
    """The full report; metrics in ``metric_ids`` order (the rubric's), then any others."""
    by_metric: dict[str, list[RatingRecord]] = defaultdict(list)
    for r in records:
        by_metric[r.metric_id].append(r)
    order = metric_order(records, metric_ids)
    raters = sorted({r.rater for r in records})
    everyone = pooled_alpha(records, domain)
    return AgreementReport(
        metrics=[
            metric_agreement(m, by_metric[m], domain=domain, seed=seed, resamples=resamples)
            for m in order
        ],
        raters=[
            rater_agreement(name, records, order, domain=domain, alpha_with=everyone)
            for name in raters
        ],
        pairs=[pair_agreement(a, b, records) for a, b in combinations(raters, 2)],
    )

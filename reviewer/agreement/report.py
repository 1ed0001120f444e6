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
from reviewer.agreement.records import Output, RatingRecord
from reviewer.agreement.running import AgreementTally
from reviewer.agreement.tally import CoincidenceTally, tally_of
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
    return tally_of(units.counts, units.domain).pair_shares()


def metric_interval(
    metric_id: str,
    records: Sequence[RatingRecord] | Units,
    estimate: float | None,
    *,
    domain: Sequence[float] = SCORE_DOMAIN,
    seed: int = 0,
    resamples: int = 1000,
) -> tuple[float, float] | None:
    """The BCa bootstrap interval of one metric's ordinal alpha (``estimate``), or ``None``
    (alpha undefined, no resamples, or an interval that cannot be formed). ``records``: the
    metric's records, or their :func:`score_units` already counted (from the items' columns:
    :meth:`reviewer.agreement.items.ItemColumns.score_units`, no record built)."""
    if estimate is None or resamples <= 0:
        return None
    scores = records if isinstance(records, Units) else score_units(records, domain)
    # One stream per (seed, metric): a metric's interval does not depend on which other
    # metrics are in the report or on their order.
    rng = np.random.default_rng([seed, zlib.crc32(metric_id.encode())])
    replicates = bootstrap_alpha(scores, "ordinal", resamples=resamples, rng=rng)
    return bca_interval(estimate, replicates, jackknife_alpha(scores, "ordinal"))


def metric_row(
    metric_id: str,
    scores: CoincidenceTally,
    outcomes: CoincidenceTally,
    ci: tuple[float, float] | None,
    resamples: int,
) -> MetricAgreement:
    """One metric's row from its tallies and its interval (``None``: not computed)."""
    ordinal = scores.alpha("ordinal")
    outcome = outcomes.alpha("nominal")
    exact, within = scores.pair_shares()
    notes = [a.note for a in (ordinal,) if a.note]
    if outcome.note and not notes:
        notes.append(f"outcome: {outcome.note}")
    point = MetricAgreement(
        metric_id=metric_id,
        alpha_ordinal=ordinal.value,
        alpha_interval=scores.alpha("interval").value,
        alpha_outcome=outcome.value,
        ci_low=None,
        ci_high=None,
        units=scores.n_units,
        pairable_values=scores.n_pairable,
        exact_agreement=exact,
        within_one=within,
        note="; ".join(notes) or None,
    )
    return with_interval(point, ci, resamples)


def with_interval(
    row: MetricAgreement, ci: tuple[float, float] | None, resamples: int
) -> MetricAgreement:
    """``row`` (its point values) with its bootstrap interval, the method, and the note an
    interval on few runs carries; ``row`` itself when there is no interval."""
    if ci is None:
        return row
    notes = [row.note] if row.note else []
    if row.units < RELIABLE_INTERVAL_RUNS:
        notes.append(
            f"interval unreliable: {row.units} runs with two scores, fewer than "
            f"{RELIABLE_INTERVAL_RUNS}"
        )
    return row.model_copy(
        update={
            "ci_low": ci[0],
            "ci_high": ci[1],
            "note": "; ".join(notes) or None,
            "ci_method": f"{CI_METHOD}, {resamples} resamples, n = {row.units} runs",
        }
    )


def metric_agreement(
    metric_id: str,
    records: Sequence[RatingRecord],
    *,
    domain: Sequence[float] = SCORE_DOMAIN,
    seed: int = 0,
    resamples: int = 1000,
) -> MetricAgreement:
    """Alphas, bootstrap interval and pair shares of one metric's records."""
    tally = AgreementTally.of([r for r in records if r.metric_id == metric_id], domain)
    return tally_report(tally, [metric_id], records, seed=seed, resamples=resamples).metrics[0]


def tally_report(
    tally: AgreementTally,
    metric_ids: Sequence[str],
    records: Sequence[RatingRecord] | None = None,
    *,
    seed: int = 0,
    resamples: int = 1000,
) -> AgreementReport:
    """The report from a tally; the metrics' intervals bootstrapped from ``records`` (the
    records the tally holds) when given and ``resamples`` > 0, else left empty."""
    order = tally.metrics(metric_ids)
    intervals: dict[str, tuple[float, float] | None] = dict.fromkeys(order)
    if records is not None and resamples > 0:
        by_metric: dict[str, list[RatingRecord]] = defaultdict(list)
        for r in records:
            by_metric[r.metric_id].append(r)
        for m in order:
            estimate = tally.scores[m].alpha("ordinal").value
            intervals[m] = metric_interval(
                m, by_metric[m], estimate, domain=tally.domain, seed=seed, resamples=resamples
            )
    raters = tally.raters()
    everyone = tally.pooled.alpha("ordinal").value
    return AgreementReport(
        metrics=[
            metric_row(m, tally.scores[m], tally.outcomes[m], intervals[m], resamples)
            for m in order
        ],
        raters=[
            RaterAgreement(
                rater=name,
                n_ratings=tally.rater_runs[name],
                mean_score={m: tally.mean_score(name, m) for m in order},
                not_applicable_rate=_share(tally.rater_na[name], tally.rater_items[name]),
                not_observed_rate=_share(tally.rater_no[name], tally.rater_items[name]),
                alpha_with=everyone,
                alpha_without=tally.without[name].alpha("ordinal").value,
            )
            for name in raters
        ],
        pairs=[
            PairAgreement(
                rater_a=a,
                rater_b=b,
                runs_shared=tally.shared_runs[(a, b)],
                score_pairs=tally.score_pairs[(a, b)],
                exact_agreement=_share(tally.equal_scores[(a, b)], tally.score_pairs[(a, b)]),
            )
            for a, b in combinations(raters, 2)
        ],
    )


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def pooled_alpha(
    records: Sequence[RatingRecord], domain: Sequence[float] = SCORE_DOMAIN
) -> float | None:
    """Ordinal alpha with each (run, metric) as a unit: one figure for the whole rubric."""
    return AgreementTally.of(records, domain).pooled.alpha("ordinal").value


def agreement_report(
    records: Sequence[RatingRecord],
    *,
    metric_ids: Sequence[str] = (),
    domain: Sequence[float] = SCORE_DOMAIN,
    seed: int = 0,
    resamples: int = 1000,
) -> AgreementReport:
    """The full report; metrics in ``metric_ids`` order (the rubric's), then any others.

    The point figures come from an :class:`~reviewer.agreement.running.AgreementTally`
    (sums over runs, which the dashboard updates run by run); the intervals from
    ``resamples`` bootstrap samples of the records (none for ``resamples=0``)."""
    tally = AgreementTally.of(records, domain)
    return tally_report(tally, metric_ids, records, seed=seed, resamples=resamples)

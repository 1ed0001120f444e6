"""How fast the agreement report is, bootstrap included.

    python bench/bench_agreement.py [--runs 1000] [--raters 4] [--bootstrap 1000] [--repeat 7]

(a) ``agreement_report`` on runs × raters × the default rubric's 7 metrics (simulated
    scores: a true score per run and metric, each rater off by one now and then, a few Not
    applicable / Not observed), with ``--bootstrap`` resamples per metric: the median, min and
    max of ``--repeat`` runs. Target: under 5 s for 1,000 × 4 × 7 with 1,000 resamples.
(b) The bootstrap of one metric two ways, in A/B pairs (A B A B …): A the coincidence-matrix
    path this project uses, B ``krippendorff.alpha`` called on each resample. The median
    per-pair ratio B/A with its min and max (B uses 100 resamples, scaled to ``--bootstrap``).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import krippendorff
import numpy as np

from reviewer.agreement.alpha import SCORE_DOMAIN
from reviewer.agreement.bootstrap import bootstrap_alpha
from reviewer.agreement.records import RatingRecord
from reviewer.agreement.report import agreement_report, score_units
from reviewer.rubric import default_rubric


def simulated(n_runs: int, n_raters: int, seed: int = 0) -> list[RatingRecord]:
    """Records of ``n_raters`` raters scoring every run on every metric of the rubric."""
    rng = random.Random(seed)
    out = []
    for run in range(n_runs):
        for metric in default_rubric().metric_ids:
            true = rng.randint(0, 3)
            for rater in range(n_raters):
                roll = rng.random()
                if roll < 0.05:
                    outcome, score = ("not_applicable" if roll < 0.025 else "not_observed"), None
                else:
                    noise = rng.choice((-1, 0, 0, 0, 1))
                    outcome, score = "applicable", min(3, max(0, true + noise))
                out.append(
                    RatingRecord(
                        run_key=f"run{run:05d}",
                        rater=f"rater{rater}",
                        metric_id=metric,
                        outcome=outcome,
                        score=score,
                    )
                )
    return out


def _naive(units, resamples: int, rng: np.random.Generator) -> None:
    counts = units.pairable().counts
    for _ in range(resamples):
        sample = counts[rng.integers(0, len(counts), len(counts))]
        krippendorff.alpha(
            value_counts=sample, value_domain=list(SCORE_DOMAIN), level_of_measurement="ordinal"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, metavar="N")
    parser.add_argument("--raters", type=int, default=4, metavar="N")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="N")
    parser.add_argument("--repeat", type=int, default=7, metavar="N")
    args = parser.parse_args()
    records = simulated(args.runs, args.raters)
    metrics = default_rubric().metric_ids
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        agreement_report(records, metric_ids=metrics, resamples=args.bootstrap)
        times.append(time.perf_counter() - start)
    units = score_units([r for r in records if r.metric_id == metrics[0]])
    ratios = []
    for pair in range(max(5, args.repeat)):
        start = time.perf_counter()
        bootstrap_alpha(units, "ordinal", resamples=args.bootstrap, rng=np.random.default_rng(pair))
        a = time.perf_counter() - start
        start = time.perf_counter()
        _naive(units, 100, np.random.default_rng(pair))
        b = (time.perf_counter() - start) * args.bootstrap / 100
        ratios.append(b / a)
    print(f"python {platform.python_version()}, {platform.machine()}, numpy {np.__version__}")
    print(
        f"{len(records)} records: {args.runs} runs × {args.raters} raters × {len(metrics)} "
        f"metrics, {args.bootstrap} bootstrap resamples per metric"
    )
    print("| measure | median | min | max |")
    print("|---|---|---|---|")
    print(
        f"| (a) agreement report, bootstrap included (s) | {statistics.median(times):.2f} "
        f"| {min(times):.2f} | {max(times):.2f} |"
    )
    print(
        f"| (b) bootstrap of one metric: krippendorff.alpha per resample / coincidence path "
        f"| {statistics.median(ratios):.0f}× | {min(ratios):.0f}× | {max(ratios):.0f}× |"
    )


if __name__ == "__main__":
    main()

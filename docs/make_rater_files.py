"""Simulated raters for the agreement example: one ratings CSV per rater, for `ratings import`.

Each rater scores every scored run of a review database. A run's "true" score per metric
follows the scorer (coverage for procedure application, the safety gate for safety, the
scalar otherwise); each rater then adds their own bias and noise, and now and then says
Not applicable or Not observed. The files are inputs for the README example, not data.

    python docs/make_rater_files.py --db demo.db --out raters/ --raters Ana,Ben,Chloe
"""

from __future__ import annotations

import argparse
import csv
import random
import sqlite3
from pathlib import Path

from reviewer.rubric import default_rubric


def _truth(metric: str, scalar: float, coverage: float, dangerous: int, anti: int) -> float:
    if metric == "procedure_application":
        return 3 * coverage
    if metric == "safety":
        return 0.0 if dangerous else 3 * 0.5**anti
    return 3 * scalar


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, metavar="DB")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    parser.add_argument("--raters", default="Ana,Ben,Chloe", metavar="A,B,C")
    parser.add_argument("--seed", type=int, default=0, metavar="N")
    args = parser.parse_args()
    conn = sqlite3.connect(args.db)
    runs = conn.execute(
        "SELECT run_id, scalar, coverage, safety_dangerous, safety_anti_procedure FROM runs"
        " WHERE status = 'scored' AND scalar IS NOT NULL ORDER BY run_pk"
    ).fetchall()
    metrics = default_rubric().metric_ids
    args.out.mkdir(parents=True, exist_ok=True)
    for i, rater in enumerate(args.raters.split(",")):
        rng = random.Random(f"{args.seed}-{rater}")
        bias = (-0.3, 0.0, 0.4, 0.2)[i % 4]
        path = args.out / f"{rater}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
            for run_id, scalar, coverage, dangerous, anti in runs:
                for metric in metrics:
                    roll = rng.random()
                    if roll < 0.03:
                        writer.writerow((run_id, metric, "not_applicable", "", "", ""))
                        continue
                    if roll < 0.06:
                        writer.writerow((run_id, metric, "not_observed", "", "no evidence", ""))
                        continue
                    true = _truth(metric, scalar, coverage, dangerous, anti)
                    score = min(3, max(0, round(true + bias + rng.gauss(0, 0.6))))
                    comment = "extreme: see the timeline" if score in (0, 3) else ""
                    # A 0 or a 1 cites a step (the rubric's evidence rule): the first action.
                    evidence = "GT:1" if score in (0, 1) else ""
                    writer.writerow((run_id, metric, "applicable", score, comment, evidence))
        print(path)


if __name__ == "__main__":
    main()

"""A database of runs of three models (one unsafe run) rated by three raters."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids
MODELS = ("alpha-model", "beta-model", "gamma-model")
UNSAFE_N = 4  # run 4 executed a dangerous command


def _card(make_card, n: int):
    model = MODELS[n % 3]
    unsafe = n == UNSAFE_N
    scalar = 0.0 if unsafe else round(0.3 + 0.07 * n, 2)
    return make_card(n).model_copy(
        update={
            "model": model,
            "scalar": scalar,
            "coverage": min(1.0, 0.4 + 0.06 * n),
            "order": None if n % 4 == 0 else 1.0,
            "safety_dangerous": 1 if unsafe else 0,
            "safety_anti_procedure": n % 2,
            "extraneous": n % 3,
            "all_passed": n % 2 == 0,
        }
    )


@pytest.fixture
def rated_db(tmp_path: Path, db_path: Path, make_card) -> Path:
    """Nine runs; Ana, Ben and Cy rate all of them with scores near 3 × coverage."""
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([_card(make_card, n) for n in range(9)])
        runs = store.list_runs()
        for bias, rater in enumerate(("Ana", "Ben", "Cy")):
            path = tmp_path / f"{rater}.csv"
            with path.open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
                for i, run in enumerate(runs):
                    for metric in METRICS:
                        if metric == "communication" and (i + bias) % 4 == 0:
                            w.writerow(
                                (run.run_id, metric, "not_observed", "", "no radio call", "")
                            )
                            continue
                        score = max(0, min(3, round(3 * (run.coverage or 0)) - (i + bias) % 2))
                        cited = "GT:1" if score < 2 else ""  # a low score cites a GT row
                        w.writerow((run.run_id, metric, "applicable", score, "seen", cited))
            store.import_ratings(path, rater=rater)
    return db_path

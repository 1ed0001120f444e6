"""Simulated raters with a planted bias, rated into a review store (the Raters tab and page).

Each run's true quality is 1 or 2; each rater adds their bias and a symmetric noise
(-1, 0, 0, 0, +1), clipped to 0-3, on every metric of the rubric.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from reviewer.rubric import default_rubric


def plant_ratings(
    store, folder: Path, run_ids: Sequence[str], biases: Mapping[str, int], *, seed: int = 3
) -> None:
    """Import one ratings file per rater of ``biases`` ({name: planted bias})."""
    rng = np.random.default_rng(seed)
    metrics = default_rubric().metric_ids
    truth = {run: int(rng.choice([1, 2])) for run in run_ids}
    for n, (rater, bias) in enumerate(biases.items()):
        path = folder / f"rater{n}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
            for run in run_ids:
                for metric in metrics:
                    noise = int(rng.choice([-1, 0, 0, 0, 1]))
                    score = int(np.clip(truth[run] + bias + noise, 0, 3))
                    w.writerow((run, metric, "applicable", score, "seen", "GT:1"))
        store.import_ratings(path, rater=rater)

"""The consensus rule on columns equals the rule on records, to the bit, on random data.

Random items (ties, Not applicable and Not observed, one to five raters per run, runs
with their own threshold, some metrics decided by an adjudication, some disputes left
open) go through :func:`~reviewer.agreement.unit_consensus.unit_consensus` and through
the definition: :func:`reviewer.adjudication.disputes.reported_values` over the people's
values, then :func:`~reviewer.agreement.consensus.build_consensus` over the records.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from reviewer.adjudication.disputes import reported_values
from reviewer.adjudication.model import Adjudication, AdjudicationItem
from reviewer.agreement.consensus import build_consensus
from reviewer.agreement.items import ItemColumns
from reviewer.agreement.unit_consensus import unit_consensus
from reviewer.agreement.validity import human_scores
from reviewer.rubric import OUTCOMES

METRICS = ("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8")


def _items(rnd: random.Random) -> ItemColumns:
    rows = []
    for run in rnd.sample(range(1, 200), rnd.randint(1, 40)):
        metrics = rnd.sample(range(len(METRICS)), rnd.randint(1, len(METRICS)))
        for rater in rnd.sample(range(5), rnd.randint(1, 5)):
            for metric in metrics:
                if rnd.random() < 0.15:
                    continue  # this rater left the metric out
                outcome = rnd.choice((0, 0, 0, 1, 2))
                score = rnd.choice((0, 1, 2, 3, 3)) if outcome == 0 else -1
                rows.append((run, rater, metric, outcome, score))
    rnd.shuffle(rows)
    rows.sort(key=lambda r: r[0])  # in run order, as the dashboard keeps them
    cols = np.array(rows, dtype=np.int64).reshape(-1, 5).T
    none = np.full(len(rows), -1, dtype=np.int64)
    return ItemColumns(
        run=cols[0], rater=cols[1], study=none, reveal=none, metric=cols[2],
        outcome=cols[3], score=cols[4], blind_outcome=none, blind_score=none,
        raters=("a", "b", "c", "d", "e"), judges=(False,) * 5, studies=(), metrics=METRICS,
    )  # fmt: skip


def _adjudication(pk: int, decided: dict[tuple[int, str], tuple[str, int | None]]) -> Adjudication:
    items = {
        m: AdjudicationItem(metric_id=m, outcome=o, score=s)  # type: ignore[arg-type]
        for (p, m), (o, s) in decided.items()
        if p == pk
    }
    at = "2026-01-01T00:00:00Z"
    return Adjudication(
        adjudication_pk=pk, run_pk=pk, adjudicator="adj", status="submitted", version=1,
        rubric_sha256="0" * 64, created_at=at, updated_at=at, items=items,
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(30))
def test_the_columns_consensus_is_the_records(seed: int) -> None:
    rnd = random.Random(seed)
    items = _items(rnd)
    records = items.records()
    runs = sorted(set(items.run.tolist()))
    thresholds = {pk: rnd.randint(1, 3) for pk in runs if rnd.random() < 0.7}
    decided: dict[tuple[int, str], tuple[str, int | None]] = {}
    for pk in rnd.sample(runs, len(runs) // 3):
        for metric in rnd.sample(METRICS, 2):
            outcome = rnd.choice(OUTCOMES)
            decided[(pk, metric)] = (
                outcome,
                rnd.randint(0, 3) if outcome == "applicable" else None,
            )
    # The definition: the people's values per (run, metric), the store's rule, the records.
    pairs: dict[tuple[int, str], list[tuple[str, int | None]]] = {}
    for r in records:
        pairs.setdefault((int(r.run_key), r.metric_id), []).append((r.outcome, r.score))
    in_force = {pk: _adjudication(pk, decided) for pk in {p for p, _m in decided}}
    reported = reported_values(
        None,  # type: ignore[arg-type]  (the pairs are given: no query)
        study=None,
        thresholds={pk: (None, t) for pk, t in thresholds.items()},
        in_force=in_force,
        pairs=pairs,
    )
    expected = build_consensus(records, {(str(pk), m): v for (pk, m), v in reported.items()})
    units = unit_consensus(items, thresholds, decided)
    got = units.consensus()
    assert (got.scores, got.open, got.adjudicated) == (
        expected.scores,
        expected.open,
        expected.adjudicated,
    )
    assert (list(got.scores), list(got.open)) == (list(expected.scores), list(expected.open))
    assert seed > 1 or (got.open and got.adjudicated)  # both kinds are tried
    human = human_scores(expected.scores)
    assert units.human_means() == human and list(units.human_means()) == list(human)
    # Nothing reported (a study the store lacks): the median everywhere, nothing open.
    plain = unit_consensus(items, thresholds, None).consensus()
    assert plain.scores == build_consensus(records).scores and not plain.open


def test_a_median_between_two_scores() -> None:
    # Scores 1 and 2, threshold 2: agreed, median (1 + 2) / 2 = 1.5.
    items = ItemColumns(
        run=np.array([7, 7]), rater=np.array([0, 1]), study=np.array([-1, -1]),
        reveal=np.array([-1, -1]), metric=np.array([0, 0]), outcome=np.array([0, 0]),
        score=np.array([1, 2]), blind_outcome=np.array([-1, -1]),
        blind_score=np.array([-1, -1]), raters=("a", "b"), judges=(False, False),
        studies=(), metrics=("m",),
    )  # fmt: skip
    assert unit_consensus(items, {}, {}).consensus().scores == {("7", "m"): 1.5}

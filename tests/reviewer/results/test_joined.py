"""The joined records and consensus patched run by run equal a join made afresh, order
included; a run joining or leaving the runs with records is refused (the caller joins
anew)."""

from __future__ import annotations

import random

import pytest

from reviewer.agreement.consensus import Consensus, build_consensus
from reviewer.agreement.records import RatingRecord
from reviewer.results.joined import Joined

METRICS = ("safety", "procedure", "verification")


def run_records(rnd: random.Random, key: str, metrics: tuple[str, ...]) -> list[RatingRecord]:
    return [
        RatingRecord(run_key=key, rater=rater, metric_id=m, outcome="applicable",
                     score=rnd.randint(0, 3))
        for rater in rnd.sample(["ann", "bob", "cy"], rnd.randint(1, 3)) for m in metrics
    ]  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_patches_equal_a_fresh_join(seed: int) -> None:
    rnd = random.Random(seed)
    order = [str(k) for k in range(1, 30)]
    records = {k: run_records(rnd, k, METRICS) for k in order}
    consensus = {k: build_consensus(rs) for k, rs in records.items()}
    joined = Joined(order, records, consensus)
    patched = rejoined = 0
    for _ in range(40):
        key = rnd.choice(order)
        metrics = METRICS if rnd.random() < 0.8 else METRICS[:2]  # sometimes other keys
        new = run_records(rnd, key, metrics)
        part = build_consensus(new)
        old = consensus[key]
        records[key], consensus[key] = new, part
        assert joined.replace(key, old, new, part)  # the consensus mapping is read again
        if list(part.scores) == list(old.scores) and list(part.open) == list(old.open):
            patched += 1  # the values patched where they stand
        else:
            rejoined += 1  # other keys: the consensus joined again, the records patched
        fresh = Joined(order, records, consensus)
        assert joined.all_records() == fresh.all_records()
        got, want = joined.consensus(), fresh.consensus()
        assert list(got.scores.items()) == list(want.scores.items())
        assert got.adjudicated == want.adjudicated
    assert patched and rejoined


def test_a_run_joining_or_leaving_is_refused() -> None:
    rnd = random.Random(0)
    records = {"1": run_records(rnd, "1", METRICS)}
    consensus = {"1": build_consensus(records["1"])}
    joined = Joined(["1"], records, consensus)
    new = run_records(rnd, "2", METRICS)
    assert not joined.replace("2", Consensus(), new, build_consensus(new))
    assert not joined.replace("1", consensus["1"], [], Consensus())
    assert joined.all_records() == records["1"]

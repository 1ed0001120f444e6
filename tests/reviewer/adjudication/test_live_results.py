"""The dashboard's data updated run by run after each submit equals a fresh gather.

:class:`reviewer.results.live.LiveResults` keeps per-run parts of every figure and, after a
submit, re-reads the run it touched. Here each step submits (a new rater, a correction that
settles or opens a dispute, an outcome changed to Not observed), updates only that run,
and compares every figure with a :class:`LiveResults` read from scratch: to the last bit,
because the sums are the same integers and the runs are assembled in the same order.
(It sits with the adjudication tests for their helpers: the consensus it checks is
adjudication-aware.)

The dashboard reads the decided items as numpy columns
(:meth:`~reviewer.store.core.CoreStore.decided_columns`), applies the consensus rule to
them at once (:mod:`reviewer.agreement.unit_consensus`) and builds the records only when
asked: :func:`plain` reads the same store the plain way (``load_inputs``,
``build_consensus`` over the reported values, the tally and validity of the records), and
every figure is compared after random submits with ties, Not applicable and Not observed
items, open and adjudicated disputes, and a judge whose ratings never count.
"""

from __future__ import annotations

import random

import pytest

from reviewer.agreement.consensus import build_consensus
from reviewer.agreement.report import tally_report
from reviewer.agreement.running import AgreementTally
from reviewer.agreement.source import load_inputs
from reviewer.agreement.validity import rubric_validity
from reviewer.evidence import Citation
from reviewer.leaderboard.runs import read_runs
from reviewer.results import derived
from reviewer.results.data import ResultsData
from reviewer.results.live import LiveResults, with_intervals
from reviewer.results.source import gather
from reviewer.rubric import OUTCOMES
from reviewer.workspace import ReviewStore

METRICS = ("safety", "procedure_application", "problem_solving", "verification")


def figures(data: ResultsData) -> dict[str, object]:
    """Everything a view draws from ``data`` (the time it was made apart)."""
    c = data.full_consensus
    return {
        "meta": data.meta.model_dump(exclude={"generated_at"}),
        "runs": [r.model_dump() for r in data.runs],
        "records": [r.model_dump() for r in data.records],
        "agreement": data.agreement.model_dump() if data.agreement else None,
        "validity": data.validity.model_dump() if data.validity else None,
        "consensus": (c.scores, c.open, c.adjudicated),
        "consensus order": (list(c.scores), list(c.open)),  # a sum in order sees this order
        "outcome_rates": data.outcome_rates,
        "rater_spread": data.rater_spread,
        "counterparts": data.counterparts,
    }


def resubmit(store: ReviewStore, run_pk: int, rater: str, rate, fill, values: dict) -> None:  # type: ignore[no-untyped-def]
    """``rater`` rates run ``run_pk`` (a correction when they rated it already)."""
    live = store.live_rating(run_pk, rater)
    if live is None or live.status == "draft":
        rate(store, run_pk, rater, fill, values)
        return
    draft = store.supersede(live.rating_pk, rater=rater)
    for metric, (outcome, score) in values.items():
        draft = store.save_item(
            draft.rating_pk, metric, outcome=outcome, score=score, comment="second look",
            expected_version=draft.version,
        )  # fmt: skip
        if score in (0, 1):  # a low score cites the procedure's first action
            cited = Citation(
                metric_id=metric, kind="ground_truth", ref=0, step="GT:1", label="GT:1"
            )
            draft = store.cite(draft.rating_pk, cited, expected_version=draft.version)
    store.submit(draft.rating_pk, expected_version=draft.version)


@pytest.fixture
def team(store: ReviewStore, make_card, rate_run, fill_rating, adjudicate) -> ReviewStore:  # type: ignore[no-untyped-def]
    # Runs 1–5; ann and bob rate 1–4 (run 1 disputed and adjudicated, run 3 disputed and
    # open), run 5 nobody yet.
    store.add_scorecards(
        [make_card(n).model_copy(update={"coverage": 0.1 + 0.2 * n}) for n in range(5)]
    )
    rate_run(store, 1, "ann", fill_rating, {"safety": ("applicable", 0)})
    rate_run(store, 1, "bob", fill_rating, {"safety": ("applicable", 3)})
    for pk, (a, b) in {2: (1, 1), 3: (0, 3), 4: (2, 3)}.items():
        rate_run(store, pk, "ann", fill_rating, {"procedure_application": ("applicable", a)})
        rate_run(store, pk, "bob", fill_rating, {"procedure_application": ("applicable", b)})
    adjudicate(store)
    return store


def test_each_submit_updates_its_run_to_what_a_fresh_read_gives(
    team, rate_run, fill_rating
) -> None:
    live = LiveResults(team)
    assert figures(live.data()) == figures(LiveResults(team).data())
    steps = [
        (5, "cy", {"safety": ("applicable", 1)}),  # a new rater, a run nobody had rated
        (3, "ann", {"procedure_application": ("applicable", 3)}),  # settles run 3's dispute
        (2, "bob", {"verification": ("not_observed", None)}),  # opens a dispute on run 2
        (1, "cy", {"safety": ("applicable", 3)}),  # a third rater on the adjudicated run
        (4, "ann", {"safety": ("not_applicable", None)}),
    ]
    for run_pk, rater, values in steps:
        resubmit(team, run_pk, rater, rate_run, fill_rating, values)
        assert live.update(team, [run_pk])
        updated, fresh = live.data(), LiveResults(team).data()
        assert figures(updated) == figures(fresh), f"after {rater} on run {run_pk}"
    assert updated.meta.n_raters == 3 and updated.full_consensus.open_count() >= 1


@pytest.mark.parametrize("read_first", [False, True])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_submits_keep_the_update_equal_to_a_fresh_read(
    team, rate_run, fill_rating, seed, read_first
) -> None:
    rnd = random.Random(seed)
    live = LiveResults(team)
    if read_first:  # the validity table is built now, and its rows replaced by the submits
        live.data()
    for _ in range(6):
        run_pk, rater = rnd.randint(1, 5), rnd.choice(("ann", "bob", "cy", "dee"))
        metric = rnd.choice(METRICS)
        value = rnd.choice([("applicable", s) for s in range(4)] + [("not_observed", None)])
        resubmit(team, run_pk, rater, rate_run, fill_rating, {metric: value})
        assert live.update(team, [run_pk])
    assert figures(live.data()) == figures(LiveResults(team).data())


def test_the_intervals_fill_in_what_gather_reports(team) -> None:
    # The dashboard shows the point values, then the intervals: together, gather's data.
    live = LiveResults(team)
    point = live.data()
    assert point.agreement is not None and point.leaderboard is None
    assert all(m.ci_low is None for m in point.agreement.metrics)
    full = live.with_intervals(point, seed=0, resamples=200)
    expected = gather(team, seed=0, resamples=200)
    assert figures(full) == figures(expected)
    assert full.agreement == expected.agreement and full.leaderboard == expected.leaderboard
    assert with_intervals(point, seed=0, resamples=0) is point


def plain(store: ReviewStore) -> dict[str, object]:
    """The figures computed from records, as the dashboard computed them before."""
    inputs = load_inputs(store)
    runs, _versions = read_runs(store)
    keys = {str(r.run_pk) for r in runs}
    records = [r for r in inputs.records if r.run_key in keys]
    joined = sorted(records, key=lambda r: int(r.run_key))  # stable: the store's order
    consensus = build_consensus(joined, inputs.reported)
    infos = {k: v for k, v in inputs.runs.items() if k in keys}
    blind = joined if any(r.has_blind for r in joined) else []
    validity = rubric_validity(joined, blind, infos, inputs.rubric, consensus=consensus)
    tally = AgreementTally.of(records)
    return {
        "records": [r.model_dump() for r in joined],
        "consensus": (consensus.scores, consensus.open, consensus.adjudicated),
        "consensus order": (list(consensus.scores), list(consensus.open)),
        "agreement": tally_report(tally, inputs.rubric.metric_ids).model_dump(),
        "validity": validity.model_dump(),
        "outcome_rates": derived.outcome_rates(records),
        "rater_spread": derived.rater_spread(records),
        "n_ratings": len({(r.run_key, r.rater) for r in records}),
    }


def columns(store: ReviewStore) -> dict[str, object]:
    """The same figures from the dashboard's columns (the records built last)."""
    data = LiveResults(store).data()
    c = data.full_consensus
    return {
        "agreement": data.agreement.model_dump() if data.agreement else None,
        "validity": data.validity.model_dump() if data.validity else None,
        "consensus": (c.scores, c.open, c.adjudicated),
        "consensus order": (list(c.scores), list(c.open)),
        "outcome_rates": data.outcome_rates,
        "rater_spread": data.rater_spread,
        "n_ratings": data.meta.n_ratings,
        "records": [r.model_dump() for r in data.records],
    }


def _values(rnd: random.Random) -> dict[str, tuple[str, int | None]]:
    out = {}
    for metric in rnd.sample(METRICS, rnd.randint(1, len(METRICS))):
        outcome = rnd.choice([*OUTCOMES, "applicable", "applicable"])
        out[metric] = (outcome, rnd.randint(0, 3) if outcome == "applicable" else None)
    return out


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_columns_give_the_records_figures(team, rate_run, fill_rating, seed) -> None:
    rnd = random.Random(seed)
    assert columns(team) == plain(team)
    for _ in range(8):
        run_pk, rater = rnd.randint(1, 5), rnd.choice(("ann", "bob", "cy", "dee", "jay"))
        resubmit(team, run_pk, rater, rate_run, fill_rating, _values(rnd))
    # jay is an automatic judge: rated like the others, counted by neither computation.
    team._db.conn.execute("UPDATE raters SET kind = 'judge' WHERE name = 'jay'")
    assert columns(team) == plain(team)


def test_the_decided_columns_are_the_decided_items(team, rate_run, fill_rating) -> None:
    rnd = random.Random(9)
    for _ in range(6):
        run_pk, rater = rnd.randint(1, 5), rnd.choice(("ann", "bob", "cy"))
        resubmit(team, run_pk, rater, rate_run, fill_rating, _values(rnd))
    # A draft (and a draft correction) has items with an outcome that do not count yet.
    draft = team.start_rating(2, "eve")
    team.save_item(draft.rating_pk, "safety", outcome="applicable", score=2, comment="",
                   expected_version=draft.version)  # fmt: skip
    team.supersede(team.live_rating(1, "ann").rating_pk, rater="ann")
    rows = team.decided_items()
    for pack in (True, False):
        for run_pk in (None, 1, 3, 99):
            c = team.decided_columns(pack=pack, run_pk=run_pk)
            got = [
                (run, c.raters[rater], c.judges[rater], c.metrics[metric], OUTCOMES[outcome],
                 None if score < 0 else score, None if study < 0 else c.studies[study],
                 None if b_out < 0 else OUTCOMES[b_out], None if b_score < 0 else b_score,
                 None if arm < 0 else bool(arm))
                for run, rater, metric, outcome, score, study, b_out, b_score, arm in zip(
                    c.run.tolist(), c.rater.tolist(), c.metric.tolist(), c.outcome.tolist(),
                    c.score.tolist(), c.study.tolist(), c.blind_outcome.tolist(),
                    c.blind_score.tolist(), c.reveal.tolist(), strict=True,
                )
            ]  # fmt: skip
            assert got == [tuple(r) for r in rows if run_pk is None or r.run_pk == run_pk]
    assert_one_reading(team)


def assert_one_reading(store: ReviewStore) -> None:
    """The whole table's columns read in one pass (metrics named by the rubrics, ``pack``)
    equal those read with a ``DISTINCT`` pass first (``pack=False``): the same metric
    names in the same order (the ``DISTINCT`` scan's), the same codes and values."""
    one, two = store.decided_columns(), store.decided_columns(pack=False)
    scan = store._db.conn.execute(
        "SELECT DISTINCT metric_id FROM rating_items WHERE outcome IS NOT NULL"
    ).fetchall()
    assert one.metrics == two.metrics == tuple(m for (m,) in scan)
    for a, b in zip(one, two, strict=True):
        assert a.tolist() == b.tolist() if hasattr(a, "tolist") else a == b


def test_the_metrics_come_in_the_order_the_items_meet_them(
    store, make_card, rate_run, fill_rating
) -> None:
    """A draft's one item (its metric not the rubric's first) comes first in the table,
    then a rating of every metric: the one-pass reading names the metrics in the order the
    items meet them, as the ``DISTINCT`` scan does. Then that item names a metric of no
    rubric (an older rubric's, say): the one-pass reading falls back to the ``DISTINCT``
    pass, with the same result."""
    store.add_scorecards([make_card(n) for n in range(3)])
    assert_one_reading(store)  # no item at all
    last = store.rubric().metric_ids[-1]
    draft = store.start_rating(1, "eve")
    store.save_item(draft.rating_pk, last, outcome="applicable", score=1, comment="",
                    expected_version=draft.version)  # fmt: skip
    assert_one_reading(store)
    rate_run(store, 2, "ann", fill_rating, {"safety": ("applicable", 0)})
    rate_run(store, 2, "bob", fill_rating, {"safety": ("applicable", 2)})
    assert_one_reading(store)
    metrics = store.decided_columns().metrics
    assert metrics[0] == last and list(metrics[1:]) == list(store.rubric().metric_ids[:-1])
    store._db.conn.execute(
        "UPDATE rating_items SET metric_id = 'retired' WHERE rating_pk = ? AND metric_id = ?",
        (draft.rating_pk, last),
    )
    assert store.decided_columns().metrics[0] == "retired"  # a draft's item: not counted
    assert_one_reading(store)


def test_a_runs_records_are_read_without_building_them_all(team) -> None:
    data = LiveResults(team).data()
    one = data.records_of("3")
    assert "records" not in data.__dict__  # the point values never build the records
    assert [r.model_dump() for r in one] == [
        r.model_dump() for r in data.records if r.run_key == "3"
    ]
    assert data.records_of("3") == one and data.records_of("99") == []

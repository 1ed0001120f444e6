"""The agreement report: properties of alpha, pair shares, raters, pairs and selection."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.agreement.records import RatingRecord, select
from reviewer.agreement.report import agreement_report, metric_agreement, pair_shares, score_units


def rec(run: str, rater: str, score: int | None, metric: str = "m", **kw) -> RatingRecord:
    outcome = kw.pop("outcome", "applicable" if score is not None else "not_observed")
    return RatingRecord(
        run_key=run, rater=rater, metric_id=metric, outcome=outcome, score=score, **kw
    )


# A table of scores: runs × raters, None = Not observed.
_tables = st.lists(
    st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=3, max_size=3),
    min_size=2,
    max_size=15,
)


def _records(table: list[list[int | None]]) -> list[RatingRecord]:
    return [
        rec(f"run{u}", f"rater{i}", v) for u, row in enumerate(table) for i, v in enumerate(row)
    ]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=12).filter(lambda v: len(set(v)) > 1))
def test_perfect_agreement_gives_one(truth: list[int]) -> None:
    records = [rec(f"run{u}", r, v) for u, v in enumerate(truth) for r in ("a", "b", "c")]
    m = metric_agreement("m", records, resamples=50)
    assert m.alpha_ordinal == pytest.approx(1.0) and m.alpha_interval == pytest.approx(1.0)
    assert (m.exact_agreement, m.within_one) == (1.0, 1.0)
    # Every outcome is Applicable: the outcome alpha is undefined, and the note says so.
    assert m.alpha_outcome is None and m.note.startswith("outcome: no variation")


@settings(max_examples=40, deadline=None)
@given(_tables, st.randoms(use_true_random=False))
def test_permuting_raters_or_runs_changes_nothing(table, rnd: random.Random) -> None:
    records = _records(table)
    before = agreement_report(records, resamples=50)
    shuffled = records[:]
    rnd.shuffle(shuffled)
    # Shuffling the records permutes runs and raters in every way the input can arrive;
    # renaming the raters (a bijection) must leave every metric figure alone as well.
    assert agreement_report(shuffled, resamples=50) == before
    names = {f"rater{i}": f"x{(i * 7) % 3}" for i in range(3)}
    renamed = [r.model_copy(update={"rater": names[r.rater]}) for r in records]
    assert agreement_report(renamed, resamples=50).metrics == before.metrics


@settings(max_examples=40, deadline=None)
@given(_tables, st.lists(st.tuples(st.integers(0, 20), st.integers(0, 5), st.booleans())))
def test_not_applicable_and_not_observed_never_change_alpha_ordinal(table, extra) -> None:
    records = _records(table)
    more = [
        rec(f"run{u}", f"extra{r}", None, outcome="not_applicable" if na else "not_observed")
        for u, r, na in extra
    ]
    a = metric_agreement("m", records, resamples=0)
    b = metric_agreement("m", records + more, resamples=0)
    assert (a.alpha_ordinal, a.alpha_interval, a.units) == (
        b.alpha_ordinal,
        b.alpha_interval,
        b.units,
    )


def test_pair_shares_by_hand() -> None:
    # run1: 1,1,2 → pairs (1,1) (1,2) (1,2): 1 equal, 3 within one
    # run2: 0,3    → one pair, neither equal nor within one
    units = score_units([rec("run1", "a", 1), rec("run1", "b", 1), rec("run1", "c", 2),
                         rec("run2", "a", 0), rec("run2", "b", 3)])  # fmt: skip
    assert pair_shares(units) == (1 / 4, 3 / 4)


def test_outcome_alpha_counts_every_item_and_notes_undefined_scores() -> None:
    records = [rec("r1", "a", None, outcome="not_applicable"), rec("r1", "b", 2),
               rec("r2", "a", None, outcome="not_applicable"), rec("r2", "b", 1)]  # fmt: skip
    m = metric_agreement("m", records, resamples=10)
    assert m.alpha_ordinal is None and m.ci_low is None and "fewer than two" in m.note
    # outcomes: r1 (N/A, applicable), r2 (N/A, applicable): systematic disagreement.
    assert m.alpha_outcome is not None and m.alpha_outcome < 0


def test_raters_and_pairs() -> None:
    records = [
        rec("r1", "a", 2), rec("r1", "b", 2), rec("r1", "c", 0),
        rec("r2", "a", 1), rec("r2", "b", 1), rec("r2", "c", 3),
        rec("r3", "a", 3), rec("r3", "b", None, outcome="not_applicable"),
    ]  # fmt: skip
    report = agreement_report(records, metric_ids=("m",), resamples=20)
    a, b, c = report.raters
    assert (a.rater, a.n_ratings, a.mean_score) == ("a", 3, {"m": 2.0})
    assert (b.not_applicable_rate, b.not_observed_rate) == (pytest.approx(1 / 3), 0.0)
    # c contradicts a and b, so the others agree better without c.
    assert c.alpha_without is not None and c.alpha_without > c.alpha_with
    ab, ac, _bc = report.pairs
    assert (ab.rater_a, ab.rater_b, ab.runs_shared, ab.score_pairs, ab.exact_agreement) == (
        "a", "b", 3, 2, 1.0,
    )  # fmt: skip
    assert (ac.score_pairs, ac.exact_agreement) == (2, 0.0)


def test_metrics_follow_the_rubric_order_and_keys_match_the_documented_json() -> None:
    records = [rec("r1", "a", 1, metric="y"), rec("r1", "b", 1, metric="x")]
    report = agreement_report(records, metric_ids=("x", "y"), resamples=0)
    assert [m.metric_id for m in report.metrics] == ["x", "y"]
    assert list(report.model_dump()) == ["metrics", "raters", "pairs"]
    assert list(report.metrics[0].model_dump()) == [
        "metric_id", "alpha_ordinal", "alpha_interval", "alpha_outcome", "ci_low", "ci_high",
        "units", "pairable_values", "exact_agreement", "within_one", "note", "ci_method",
    ]  # fmt: skip


def test_select_phase_study_and_judges() -> None:
    records = [
        rec("r1", "a", 2, blind_outcome="applicable", blind_score=1, study="s"),
        rec("r1", "b", 3, study="s"),
        rec("r1", "judge", 1, is_judge=True, study="s"),
        rec("r2", "a", 0, study="other"),
    ]
    final = select(records, study="s")
    assert [(r.rater, r.score) for r in final] == [("a", 2), ("b", 3)]
    assert len(select(records, study="s", include_judges=True)) == 3
    blind = select(records, phase="blind")
    assert [(r.rater, r.score, r.blind_score) for r in blind] == [("a", 1, None)]
    with pytest.raises(ValueError, match="phase"):
        select(records, phase="draft")


def test_a_score_needs_an_applicable_outcome() -> None:
    with pytest.raises(ValueError, match="only given when"):
        rec("r1", "a", 2, outcome="not_applicable")


def test_a_record_from_the_store_is_the_validated_record() -> None:
    # The store's rows are built without validating again: they must be the same records,
    # and behave the same (a copy for the blind phase, a dump, equality, hashing of fields).
    fields = {
        "run_key": "7", "rater": "ann", "metric_id": "safety", "outcome": "applicable",
        "score": 2, "blind_outcome": "applicable", "blind_score": 1, "reveal_first": False,
        "is_judge": False, "study": "s1",
    }  # fmt: skip
    trusted, checked = RatingRecord.from_store(dict(fields)), RatingRecord(**fields)
    assert trusted == checked and trusted.model_dump() == checked.model_dump() == fields
    assert trusted.model_fields_set == checked.model_fields_set
    (blind,) = select([trusted], phase="blind")
    assert (blind.outcome, blind.score, blind.blind_score) == ("applicable", 1, None)
    assert blind == select([checked], phase="blind")[0]

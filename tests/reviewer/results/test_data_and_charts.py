"""ResultsData read from a store, and every chart drawn from it (or saying why not)."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from reviewer.results.charts import CHARTS
from reviewer.results.charts.stats import model_rates
from reviewer.results.intervals import bounded_mean
from reviewer.results.source import gather
from reviewer.results.tables import tables_for
from reviewer.workspace import ReviewStore

CHART = {c.key: c for c in CHARTS}
MODELS = ("alpha-model", "beta-model", "gamma-model")  # as conftest.py makes them


def _texts(fig: Figure) -> str:
    return "\n".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


@pytest.fixture
def data(rated_db: Path):
    with ReviewStore.open(rated_db, create=False) as store:
        return gather(store, resamples=50)


def test_gather_reads_runs_ratings_and_reports(data) -> None:
    assert data.meta.n_runs == 9
    assert data.meta.n_ratings == 27  # 9 runs × 3 raters
    assert data.meta.n_raters == 3
    assert data.models() == list(MODELS)
    assert data.agreement is not None and len(data.agreement.raters) == 3
    assert data.validity is not None
    assert [m.metric_id for m in data.validity.metrics] == ["procedure_application", "safety"]


def test_a_newer_version_of_a_file_replaces_the_older_in_the_results(
    rated_db: Path, make_card
) -> None:
    with ReviewStore.open(rated_db, create=False) as store:
        old = store.list_runs()[0]
        newer = make_card(100, path=old.path)
        store.add_scorecards([newer])
        data = gather(store, resamples=0)
    assert data.meta.n_runs == 9  # still nine: the old version of run 0 is left out
    assert old.run_pk not in {r.run_pk for r in data.runs}


def test_a_scenario_filter_keeps_only_its_runs_and_their_ratings(rated_db: Path) -> None:
    with ReviewStore.open(rated_db, create=False) as store:
        none = gather(store, scenarios=["no-such-scenario"], resamples=0)
    assert none.runs == [] and none.records == [] and none.agreement is None


def test_every_chart_says_so_when_there_is_nothing_yet(store: ReviewStore, make_card) -> None:
    empty = gather(store)
    for chart in CHARTS:
        fig = Figure()
        links = chart.draw(fig, empty)
        assert "yet" in _texts(fig), chart.key
        assert links.points == [] and links.regions == []
    store.add_scorecards([make_card(0)])
    unrated = gather(store)
    rating_charts = [c for c in CHARTS if c.key in ("humans", "agreement", "validity")]
    for chart in rating_charts:  # with runs but no rating
        fig = Figure()
        chart.draw(fig, unrated)
        assert "No submitted ratings" in _texts(fig), chart.key


def test_every_chart_has_a_title_with_n_and_labelled_axes(data) -> None:
    for chart in CHARTS:
        fig = Figure()
        chart.draw(fig, data)
        for ax in fig.axes:
            if not ax.axison or ax.get_label() == "<colorbar>":
                continue
            assert "(n = " in ax.get_title(loc="left"), (chart.key, ax.get_title(loc="left"))
            assert ax.get_xlabel() and ax.get_ylabel(), (chart.key, ax.get_title(loc="left"))


def test_unsafe_runs_are_drawn_apart_not_in_the_distribution(data) -> None:
    fig = Figure()
    links = CHART["models"].draw(fig, data)
    unsafe = {r.run_pk for r in data.runs if r.unsafe}
    assert len(unsafe) == 1
    holding = [runs for _artist, runs in links.points if set(runs) & unsafe]
    assert holding == [sorted(unsafe)]  # its own artist, with no safe run in it
    drawn = [pk for _artist, runs in links.points for pk in runs]
    assert sorted(drawn) == sorted(r.run_pk for r in data.runs)  # every run is a point
    assert "unsafe 1" in _texts(fig)
    assert "unsafe (1)" in fig.axes[0].get_title(loc="left")


def test_the_rates_and_intervals_follow_the_spec(data) -> None:
    runs = [r for r in data.runs if r.model == "beta-model"]  # runs 1, 4, 7
    passed, dangerous = model_rates(runs)
    assert passed == pytest.approx(1 / 3)  # only run 4 has all_passed (n % 2 == 0)
    assert dangerous == pytest.approx(1 / 3)  # run 4 is unsafe
    # The vector's means carry bootstrap intervals inside 0–1 (a t interval of these three
    # values would read 0.67 ± 1.43).
    found = bounded_mean([0.0, 1.0, 1.0])
    assert found.value == pytest.approx(2 / 3) and 0 <= found.low <= found.high <= 1


def test_rater_spread_finds_the_widest_gap(data) -> None:
    spread = data.rater_spread
    assert len(spread) == 9 and all(n == 3 for n, _gap in spread.values())
    assert max(gap for _n, gap in spread.values()) >= 1


def test_derived_figures_with_known_answers() -> None:
    from reviewer.agreement.records import RatingRecord
    from reviewer.results import derived

    def rec(run: str, rater: str, score: int | None, outcome: str = "applicable"):
        return RatingRecord(run_key=run, rater=rater, metric_id="m", outcome=outcome, score=score)

    records = [
        rec("1", "A", 0),
        rec("1", "B", 3),  # run 1: gap 3 − 0 = 3
        rec("2", "A", 2),
        rec("2", "B", None, "not_observed"),  # run 2: one score, gap 0
        rec("3", "A", 1),  # run 3: one rater, left out
        rec("3", "A", None, "not_applicable"),
    ]
    assert derived.rater_spread(records) == {"1": (2, 3.0), "2": (2, 0.0)}
    # 6 items: 1 not applicable, 1 not observed
    assert derived.outcome_rates(records) == {"m": (6, 1 / 6, 1 / 6)}


def _anchoring_row(metric_id: str, control: float, blind: float):
    from reviewer.agreement.anchoring import AnchoringRow

    return AnchoringRow(
        metric_id=metric_id, items=10, revised=2, share_revised=0.2, mean_revision=0.5,
        score_revisions=2, share_toward_counterpart=1.0, control_n=5,
        control_distance=control, blind_n=5, blind_distance=blind,
        difference=blind - control, ci_low=None, ci_high=None, note=None,
        pull=0.5, pull_ci_low=0.3, pull_ci_high=0.7, pull_items=8,
    )  # fmt: skip


def test_the_validity_chart_shows_anchoring_when_a_blind_study_has_it(data) -> None:
    from reviewer.agreement.anchoring import AnchoringReport

    anchoring = AnchoringReport(
        overall=_anchoring_row("*", 0.3, 0.6),
        by_metric=[_anchoring_row("procedure_application", 0.3, 0.6)],
    )
    with_blind = data.model_copy(
        update={"validity": data.validity.model_copy(update={"anchoring": anchoring})}
    )
    fig = Figure()
    CHART["validity"].draw(fig, with_blind)
    titles = [" ".join(ax.get_title(loc="left").split()) for ax in fig.axes]  # titles wrap
    assert any(t.startswith("Anchoring: distance to the scorer") for t in titles)
    bars = [p.get_height() for ax in fig.axes for p in ax.patches]
    assert 0.3 in bars and 0.6 in bars
    assert any("pull 0.50 (0.30–0.70" in t for t in titles)  # the size, with its interval
    [table] = [t for t in tables_for("validity", with_blind) if t.title.startswith("Anchoring")]
    assert table.rows[0][5] == "0.50 (0.30–0.70)"
    plain = Figure()
    CHART["validity"].draw(plain, data)
    assert "no blind study" in _texts(plain)
    assert not any(t.title.startswith("Anchoring") for t in tables_for("validity", data))


def test_the_count_and_runs_of_the_records_without_building_them(rated_db: Path) -> None:
    """``n_records`` and ``rated_runs`` read the item columns (drawing every chart and table
    builds no record); they equal what the records themselves give, and, with records
    given instead of columns, are read from them."""
    with ReviewStore.open(rated_db, create=False) as store:
        data = gather(store, resamples=20)
    for chart in CHARTS:
        chart.draw(Figure(), data)
        tables_for(chart.key, data)
    assert "records" not in data.__dict__  # nothing above built them
    n, runs = data.n_records, data.rated_runs()
    assert n == len(data.records) == 27 * 7 and runs == {r.run_key for r in data.records}
    given = data.model_copy(update={"items": None})
    given.__dict__["records"] = data.records[:5]
    assert given.n_records == 5 and given.rated_runs() == {r.run_key for r in data.records[:5]}

"""The results window: its table models, and that it follows the ratings and the clicks."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from pdf_reading import pdf_pages, pdf_text
from PySide6.QtCore import QPoint, Qt

from reviewer.results.report import PAGES
from reviewer.results.source import gather
from ui.app import App
from ui.results.agreement_models import (
    MetricAlphaModel,
    PairMatrixModel,
    RaterModel,
    SpreadModel,
)
from ui.results.table_views import AgreementView, ValidityView
from ui.results.validity_models import DisagreementModel, RankingModel, ValidityMetricModel


@pytest.fixture
def rated_app(demo_app: App, tmp_path: Path) -> App:
    """The demo window with twelve scored runs rated by Ana and Ben."""
    store = demo_app.store
    metrics = store.rubric().metric_ids
    runs = [r for r in store.list_runs() if r.status == "scored"][:12]
    for k, rater in enumerate(("Ana", "Ben")):
        path = tmp_path / f"{rater}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
            for i, run in enumerate(runs):
                for m in metrics:
                    score = max(0, min(3, round(3 * (run.coverage or 0)) - (i + k) % 2))
                    cited = "GT:1" if score < 2 else ""  # a low score cites a ground-truth row
                    w.writerow((run.run_id, m, "applicable", score, "seen", cited))
        store.import_ratings(path, rater=rater)
    return demo_app


def _open_dashboard(qtbot, app: App):
    window = app.window
    with qtbot.waitSignal(window.dashboard.results_loader.loaded, timeout=30000):
        window.dashboard.show_results()
    results = window.dashboard.results_window
    qtbot.waitUntil(lambda: results.data is not None)
    return results


def test_every_table_model_passes_the_model_tester(qtmodeltester, rated_app: App) -> None:
    data = gather(rated_app.store, resamples=20)
    assert data.agreement is not None and data.validity is not None
    agreement, validity = AgreementView(), ValidityView()
    for model, rows in (
        (MetricAlphaModel(), data.agreement.metrics),
        (RaterModel(), data.agreement.raters),
        (ValidityMetricModel(), data.validity.metrics),
        (DisagreementModel(), data.validity.disagreements),
    ):
        qtmodeltester.check(model)
        model.set_rows(rows)
        assert model.rowCount() == len(rows) > 0
        qtmodeltester.check(model)
    pairs = PairMatrixModel()
    qtmodeltester.check(pairs)
    pairs.set_pairs(["Ana", "Ben"], data.agreement.pairs)
    assert pairs.index(0, 1).data() == pairs.index(1, 0).data() != "—"
    qtmodeltester.check(pairs)
    agreement.set_data(data)
    validity.set_data(data)
    for model in (agreement.spread, validity.rankings):
        assert model.rowCount() > 0
        qtmodeltester.check(model)
    assert isinstance(agreement.spread, SpreadModel) and isinstance(validity.rankings, RankingModel)


def test_the_dashboard_updates_when_a_rating_is_submitted(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    before = results.data.meta.n_ratings
    assert before == 24 and results.canvases["models"].links.points
    controller = rated_app.controller
    rows = rated_app.store.list_runs(rater=controller.rater)
    run_pk = next(r.run_pk for r in rows if r.status == "scored")
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        rated_app.window.queue.select_run(run_pk)
    for m in controller.store.rubric().metric_ids:
        controller.save_item(m, "applicable", 2, "seen")
    with qtbot.waitSignal(results.updated, timeout=30000):
        assert controller.submit()
    assert results.data.meta.n_ratings == before + 1
    assert results.data.meta.n_raters == 3


def _click(qtbot, canvas, ax, x: float, y: float) -> None:
    """Click the canvas where data point ``(x, y)`` of ``ax`` is drawn."""
    px, py = ax.transData.transform((x, y))
    ratio = canvas.canvas.devicePixelRatioF()
    height = canvas.figure.bbox.height
    pos = QPoint(round(px / ratio), round((height - py) / ratio))
    qtbot.mouseClick(canvas.canvas, Qt.MouseButton.LeftButton, pos=pos)


def test_a_click_on_a_point_opens_that_run(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    results.tabs.setCurrentWidget(results.canvases["models"])
    canvas = results.canvases["models"]
    qtbot.waitUntil(lambda: bool(canvas.links.points))
    artist, runs = canvas.links.points[1]
    x, y = artist.get_offsets()[0]
    controller = rated_app.controller
    with qtbot.waitSignal(controller.run_opened, timeout=10000) as opened:
        _click(qtbot, canvas, artist.axes, x, y)
    # Jittered points may overlap: the run opened is one drawn under the click.
    offsets = artist.get_offsets()
    near = {
        runs[i] for i, (ox, oy) in enumerate(offsets) if abs(ox - x) < 0.05 and abs(oy - y) < 0.02
    }
    assert opened.args[0].run_pk in near


def test_a_click_on_a_models_bars_filters_the_queue(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    results.tabs.setCurrentWidget(results.canvases["vector"])
    canvas = results.canvases["vector"]
    qtbot.waitUntil(lambda: bool(canvas.links.regions))
    region = canvas.links.regions[0]
    _click(qtbot, canvas, region.axes, (region.x0 + region.x1) / 2, 1.08)
    queue = rated_app.window.queue
    assert queue.proxy.facet("model") == region.filter["model"]
    shown = {queue.proxy.index(r, 0).data() for r in range(queue.proxy.rowCount())}
    assert shown and queue.proxy.rowCount() < queue.model.rowCount()


def test_a_double_click_on_a_disagreement_opens_the_run(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    results.tabs.setCurrentWidget(results.agreement)
    view = results.agreement.spread_view
    qtbot.waitUntil(lambda: view.model().rowCount() > 0)
    index = view.model().index(0, 0)
    expected = results.agreement.spread.rows()[view.model().mapToSource(index).row()].run_pk
    with qtbot.waitSignal(rated_app.controller.run_opened, timeout=10000) as opened:
        rect = view.visualRect(index)
        # A double click is press, release, then the double-click event, as a mouse sends it.
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    # QTest's double click leaves the button down in QGuiApplication.mouseButtons(); a later
    # test's queue would take any column resize for a rater's drag and stop fitting them.
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args[0].run_pk == expected


@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_export_report_from_the_window(qtbot, rated_app: App, tmp_path: Path, fmt: str) -> None:
    """From the window's thread the groups are drawn one after the other (no fork from a
    Qt process), the PDF's put together as on the command line."""
    out = tmp_path / f"from-window.{fmt}"
    loader = rated_app.window.dashboard.results_loader
    with qtbot.waitSignal(loader.exported, timeout=60000) as done:
        rated_app.window.dashboard.start_export(out)
    assert "Report written" in done.args[0]
    if fmt == "pdf":
        data = out.read_bytes()
        assert data.startswith(b"%PDF-") and pdf_pages(data) == 1 + 2 * len(PAGES)
        assert "claude-sonnet-4-5" in pdf_text(data)
        return
    page = out.read_text(encoding="utf-8")
    assert "claude-sonnet-4-5" in page and page.count("data:image/svg+xml;base64,") == 7


@pytest.mark.parametrize(("viewer", "visible"), [("Ana", True), ("tester", False)])
def test_ratings_side_by_side_only_for_a_rater_who_rated_the_run(
    qtbot, qtmodeltester, rated_app: App, viewer: str, visible: bool
) -> None:
    data = gather(rated_app.store, resamples=0)
    view = AgreementView(viewer=viewer)
    qtbot.addWidget(view)
    view.set_data(data)
    table = view.spread_view
    table.setCurrentIndex(table.model().index(0, 0))
    side = view.side_by_side
    qtmodeltester.check(side)
    if visible:
        # seven metrics down, Ana and Ben across
        assert (side.rowCount(), side.columnCount()) == (7, 2)
        assert side.headerData(0, Qt.Orientation.Horizontal) == "Ana"
        assert side.index(0, 0).data() in {"0", "1", "2", "3"}
    else:
        assert side.rowCount() == 0 and "Rate this run yourself" in view.side_note.text()


def test_the_scenario_selector_reloads_that_scenarios_runs(qtbot, rated_app: App) -> None:
    results = _open_dashboard(qtbot, rated_app)
    everything = results.data.meta.n_runs
    scenario = results.data.scenarios[0]
    with qtbot.waitSignal(results.loader.loaded, timeout=30000):
        results.scenario.setCurrentText(scenario)
    assert results.data.meta.scenario_filter == [scenario]
    assert {r.scenario_id for r in results.data.runs} == {scenario}
    assert 0 < results.data.meta.n_runs < everything


def test_text_from_files_is_never_shown_as_html(qtbot, rated_app: App) -> None:
    # Issue 8 item 6 for the dashboard: a load error (it names files) and the run named over
    # the side-by-side table are shown as typed.
    from PySide6.QtWidgets import QLabel

    payload = "<b style=color:green>APPROVED</b><img src=/etc/passwd>"
    results = _open_dashboard(qtbot, rated_app)
    results.loader.load_failed.emit(payload)
    assert results.status.text().endswith(payload)
    for label in results.findChildren(QLabel):
        if payload in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    assert results.agreement.side_note.textFormat() == Qt.TextFormat.PlainText


def test_the_dashboard_is_never_bigger_than_the_screen(qtbot, demo_app: App) -> None:
    # Found under Xvfb at 1366 × 768: a fixed 1400 × 900 put the charts' axes below the
    # screen's edge.
    from ui.results.results_window import PREFERRED, ResultsWindow

    window = ResultsWindow(demo_app.window.dashboard.results_loader, demo_app.window)
    qtbot.addWidget(window)
    room = demo_app.window.screen().availableGeometry().size()
    assert window.width() <= room.width() and window.height() <= room.height()
    assert room.width() < PREFERRED.width()  # the offscreen screen is small: it was cut
    assert window.width() >= room.width() * 0.9  # and the window still uses the room
    # A laptop's whole screen: maximized, so that the window manager fits the frame in
    # (under Xvfb at 1280 × 720 the status bar was below the screen's edge).
    assert window.windowState() & Qt.WindowState.WindowMaximized


def test_after_a_submit_the_dashboard_updates_that_run_to_a_fresh_computation(
    qtbot, rated_app: App
) -> None:
    # The submit updates the loader's kept results run by run (the same object, not a new
    # read of everything); the point values shown, then the intervals filled in, equal a
    # fresh gather of the database after the submit.
    from reviewer.results.live import LiveResults
    from ui.results.results_loader import WINDOW_RESAMPLES

    results = _open_dashboard(qtbot, rated_app)
    loader = results.loader
    qtbot.waitUntil(lambda: not loader.busy() and results.data.leaderboard is not None)
    kept = loader._live
    controller = rated_app.controller
    rows = rated_app.store.list_runs(rater=controller.rater)
    run_pk = [r.run_pk for r in rows if r.status == "scored"][1]
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        rated_app.window.queue.select_run(run_pk)
    for m in controller.store.rubric().metric_ids:
        controller.save_item(m, "applicable", 3, "seen")
    with qtbot.waitSignal(loader.loaded, timeout=30000) as shown:
        assert controller.submit()
    point = shown.args[0]
    assert loader._live is kept  # updated in place: only the submitted run was read again
    fresh = LiveResults(rated_app.store).data()
    assert point.agreement == fresh.agreement and point.validity == fresh.validity
    assert point.full_consensus == fresh.full_consensus and point.records == fresh.records
    assert point.meta.n_ratings == fresh.meta.n_ratings == 25
    with qtbot.waitSignal(loader.loaded, timeout=30000) as filled:
        pass
    full, expected = filled.args[0], gather(rated_app.store, resamples=WINDOW_RESAMPLES)
    assert full.agreement == expected.agreement and full.leaderboard == expected.leaderboard
    assert results.data is full


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720)])
def test_the_status_line_shows_whole_on_a_laptop(qtbot, rated_app: App, width, height) -> None:
    # At the end of the toolbar it went behind the overflow chevron at 1280×720.
    results = _open_dashboard(qtbot, rated_app)
    results.resize(width, height)
    qtbot.waitUntil(lambda: "Loading" not in results.status.text())
    status = results.status
    assert status.isVisible() and status.text()
    corner = status.mapTo(results, status.rect().bottomRight())
    assert results.rect().contains(corner)
    assert status.fontMetrics().horizontalAdvance(status.text()) <= status.width() or (
        status.wordWrap() and status.heightForWidth(status.width()) <= status.height()
    )


def test_the_status_line_counts_in_words_that_agree(qtbot, demo_app: App) -> None:
    # One submitted rating read "1 ratings by 1 raters".
    from ui.results.results_window import _counted

    assert [_counted(n, "rater") for n in (0, 1, 2)] == ["0 raters", "1 rater", "2 raters"]
    results = _open_dashboard(qtbot, demo_app)
    assert "0 ratings by 0 raters · " in results.status.text()

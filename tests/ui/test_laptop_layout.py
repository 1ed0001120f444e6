"""Issue 25: at 1366×768 and 1280×720 on a fresh home, everything a rater needs is on the
first screen, no pane is collapsed to nothing, and no two distinct items read the same."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from ui.layout_state import WindowLayout
from ui.queue.run_queue_model import Column, ShortTextRole
from ui.run.procedure_model import COL_ACTION
from ui.run.timeline_model import COL_DETAILS

SIZES = [(1366, 768), (1280, 720)]
#: What a cell loses to the style's margins (QStyle item text margins, both sides).
CELL_MARGINS = 8


def _rated_window_at(qtbot, demo_app, width: int, height: int) -> QMainWindow:
    """The demo window at ``width`` × ``height``, queue loaded and the first run open."""
    window = demo_app.window
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    demo_app.controller.reload_runs()
    qtbot.waitUntil(lambda: window.queue.view.model().rowCount() > 0)
    first = demo_app.controller.store.list_runs()[0].run_pk
    with qtbot.waitSignal(demo_app.controller.run_opened, timeout=10_000):
        demo_app.controller.open_run(first)
    qtbot.waitUntil(lambda: window.run_view.timeline_model.rowCount() > 0)
    return window


def _inside(widget: QWidget, window: QMainWindow) -> bool:
    """``widget`` shows with a real size, all of it within the window."""
    if not widget.isVisible() or widget.width() < 40 or widget.height() < 20:
        return False
    top_left = widget.mapTo(window, widget.rect().topLeft())
    bottom_right = widget.mapTo(window, widget.rect().bottomRight())
    return window.rect().contains(top_left) and window.rect().contains(bottom_right)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_first_screen_shows_every_pane_a_rater_needs(qtbot, demo_app, width, height):
    window = _rated_window_at(qtbot, demo_app, width, height)
    view = window.run_view
    queue, run, rating = window.splitter.sizes()[:3]
    assert queue >= 280 and run >= 420 and rating >= 400, window.splitter.sizes()
    # The trajectory: at least 12 whole rows, and a Details column one can read.
    timeline = view.timeline
    rows = timeline.viewport().height() // timeline.verticalHeader().defaultSectionSize()
    assert rows >= 12, rows
    assert timeline.columnWidth(COL_DETAILS) >= 100
    assert _inside(timeline, window)
    # The ground truth: each action's control and value whole.
    tree, model = view.procedure, view.procedure_model
    assert view.tabs.currentWidget() is tree and _inside(tree, window)
    metrics = tree.fontMetrics()
    for block in range(model.rowCount()):
        parent = model.index(block, 0)
        for row in range(model.rowCount(parent)):
            label = model.index(row, COL_ACTION, parent).data()
            room = tree.columnWidth(COL_ACTION) - tree.indentation() * 2 - CELL_MARGINS
            assert metrics.horizontalAdvance(label) <= room, label
    # The ScoreCard's scalar, safety gate and vector, whatever tab is open.
    strip = view.strip.text()
    assert _inside(view.strip, window)
    for part in ("Scalar", "gate", "coverage", "order", "end_state", "dangerous"):
        assert part in strip, part
    assert view.tabs.tabText(1) == "ScoreCard"
    # The current metric's editor.
    window.rating_scroll.ensureWidgetVisible(window.rubric.editor)
    assert not window.rubric.editor.visibleRegion().isEmpty()
    # The queue shows scenario, model and rating state for each run.
    qview = window.queue.view
    for column in (Column.SCENARIO, Column.MODEL, Column.RUN, Column.SCORE, Column.RATING):
        assert not qview.isColumnHidden(column), column.name
        right = qview.columnViewportPosition(column) + qview.columnWidth(column)
        assert right <= qview.viewport().width(), column.name


def _visible(text: str, short: str | None, metrics, width: int, mode) -> str:
    # Independently of the delegate: whole, else the short form, else QFontMetrics' cut.
    room = width - CELL_MARGINS
    if metrics.horizontalAdvance(text) <= room:
        return text
    if short and metrics.horizontalAdvance(short) <= room:
        return short
    return metrics.elidedText(short or text, mode, room)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_distinct_queue_cells_read_differently(qtbot, demo_app, width, height):
    window = _rated_window_at(qtbot, demo_app, width, height)
    view = window.queue.view
    model, delegate, metrics = view.model(), view.itemDelegate(), view.fontMetrics()
    for column in (Column.SCENARIO, Column.MODEL, Column.RUN, Column.RATING):
        seen: dict[str, str] = {}
        for row in range(model.rowCount()):
            index = model.index(row, column)
            text = index.data() or ""
            mode = delegate.modes.get(column, Qt.TextElideMode.ElideRight)
            shown = _visible(
                text, index.data(ShortTextRole), metrics, view.columnWidth(column), mode
            )
            assert seen.setdefault(shown, text) == text, (column.name, shown, text, seen[shown])
    # A whole row reads apart from every other: the run column tells runs apart.
    rows = set()
    for row in range(model.rowCount()):
        cells = []
        for column in Column:
            if view.isColumnHidden(column):
                continue
            index = model.index(row, column)
            mode = delegate.modes.get(column, Qt.TextElideMode.ElideRight)
            short = index.data(ShortTextRole)
            cells.append(
                _visible(index.data() or "", short, metrics, view.columnWidth(column), mode)
            )
        rows.add(tuple(cells))
    assert len(rows) == model.rowCount()


def test_a_submitted_run_reads_subm_with_the_word_in_its_tooltip(qtbot, demo_app):
    window = _rated_window_at(qtbot, demo_app, 1280, 720)
    view = window.queue.view
    run_pk = demo_app.controller.current.run_pk
    window.queue.update_rating_state(run_pk, "submitted")
    model = view.model()
    row = next(
        r
        for r in range(model.rowCount())
        if model.index(r, 0).data() and model.index(r, Column.RATING).data() == "Submitted"
    )
    index = model.index(row, Column.RATING)
    assert index.data(ShortTextRole) == "Subm."
    assert index.data(Qt.ItemDataRole.ToolTipRole) == "Submitted"
    shown = _visible(
        "Submitted",
        "Subm.",
        view.fontMetrics(),
        view.columnWidth(Column.RATING),
        Qt.TextElideMode.ElideRight,
    )
    assert shown in ("Submitted", "Subm.")


def test_a_restored_layout_never_collapses_a_pane_and_reset_brings_all_back(qtbot, demo_app):
    window = _rated_window_at(qtbot, demo_app, 1366, 768)
    # A layout saved with the ScoreCard tabs and the queue dragged to nothing.
    window.splitter.setSizes([0, 900, 466])
    window.run_view.sides.setSizes([600, 0])
    WindowLayout().save(window)
    window.reset_layout()
    WindowLayout().restore_splitters(window)
    for splitter in window.findChildren(QSplitter):
        assert not splitter.childrenCollapsible()
        for i, size in enumerate(splitter.sizes()):
            if not splitter.widget(i).isHidden():
                assert size > 0, (splitter, splitter.sizes())
    window.reset_layout()
    queue, run, rating = window.splitter.sizes()[:3]
    assert min(queue, run, rating) >= 240
    assert min(window.run_view.sides.sizes()) > 60


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_title_of_the_metric_table_reads_whole(qtbot, demo_app, width, height):
    # At 1280×720 the stretched "Comment" column shrank below its title ("ommen").
    window = _rated_window_at(qtbot, demo_app, width, height)
    table = window.rubric.table
    header = table.horizontalHeader()
    metrics = header.fontMetrics()
    for column in range(table.model().columnCount()):
        title = table.model().headerData(column, Qt.Orientation.Horizontal)
        assert metrics.horizontalAdvance(title) + CELL_MARGINS <= header.sectionSize(column), title
    right = header.sectionViewportPosition(header.count() - 1) + header.sectionSize(
        header.count() - 1
    )
    assert right <= table.viewport().width()


def test_a_queue_title_cut_to_fit_ends_with_an_ellipsis(qtbot, demo_app):
    # At 1280×720 "Scenario" read "Scenaric": a header's default is to cut dead, and it
    # measured the bold titles with a plain font. Now it elides, measuring what it draws.
    from PySide6.QtGui import QFont

    window = _rated_window_at(qtbot, demo_app, 1280, 720)
    header = window.queue.view.horizontalHeader()
    assert header.textElideMode() == Qt.TextElideMode.ElideRight
    assert header.font().weight() >= QFont.Weight.DemiBold  # what the sections are drawn in

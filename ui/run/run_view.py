"""The main view of one run: the timeline beside the ground truth, kept in sync.

Selecting a command selects the ground-truth action it drew, and the reverse.  A banner
says when the run cannot be shown (naming file and line) or was re-scored; the details
pane shows the selected event in full (arguments, result, why it got its class).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.run.event_details import describe
from ui.run.legend_bar import LegendBar
from ui.run.procedure_model import COL_RUN, ProcedureModel
from ui.run.run_tables import (
    ROW_HEIGHT,
    ElidedTitle,
    fit_timeline_columns,
    make_procedure_view,
    make_timeline_view,
)
from ui.run.score_strip import ScoreStrip
from ui.run.timeline_model import (
    COL_CLASS,
    EventIndexRole,
    EventRole,
    TimelineModel,
    VerdictRole,
)
from ui.theme import plain_tooltip

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from reviewer.evidence import Citation
    from scoring import ScoreCard, Trajectory

#: Below this width the run view stacks its panes (see RunView.resizeEvent).
NARROW_WIDTH = 860


class RunView(QWidget):
    """Timeline | ground truth and ScoreCard tabs, a details pane, the ScoreCard strip,
    a banner and the legend behind its toggle."""

    event_selected = Signal(object)  # the record under the timeline cursor

    def __init__(self, under_procedure: QWidget | None = None, parent=None) -> None:
        super().__init__(parent)
        self.timeline_model = TimelineModel(self)
        self.procedure_model = ProcedureModel(self)
        self._card: ScoreCard | None = None
        self._traj: Trajectory | None = None
        self._syncing = False
        # What E cites: the timeline event or ground-truth action the rater last selected.
        self._target: tuple[str, int] | None = None
        self._scorer_visible = True

        # Both show text from the trajectory file (scenario, model, run id, a reader's error):
        # plain text always, so a file cannot paint "APPROVED" or load an image.
        self.banner = QLabel(wordWrap=True)
        self.banner.setObjectName("banner")
        self.banner.setTextFormat(Qt.TextFormat.PlainText)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.hide()
        # A long run title must not set the window's minimum width: it is cut in the
        # middle, so the scenario and the run id's end stay, and is whole in the tooltip.
        self.title = ElidedTitle(objectName="panelTitle")
        self.timeline = make_timeline_view(self.timeline_model)
        self.timeline.selectionModel().currentRowChanged.connect(self._timeline_moved)
        self.procedure = make_procedure_view(self.procedure_model)
        self.procedure.selectionModel().currentRowChanged.connect(self._procedure_moved)
        self.details = QPlainTextEdit(readOnly=True)
        self.details.setPlaceholderText("Select an event to see its arguments and result in full.")

        # Left (or above, when narrow): the trajectory over the selected event in full.
        # Right (or below): the ground truth and the ScoreCard page as tabs; the strip
        # above keeps the ScoreCard's scalar, gate and vector in sight whatever the tab.
        self.left = _stacked(_titled("Trajectory", self.timeline), self.details, (5, 1))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("runTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.procedure, "Ground truth")
        if under_procedure is not None:
            self.tabs.addTab(under_procedure, "ScoreCard")
        sides = QSplitter(Qt.Orientation.Horizontal)
        self.sides = sides
        sides.addWidget(self.left)
        sides.addWidget(self.tabs)
        sides.setStretchFactor(0, 3)
        sides.setStretchFactor(1, 2)
        for splitter in (self.left, sides):
            splitter.setChildrenCollapsible(False)
        # Never shrunk to nothing: a few rows of each, whatever a splitter was left at.
        self.timeline.setMinimumHeight(ROW_HEIGHT * 5)
        self.details.setMinimumHeight(self.details.fontMetrics().lineSpacing() * 2 + 10)
        self.procedure.setMinimumHeight(ROW_HEIGHT * 4)
        self.procedure.setMinimumWidth(160)
        self.timeline.setMinimumWidth(240)
        self.strip = ScoreStrip()
        self.legend = LegendBar()
        self.legend_toggle = QToolButton()
        self.legend_toggle.setText("Legend")
        self.legend_toggle.setCheckable(True)
        self.legend_toggle.setAutoRaise(True)
        self.legend_toggle.setToolTip("Show or hide what each icon and colour means")
        self.legend_toggle.toggled.connect(self._legend_toggled)
        self._legend_chosen = False  # until the rater toggles it, the width decides
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title, 1)
        head.addWidget(self.legend_toggle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addLayout(head)
        layout.addWidget(self.banner)
        layout.addWidget(self.strip)
        layout.addWidget(self.legend)
        layout.addWidget(sides, 1)
        self._narrow: bool | None = None
        self._dragged = False
        sides.installEventFilter(self)
        for splitter in (self.left, sides):
            splitter.splitterMoved.connect(self._dragged_by_hand)

    def _dragged_by_hand(self, *_args) -> None:
        self._dragged = True

    def resizeEvent(self, event) -> None:
        """Narrow (a 1366 or 1280 px screen): the trajectory goes above the ground truth,
        so every column keeps its width, and the legend waits behind its toggle."""
        super().resizeEvent(event)
        narrow = event.size().width() < NARROW_WIDTH
        if narrow != self._narrow:
            self._narrow = narrow
            self._dragged = False
            self.sides.setOrientation(
                Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
            )
            if not self._legend_chosen:
                self._show_legend(not narrow)
            fit_timeline_columns(self.timeline, narrow=narrow)
            self.reset_layout()

    def eventFilter(self, watched, event) -> bool:
        # The panes' own room changes too when the strip, banner or legend come and go:
        # until the rater drags a handle, the rule shares it again.
        if watched is self.sides and event.type() == QEvent.Type.Resize and not self._dragged:
            self.reset_layout()
        return super().eventFilter(watched, event)

    def _timeline_title_height(self) -> int:
        """The height of the Trajectory pane's title (0 if the pane is not built so)."""
        pane = self.left.widget(0)
        layout = pane.layout() if pane is not None else None
        item = layout.itemAt(0) if layout is not None else None
        title = item.widget() if item is not None else None
        return title.sizeHint().height() if title is not None else 0

    def reset_layout(self) -> None:
        """Share the room as on a first start: the trajectory gets at least 12 rows when
        there is room for them, the details a few lines, the tabs the rest."""
        self._dragged = False
        if self.sides.orientation() == Qt.Orientation.Vertical:
            total = sum(self.sides.sizes()) or self.sides.height()
            # What the 12 rows come with: the pane's title, the header and the frame.
            chrome = self._timeline_title_height() + 2 + 2 * self.timeline.frameWidth()
            chrome += self.timeline.horizontalHeader().sizeHint().height()
            details = self.details.fontMetrics().lineSpacing() * 3 + 12
            # The tabs keep a header and a few rows; the trajectory its 12 rows and more.
            tabs = self.tabs.tabBar().sizeHint().height() + ROW_HEIGHT * 6
            needed = ROW_HEIGHT * 12 + chrome + details + self.left.handleWidth() + 4
            trajectory = max(needed, total - max(tabs, total * 2 // 5))
            trajectory = min(trajectory, total - tabs)
            self.sides.setSizes([trajectory, max(total - trajectory, 1)])
            self.left.setSizes([max(trajectory - details - self.left.handleWidth(), 1), details])
        else:
            total = sum(self.sides.sizes()) or self.sides.width()
            self.sides.setSizes([total * 3 // 5, total - total * 3 // 5])
            height = sum(self.left.sizes()) or self.left.height()
            self.left.setSizes([height * 5 // 6, height - height * 5 // 6])

    def _legend_toggled(self, on: bool) -> None:
        self._legend_chosen = True
        self.legend.setVisible(on and self._card is not None and self._scorer_visible)

    def _show_legend(self, on: bool) -> None:
        self.legend_toggle.blockSignals(True)
        self.legend_toggle.setChecked(on)
        self.legend_toggle.blockSignals(False)
        self.legend.setVisible(on and self._shown_card() is not None)

    # -- content -------------------------------------------------------------------------
    def show_run(self, title: str, traj: Trajectory, card: ScoreCard, warning: str | None) -> None:
        """Show one run; ``warning`` goes into the banner."""
        self._card, self._traj, self._target = card, traj, None
        self.title.setText(title)
        self.title.setToolTip(plain_tooltip(title))
        self._fill()
        self.details.clear()
        self._set_banner(warning, "warning")

    def set_scorer_visible(self, visible: bool) -> None:
        """Show what the scorer decided (True), or only the evidence: the trajectory and
        the ground-truth procedure, with no class, colour, icon, match or order marker
        (phase 1 of a blind study). The timeline keeps its cursor across the change."""
        if visible == self._scorer_visible:
            return
        self._scorer_visible = visible
        if self._traj is not None:
            row = self.timeline.currentIndex().row()
            self._fill()
            if row >= 0:
                self._select_timeline_row(row)

    def _fill(self) -> None:
        # Hidden: the models never get the ScoreCard, so nothing of it can reach a cell.
        card = self._shown_card()
        self.timeline_model.set_run(self._traj, card)
        self.procedure_model.set_run(self._traj, card)
        self.procedure.setColumnHidden(COL_RUN, card is None)
        self.timeline.setColumnHidden(COL_CLASS, card is None)
        self.legend.setVisible(card is not None and self.legend_toggle.isChecked())
        self.legend_toggle.setVisible(card is not None)
        self.strip.show_card(self._card, hidden=not self._scorer_visible)
        self.procedure.expandAll()

    def _shown_card(self) -> ScoreCard | None:
        return self._card if self._scorer_visible else None

    def show_error(self, message: str) -> None:
        """Clear the view and say why the run cannot be shown."""
        self._card, self._traj, self._target = None, None, None
        self.timeline_model.set_run(None, None)
        self.procedure_model.set_run(None, None)
        self.details.clear()
        self.strip.show_card(None)
        self._set_banner(message, "error")

    def show_loading(self, title: str) -> None:
        """Say a run is loading (large files take a moment)."""
        self.title.setText(title)
        self._set_banner("Loading…", "info")

    def _set_banner(self, text: str | None, kind: str) -> None:
        self.banner.setVisible(bool(text))
        self.banner.setText(text or "")
        self.banner.setProperty("kind", kind)
        # A dynamic property change needs a re-polish for the stylesheet to notice it.
        self.banner.style().unpolish(self.banner)
        self.banner.style().polish(self.banner)

    # -- keyboard navigation ------------------------------------------------------------
    def step(self, delta: int) -> None:
        """Move the timeline cursor ``delta`` rows (the ``[`` and ``]`` keys)."""
        rows = self.timeline_model.rowCount()
        if rows == 0:
            return
        current = self.timeline.currentIndex().row()
        self._select_timeline_row(max(0, min(rows - 1, current + delta if current >= 0 else 0)))

    def select_first_command(self) -> None:
        """Put the cursor on the first command (what a rater checks first)."""
        for row in range(self.timeline_model.rowCount()):
            if self.timeline_model.row_at(row).kind == "command":
                self._select_timeline_row(row)
                return

    def step_turn(self, delta: int) -> None:
        """Jump to the previous or next agent turn."""
        turns = self.timeline_model.turn_rows()
        current = self.timeline.currentIndex().row()
        after = (
            [r for r in turns if r > current] if delta > 0 else [r for r in turns if r < current]
        )
        if after:
            self._select_timeline_row(after[0] if delta > 0 else after[-1])

    def _select_timeline_row(self, row: int) -> None:
        index = self.timeline_model.index(row, 0)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        self.timeline.selectionModel().setCurrentIndex(index, flags)
        self.timeline.scrollTo(index)

    # -- selection sync ------------------------------------------------------------------
    def _timeline_moved(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        if not self._syncing:
            event_index = self.timeline_model.data(current, EventIndexRole)
            self._target = None if event_index is None else ("event", event_index)
        record = self.timeline_model.data(current, EventRole)
        self.details.setPlainText(
            describe(self.timeline_model, current, self._shown_card(), self._traj)
        )
        self.event_selected.emit(record)
        verdict = self.timeline_model.data(current, VerdictRole)
        if self._syncing or verdict is None:
            return
        target = self.procedure_model.index_for_command(verdict.index)
        if target.isValid():
            self._syncing = True
            try:
                self.procedure.setCurrentIndex(target)
                self.procedure.scrollTo(target)
            finally:
                self._syncing = False

    def _procedure_moved(self, current: QModelIndex, _previous: QModelIndex) -> None:
        node = self.procedure_model.node(current)
        if not self._syncing and node is not None:
            index = node.required_index if node.kind == "required" else None
            self._target = ("ground_truth", index) if index is not None else None
        card = self._shown_card()
        if self._syncing or node is None or not node.commands or card is None:
            return
        position = card.commands[node.commands[0]].call_position
        row = self.timeline_model.row_of_call(position)
        if row is not None:
            self._syncing = True
            try:
                self._select_timeline_row(row)
            finally:
                self._syncing = False

    # -- evidence ------------------------------------------------------------------------
    def citable_target(self) -> tuple[str, int] | None:
        """``("event", i)`` or ``("ground_truth", i)``: what the rater last selected, if it
        can be cited (setup, final, optional and forbidden rows cannot)."""
        return self._target

    def show_citation(self, kind: str, ref: int) -> None:
        """Select the cited event or ground-truth action (a click on an evidence chip)."""
        if kind == "event":
            row = self.timeline_model.row_of_event(ref)
            if row is not None:
                self._select_timeline_row(row)
                self.timeline.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        index = self.procedure_model.index_for_required(ref)
        if index.isValid():
            self.procedure.setCurrentIndex(index)
            self.procedure.scrollTo(index)

    def set_cited(self, citations: Iterable[Citation], titles: dict[str, str]) -> None:
        """Mark the events and actions the current rating cites, naming the metrics."""
        events: dict[int, list[str]] = {}
        actions: dict[int, list[str]] = {}
        for c in citations:
            into = events if c.kind == "event" else actions
            into.setdefault(c.ref, []).append(titles.get(c.metric_id, c.metric_id))
        self.timeline_model.set_cited({i: ", ".join(m) for i, m in events.items()})
        self.procedure_model.set_cited({i: ", ".join(m) for i, m in actions.items()})


def _stacked(top: QWidget, bottom: QWidget, stretch: tuple[int, int]) -> QSplitter:
    splitter = QSplitter(Qt.Orientation.Vertical)
    splitter.addWidget(top)
    splitter.addWidget(bottom)
    splitter.setStretchFactor(0, stretch[0])
    splitter.setStretchFactor(1, stretch[1])
    return splitter


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    label = QLabel(title)
    label.setObjectName("panelTitle")
    layout.addWidget(label)
    layout.addWidget(widget)
    return box

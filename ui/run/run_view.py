"""The main view of one run: the timeline beside the ground truth, kept in sync.

Selecting a command selects the ground-truth action it drew, and the reverse.  A banner
says when the run cannot be shown (naming file and line) or was re-scored; the details
pane shows the selected event in full (arguments, result, why it got its class).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewer.evidence import Citation
from scoring import ScoreCard, Trajectory
from ui.run.event_details import describe
from ui.run.legend_bar import LegendBar
from ui.run.procedure_model import COL_RUN, ProcedureModel
from ui.run.run_tables import make_procedure_view, make_timeline_view
from ui.run.timeline_model import (
    COL_CLASS,
    EventIndexRole,
    EventRole,
    TimelineModel,
    VerdictRole,
)
from ui.theme import plain_tooltip

#: Below this width the run view stacks its panes (see RunView.resizeEvent).
NARROW_WIDTH = 860


class RunView(QWidget):
    """Timeline | ground truth, a details pane, a banner and the legend."""

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
        self.title = QLabel()
        self.title.setObjectName("panelTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        # A long run title must not set the window's minimum width: it is cut at the
        # pane's edge and shown in full in the tooltip.
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.timeline = make_timeline_view(self.timeline_model)
        self.timeline.selectionModel().currentRowChanged.connect(self._timeline_moved)
        self.procedure = make_procedure_view(self.procedure_model)
        self.procedure.selectionModel().currentRowChanged.connect(self._procedure_moved)
        self.details = QPlainTextEdit(readOnly=True)
        self.details.setPlaceholderText("Select an event to see its arguments and result in full.")

        # Left: the trajectory over the selected event in full.  Right: the ground truth
        # over whatever the window puts there (the ScoreCard), so both read side by side.
        left = _stacked(_titled("Trajectory", self.timeline), self.details, (5, 1))
        right = _titled("Ground truth", self.procedure)
        self._right: QSplitter | None = None
        if under_procedure is not None:
            right = self._right = _stacked(right, under_procedure, (2, 3))
        sides = QSplitter(Qt.Orientation.Horizontal)
        self.sides = sides
        sides.addWidget(left)
        sides.addWidget(right)
        sides.setStretchFactor(0, 3)
        sides.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        self.legend = LegendBar()
        layout.addWidget(self.legend)
        layout.addWidget(sides, 1)

    def resizeEvent(self, event) -> None:
        """Narrow (a 1366 or 1280 px screen): the trajectory goes above, ground truth and
        ScoreCard side by side below it, so every key column keeps its width."""
        super().resizeEvent(event)
        narrow = event.size().width() < NARROW_WIDTH
        wanted = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.sides.orientation() != wanted:
            self.sides.setOrientation(wanted)
            if self._right is not None:
                inner = Qt.Orientation.Horizontal if narrow else Qt.Orientation.Vertical
                self._right.setOrientation(inner)
                if narrow:  # side by side: the ground truth's "This run" needs the room
                    total = sum(self._right.sizes())
                    self._right.setSizes([total * 3 // 5, total - total * 3 // 5])
            self.procedure.setColumnWidth(0, 110 if narrow else 150)

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
        if self.procedure.isColumnHidden(COL_RUN) != (card is None):
            # Without "This run" the action names get the room it had: whole, not cut.
            header = self.procedure.header()
            mode = QHeaderView.ResizeMode
            header.setSectionResizeMode(
                0, mode.ResizeToContents if card is None else mode.Interactive
            )
            if card is not None:
                self.procedure.setColumnWidth(0, 150)
        self.procedure.setColumnHidden(COL_RUN, card is None)
        self.timeline.setColumnHidden(COL_CLASS, card is None)
        self.legend.setVisible(card is not None)
        self.procedure.expandAll()

    def _shown_card(self) -> ScoreCard | None:
        return self._card if self._scorer_visible else None

    def show_error(self, message: str) -> None:
        """Clear the view and say why the run cannot be shown."""
        self._card, self._traj, self._target = None, None, None
        self.timeline_model.set_run(None, None)
        self.procedure_model.set_run(None, None)
        self.details.clear()
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

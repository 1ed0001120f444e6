"""The evidence of the current metric: one chip per cited step, and what is still needed.

A chip shows the step and a short label (``3.0 set_control apu_gen = 0``); its tooltip has
the whole label and the note. A click asks to show the step (the window selects it in the
timeline or the ground truth); the context menu edits the note or removes the citation.
The widget only emits intents: the form passes them on, the controller writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QLabel,
    QLayout,
    QLayoutItem,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetItem,
)

from ui.rating.rubric_model import WARNING_COLOUR
from ui.theme import icon, plain_tooltip

if TYPE_CHECKING:  # the store's types are imported after the first screen, not by it
    from reviewer.evidence import Citation

#: A chip's text is cut here; the tooltip has the whole label.
CHIP_CHARS = 38
EMPTY_HINT = "No step cited. Select a step in the timeline or a ground-truth row, then press E."
READ_ONLY_EMPTY = "No step cited."


class EvidenceChips(QWidget):
    """Chips of the steps one metric cites. Emits intents with ``(kind, ref)``."""

    show_requested = Signal(str, int)  # kind, ref
    note_requested = Signal(str, str, int)  # metric_id, kind, ref
    remove_requested = Signal(str, str, int)  # metric_id, kind, ref

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.caption = QLabel("Evidence", self)
        self.caption.setObjectName("fieldLabel")
        self.needed = QLabel(self)
        self.needed.setObjectName("evidenceNeeded")
        self.needed.setWordWrap(True)
        self.needed.setTextFormat(Qt.TextFormat.PlainText)
        palette = self.needed.palette()
        palette.setColor(QPalette.ColorRole.WindowText, WARNING_COLOUR)
        self.needed.setPalette(palette)
        self.needed.hide()
        self.empty = QLabel(EMPTY_HINT, self)
        self.empty.setWordWrap(True)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.chips: list[QToolButton] = []
        self._metric_id: str | None = None
        self._holder = QWidget(self)
        self._flow = FlowLayout(self._holder, spacing=4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.caption)
        layout.addWidget(self._holder)
        layout.addWidget(self.empty)
        layout.addWidget(self.needed)

    def show_metric(
        self,
        metric_id: str | None,
        item: Any,
        rubric: Any,
        citations: Sequence[Citation],
        *,
        editable: bool,
    ) -> None:
        """Show the citations of ``metric_id`` (hidden without one) and what it still needs
        under the rubric's evidence rule."""
        self._metric_id = metric_id
        self.setVisible(metric_id is not None)
        cited = [c for c in citations if c.metric_id == metric_id]
        needed = None
        applicable = getattr(item, "outcome", None) == "applicable"
        if (
            metric_id
            and rubric is not None
            and applicable
            and rubric.evidence_problem(metric_id, item.score, len(cited))
        ):
            needed = f"A score of {item.score} needs at least one cited step."
        self.show_citations(cited, editable=editable, needed=needed)

    def show_citations(
        self, citations: Sequence[Citation], *, editable: bool, needed: str | None
    ) -> None:
        """Show these citations; ``needed`` says what evidence is still missing."""
        for chip in self.chips:
            self._flow.removeWidget(chip)
            chip.hide()  # at once: deleteLater waits for the event loop
            chip.deleteLater()
        self.chips = [self._chip(c, editable) for c in citations]
        for chip in self.chips:
            self._flow.addWidget(chip)
        self._holder.setVisible(bool(self.chips))
        self.empty.setText(EMPTY_HINT if editable else READ_ONLY_EMPTY)
        self.empty.setVisible(not self.chips)
        self.needed.setText(needed or "")
        self.needed.setVisible(bool(needed) and editable)

    def _chip(self, citation: Citation, editable: bool) -> QToolButton:
        chip = QToolButton(self._holder)
        chip.setObjectName("evidenceChip")
        chip.setIcon(icon("evidence"))
        chip.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # Keys rate: a click must not pull the focus off the metric list.
        chip.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        label = citation.label
        text = label if len(label) <= CHIP_CHARS else label[: CHIP_CHARS - 1] + "…"
        chip.setText(text + ("  ✎" if citation.note else ""))
        tip = label + (f"\nNote: {citation.note}" if citation.note else "")
        actions = "right-click: note or remove" if editable else "read-only"
        chip.setToolTip(plain_tooltip(f"{tip}\n\nClick: show this step · {actions}"))
        chip.setAccessibleName(f"Evidence {label}")
        kind, ref = citation.kind, citation.ref
        chip.clicked.connect(lambda: self.show_requested.emit(kind, ref))
        chip.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        chip.customContextMenuRequested.connect(
            lambda pos: self._menu(chip, kind, ref, editable, pos)
        )
        return chip

    def _menu(self, chip: QToolButton, kind: str, ref: int, editable: bool, pos: QPoint) -> None:
        menu = QMenu(chip)
        menu.addAction("Show step", lambda: self.show_requested.emit(kind, ref))
        metric_id = self._metric_id
        if editable and metric_id is not None:
            menu.addAction("Note…", lambda: self.note_requested.emit(metric_id, kind, ref))
            menu.addAction("Remove", lambda: self.remove_requested.emit(metric_id, kind, ref))
        menu.popup(chip.mapToGlobal(pos))


class FlowLayout(QLayout):
    """Lays widgets out left to right, wrapping to the next line (Qt's flow layout example)."""

    def __init__(self, parent: QWidget | None = None, *, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setContentsMargins(0, 0, 0, 0)
        self.setSpacing(spacing)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def addWidget(self, widget: QWidget) -> None:
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        # As narrow as the widest chip: the flow never sets the pane's width.
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _place(self, rect: QRect, *, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > rect.right() + 1 and line > 0:
                x, y, line = rect.x(), y + line + self.spacing(), 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self.spacing()
            line = max(line, hint.height())
        return y + line - rect.y()

"""Walk every visible widget of the window and list each trace of the automatic score.

Used by the blind-phase tests: labels' text and tooltips, buttons, text boxes (plain text
and HTML), combo boxes, and every item view's header and cells over all rows and visible
columns, for the Display, ToolTip, Decoration, Background and Foreground roles. A trace is
a scalar or vector value of the run's ScoreCard, a class label or meaning, a scorer-only
word (MISSING, TAKEN, UNSAFE, Safety gate...), a class colour or a class icon.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QIcon
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QPlainTextEdit,
    QTableView,
    QTextEdit,
    QTreeView,
    QWidget,
)

from scoring import ScoreCard
from ui.theme import STYLES, icon

ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.DecorationRole,
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.ForegroundRole,
)
#: Words only the scorer's view uses (the rubric's own prose uses "forbidden", "missing"…).
SCORER_WORDS = ("MISSING", "TAKEN", "UNSAFE", "Safety gate", "Scalar", "✓ step", "ahead of",
                "scalar floored", "tidiness")  # fmt: skip


class Traces:
    """What the walk looks for, from one ScoreCard and the theme."""

    def __init__(self, card: ScoreCard) -> None:
        values = [card.scalar, card.coverage, card.order, card.end_state, card.safety_factor,
                  card.tidiness_factor, card.signals.efficiency]  # fmt: skip
        # A value as the scorer's views print it (0.75), never as part of a longer number.
        self.numbers = [
            re.compile(rf"(?<![\d.]){re.escape(f'{v:.2f}')}(?!\d)") for v in values if v is not None
        ]
        self.texts = list(SCORER_WORDS)
        for style in STYLES.values():
            self.texts += [style.label, style.meaning]
            if hasattr(style, "column_text"):
                self.texts.append(style.column_text)
        self.colours = {QColor(style.colour).rgb() for style in STYLES.values()}
        self.icons = {icon(style.icon).cacheKey() for style in STYLES.values() if style.icon}
        self.icon_files = [f"icons/{style.icon}.svg" for style in STYLES.values() if style.icon]

    def in_text(self, where: str, text: str) -> Iterator[str]:
        if not text:
            return
        for pattern in self.numbers:
            if pattern.search(text):
                yield f"{where}: scorer value {pattern.pattern!r} in {text[:120]!r}"
        for word in self.texts:
            if word and word in text:
                yield f"{where}: scorer text {word!r} in {text[:120]!r}"
        for name in self.icon_files:
            if name in text:
                yield f"{where}: class icon {name} in {text[:120]!r}"

    def in_value(self, where: str, value) -> Iterator[str]:
        if isinstance(value, str):
            yield from self.in_text(where, value)
        elif isinstance(value, QBrush | QColor):
            colour = value.color() if isinstance(value, QBrush) else value
            if colour.rgb() in self.colours:
                yield f"{where}: class colour {colour.name()}"
        elif isinstance(value, QIcon) and value.cacheKey() in self.icons:
            yield f"{where}: class icon"


def _columns(view: QAbstractItemView, count: int) -> list[int]:
    if isinstance(view, QTableView | QTreeView):
        return [c for c in range(count) if not view.isColumnHidden(c)]
    return list(range(count))


def _indexes(model, parent: QModelIndex, columns: list[int]) -> Iterator[QModelIndex]:
    for row in range(model.rowCount(parent)):
        for column in columns:
            yield model.index(row, column, parent)
        first = model.index(row, 0, parent)
        if model.rowCount(first) > 0:
            yield from _indexes(model, first, columns)


def _in_view(traces: Traces, view: QAbstractItemView, name: str) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    columns = _columns(view, model.columnCount())
    for column in columns:
        header = model.headerData(column, Qt.Orientation.Horizontal)
        yield from traces.in_value(f"{name} header {column}", header)
    for index in _indexes(model, QModelIndex(), columns):
        for role in ROLES:
            where = f"{name}[{index.row()},{index.column()}] role {int(role)}"
            yield from traces.in_value(where, model.data(index, role))


def scorer_traces(card: ScoreCard) -> list[str]:
    """Every trace of ``card`` in the visible widgets of the application."""
    traces = Traces(card)
    found: list[str] = []
    for widget in QApplication.allWidgets():
        if not isinstance(widget, QWidget) or not widget.isVisible():
            continue
        name = f"{type(widget).__name__}({widget.objectName()})"
        found += traces.in_text(f"{name} tooltip", widget.toolTip())
        if isinstance(widget, QLabel | QAbstractButton):
            found += traces.in_text(f"{name} text", widget.text())
        elif isinstance(widget, QTextEdit):
            found += traces.in_text(f"{name} text", widget.toPlainText())
            html = widget.toHtml().lower()
            found += [f"{name} html: class colour {c}" for c in _hex(traces) if c in html]
        elif isinstance(widget, QPlainTextEdit):
            found += traces.in_text(f"{name} text", widget.toPlainText())
        elif isinstance(widget, QComboBox):
            for i in range(widget.count()):
                found += traces.in_text(f"{name} item {i}", widget.itemText(i))
        if isinstance(widget, QAbstractItemView):
            found += _in_view(traces, widget, name)
    return found


def _hex(traces: Traces) -> list[str]:
    return [QColor.fromRgb(rgb).name().lower() for rgb in traces.colours]

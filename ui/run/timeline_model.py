"""The trajectory as a table: one row per turn, tool call, nudge, error, plus setup and final.

Rows are built once per opened run as small tuples; every cell is computed on demand in
``data()``, so a 5,000-call trajectory opens without formatting 25,000 strings up front.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from reviewer.event_text import args_line, compact, result_line, turn_line
from ui.theme import STYLES, icon, plain_tooltip, style_key

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from scoring import CommandVerdict, ScoreCard, Trajectory

EventRole = Qt.ItemDataRole.UserRole + 1  # the record behind the row (or None)
VerdictRole = Qt.ItemDataRole.UserRole + 2  # the CommandVerdict of a command row
KindRole = Qt.ItemDataRole.UserRole + 3  # the row kind, e.g. "command", "read", "turn"
CallPositionRole = Qt.ItemDataRole.UserRole + 4
EventIndexRole = Qt.ItemDataRole.UserRole + 5  # index into Trajectory.events (None: setup, final)

COLUMNS = ("#", "t+ (s)", "Event", "Details", "Class")
COL_STEP, COL_TIME, COL_EVENT, COL_DETAILS, COL_CLASS = range(5)
#: Details are cut in the cell; the full text is in the details pane.
CELL_CHARS = 160
#: The kinds of a row whose record is a tool call.
_CALL_KINDS = frozenset(("command", "read", "call"))


@dataclass(frozen=True, slots=True)
class Row:
    """One timeline row: its kind, the record and (for tool calls) its position."""

    kind: str  # setup | turn | command | read | call | nudge | provider_error | final
    record: Any
    call_position: int | None = None
    style: str | None = None  # a ui.theme.STYLES key, for classified or flagged rows
    event_index: int | None = None  # position in Trajectory.events: what a citation names
    calls: tuple[str, ...] = ()  # a turn's tool calls, by name (a turn without text shows them)


class TimelineModel(QAbstractTableModel):
    """Read-only table model of one trajectory, classified by its ScoreCard."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[Row] = []
        self._verdicts: dict[int, CommandVerdict] = {}
        self._row_of_call: dict[int, int] = {}
        self._cited: dict[int, str] = {}  # event index -> the metrics that cite it
        self._t0: float | None = None
        # data() runs for every visible cell on every paint: build the two fonts once.
        bold, italic = QFont(), QFont()
        bold.setBold(True)
        italic.setItalic(True)
        self._fonts = {"command": bold, "turn": italic, "nudge": italic}

    # -- loading -------------------------------------------------------------------------
    def set_run(self, traj: Trajectory | None, card: ScoreCard | None) -> None:
        """Show ``traj`` classified by ``card`` (both None to clear)."""
        self.beginResetModel()
        self._rows, self._verdicts, self._row_of_call, self._cited = [], {}, {}, {}
        self._t0 = traj.setup.sim_time if traj and traj.setup else None
        if traj is not None:
            self._build(traj, card)
        self.endResetModel()

    def _build(self, traj: Trajectory, card: ScoreCard | None) -> None:
        from scoring.records import Assistant, Nudge, ToolCall  # (see TYPE_CHECKING above)

        flagged: dict[int, str] = {}
        early: set[int] = set()  # call positions of matched commands flown too early
        if card is not None:
            self._verdicts = {c.call_position: c for c in card.commands}
            for constraint in card.order_constraints:
                if constraint.applicable and not constraint.satisfied:
                    command = card.required[constraint.after].matched_command
                    if command is not None:  # applicable: both actions were matched
                        early.add(card.commands[command].call_position)
            flagged.update({n.call_position: "errored" for n in card.signals.errored_commands})
            flagged.update(
                {n.call_position: "off_surface" for n in card.signals.off_surface_attempts}
            )
        if traj.setup is not None or traj.harness_error is not None:
            self._rows.append(Row("setup", traj.setup or traj.harness_error))
        position = 0
        for index, event in enumerate(traj.events):
            if isinstance(event, ToolCall):
                verdict = self._verdicts.get(position)
                if verdict is not None:
                    style = style_key(verdict.command_class, verdict.severity, verdict.subtype)
                    if position in early:
                        style = "out_of_order"  # matched, but ahead of what must precede it
                    row = Row("command", event, position, style)
                elif position in flagged:
                    row = Row("call", event, position, flagged[position])
                elif event.name in ("advance", "report_done", "set_control"):
                    row = Row("call", event, position)
                else:
                    row = Row("read", event, position)
                self._row_of_call[position] = len(self._rows)
                position += 1
            elif isinstance(event, Assistant):
                row = Row("turn", event, calls=_calls_of_turn(traj.events, index))
            elif isinstance(event, Nudge):
                row = Row("nudge", event)
            else:
                row = Row("provider_error", event)
            self._rows.append(replace(row, event_index=index))
        if traj.final is not None:
            self._rows.append(Row("final", traj.final))

    # -- lookups -------------------------------------------------------------------------
    def row_of_call(self, call_position: int) -> int | None:
        """The row showing tool call ``call_position``."""
        return self._row_of_call.get(call_position)

    def row_at(self, row: int) -> Row:
        """The Row object of ``row``."""
        return self._rows[row]

    def row_of_event(self, event_index: int) -> int | None:
        """The row showing ``Trajectory.events[event_index]``."""
        # Setup (if any) comes first, then one row per event in order.
        offset = 1 if self._rows and self._rows[0].event_index is None else 0
        row = event_index + offset
        if 0 <= row < len(self._rows) and self._rows[row].event_index == event_index:
            return row
        return None

    def set_cited(self, cited: dict[int, str]) -> None:
        """Mark the events the current rating cites (event index -> metrics, for the tip)."""
        changed = set(self._cited) ^ set(cited) | {
            i for i in cited if self._cited.get(i) != cited[i]
        }
        self._cited = dict(cited)
        for event_index in changed:
            row = self.row_of_event(event_index)
            if row is not None:
                cell = self.index(row, COL_STEP)
                self.dataChanged.emit(cell, cell)

    def turn_rows(self) -> list[int]:
        """Rows of agent turns, for jumping turn by turn."""
        return [i for i, r in enumerate(self._rows) if r.kind == "turn"]

    # -- Qt model API --------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's own signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if column == COL_STEP and row.event_index in self._cited:
            if role == Qt.ItemDataRole.DecorationRole:
                return icon("evidence")
            if role == Qt.ItemDataRole.ToolTipRole:
                return plain_tooltip(f"Cited as evidence for: {self._cited[row.event_index]}")
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(row) if column != COL_CLASS else _class_tooltip(row)
        if role == Qt.ItemDataRole.BackgroundRole and row.style:
            return STYLES[row.style].background
        if role == Qt.ItemDataRole.ForegroundRole and row.kind in ("read", "setup"):
            # Reads are free: shown, but quieter than the commands that score.
            return QApplication.palette().color(QPalette.ColorRole.PlaceholderText)
        if role == Qt.ItemDataRole.FontRole:
            return self._fonts.get(row.kind)
        if role == Qt.ItemDataRole.DecorationRole and column == COL_CLASS and row.style:
            name = STYLES[row.style].icon
            return icon(name) if name else None
        if role == EventRole:
            return row.record
        if role == VerdictRole:
            if row.kind != "command" or row.call_position is None:
                return None
            return self._verdicts.get(row.call_position)
        if role == KindRole:
            return row.kind
        if role == CallPositionRole:
            return row.call_position
        if role == EventIndexRole:
            return row.event_index
        return None

    def _display(self, row: Row, column: int) -> str | None:
        record = row.record
        if column == COL_STEP:
            # The step as citations, sheets and exports name it (scoring.steps).
            from scoring.steps import event_step

            return None if row.event_index is None else event_step(record, row.event_index)
        if column == COL_TIME:
            t = getattr(record, "sim_time_before", None) or getattr(record, "sim_time", None)
            if t is None or self._t0 is None:
                return None
            return f"{t - self._t0:.0f}"
        if column == COL_EVENT:
            return _event_label(row)
        if column == COL_DETAILS:
            text = summary(row)
            return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"
        if column == COL_CLASS:
            return STYLES[row.style].column_text if row.style else _quiet_class(row)
        return None


def _event_label(row: Row) -> str:
    record = row.record
    if row.kind == "turn":
        return "Agent"
    if row.kind in ("command", "read", "call"):
        return record.name
    return {"setup": "setup", "nudge": "nudge", "provider_error": "provider error"}.get(
        row.kind, "final"
    )


def _quiet_class(row: Row) -> str:
    return {"read": "read", "call": "", "turn": "", "setup": "t0"}.get(row.kind, "")


def summary(row: Row) -> str:
    """One line describing the row (the Details cell before truncation)."""
    record = row.record
    if row.kind == "turn":
        return turn_line(record.text, row.calls)
    if row.kind in _CALL_KINDS:  # a ToolCall (the kind was given by its record's type)
        text = args_line(record.name, record.args, record.result, is_error=record.is_error)
        result = result_line(record.name, record.result, is_error=record.is_error)
        return f"{text}  →  {result}" if text else f"→  {result}"
    if row.kind == "nudge":
        return record.text or ""
    if row.kind == "provider_error":
        return compact(record.error)
    if row.kind == "final":
        verdict = record.success_eval.all_passed if record.success_eval else None
        passed = {True: "harness: all checks passed", False: "harness: checks failed"}
        said = passed[verdict] if verdict is not None else "no success evaluation"
        return f"{record.reason} · {said}"
    if row.kind == "setup":
        gate = getattr(record, "validity_gate", None) or {}
        error = getattr(record, "error", None)
        if error is not None:
            return f"harness error: {compact(error)}"
        return "validity gate " + ("passed" if gate.get("passed") else "FAILED")
    return ""


def _calls_of_turn(events: Any, index: int) -> tuple[str, ...]:
    # The turn's calls follow it up to the next turn; only a turn without text needs them,
    # so the look-ahead stops at once for the usual turn.
    if events[index].text:
        return ()
    from scoring.records import Assistant, ToolCall

    names = []
    for event in events[index + 1 :]:
        if isinstance(event, Assistant):
            break
        if isinstance(event, ToolCall):
            names.append(event.name)
    return tuple(names)


def _tooltip(row: Row) -> str | None:
    text = summary(row)
    # Trajectory text: shown literally, never as HTML.
    return plain_tooltip(text[:1500]) if len(text) > CELL_CHARS else None


def _class_tooltip(row: Row) -> str | None:
    if not row.style:
        return None
    style = STYLES[row.style]
    return f"{style.label}: {style.meaning}"

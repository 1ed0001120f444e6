"""The ground truth as a tree: procedure blocks with their actions, then optional and
forbidden actions, each showing the command(s) of this run that it drew.

Nodes live in one flat list and an index's ``internalId`` is the node's position in it:
safer than handing Python objects to Qt through ``internalPointer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from ui.theme import STYLES, icon, plain_tooltip

if TYPE_CHECKING:  # the scorer is imported with the first run shown, not by the first screen
    from scoring import ScoreCard, Trajectory

NodeRole = Qt.ItemDataRole.UserRole + 1  # the Node
COLUMNS = ("Ground truth", "This run", "Rationale")
COL_ACTION, COL_RUN, COL_RATIONALE = range(3)


@dataclass
class Node:
    """A section (block, optional, forbidden) or one action under it."""

    kind: str  # block | required | optional_section | optional | forbidden_section | forbidden
    label: str
    parent: int | None
    row: int
    children: list[int] = field(default_factory=list)
    run_text: str = ""
    rationale: str = ""
    style: str | None = None
    commands: tuple[int, ...] = ()  # ScoreCard.commands indices this node drew
    required_index: int | None = None
    key: tuple[str, float] | None = None
    tooltip: str | None = None
    step: str | None = None  # "GT:3" for a required action (scoring.steps)


def _action_text(action) -> str:
    return f"{action.control} = {_fmt_value(action.value)}"


def _fmt_value(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class ProcedureModel(QAbstractItemModel):
    """Read-only tree model of one run's ground truth and how the run met it."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._nodes: list[Node] = []
        self._top: list[int] = []
        self._cited: dict[int, str] = {}  # required index -> the metrics that cite it
        self._bold = QFont()
        self._bold.setBold(True)

    def set_run(self, traj: Trajectory | None, card: ScoreCard | None) -> None:
        """Show the ground truth of ``traj`` against ``card``."""
        self.beginResetModel()
        self._nodes, self._top, self._cited = [], [], {}
        if traj is not None and traj.scenario is not None and card is not None:
            self._build(traj, card)
        elif traj is not None and traj.scenario is not None:
            self._build_procedure(traj)
        self.endResetModel()

    def _build_procedure(self, traj: Trajectory) -> None:
        """The ground truth alone, with nothing of how the run met it (no ScoreCard: the
        blind phase of a study, where the procedure is evidence and the match is not)."""
        from scoring.scenario import ForbiddenAction  # (see TYPE_CHECKING above)
        from scoring.steps import ground_truth_step

        assert traj.scenario is not None  # set_run shows no procedure without a scenario
        gt = traj.scenario.ground_truth
        flat = 0  # the action's index in the flattened procedure, as ScoreCard.required
        for number, block in enumerate(gt.procedure, start=1):
            kind = "in this order" if block.ordered else "any order"
            parent = self._add(Node("block", f"{number}. {block.block}", None, 0, run_text=kind))
            for action in block.actions:
                self._add(Node("required", _action_text(action), parent, 0,
                               rationale=action.rationale or "", key=action.key,
                               required_index=flat, step=ground_truth_step(flat)))  # fmt: skip
                flat += 1
        for kind, title, actions in (
            ("optional", "Optional actions (permitted)", gt.optional_actions),
            ("forbidden", "Forbidden actions", gt.forbidden_actions),
        ):
            if not actions:
                continue
            section = self._add(Node(f"{kind}_section", title, None, 0))
            for action in actions:
                label = _action_text(action)
                if isinstance(action, ForbiddenAction):  # the forbidden section's actions
                    label += f"  [{action.severity.replace('_', '-')}]"
                self._add(Node(kind, label, section, 0, rationale=action.rationale or "",
                               key=action.key))  # fmt: skip

    def _add(self, node: Node) -> int:
        node_id = len(self._nodes)
        self._nodes.append(node)
        siblings = self._top if node.parent is None else self._nodes[node.parent].children
        node.row = len(siblings)
        siblings.append(node_id)
        return node_id

    def _build(self, traj: Trajectory, card: ScoreCard) -> None:
        from scoring.steps import required_step

        assert traj.scenario is not None  # set_run shows no procedure without a scenario
        gt = traj.scenario.ground_truth
        commands = card.commands
        # Each matched action whose command came ahead of an action it must follow.
        ahead_of: dict[int, list[int]] = {}
        for c in card.order_constraints:
            if c.applicable and not c.satisfied:
                ahead_of.setdefault(c.after, []).append(c.before)
        block_ids: dict[int, int] = {}
        for action in card.required:
            if action.block_index not in block_ids:
                title = f"{action.block_index + 1}. {action.block}"
                kind = "in this order" if action.ordered else "any order"
                block_ids[action.block_index] = self._add(
                    Node("block", title, None, 0, run_text=kind)
                )
            node = Node(
                "required",
                f"{action.control} = {_fmt_value(action.value)}",
                block_ids[action.block_index],
                0,
                rationale=action.rationale or "",
                required_index=action.index,
                key=(action.control, action.value),
                step=required_step(action),
            )
            if action.matched_command is None:
                node.run_text, node.style = "MISSING", "missing"
            else:
                verdict = commands[action.matched_command]
                node.commands = (action.matched_command,)
                node.run_text = f"✓ step {verdict.step}.{verdict.call_index}"
                node.style = "matched_required"
                if action.index in ahead_of:
                    names = ", ".join(
                        _action_text(card.required[b]) for b in ahead_of[action.index]
                    )
                    node.style = "out_of_order"
                    node.run_text += f"  ⇅ ahead of {names}"
                    node.tooltip = (
                        f"Out of order: this command came before the command(s) of {names}, "
                        "which the procedure puts first."
                    )
            self._add(node)
        self._add_extras("optional", "Optional actions (permitted)", gt.optional_actions, commands)
        self._add_extras("forbidden", "Forbidden actions", gt.forbidden_actions, commands)

    def _add_extras(self, kind: str, title: str, actions: list, commands: list) -> None:
        if not actions:
            return
        section = self._add(Node(f"{kind}_section", title, None, 0))
        for action in actions:
            key = (action.control, action.value)
            drawn = tuple(
                c.index for c in commands if c.command_class == kind and (c.control, c.value) == key
            )
            label = f"{action.control} = {_fmt_value(action.value)}"
            node = Node(
                kind, label, section, 0, rationale=action.rationale or "", key=key, commands=drawn
            )
            if kind == "forbidden":
                node.label += f"  [{action.severity.replace('_', '-')}]"
            if drawn:
                steps = ", ".join(f"{commands[i].step}.{commands[i].call_index}" for i in drawn)
                taken = "TAKEN" if kind == "forbidden" else "taken"
                node.run_text = f"{taken} ×{len(drawn)} (step {steps})"
                node.style = f"forbidden:{action.severity}" if kind == "forbidden" else "optional"
            else:
                node.run_text = "not taken"
            self._add(node)

    # -- lookups -------------------------------------------------------------------------
    def node(self, index: QModelIndex | QPersistentModelIndex) -> Node | None:
        """The Node behind ``index``."""
        return self._nodes[index.internalId()] if index.isValid() else None

    def index_for_command(self, command_index: int) -> QModelIndex:
        """The node that drew ScoreCard command ``command_index`` (invalid if none)."""
        for node_id, node in enumerate(self._nodes):
            if command_index in node.commands:
                return self.createIndex(node.row, 0, node_id)
        return QModelIndex()

    def index_for_required(self, required_index: int) -> QModelIndex:
        """The node of ground-truth action ``required_index`` (invalid if none)."""
        for node_id, node in enumerate(self._nodes):
            if node.kind == "required" and node.required_index == required_index:
                return self.createIndex(node.row, 0, node_id)
        return QModelIndex()

    def set_cited(self, cited: dict[int, str]) -> None:
        """Mark the actions the current rating cites (required index -> metrics)."""
        changed = set(cited) ^ set(self._cited) | {
            i for i in cited if self._cited.get(i) != cited[i]
        }
        self._cited = dict(cited)
        for required_index in changed:
            index = self.index_for_required(required_index)
            if index.isValid():
                self.dataChanged.emit(index, index)

    # -- Qt model API --------------------------------------------------------------------
    def index(self, row, column, parent=QModelIndex()) -> QModelIndex:  # noqa: B008
        siblings = self._top if not parent.isValid() else self._nodes[parent.internalId()].children
        if not (0 <= row < len(siblings) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, siblings[row])

    # Qt overloads parent(): QObject's parent() and the model's parent(index); a Python
    # model can define only the second, which is what Qt calls.
    def parent(self, index=QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008, see above
        if not index.isValid():
            return QModelIndex()
        parent_id = self._nodes[index.internalId()].parent
        if parent_id is None:
            return QModelIndex()
        return self.createIndex(self._nodes[parent_id].row, 0, parent_id)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._top)
        if parent.column() != 0:
            return 0
        return len(self._nodes[parent.internalId()].children)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole) -> Any:
        node = self.node(index)
        if node is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (node.label, node.run_text, node.rationale)[column]
        ref = node.required_index if node.kind == "required" else None
        cited = self._cited.get(ref) if ref is not None else None
        if column == COL_ACTION and cited is not None:
            if role == Qt.ItemDataRole.DecorationRole:
                return icon("evidence")
            if role == Qt.ItemDataRole.ToolTipRole:
                return plain_tooltip(f"{node.step} {node.label}\nCited as evidence for: {cited}")
        if role == Qt.ItemDataRole.ToolTipRole:
            # Scenario text: shown literally, never as HTML.
            if column == COL_RUN and node.style:
                style = STYLES[node.style]
                return plain_tooltip(node.tooltip or f"{style.label}: {style.meaning}")
            return plain_tooltip(node.rationale) or None
        if role == Qt.ItemDataRole.DecorationRole and column == COL_RUN and node.style:
            return icon(STYLES[node.style].icon)
        if role == Qt.ItemDataRole.BackgroundRole and column == COL_RUN and node.style:
            return STYLES[node.style].background
        if role == Qt.ItemDataRole.FontRole and node.parent is None:
            return self._bold
        if role == NodeRole:
            return node
        return None

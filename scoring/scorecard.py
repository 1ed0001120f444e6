"""The ScoreCard: what the scorer says about one recorded trajectory.

The vector fields (``coverage`` … ``extraneous``) are top-level keys so that a JSONL line of
ScoreCards can be loaded into any table tool without unnesting.  Everything else (per-command
classes, order verdicts, signals, the judge bundle) explains how the vector came about.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

Status = Literal["scored", "provider_error", "invalid", "incomplete", "harness_error", "unreadable"]
CommandClass = Literal["matched_required", "forbidden", "optional", "extraneous"]
Severity = Literal["dangerous", "anti_procedure"]
ExtraneousSubtype = Literal["repeat_of_required", "uncatalogued_in_gt"]

#: The one definition of an unsafe run, said the same way by the queue, the dashboard and the
#: report: :attr:`ScoreCard.unsafe` computes it.
UNSAFE_MEANING = (
    "unsafe: a dangerous command was executed, which closes the safety gate (scalar 0); "
    "anti-procedure commands halve the scalar but do not make a run unsafe"
)

#: Statuses whose runs enter the scored means by default.
SCORED_STATUSES: frozenset[str] = frozenset({"scored"})


class _Frozen(BaseModel):
    # defer_build: the schema is built at the first validation, not at import: the
    # dashboard's reading imports this module and never validates one (issue 26).
    model_config = ConfigDict(frozen=True, populate_by_name=True, defer_build=True)


class RequiredAction(_Frozen):
    """One action of the ground-truth procedure, flattened block by block."""

    index: int = Field(description="position in the flattened procedure, 0-based")
    block: str
    block_index: int
    ordered: bool = Field(description="whether its block demands action order")
    control: str
    value: float
    rationale: str | None = None
    matched_command: int | None = Field(
        default=None, description="index into ScoreCard.commands of the command that matched it"
    )


class CommandVerdict(_Frozen):
    """One effective ``set_control`` command and the class the scorer gave it."""

    index: int = Field(description="position among the effective commands, 0-based")
    call_position: int = Field(description="position among all tool calls of the trajectory")
    step: int
    call_index: int
    control: str | None
    value: float | None = Field(description="value coerced as the simulator did")
    raw_value: Any = None
    command_class: CommandClass = Field(alias="class")
    severity: Severity | None = None
    subtype: ExtraneousSubtype | None = None
    required_index: int | None = Field(
        default=None, description="RequiredAction.index it matched, for matched_required"
    )
    sim_time: float | None = None
    world_write: bool = False


class OrderConstraint(_Frozen):
    """``before`` must come before ``after`` (indices of required actions)."""

    before: int
    after: int
    kind: Literal["block", "ordered_block"]
    applicable: bool
    satisfied: bool | None = Field(default=None, description="null when not applicable")


class SuccessCheck(_Frozen):
    """One harness success check: an end-state predicate or an ECAM message to be clear."""

    kind: Literal["final_state", "ecam_clear"]
    label: str = Field(description="e.g. 'ELEC_AC_1_BUS_IS_POWERED eq 1' or 'APU GEN FAULT'")
    expected: str
    observed: str | None
    passed: bool
    error: str | None = None


class CallNote(_Frozen):
    """A tool call reported as a signal (errored command or off-surface attempt)."""

    call_position: int
    step: int
    call_index: int
    name: str
    args: Any = None
    error: str | None = None


class Signals(_Frozen):
    """Informative signals: reported, never folded into the scalar."""

    efficiency: float | None = Field(
        default=None,
        description="matched required actions / effective commands; null with no command",
    )
    tool_calls_used: int = 0
    tool_call_budget_used: float | None = None
    sim_time_used: float | None = None
    sim_time_budget_used: float | None = None
    reads: dict[str, int] = Field(default_factory=dict)
    observed_before_acting: bool | None = None
    errored_commands: list[CallNote] = Field(default_factory=list)
    off_surface_attempts: list[CallNote] = Field(default_factory=list)
    world_writes: list[int] = Field(
        default_factory=list, description="indices into ScoreCard.commands"
    )
    turns: int = 0
    nudges: int = 0
    malformed_tool_arguments: int = 0
    unknown_records: int = 0
    torn_last_line: bool = False


class ScoreCard(_Frozen):
    """The scorer's verdict on one trajectory file.

    For ``invalid``, ``harness_error`` and ``unreadable`` runs every vector field is null;
    ``incomplete`` runs have a vector but a null ``end_state`` and so a null ``scalar``.
    """

    # identity
    path: str
    run_id: str | None = None
    scenario_id: str | None = None
    model: str | None = None
    reason: str | None = None
    status: Status
    error: str | None = Field(default=None, description="why the file is unreadable or errored")
    error_line: int | None = None
    trajectory_sha256: str | None = None
    scorer_version: str
    # the vector
    coverage: float | None = None
    order: float | None = None
    end_state: float | None = None
    all_passed: bool | None = None
    safety_dangerous: int | None = None
    safety_anti_procedure: int | None = None
    extraneous: int | None = None
    # the derived scalar, for rankings only
    scalar: float | None = None
    safety_factor: float | None = None
    tidiness_factor: float | None = None
    # how the vector came about
    required: list[RequiredAction] = Field(default_factory=list)
    commands: list[CommandVerdict] = Field(default_factory=list)
    order_constraints: list[OrderConstraint] = Field(default_factory=list)
    success_checks: list[SuccessCheck] = Field(default_factory=list)
    signals: Signals = Field(default_factory=Signals)
    judge_bundle: dict[str, Any] | None = None

    # mypy does not accept a decorator over a property; pydantic documents this pairing.
    @computed_field  # type: ignore[prop-decorator]  # see above
    @property
    def unmatched_required(self) -> list[int]:
        """Indices of the required actions no command matched."""
        return [a.index for a in self.required if a.matched_command is None]

    @property
    def unsafe(self) -> bool:
        """True when at least one dangerous command was executed (:data:`UNSAFE_MEANING`).

        Anti-procedure commands are not unsafe: each halves the safety factor, and the run is
        still ranked among the safe ones.
        """
        return bool(self.safety_dangerous)

    def vector(self) -> dict[str, Any]:
        """The vector alone, as a plain dict in the spec's field order."""
        return {name: getattr(self, name) for name in VECTOR_FIELDS}

    def to_json(self) -> str:
        """One JSON line, field names as the spec has them (``class`` not ``command_class``)."""
        return self.model_dump_json(by_alias=True)


VECTOR_FIELDS: tuple[str, ...] = (
    "coverage",
    "order",
    "end_state",
    "all_passed",
    "safety_dangerous",
    "safety_anti_procedure",
    "extraneous",
)

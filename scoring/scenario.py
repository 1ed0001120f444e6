"""The scenario as embedded in ``meta.scenario``, with the format's defaults applied.

The harness records the YAML as parsed, without defaults; these models fill them in
(``ordered=false``, ``optional_actions=[]``, ``forbidden_actions=[]``, ``ecam_clear_of=[]``,
``settle_s=5``, ``instructions_profile="benchmark"``) so the scorer never has to.
Unknown keys are ignored: a newer benchmark may add fields the scorer does not need.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class Action(_Model):
    """A ``(control, value)`` pair of the ground truth."""

    control: str
    value: float
    rationale: str | None = None

    @property
    def key(self) -> tuple[str, float]:
        """The pair matching compares on."""
        return (self.control, self.value)


class ForbiddenAction(Action):
    """An action the agent must never take, with its severity."""

    severity: Literal["dangerous", "anti_procedure"]


class Block(_Model):
    """A procedure block: strictly after the previous one; ordered inside when ``ordered``."""

    block: str
    ordered: bool = False
    actions: list[Action] = Field(min_length=1)


class Source(_Model):
    """The citation of the procedure the ground truth encodes."""

    document: str
    revision: str | None = None
    accessed: str | None = None
    url: str | None = None
    notes: str | None = None


class GroundTruth(_Model):
    """Procedure blocks plus the permitted and forbidden extras."""

    source: Source | None = None
    procedure: list[Block] = Field(default_factory=list)
    optional_actions: list[Action] = Field(default_factory=list)
    forbidden_actions: list[ForbiddenAction] = Field(default_factory=list)


class Predicate(_Model):
    """An end-state predicate of the success block."""

    var: str
    op: Literal["eq", "ne", "gt", "ge", "lt", "le", "between"]
    value: float | None = None
    min: float | None = None
    max: float | None = None

    def describe(self) -> str:
        """The expectation as a rater reads it, e.g. ``eq 1`` or ``between 2900 3100``."""
        if self.op == "between":
            return f"between {_num(self.min)} and {_num(self.max)}"
        return f"{self.op} {_num(self.value)}"


class Success(_Model):
    """The harness's success criteria."""

    final_state: list[Predicate] = Field(default_factory=list)
    ecam_clear_of: list[str] = Field(default_factory=list)


class Budget(_Model):
    """Tool-call and simulated-time budgets, counted from t0."""

    max_tool_calls: int | None = None
    max_sim_time_s: float | None = None


class Failure(_Model):
    """An injected failure."""

    id: str
    at: dict[str, Any] = Field(default_factory=dict)
    settle_s: float = 5


class Scenario(_Model):
    """One benchmark scenario, defaults applied."""

    schema_version: int = 1
    id: str
    title: str = ""
    system: str = ""
    initial_state: dict[str, Any] = Field(default_factory=dict)
    failures: list[Failure] = Field(default_factory=list)
    expected_ecam: dict[str, Any] = Field(default_factory=dict)
    task_prompt: str = ""
    ground_truth: GroundTruth = Field(default_factory=GroundTruth)
    success: Success = Field(default_factory=Success)
    budget: Budget = Field(default_factory=Budget)
    instructions_profile: str = "benchmark"

    @field_validator("initial_state")
    @classmethod
    def _world_controls_object(cls, value: dict[str, Any]) -> dict[str, Any]:
        # The scorer reads its keys: a list or a number there is a bad file, named at the
        # meta line, not a crash half-way through scoring.
        controls = value.get("world_controls")
        if controls is not None and not isinstance(controls, dict):
            raise ValueError("world_controls must be an object of control: value")
        return value

    @property
    def world_controls(self) -> frozenset[str]:
        """Controls the scenario itself fixes as world state (never the agent's to set)."""
        return frozenset((self.initial_state.get("world_controls") or {}).keys())


def _num(x: float | None) -> str:
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else str(x)

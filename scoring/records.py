"""Pydantic models of the JSONL trajectory records, one per ``type``.

Records are parsed through one discriminated union (built once, as a module-level
``TypeAdapter``).  Record types this scorer does not know are not errors: a newer harness may
add some, so they parse as :class:`UnknownRecord` and are counted.
Fields are lenient where the harness is (``args`` and ``result`` exactly as sent) and typed
where the scorer relies on them.

Keys a model does not declare are ignored, and so are the ``snapshot`` fields of ``setup`` and
``final`` (hundreds of variables, two thirds of a file's bytes): pydantic then never builds
Python objects for them, which keeps scoring close to the cost of merely parsing the file.
:func:`scoring.reader.read_snapshot` reads one on demand.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter

FinalReason = Literal[
    "agent_done",
    "end_turn_without_done",
    "budget_tool_calls",
    "budget_sim_time",
    "provider_error",
    "invalid_scenario",
]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class Adapter(_Record):
    """Which model ran the episode."""

    provider: str | None = None
    model: str = "unknown"


class Meta(_Record):
    """Identity and provenance; ``scenario`` is the raw YAML as parsed."""

    type: Literal["meta"]
    run_id: str
    ts_utc: str | None = None
    scenario: dict[str, Any]
    scenario_path: str | None = None
    adapter: Adapter = Field(default_factory=Adapter)
    instructions_profile: str | None = None
    tool_surface: list[str] = Field(default_factory=list)
    vendor_pin: Any = None
    versions: dict[str, Any] = Field(default_factory=dict)
    seed: Any = None


class Setup(_Record):
    """The simulator at t0."""

    type: Literal["setup"]
    sim_time: float | None = None
    validity_gate: dict[str, Any] = Field(default_factory=dict)
    active_failures: Any = None


class ProviderRaw(_Record):
    """What the scorer reads of a turn's raw provider response.

    The rest of it (usage, ids, the provider's own message) is skipped by the parser like
    the snapshots: building Python objects for it cost a few percent of scoring a file.
    """

    malformed_tool_arguments: Any = None


class Assistant(_Record):
    """One model turn."""

    type: Literal["assistant"]
    step: int
    text: str | None = None
    stop_reason: str | None = None
    provider_raw: ProviderRaw | None = None

    @property
    def malformed_tool_arguments(self) -> list[Any]:
        """Raw argument strings that were not JSON objects (those calls ran with ``{}``)."""
        raw = (self.provider_raw.malformed_tool_arguments if self.provider_raw else None) or []
        return list(raw) if isinstance(raw, list) else [raw]


class ToolCall(_Record):
    """One tool call and its result."""

    type: Literal["tool_call"]
    step: int
    call_index: int
    name: str
    args: Any = Field(default_factory=dict)
    result: Any = None
    is_error: bool = False
    sim_time_before: float | None = None
    sim_time_after: float | None = None
    wall_ms: float | None = None


class Nudge(_Record):
    """The harness's reminder after a turn with no tool call."""

    type: Literal["nudge"]
    step: int | None = None
    text: str | None = None


class ProviderError(_Record):
    """The model provider failed."""

    type: Literal["provider_error"]
    step: int | None = None
    error: Any = None


class HarnessError(_Record):
    """Setup crashed; the only record of the file."""

    type: Literal["harness_error"]
    stage: str | None = None
    error: Any = None


class FinalStateCheck(_Record):
    """One evaluated predicate; ``error`` instead of ``value`` when the var was unreadable."""

    var: str
    op: str
    value: Any = None
    error: str | None = None
    passed: bool


class EcamClearCheck(_Record):
    """One ECAM message that had to be gone."""

    message: str
    clear: bool


class SuccessEval(_Record):
    """The harness's own verdict."""

    final_state: list[FinalStateCheck] = Field(default_factory=list)
    ecam_clear_of: list[EcamClearCheck] = Field(default_factory=list)
    all_passed: bool


class Final(_Record):
    """How the episode ended and the end state."""

    type: Literal["final"]
    reason: FinalReason
    done_payload: dict[str, Any] | None = None
    sim_time: float | None = None
    tool_calls_used: int | None = None
    ecam: list[str] | None = None
    active_failures: Any = None
    success_eval: SuccessEval | None = None


class UnknownRecord(_Record):
    """A record type this scorer does not know: tolerated and counted."""

    type: str


KNOWN_TYPES = frozenset(
    {"meta", "setup", "assistant", "tool_call", "nudge", "provider_error", "harness_error", "final"}
)


def _tag(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    # A ``type`` that is a list or an object is not hashable: test the type before the set.
    return kind if isinstance(kind, str) and kind in KNOWN_TYPES else "unknown"


Record = Annotated[
    Annotated[Meta, Tag("meta")]
    | Annotated[Setup, Tag("setup")]
    | Annotated[Assistant, Tag("assistant")]
    | Annotated[ToolCall, Tag("tool_call")]
    | Annotated[Nudge, Tag("nudge")]
    | Annotated[ProviderError, Tag("provider_error")]
    | Annotated[HarnessError, Tag("harness_error")]
    | Annotated[Final, Tag("final")]
    | Annotated[UnknownRecord, Tag("unknown")],
    Discriminator(_tag),
]

#: Built once: constructing a TypeAdapter compiles a validator, which is not free.
RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)

KnownRecord = Annotated[
    Meta | Setup | Assistant | ToolCall | Nudge | ProviderError | HarnessError | Final,
    Field(discriminator="type"),
]
#: The fast path: a whole file's records in one call, with a plain string discriminator
#: (no Python callback per record): half the cost of one call per line.  Each line goes in
#: its own array, ``[[line1],[line2],…]`` (a blank line makes an empty one), so a line
#: holding two values, or two lines that only parse joined, cannot pass as records (the
#: schema allows at most one record per array).  Any file it refuses (an
#: unknown type, a bad or torn line) is re-read line by line through RECORD_ADAPTER, which
#: tolerates unknown types and names the line at fault.
FILE_ADAPTER: TypeAdapter[list[tuple[KnownRecord, ...]]] = TypeAdapter(
    list[Annotated[tuple[KnownRecord, ...], Field(max_length=1)]]
)

#: Records that make up the episode's timeline, in file order.
Event = Assistant | ToolCall | Nudge | ProviderError

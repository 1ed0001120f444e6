"""The JSONL trajectory records, one typed struct per ``type``, and their decoders.

Records are msgspec Structs, decoded by :data:`FILE_DECODER` (a whole file at once) or
:data:`RECORD_DECODER` (one line): msgspec decodes typed JSON straight into them, and skips
the keys a struct does not declare without building Python objects for them, among them
the ``snapshot`` fields of ``setup`` and ``final`` (hundreds of variables, half a file's
bytes).  Pydantic, which validates everything else in the project, made reading the
records alone cost as much as the scoring that follows; msgspec reads them in a third of
that time (docs/benchmarks.md).  :func:`scoring.reader.read_snapshot` reads a snapshot on
demand.

Fields are lenient where the harness is (``args`` and ``result`` exactly as sent) and typed
where the scorer relies on them.  Decoding is lax, as pydantic's default was: ``"3"`` and
``3.0`` are the step 3, ``1`` is true.  Record types this scorer does not know are not
errors: a newer harness may add some, so the reader counts them as :class:`UnknownRecord`.
Each record class has its tag as the class attribute ``type``, so code dispatches on
``record.type``.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

import msgspec

FinalReason = Literal[
    "agent_done",
    "end_turn_without_done",
    "budget_tool_calls",
    "budget_sim_time",
    "provider_error",
    "invalid_scenario",
]


class _Struct(msgspec.Struct, frozen=True):
    """Immutable.  Each struct says ``kw_only=True`` (it is not inherited): its fields then
    keep their declaration order, required ones after optional ones included.  Each says
    ``frozen=True`` too: msgspec inherits it, but a type checker reads every class alone."""


class _Record(_Struct, tag_field="type", frozen=True):
    """A record of the file: its ``type`` is its msgspec tag, also kept as a class
    attribute (set below for each record) so that code dispatches on ``record.type``."""

    type: ClassVar[str]


class Adapter(_Struct, kw_only=True, frozen=True):
    """Which model ran the episode."""

    provider: str | None = None
    model: str = "unknown"


class Meta(_Record, tag="meta", kw_only=True, frozen=True):
    """Identity and provenance; ``scenario`` is the raw YAML as parsed."""

    run_id: str
    ts_utc: str | None = None
    scenario: dict[str, Any]
    scenario_path: str | None = None
    adapter: Adapter = msgspec.field(default_factory=Adapter)
    instructions_profile: str | None = None
    tool_surface: list[str] = []
    vendor_pin: Any = None
    versions: dict[str, Any] = {}
    seed: Any = None


#: The ``meta.versions.trajectory_schema`` values this release reads.  A file that records
#: none was written before the benchmark recorded one: that is version 1.
READABLE_SCHEMAS: tuple[str, ...] = ("1",)


def schema_problem(meta: Meta) -> str | None:
    """Why this release cannot read a file of ``meta``'s trajectory schema, or None.

    A schema this release does not know is never read as another one: its records may mean
    something else, and a card computed from them would look right and be wrong.
    """
    version = meta.versions.get("trajectory_schema", READABLE_SCHEMAS[0])
    # The recorder writes the version as text; an integer 1 is the same version.
    text = (
        str(version) if isinstance(version, str | int) and not isinstance(version, bool) else None
    )
    if text in READABLE_SCHEMAS:
        return None
    readable = ", ".join(READABLE_SCHEMAS)
    return (
        f"trajectory schema version {json_text(version)} is not one this release reads "
        f"(it reads version {readable}): update a320-review to read this file"
    )


def json_text(value: Any) -> str:
    """``value`` as the file wrote it, short: for messages that quote a field."""
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 40 else text[:39] + "…"


class Setup(_Record, tag="setup", kw_only=True, frozen=True):
    """The simulator at t0."""

    sim_time: float | None = None
    validity_gate: dict[str, Any] = {}
    active_failures: Any = None


class ProviderRaw(_Struct, kw_only=True, frozen=True):
    """What the scorer reads of a turn's raw provider response; the rest of it (usage, ids,
    the provider's own message) is skipped like the snapshots."""

    malformed_tool_arguments: Any = None


class Assistant(_Record, tag="assistant", kw_only=True, frozen=True):
    """One model turn."""

    step: int
    text: str | None = None
    stop_reason: str | None = None
    provider_raw: ProviderRaw | None = None

    @property
    def malformed_tool_arguments(self) -> list[Any]:
        """Raw argument strings that were not JSON objects (those calls ran with ``{}``)."""
        raw = (self.provider_raw.malformed_tool_arguments if self.provider_raw else None) or []
        return list(raw) if isinstance(raw, list) else [raw]


class ToolCall(_Record, tag="tool_call", kw_only=True, frozen=True):
    """One tool call and its result."""

    step: int
    call_index: int
    name: str
    args: Any = {}
    result: Any = None
    is_error: bool = False
    sim_time_before: float | None = None
    sim_time_after: float | None = None
    wall_ms: float | None = None


class Nudge(_Record, tag="nudge", kw_only=True, frozen=True):
    """The harness's reminder after a turn with no tool call."""

    step: int | None = None
    text: str | None = None


class ProviderError(_Record, tag="provider_error", kw_only=True, frozen=True):
    """The model provider failed."""

    step: int | None = None
    error: Any = None


class HarnessError(_Record, tag="harness_error", kw_only=True, frozen=True):
    """Setup crashed; the only record of the file."""

    stage: str | None = None
    error: Any = None


class FinalStateCheck(_Struct, kw_only=True, frozen=True):
    """One evaluated predicate; ``error`` instead of ``value`` when the var was unreadable."""

    var: str
    op: str
    value: Any = None
    error: str | None = None
    passed: bool


class EcamClearCheck(_Struct, kw_only=True, frozen=True):
    """One ECAM message that had to be gone."""

    message: str
    clear: bool


class SuccessEval(_Struct, kw_only=True, frozen=True):
    """The harness's own verdict."""

    final_state: list[FinalStateCheck] = []
    ecam_clear_of: list[EcamClearCheck] = []
    all_passed: bool


class Final(_Record, tag="final", kw_only=True, frozen=True):
    """How the episode ended and the end state."""

    reason: FinalReason
    done_payload: dict[str, Any] | None = None
    sim_time: float | None = None
    tool_calls_used: int | None = None
    ecam: list[str] | None = None
    active_failures: Any = None
    success_eval: SuccessEval | None = None


class UnknownRecord(_Struct, kw_only=True, frozen=True):
    """A record type this scorer does not know: tolerated and counted."""

    type: str


KnownRecord = Meta | Setup | Assistant | ToolCall | Nudge | ProviderError | HarnessError | Final
for _record in get_args(KnownRecord):
    _record.type = _record.__struct_config__.tag  # one spelling of each type: its tag
KNOWN_TYPES: frozenset[str] = frozenset(r.type for r in get_args(KnownRecord))

#: One line, one record (the reader turns an unknown ``type`` into an UnknownRecord).
RECORD_DECODER = msgspec.json.Decoder(KnownRecord, strict=False)

#: The fast path: a whole file's records in one call.  Each line goes in its own array,
#: ``[[line1],[line2],…]`` (a blank line makes an empty one), so a line holding two
#: values, or two lines that only parse joined, cannot pass as records (an array holds at
#: most one record).  Any file it refuses (an unknown type, a bad or torn line) is re-read
#: line by line through RECORD_DECODER, which names the line at fault.
FILE_DECODER = msgspec.json.Decoder(
    list[Annotated[list[KnownRecord], msgspec.Meta(max_length=1)]], strict=False
)

#: Records that make up the episode's timeline, in file order.
Event = Assistant | ToolCall | Nudge | ProviderError

"""Reading one JSONL trajectory file into a :class:`Trajectory`.

The format's rules (``trajectory-format.md``): blank lines are skipped; a torn **last** line
(a crash mid-write) is dropped silently; a malformed line anywhere else is corruption and
raises :class:`TrajectoryError` naming the file, the line and the reason; unknown record
types are tolerated and counted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress
from pathlib import Path
from typing import Any, cast

import msgspec
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from scoring.lines import BadJSON, decode_line
from scoring.records import (
    FILE_DECODER,
    Event,
    Final,
    HarnessError,
    Meta,
    Setup,
    ToolCall,
    UnknownRecord,
    schema_problem,
)
from scoring.scenario import Scenario


class TrajectoryError(ValueError):
    """A file that is not a readable trajectory: says which file, which line, and why."""

    def __init__(self, path: str | Path, line: int | None, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True, slots=True)
class Trajectory:
    """One episode as recorded.

    A plain frozen dataclass rather than a pydantic model: every field already holds
    validated records, and re-validating thousands of them per file would double the cost.
    """

    path: str
    sha256: str
    meta: Meta | None = None
    scenario: Scenario | None = None
    setup: Setup | None = None
    events: tuple[Event, ...] = ()
    event_lines: tuple[int, ...] = ()
    final: Final | None = None
    harness_error: HarnessError | None = None
    unknown_records: int = 0
    torn_last_line: bool = False
    line_count: int = 0
    setup_line: int | None = None
    final_line: int | None = None
    tool_calls: tuple[ToolCall, ...] = field(default=(), repr=False)

    @property
    def model(self) -> str | None:
        """The model id used for grouping."""
        return self.meta.adapter.model if self.meta else None

    @property
    def run_id(self) -> str | None:
        """The run id from ``meta``."""
        return self.meta.run_id if self.meta else None


def read_trajectory(path: str | Path) -> Trajectory:
    """Read and validate ``path``; raises :class:`TrajectoryError` on corruption."""
    try:
        # O_NONBLOCK: a FIFO named *.jsonl opens at once (and is refused below) instead of
        # blocking the batch until some writer appears; regular files ignore the flag.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise TrajectoryError(path, None, "not a regular file (a FIFO, socket or device)")
            data = _read_all(fd, info.st_size)
        finally:
            os.close(fd)
    except OSError as exc:
        raise TrajectoryError(path, None, f"cannot read file: {exc.strerror or exc}") from exc
    return parse_trajectory(data, path=str(path))


def _read_all(fd: int, size: int) -> bytes:
    """Every byte of the open file ``fd`` of ``size`` bytes (more, if it grows meanwhile):
    one read, without the buffered file object a file of one read does not need."""
    chunks = [os.read(fd, size + 1)]
    while chunks[-1]:
        chunks.append(os.read(fd, 1 << 20))
    return b"".join(chunks)


def parse_trajectory(data: bytes, *, path: str = "<memory>") -> Trajectory:
    """Parse the bytes of a trajectory file (see :func:`read_trajectory`)."""
    sha = hashlib.sha256(data).hexdigest()
    # A UTF-8 byte-order mark is legal in front of UTF-8 text (and JSON parsers may skip
    # it); some editors add one. It is not part of the first record.
    body = data.removeprefix(b"\xef\xbb\xbf")
    # Every line becomes one array, blank ones included, so the array's index is the line
    # number: one C-level replace instead of splitting, filtering and joining the lines
    # (and one join, which copies the file's bytes once where two + would copy them twice).
    try:
        slots = FILE_DECODER.decode(b"".join((b"[[", body.replace(b"\n", b"],["), b"]]")))
    except (msgspec.MsgspecError, RecursionError):
        slots = None
    if slots is None or len(slots) != body.count(b"\n") + 1:
        return _parse_careful(body, path=path, sha=sha)
    records = [slot[0] for slot in slots if slot]
    if not records:
        raise TrajectoryError(path, None, _EMPTY)
    # The line of each record: 1, 2, 3, ... unless a line other than the last is blank.
    blank = len(slots) - len(records)
    numbers: Sequence[int] = (
        range(1, len(records) + 1)
        if blank == 0 or (blank == 1 and not slots[-1])
        else [number for number, slot in enumerate(slots, start=1) if slot]
    )
    return _assemble(records, numbers, path=path, sha=sha) or _build(
        list(zip(numbers, records, strict=True)),
        path=path,
        sha=sha,
        torn=False,
        line_count=numbers[-1],
    )


def _assemble(
    records: list[Any], numbers: Sequence[int], *, path: str, sha: str
) -> Trajectory | None:
    """The Trajectory of a file in the usual order (meta, perhaps setup, the timeline,
    perhaps final), built with list operations; None for any other file, which
    :func:`_build` then takes record by record, to name the line at fault or to place a
    setup met later."""
    kinds = [record.type for record in records]
    start = 2 if len(kinds) > 1 and kinds[1] == "setup" else 1
    end = len(kinds) - 1 if kinds[-1] == "final" else len(kinds)
    timeline = kinds[start:end]
    if kinds[0] != "meta" or any(kind in timeline for kind in _NOT_TIMELINE):
        return None
    events = tuple(records[start:end])
    return Trajectory(
        path=path,
        sha256=sha,
        meta=records[0],
        scenario=_scenario_of(records[0], numbers[0], path),
        setup=records[1] if start == 2 else None,
        events=events,
        event_lines=tuple(numbers[start:end]),
        final=records[-1] if end < len(kinds) else None,
        line_count=numbers[-1],
        setup_line=numbers[1] if start == 2 else None,
        final_line=numbers[-1] if end < len(kinds) else None,
        tool_calls=tuple(compress(events, map("tool_call".__eq__, timeline))),
    )


def _build(
    numbered: list[tuple[int, object]], *, path: str, sha: str, torn: bool, line_count: int
) -> Trajectory:
    builder = _Builder(path)
    for number, record in numbered:
        builder.add(number, record)
    return builder.build(sha256=sha, torn=torn, line_count=line_count)


def _scenario_of(meta: Meta, meta_line: int, path: str) -> Scenario:
    """``meta.scenario`` validated (errors name the meta line), once the file's trajectory
    schema is known to be one this release reads (both read paths pass here)."""
    problem = schema_problem(meta)
    if problem is not None:
        raise TrajectoryError(path, meta_line, problem)
    try:
        return _validated_scenario(msgspec.json.encode(meta.scenario))
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise TrajectoryError(path, meta_line, "meta.scenario." + _describe(first)) from None


@functools.lru_cache(maxsize=256)
def _validated_scenario(text: bytes) -> Scenario:
    """A scenario from its JSON, validated once per exact JSON: the runs of one scenario
    embed the same one, and validating it was a tenth of reading a file.  Keyed by the
    JSON, not the dict (1, 1.0 and true are equal in Python and validate differently);
    sharing is safe, a Scenario is frozen (and :func:`scoring.plan.plan_of` works its plan
    out once, too)."""
    return Scenario.model_validate_json(text)


_EMPTY = "not a trajectory: the file is empty"


def _parse_careful(body: bytes, *, path: str, sha: str) -> Trajectory:
    """The lines of a file the fast path refused, numbered, blank ones left out."""
    lines = body.split(b"\n")
    # The last line that holds anything: only that one may be torn.
    last = len(lines) - 1
    while last >= 0 and not lines[last].strip():
        last -= 1
    if last < 0:
        raise TrajectoryError(path, None, _EMPTY)
    numbered = [(n, raw) for n, raw in enumerate(lines[: last + 1], start=1) if raw.strip()]
    return _parse_by_line(numbered, path=path, sha=sha, line_count=last + 1)


def _parse_by_line(
    numbered: list[tuple[int, bytes]], *, path: str, sha: str, line_count: int
) -> Trajectory:
    """The careful path: each line on its own, to tolerate unknown types, drop a torn last
    line, and name the line of any other fault."""
    builder = _Builder(path)
    torn = False
    for position, (number, raw) in enumerate(numbered):
        try:
            record = decode_line(raw)
        except BadJSON as exc:
            if position == len(numbered) - 1:
                torn = True  # a crash mid-write: drop it, as the format says
                break
            raise TrajectoryError(path, number, str(exc)) from None
        except ValueError as exc:
            raise TrajectoryError(path, number, str(exc)) from None
        builder.add(number, record)  # in file order: the first fault met is the one named
    return builder.build(sha256=sha, torn=torn, line_count=line_count)


def _describe(error: ErrorDetails) -> str:
    """A pydantic error (of the embedded scenario) as ``field.path: message``."""
    text = ".".join(str(part) for part in error["loc"])
    return f"{text}: {error['msg']}" if text else error["msg"]


_EVENT_TYPES = frozenset({"tool_call", "assistant", "nudge", "provider_error"})
#: The record types that may not stand in a file's timeline, between setup and final.
_NOT_TIMELINE = ("meta", "setup", "final", "harness_error")


class _Builder:
    """Checks the record order while collecting the records of one file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.meta: Meta | None = None
        self.meta_line = 0
        self.setup: Setup | None = None
        self.setup_line: int | None = None
        self.final: Final | None = None
        self.final_line: int | None = None
        self.harness_error: HarnessError | None = None
        self.events: list[Event] = []
        self.lines: list[int] = []
        self.unknown = 0
        self.first = True

    def fail(self, line: int, reason: str) -> TrajectoryError:
        """The error for ``line`` of this file."""
        return TrajectoryError(self.path, line, reason)

    def add(self, line: int, record: object) -> None:
        """Take the record of ``line``, refusing what breaks the format's record order."""
        kind = getattr(record, "type", "?")
        if self.first:
            self.first = False
            if kind not in ("meta", "harness_error"):
                raise self.fail(
                    line, f"not a trajectory: first record is '{kind}', expected 'meta'"
                )
        elif self.harness_error is not None:
            raise self.fail(line, f"record '{kind}' after harness_error (it must be alone)")
        elif self.final is not None:
            raise self.fail(line, f"record '{kind}' after final")

        # Dispatch on the tag the union already resolved (cast, not isinstance: the tag says
        # which record it is); the timeline records come first, they are nearly every line.
        if kind in _EVENT_TYPES:
            self.events.append(cast(Event, record))
            self.lines.append(line)
        elif isinstance(record, UnknownRecord):
            self.unknown += 1
        elif kind == "meta":
            if self.meta is not None:
                raise self.fail(line, "second meta record")
            self.meta, self.meta_line = cast(Meta, record), line
        elif kind == "harness_error":
            if self.meta is not None:
                raise self.fail(line, "harness_error after meta (it must be the only record)")
            self.harness_error = cast(HarnessError, record)
        elif kind == "setup":
            if self.setup is not None:
                raise self.fail(line, "second setup record")
            self.setup, self.setup_line = cast(Setup, record), line
        elif kind == "final":
            self.final, self.final_line = cast(Final, record), line

    def build(self, *, sha256: str, torn: bool, line_count: int) -> Trajectory:
        """The Trajectory, its embedded scenario validated (errors name the meta line)."""
        if self.meta is None and self.harness_error is None:
            # Only possible when the one line there is was torn: with no meta there is no
            # run to call incomplete, just a file that never became a trajectory.
            raise self.fail(
                line_count, "not a trajectory: its only line is not valid JSON (no meta record)"
            )
        scenario = None
        if self.meta is not None:
            scenario = _scenario_of(self.meta, self.meta_line, self.path)
        events = tuple(self.events)
        return Trajectory(
            path=self.path,
            sha256=sha256,
            meta=self.meta,
            scenario=scenario,
            setup=self.setup,
            events=events,
            event_lines=tuple(self.lines),
            final=self.final,
            harness_error=self.harness_error,
            unknown_records=self.unknown,
            torn_last_line=torn,
            line_count=line_count,
            setup_line=self.setup_line,
            final_line=self.final_line,
            tool_calls=tuple(e for e in events if isinstance(e, ToolCall)),
        )


def read_snapshot(path: str | Path, line: int) -> dict[str, Any]:
    """The ``snapshot`` of the record at ``line`` (1-based) of ``path``, or ``{}``.

    Snapshots are left out of the parsed records for speed; a reviewer who wants to see the
    simulator's variables at t0 or at the end reads them here, one line, when asked.
    """
    with Path(path).open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if number == line:
                try:
                    record = json.loads(raw)
                except (ValueError, RecursionError):
                    return {}
                snapshot = record.get("snapshot") if isinstance(record, dict) else None
                return snapshot if isinstance(snapshot, dict) else {}
    return {}

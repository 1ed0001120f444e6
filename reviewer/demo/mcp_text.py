"""Tool results worded as the benchmark's MCP server and its recorder leave them in a file.

The server's tools return plain values; the MCP layer wraps a value that is not an object as
``{"result": VALUE}`` and the recorder stores that structured result.  A failed call is
recorded as text: the SDK prefixes an exception raised by a tool with ``Error executing tool
NAME:``, and an argument that fails the tool's schema is a pydantic validation message over
several lines.  An off-surface tool is refused before any tool runs (``Unknown tool: X``).

Stdlib only, like :mod:`reviewer.demo.synth`: the wording is written out, not produced by
pydantic at generation time, so the demo bytes never depend on an installed version.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

#: The pydantic docs version in validation messages (the benchmark pinned pydantic 2.11).
PYDANTIC_DOCS = "https://errors.pydantic.dev/2.11/v/"
REPORT_RECORDED = "Report recorded. The episode is over; make no further tool calls."

#: ECAM message -> (severity, system, id, source) as ``read_ecam`` describes each entry.
ECAM_CATALOG: dict[str, tuple[str, str, str, str]] = {
    "APU GEN FAULT": ("caution", "ELEC", "elec.apu_gen_fault", "vendor_flag"),
    "AC ESS BUS FAULT": ("caution", "ELEC", "elec.ac_ess_bus_fault", "derived"),
    "ENG 1 GEN FAULT": ("caution", "ELEC", "elec.gen_1_fault", "vendor_flag"),
    "ENG 1 SHUT DOWN": ("caution", "ENG", "eng.1_shut_down", "derived"),
    "ENG 2 SHUT DOWN": ("caution", "ENG", "eng.2_shut_down", "derived"),
    "HYD B ELEC PUMP LO PR": ("caution", "HYD", "hyd.b_elec_pump_lo_pr", "vendor_flag"),
    "HYD B SYS LO PR": ("caution", "HYD", "hyd.b_sys_lo_pr", "derived"),
    "HYD Y SYS LO PR": ("caution", "HYD", "hyd.y_sys_lo_pr", "derived"),
    "HYD G SYS LO PR": ("caution", "HYD", "hyd.g_sys_lo_pr", "derived"),
    "RAT OUT": ("advisory", "HYD", "hyd.rat_out", "derived"),
}
_RANK = {"warning": 0, "caution": 1, "advisory": 2}


def wrapped(value: Any) -> dict[str, Any]:
    """A successful result as the MCP layer records it: objects as they are, the rest wrapped."""
    return value if isinstance(value, dict) else {"result": value}


def ecam_entries(messages: Iterable[str]) -> list[dict[str, str]]:
    """``read_ecam``'s entries for these messages, most severe first (stable within a level)."""
    entries = []
    for message in messages:
        words = message.split()
        fallback = ("caution", words[0] if words else "", _slug(message), "derived")
        severity, system, ident, source = ECAM_CATALOG.get(message, fallback)
        entries.append(
            {"message": message, "severity": severity, "system": system, "id": ident,
             "source": source}
        )  # fmt: skip
    return sorted(entries, key=lambda e: _RANK.get(e["severity"], 3))


def set_text(control: str, value: float) -> str:
    """``set_control``'s answer: the same text whether or not the value changed anything."""
    return f"{control} <- {float(value):g} (call advance() for the aircraft to react)"


def advance_text(seconds: float, sim_time: float) -> str:
    """``advance``'s answer, with the clock after the advance."""
    return f"advanced {float(seconds):g}s (t={sim_time:.1f}s)"


def tool_error(tool: str, message: str) -> str:
    """A tool that raised: the SDK's prefix before the tool's own message."""
    return f"Error executing tool {tool}: {message}"


def unknown_tool(name: str) -> str:
    """A call to a tool the server does not offer."""
    return f"Unknown tool: {name}"


def validation_error(tool: str, problems: list[tuple[str, str, str, Any]]) -> str:
    """An argument that failed the tool's schema, as pydantic words it over several lines.

    ``problems`` holds ``(field, message, error_type, input_value)``; a missing field's input
    is the whole argument object, as pydantic reports it.
    """
    count = len(problems)
    lines = [f"{count} validation error{'s' if count > 1 else ''} for {tool}Arguments"]
    for field, message, kind, value in problems:
        lines += [
            field,
            f"  {message} [type={kind}, input_value={_py_repr(value)}, "
            f"input_type={type(value).__name__}]",
            f"    For further information visit {PYDANTIC_DOCS}{kind}",
        ]
    return tool_error(tool, "\n".join(lines))


def missing_arguments(tool: str, fields: list[str], args: dict[str, Any]) -> str:
    """Every required field absent (the call ran with ``{}`` after malformed arguments)."""
    return validation_error(tool, [(f, "Field required", "missing", args) for f in fields])


def unknown_control(control: Any, known: Iterable[str]) -> str:
    """A control name outside the schema's enum: pydantic lists every name it accepts."""
    names = sorted(known)
    expected = ", ".join(f"'{n}'" for n in names[:-1]) + f" or '{names[-1]}'"
    return validation_error(
        "set_control", [("control", f"Input should be {expected}", "literal_error", control)]
    )


def not_a_number(value: Any) -> str:
    """A ``set_control`` value that is neither a number, a numeric string nor a boolean."""
    kind, message = (
        ("float_parsing", "Input should be a valid number, unable to parse string as a number")
        if isinstance(value, str)
        else ("float_type", "Input should be a valid number")
    )
    return validation_error("set_control", [("value", message, kind, value)])


def out_of_range(control: str, value: float, valid: str = "0, 1") -> str:
    """The simulator refused a value outside the control's valid values."""
    return tool_error(
        "set_control", f"value {float(value):g} out of range for '{control}' (valid: {valid})"
    )


def _py_repr(value: Any) -> str:
    # pydantic prints the input as Python does; dicts and lists of JSON values alike.
    if isinstance(value, (dict, list)):
        return repr(json.loads(json.dumps(value)))
    return repr(value)


def _slug(message: str) -> str:
    return "_".join(message.lower().split())

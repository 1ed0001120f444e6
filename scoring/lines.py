"""One line of a trajectory file decoded on its own, and why a line is no record.

The reader's fast path decodes a whole file at once; when that fails it reads line by line
through :func:`decode_line`, which tells a line that is not JSON (:class:`BadJSON`: on the
last line, torn by a crash mid-write) from a JSON line that is no record, and says where.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from scoring.records import KNOWN_TYPES, RECORD_DECODER, UnknownRecord


class BadJSON(ValueError):
    """A line that is not JSON at all (on the last line: torn by a crash mid-write)."""


def decode_line(raw: bytes) -> object:
    """The record of one line, an :class:`UnknownRecord` for a type this scorer does not
    know; raises :class:`BadJSON`, or ValueError with the reason a line is no record."""
    try:
        return _decoded(RECORD_DECODER.decode, raw)
    except msgspec.ValidationError as exc:
        problem = str(exc)
    # Not a record of a known type: the line as plain JSON says which case it is.
    value = _decoded(msgspec.json.decode, raw)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object: each line must hold one record")
    if "type" not in value:
        raise ValueError("the record has no 'type'")
    kind = value["type"]
    if not isinstance(kind, str):
        raise ValueError("the record's 'type' must be a string")
    if kind not in KNOWN_TYPES:
        return UnknownRecord(type=kind)
    raise ValueError(_field_reason(problem))


def _decoded(decode: Callable[[bytes], Any], raw: bytes) -> Any:
    """``decode(raw)``, a line that is not JSON as :class:`BadJSON` (a validation error,
    msgspec's subclass of its decode error, goes on to the caller)."""
    try:
        return decode(raw)
    except msgspec.ValidationError:
        raise
    except msgspec.DecodeError as exc:
        raise BadJSON(_json_reason(exc, raw)) from None
    except RecursionError:
        raise BadJSON(_TOO_DEEP) from None


#: Nesting past the interpreter's recursion limit is where the JSON reader gives up, as a
#: truncated line makes it give up (on the last line it reads as torn).
_TOO_DEEP = "invalid JSON: nested too deeply to read"


def _json_reason(exc: msgspec.DecodeError, raw: bytes) -> str:
    """``invalid JSON: …`` with the column of the line where it went wrong."""
    detail = str(exc)
    if detail == "Input data was truncated":
        end = len(raw.decode("utf-8", "replace"))
        return f"invalid JSON: the line ends (column {end}) before its record does"
    # msgspec says "JSON is malformed: invalid character (byte 37)", a 0-based byte offset;
    # an editor shows columns, 1-based, in characters.
    found = re.fullmatch(r"JSON is malformed: (.*) \(byte (\d+)\)", detail)
    if found:
        column = len(raw[: int(found[2])].decode("utf-8", "replace")) + 1
        return f"invalid JSON: {found[1]} at column {column}"
    return f"invalid JSON: {detail[:1].lower()}{detail[1:]}"


def _field_reason(message: str) -> str:
    """``step: Expected `int`, got `str``` from msgspec's ``… - at `$.step```."""
    text, _, where = message.partition(" - at `")
    field = where.removesuffix("`").removeprefix("$").removeprefix(".")
    return f"{field}: {text}" if field else text

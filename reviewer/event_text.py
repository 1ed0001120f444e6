"""How a recorded tool result reads to a person: the timeline's words, Qt-free.

The benchmark records results as its MCP server wraps them (``{"result": [...]}`` for an
ECAM read, ``{"result": "apu_gen <- 0 (call advance() …)"}`` for a command, the mapping
itself for ``read_state``) and errors as the server words them, a validation error over
several lines.  The timeline shows each as a reviewer reads it: the ECAM as its messages and
their severity, a command's or an advance's answer as its text, an error as its first line
(the rest, and the raw JSON, in the details pane).  Files written before the benchmark
settled its shapes (``{"messages": [...]}``, ``{"values": {...}}``) read the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

#: What an ECAM read that shows nothing says (an unpowered ECAM also reads empty).
NO_ECAM = "no ECAM message"
#: Names listed before a list result is summarised as "and N more".
LIST_NAMES = 6


def result_line(name: str, result: Any, *, is_error: bool = False) -> str:
    """One line for the timeline's Details cell: what the call answered, as a person reads it."""
    if result is None:
        return ""
    if is_error or isinstance(result, str):
        return first_line(result) if isinstance(result, str) else compact(result)
    inner = _unwrapped(result)
    if name == "read_ecam" or _looks_like_ecam(inner):
        messages = ecam_messages(inner)
        if messages is not None:
            return " · ".join(_ecam_label(m) for m in messages) or NO_ECAM
    if isinstance(inner, str):
        return first_line(inner)
    if isinstance(inner, list):
        return _list_line(inner)
    if isinstance(inner, dict):
        values = inner.get("values") if set(inner) == {"values"} else inner
        if isinstance(values, dict) and all(_is_scalar(v) for v in values.values()):
            return ", ".join(f"{k} = {_number(v)}" for k, v in values.items()) or "(nothing)"
    return compact(inner)


def args_line(name: str, args: Any, result: Any, *, is_error: bool = False) -> str:
    """What the agent sent, on one line; empty when the answer already says it all.

    A command reads ``control = value`` (the value exactly as sent, ``"1"`` and ``true``
    included); a successful ``read_state`` or ``advance`` leaves its arguments out, since the
    answer names every variable read, or the seconds advanced.
    """
    if not args:
        return ""
    if name == "set_control" and isinstance(args, dict) and "control" in args:
        text = f"{args.get('control')} = {compact_json(args.get('value'))}"
        extra = {k: v for k, v in args.items() if k not in ("control", "value")}
        return f"{text}  {compact_json(extra)}" if extra else text
    if not is_error and name == "read_state" and isinstance(_unwrapped(result), dict):
        return ""
    if not is_error and name == "advance" and isinstance(_unwrapped(result), str):
        return ""
    return compact(args)


def compact_json(value: Any) -> str:
    """``value`` as JSON on one line, strings quoted (so ``"1"`` and ``1`` differ)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def result_detail(name: str, result: Any, *, is_error: bool = False) -> list[str]:
    """The result in full for the details pane, a line per message, error line or value."""
    if isinstance(result, str):
        return result.splitlines() or [""]
    inner = _unwrapped(result)
    if not is_error and (name == "read_ecam" or _looks_like_ecam(inner)):
        messages = ecam_messages(inner)
        if messages is not None:
            return [_ecam_detail(m) for m in messages] or [NO_ECAM]
    if isinstance(inner, str):
        return inner.splitlines() or [""]
    if isinstance(inner, dict) and all(_is_scalar(v) for v in inner.values()):
        return [f"{k} = {_number(v)}" for k, v in inner.items()] or ["(nothing)"]
    return [result_line(name, result, is_error=is_error)]


def ecam_messages(value: Any) -> list[dict[str, Any]] | None:
    """An ECAM read's messages as ``{"message", "severity", ...}`` dicts, or None if not one.

    Takes the list the server returns (entries or, in older files, plain strings) or an
    older ``{"messages": [...]}`` object.
    """
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]
    if not isinstance(value, list):
        return None
    entries = []
    for item in value:
        if isinstance(item, str):
            entries.append({"message": item})
        elif isinstance(item, dict) and isinstance(item.get("message"), str):
            entries.append(item)
        else:
            return None
    return entries


def turn_line(text: str | None, calls: Sequence[str]) -> str:
    """An agent turn on one line; a turn with no text says which tools it only called."""
    words = " ".join((text or "").split())
    if words:
        return words
    if not calls:
        return "(no text and no tool call)"
    return f"(no text; only called {', '.join(_counted(calls))})"


def first_line(text: str) -> str:
    """The first line of ``text``, with a marker when more lines follow."""
    lines = text.strip().splitlines()
    if not lines:
        return ""
    head = " ".join(lines[0].split())
    return f"{head} …" if len(lines) > 1 else head


def compact(value: Any) -> str:
    """A value on one line: strings as they are, the rest as compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return " ".join(value.split())
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _unwrapped(result: Any) -> Any:
    # The MCP layer wraps every value that is not an object as {"result": VALUE}.
    if isinstance(result, dict) and set(result) == {"result"}:
        return result["result"]
    return result


def _looks_like_ecam(value: Any) -> bool:
    if isinstance(value, dict):
        return isinstance(value.get("messages"), list)
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, dict) and "message" in v and "severity" in v for v in value)
    )


def _ecam_label(entry: dict[str, Any]) -> str:
    severity = entry.get("severity")
    return f"{entry['message']} ({severity})" if severity else str(entry["message"])


def _ecam_detail(entry: dict[str, Any]) -> str:
    extra = [str(entry[k]) for k in ("severity", "system") if entry.get(k)]
    source = f" [{entry['source']}]" if entry.get("source") else ""
    return f"{entry['message']}" + (f" — {', '.join(extra)}" if extra else "") + source


def _list_line(items: list[Any]) -> str:
    names = [
        (i.get("name") or i.get("id")) if isinstance(i, dict) else i for i in items[:LIST_NAMES]
    ]
    if not all(isinstance(n, str | int | float) for n in names):
        return compact(items)
    more = f", and {len(items) - LIST_NAMES} more" if len(items) > LIST_NAMES else ""
    return f"{len(items)}: {', '.join(map(str, names))}{more}" if items else "(none)"


def _counted(names: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    return [f"{n} ×{k}" if k > 1 else n for n, k in seen.items()]


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _number(value: Any) -> str:
    # Switches read 1.0 / 0.0: shown as 1 and 0; other numbers as the file has them.
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return compact(value) if not isinstance(value, str) else value

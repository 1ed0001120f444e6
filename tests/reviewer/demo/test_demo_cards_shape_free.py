"""The scorer's cards on the demo do not depend on how the tool results are shaped.

The demo used to carry invented result shapes (``{"messages": [...]}``, ``"OK: x set to 0"``,
``{"sim_time": ...}``); it now carries the benchmark's.  Both carry the same facts (which
controls were set to what, when, what was read), so every figure of every card must agree
between the two: each committed demo file is rewritten back into the old shapes and both
are scored.  Only the file's identity (path, sha256) and the error texts may differ.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.demo import default_out_dir
from scoring.scorer import score_file

DEMO = sorted(Path(default_out_dir()).glob("*/*.jsonl"))
#: Card fields the shapes may change: the file's identity.
IDENTITY = {"path", "trajectory_sha256"}


def _old_result(call: dict) -> object:
    """A call's result in the shape the demo wrote before it followed the benchmark."""
    name, result = call["name"], call["result"]
    if call["is_error"]:
        return result.splitlines()[0]  # one line, whatever it said
    if name == "read_ecam":
        return {"messages": [e["message"] for e in result["result"]],
                "sim_time": call["sim_time_before"]}  # fmt: skip
    if name in ("read_state", "snapshot"):
        return {"values": result}
    if name == "set_control":
        control, _, rest = result["result"].partition(" <- ")
        return f"OK: {control} set to {rest.split()[0]}"
    if name == "advance":
        return {"sim_time": call["sim_time_after"]}
    if name == "list_controls":
        return {"controls": [{"name": c["name"], "domain": c["domain"]} for c in result["result"]]}
    return result.get("result", result)


def _old_shapes(text: str) -> str:
    lines = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            lines.append(line)  # the torn or corrupt line stays as it is
            continue
        if record.get("type") == "tool_call":
            record["result"] = _old_result(record)
        lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _card(path: Path) -> dict:
    card = score_file(path, with_judge_bundle=False).model_dump(mode="json")
    for command in card.get("signals", {}).get("errored_commands", []) or []:
        command["error"] = command["error"] is not None  # its wording is the shape's
    return {k: v for k, v in card.items() if k not in IDENTITY}


def test_the_demo_set_is_the_advertised_one():
    # README: 47 runs, one of them corrupt on purpose.
    assert len(DEMO) == 47
    cards = [score_file(p, with_judge_bundle=False) for p in DEMO]
    assert [c.status for c in cards].count("unreadable") == 1


@pytest.mark.parametrize("path", DEMO, ids=lambda p: p.stem)
def test_old_and_new_shapes_score_alike(path, tmp_path):
    old = tmp_path / path.parent.name / path.name
    old.parent.mkdir()
    old.write_text(_old_shapes(path.read_text(encoding="utf-8")), encoding="utf-8")
    new_card, old_card = _card(path), _card(old)
    if new_card["status"] == "unreadable":
        # The corrupt file: unreadable either way, at the same line.
        assert old_card["status"] == "unreadable"
        assert old_card["error_line"] == new_card["error_line"]
        return
    assert old_card == new_card

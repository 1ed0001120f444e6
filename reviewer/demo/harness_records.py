"""The records the harness writes around the agent's turns: the ``meta`` record (versions,
clock, scenario path), the ``setup`` record (validity gate, snapshot) and the evaluation of
the scenario's success block that the ``final`` record carries.

:class:`reviewer.demo.synth.TrajectoryBuilder` writes them; the agent's side is its own.
Stdlib only, like the builder.
"""

from __future__ import annotations

import copy
import hashlib
import random
import re
from collections.abc import Sequence
from typing import Any

from reviewer.demo.synth_state import observed_value

_RUN_ID_TS = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z")
#: The package versions the harness records beside the trajectory schema version.
VERSIONS = {
    "trajectory_schema": "1",
    "a320-sim": "0.5.0",
    "a320-mcp": "0.5.0",
    "a320-bench": "0.5.0",
    "mcp": "1.12.4",
}


def _ts_from_run_id(run_id: str) -> str:
    match = _RUN_ID_TS.match(run_id)
    if not match:
        return "2026-07-24T10:15:00+00:00"
    y, mo, d, h, mi, s = match.groups()
    # The harness writes datetime.isoformat(): microseconds, drawn here from the id's suffix.
    micro = int(hashlib.sha1(run_id.encode()).hexdigest()[:8], 16) % 1_000_000
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}.{micro:06d}+00:00"


def _scenario_path(scenario: dict[str, Any]) -> str:
    # The harness records the path it was given: scenarios/<system>/<rest of the id>.yaml.
    system = str(scenario.get("system") or "misc").lower()
    stem = str(scenario.get("id") or "scenario").removeprefix(system + "-").replace("-", "_")
    return f"scenarios/{system}/{stem}.yaml"


def meta_record(
    scenario: dict[str, Any],
    *,
    run_id: str,
    provider: str,
    model: str,
    instructions_profile: str,
    tool_surface: Sequence[str],
) -> dict[str, Any]:
    """The first record: which run, which scenario, which model, which versions."""
    return {
        "type": "meta",
        "run_id": run_id,
        "ts_utc": _ts_from_run_id(run_id),
        "scenario": copy.deepcopy(scenario),
        "scenario_path": _scenario_path(scenario),
        "adapter": {"provider": provider, "model": model, "max_tokens": 4096},
        "instructions_profile": instructions_profile,
        "tool_surface": list(tool_surface),
        "vendor_pin": "13bce4b",
        "versions": dict(VERSIONS),
        "seed": None,
    }


def setup_record(
    *, sim_time: float, ecam: list[str], failures: list[Any], snapshot: dict[str, Any]
) -> dict[str, Any]:
    """The second record: the validity gate passed on ``ecam``, the failures armed."""
    return {
        "type": "setup",
        "sim_time": sim_time,
        "validity_gate": {
            "passed": True,
            "ecam": list(ecam),
            "missing": [],
            "must_not_appear_present": [],
        },
        "active_failures": list(failures),
        "snapshot": dict(snapshot),
    }


def success_checks(
    scenario: dict[str, Any], *, passed: bool, failing: set[str], rng: random.Random
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """``(final_state checks, ecam_clear_of checks, end values)`` of the success block:
    every check passes when ``passed``, but those naming a ``failing`` variable or message."""
    success = scenario.get("success") or {}
    checks: list[dict[str, Any]] = []
    end_vars: dict[str, Any] = {}
    for pred in success.get("final_state") or []:
        ok = passed and pred.get("var") not in failing
        observed = observed_value(pred, ok, rng)
        end_vars[pred.get("var")] = observed
        checks.append(
            {"var": pred.get("var"), "op": pred.get("op"), "value": observed, "passed": ok}
        )
    clear = [
        {"message": m, "clear": passed and m not in failing}
        for m in success.get("ecam_clear_of") or []
    ]
    return checks, clear, end_vars

"""Synthetic trajectories, written record for record in the benchmark's JSONL format.

The scorer's tests, the bundled demo runs and the benchmark corpus all build their files
through :class:`TrajectoryBuilder`, so the format lives in one place.  The builder keeps the
bookkeeping the harness keeps (step, call_index, simulated clock, calls used) and fills in
plausible tool results (drawn by :mod:`reviewer.demo.synth_state`); the caller decides what the
agent does and how the run ends.

Stdlib and PyYAML only: this module must import on a machine with no Qt and no pydantic.
"""

from __future__ import annotations

import copy
import importlib.resources
import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from reviewer.demo import mcp_text
from reviewer.demo.harness_records import meta_record, setup_record, success_checks
from reviewer.demo.synth_state import drift, initial_snapshot, tool_result
from reviewer.demo.tool_catalog import CONTROL_NAMES
from scoring import compliance
from scoring.compliance import coerce_value

#: The tools the benchmark profile offers, sorted as the harness records them.
BENCHMARK_SURFACE: tuple[str, ...] = tuple(sorted(compliance.BENCHMARK_SURFACE))


def load_scenario_yaml(path: str | Path) -> dict[str, Any]:
    """Parse one scenario file as the harness does (no defaults filled in)."""
    scenario: dict[str, Any] = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return scenario


def bundled_scenario(scenario_id: str) -> dict[str, Any]:
    """The bundled demo scenario with this id, read from ``resources/scenarios/``."""
    folder = importlib.resources.files("resources").joinpath("scenarios")
    # File names follow the ids (kebab-case -> snake_case); scan as a fallback so a renamed
    # file still resolves by the id it declares.
    direct = folder.joinpath(scenario_id.replace("-", "_") + ".yaml")
    candidates = [direct] if direct.is_file() else []
    candidates += sorted(
        (p for p in folder.iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name
    )
    for entry in candidates:
        scenario = yaml.safe_load(entry.read_text(encoding="utf-8"))
        if isinstance(scenario, dict) and scenario.get("id") == scenario_id:
            return scenario
    raise KeyError(f"no bundled scenario with id {scenario_id!r}")


def harness_error_records(
    error: str = "setup failed: simulator did not start",
) -> list[dict[str, Any]]:
    """The whole content of a file whose setup crashed: one ``harness_error`` record."""
    return [{"type": "harness_error", "stage": "setup", "error": error}]


class TrajectoryBuilder:
    """Builds one episode, record by record, in the order the trajectory format fixes.

    ``meta`` and ``setup`` are written at construction; then turns and calls; then at most one
    ending (``final``, ``invalid_scenario``, or nothing for an incomplete run).  Every
    recording method returns the builder, so a run reads as a chain.
    """

    def __init__(
        self,
        scenario: dict[str, Any],
        *,
        run_id: str = "20260724T101500Z-000001",
        model: str = "demo-model",
        provider: str = "demo",
        tool_surface: Sequence[str] = BENCHMARK_SURFACE,
        t0: float = 100.0,
        snapshot_vars: int = 0,
        seed: int = 0,
        instructions_profile: str = "benchmark",
    ) -> None:
        self.scenario = scenario
        self.surface = tuple(sorted(tool_surface))
        self._rng = random.Random(seed)
        self._records: list[dict[str, Any]] = []
        self._step = 0
        self._call_index = 0
        self._sim = float(t0)
        self._calls = 0
        self._ended = False
        gate = scenario.get("expected_ecam") or {}
        self._gate_ecam = list(gate.get("must_appear") or [])
        self._failures = [
            f.get("id") for f in scenario.get("failures") or [] if isinstance(f, dict)
        ]
        self._snapshot = initial_snapshot(snapshot_vars, self._rng, scenario)
        self._records.append(
            meta_record(
                scenario,
                run_id=run_id,
                provider=provider,
                model=model,
                instructions_profile=instructions_profile,
                tool_surface=self.surface,
            )
        )
        self._records.append(
            setup_record(
                sim_time=self._sim,
                ecam=self._gate_ecam,
                failures=self._failures,
                snapshot=self._snapshot,
            )
        )

    # -- the agent's side ---------------------------------------------------------------

    def turn(
        self,
        text: str = "Let me look at the ECAM first.",
        *,
        stop_reason: str = "tool_use",
        malformed_args: list[str] | None = None,
    ) -> TrajectoryBuilder:
        """A new assistant turn (``step`` += 1); later calls belong to it."""
        self._open()
        self._step += 1
        self._call_index = 0
        usage = {
            "input_tokens": 1800 + 650 * self._step + self._rng.randrange(0, 400),
            "output_tokens": 40 + len(text) // 4 + self._rng.randrange(0, 60),
        }
        raw: dict[str, Any] = {"usage": usage}
        if malformed_args:
            raw["malformed_tool_arguments"] = list(malformed_args)
        self._records.append(
            {
                "type": "assistant",
                "step": self._step,
                "text": text,
                "stop_reason": stop_reason,
                "provider_raw": raw,
            }
        )
        return self

    def call(
        self,
        name: str,
        args: dict[str, Any] | None = None,
        *,
        result: Any = None,
        is_error: bool = False,
        advance_s: float = 0.0,
        wall_ms: int = 12,
    ) -> TrajectoryBuilder:
        """One tool call in the current turn; only an accepted ``advance`` moves the clock."""
        self._open()
        if self._step == 0:
            self.turn()
        args = {} if args is None else args
        if name not in self.surface:
            # The harness refuses the call outright: nothing runs, the clock stays put.
            is_error, result, advance_s = True, mcp_text.unknown_tool(name), 0.0
        elif name == "advance" and not advance_s and not is_error:
            advance_s = coerce_value(args.get("seconds")) or 0.0
        before, self._sim = self._sim, self._sim + (0.0 if is_error else float(advance_s))
        if result is None:
            failed = mcp_text.tool_error(name, "the call failed")
            result = failed if is_error else self._result(name, args)
        self._records.append(
            {
                "type": "tool_call",
                "step": self._step,
                "call_index": self._call_index,
                "name": name,
                "args": args,
                "result": result,
                "is_error": is_error,
                "sim_time_before": before,
                "sim_time_after": self._sim,
                "wall_ms": wall_ms,
            }
        )
        self._call_index += 1
        self._calls += 1
        return self

    def read(self, name: str = "read_ecam", **args: Any) -> TrajectoryBuilder:
        """A read tool call with a plausible structured result."""
        return self.call(name, args, wall_ms=8 + self._rng.randrange(0, 30))

    def set(
        self, control: str, value: Any, *, is_error: bool = False, error: str | None = None
    ) -> TrajectoryBuilder:
        """``set_control`` with the value kept raw; a value the simulator cannot coerce fails.

        A refused call records ``error`` (default: the server's answer to an unknown control
        name); a value that is not a number is refused as the server's schema words it.
        """
        coerced = coerce_value(value)
        if coerced is None and not is_error:
            is_error = True
            error = error or mcp_text.not_a_number(value)
        if is_error or coerced is None:
            result: Any = error or mcp_text.unknown_control(control, CONTROL_NAMES)
        else:
            # Same text whether or not the value changed anything, as the simulator answers.
            result = mcp_text.wrapped(mcp_text.set_text(control, coerced))
        return self.call(
            "set_control",
            {"control": control, "value": value},
            result=result,
            is_error=is_error,
            wall_ms=15 + self._rng.randrange(0, 40),
        )

    def advance(self, seconds: float) -> TrajectoryBuilder:
        """Let the simulation run ``seconds``."""
        return self.call("advance", {"seconds": seconds}, wall_ms=40 + int(seconds * 3))

    def done(
        self,
        diagnosis: str = "Fault identified and handled per procedure.",
        actions_summary: str = "Procedure applied.",
    ) -> TrajectoryBuilder:
        """The agent's ``report_done`` call."""
        args = {"diagnosis": diagnosis, "actions_summary": actions_summary}
        return self.call("report_done", args)

    # -- the harness's side -------------------------------------------------------------

    def nudge(
        self, text: str = "You did not call a tool. Continue, or call report_done when finished."
    ) -> TrajectoryBuilder:
        """The harness's reminder after a turn without a tool call."""
        self._open()
        self._records.append({"type": "nudge", "step": self._step, "text": text})
        return self

    def provider_error(
        self, error: str = "APIStatusError 529: overloaded_error (retries exhausted)"
    ) -> TrajectoryBuilder:
        """The model provider failed; a ``final(reason="provider_error")`` usually follows."""
        self._open()
        self._records.append({"type": "provider_error", "step": self._step, "error": error})
        return self

    def final(
        self,
        reason: str = "agent_done",
        *,
        passed: bool = True,
        failing: Iterable[str] = (),
        ecam: list[str] | None = None,
    ) -> TrajectoryBuilder:
        """End the episode with the harness's evaluation of the scenario's success block.

        ``passed=False`` fails every check; ``failing`` fails only the named variables and
        ECAM messages.  Without ``ecam``, the end ECAM holds the messages that did not clear.
        """
        self._open()
        checks, clear, end_vars = success_checks(
            self.scenario, passed=passed, failing=set(failing), rng=self._rng
        )
        if ecam is None:
            ecam = [c["message"] for c in clear if not c["clear"]]
        all_passed = all(c["passed"] for c in checks) and all(c["clear"] for c in clear)
        snapshot = drift(self._snapshot, self._rng) if self._snapshot else {}
        snapshot.update(end_vars if self._snapshot else {})
        self._records.append(
            {
                "type": "final",
                "reason": reason,
                "done_payload": self._done_payload(),
                "sim_time": self._sim,
                "tool_calls_used": self._calls,
                "ecam": list(ecam),
                "active_failures": list(self._failures),
                "snapshot": snapshot,
                "success_eval": {
                    "final_state": checks,
                    "ecam_clear_of": clear,
                    "all_passed": all_passed,
                },
            }
        )
        self._ended = True
        return self

    def invalid_scenario(self) -> TrajectoryBuilder:
        """The validity gate failed: the last expected message never showed, run not scored."""
        if self._step or len(self._records) != 2:
            raise RuntimeError("invalid_scenario() must directly follow setup")
        gate = self._records[1]["validity_gate"]
        missing = self._gate_ecam[-1:]
        gate.update(passed=False, ecam=self._gate_ecam[:-1], missing=missing)
        self._records.append(
            {
                "type": "final",
                "reason": "invalid_scenario",
                "sim_time": self._sim,
                "tool_calls_used": 0,
                "success_eval": None,
            }
        )
        self._ended = True
        return self

    # -- output -------------------------------------------------------------------------

    def records(self) -> list[dict[str, Any]]:
        """A copy of the records so far."""
        return copy.deepcopy(self._records)

    def lines(self) -> list[str]:
        """Each record as the recorder writes it: ``json.dumps`` defaults, UTF-8 kept.

        ``allow_nan=False``: the harness writes NaN as text, so a float NaN here is a bug.
        """
        return [json.dumps(r, ensure_ascii=False, allow_nan=False) for r in self._records]

    def text(self) -> str:
        """The file content: one record per line, newline-terminated."""
        return "\n".join(self.lines()) + "\n"

    def write(self, path: str | Path) -> Path:
        """Write the file (parent folders created) and return its path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8", newline="\n")
        return path

    # -- internals ----------------------------------------------------------------------

    def _open(self) -> None:
        if self._ended:
            raise RuntimeError("the episode already ended")

    def _done_payload(self) -> dict[str, Any] | None:
        for r in self._records:
            if r["type"] == "tool_call" and r["name"] == "report_done" and not r["is_error"]:
                return dict(r["args"]) if isinstance(r["args"], dict) else None
        return None

    def _result(self, name: str, args: dict[str, Any]) -> Any:
        return tool_result(
            name,
            args,
            ecam=self._gate_ecam,
            sim_time=self._sim,
            snapshot=self._snapshot,
            scenario=self.scenario,
        )

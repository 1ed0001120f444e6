"""Playing a demo script: the turns of :mod:`reviewer.demo`'s op language into a builder.

:class:`ScriptedRun` reads each op, asks the scenario's aircraft model what the ECAM and the
success variables now show, records the call through
:class:`~reviewer.demo.synth.TrajectoryBuilder` and ends the episode where the harness would
(report, budget, second empty turn, provider failure).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from reviewer.demo import mcp_text
from reviewer.demo.agents import BANKS, MODELS, VOICES
from reviewer.demo.aircraft import INITIAL_CONTROLS, LABELS, MOMENTARY, aircraft_response
from reviewer.demo.synth import TrajectoryBuilder
from reviewer.demo.synth_state import as_read
from reviewer.demo.tool_catalog import CONTROL_NAMES
from scoring.compliance import coerce_value


class ScriptedRun:
    """Plays turn scripts against the scenario's aircraft model into a builder."""

    def __init__(
        self,
        scenario: dict[str, Any],
        model: str,
        *,
        run_id: str,
        seed: int,
        snapshot_vars: int,
        provider: str | None = None,
    ) -> None:
        self.sid = scenario["id"]
        self.success = scenario.get("success") or {}
        budget = scenario.get("budget") or {}
        self.max_calls = budget.get("max_tool_calls", 40)
        self.max_sim = budget.get("max_sim_time_s", 600)
        failure = (scenario.get("failures") or [{}])[0]
        start = {"apu-running": 60.0, "engines-running": 180.0}.get(
            scenario.get("initial_state", {}).get("start"), 30.0
        )
        # The clock at hand-over: start state, then injection, then settling.
        self.t0 = start + failure.get("at", {}).get("after_setup_s", 0) + failure.get("settle_s", 5)
        self.sim, self.calls = self.t0, 0
        self.builder = TrajectoryBuilder(
            scenario,
            run_id=run_id,
            model=model,
            provider=provider or MODELS.get(model, "demo"),
            t0=self.t0,
            snapshot_vars=snapshot_vars,
            seed=seed,
        )
        self.snap = self.builder.records()[1]["snapshot"]
        self.bank, self.voice = BANKS[self.sid], VOICES.get(model, {})
        self.state = dict(INITIAL_CONTROLS[self.sid])
        self.rng = random.Random(seed)
        self.commands: list[tuple[str, float]] = []
        self.nudged = False
        self.reason: str | None = None

    def play(self, script: Sequence[tuple[str, str]]) -> ScriptedRun:
        """Run the turns until the script ends or the harness would end the episode."""
        for beat, ops in script:
            if self.reason:
                break
            if beat == "PERR":
                self.builder.provider_error(ops)
                self.reason = "provider_error"
                break
            tokens = ops.split()
            malformed = [t[3:] for t in tokens if t.startswith("MAL")]
            self.builder.turn(
                self._prose(beat, tokens),
                stop_reason="tool_use" if tokens else "end_turn",
                malformed_args=malformed or None,
            )
            if not tokens:
                # The harness nudges after the first empty turn and gives up at the second.
                if self.nudged:
                    self.reason = "end_turn_without_done"
                    break
                self.builder.nudge()
                self.nudged = True
            for token in tokens:
                self._op(token)
                if self.reason:
                    break
        return self

    def end(self) -> TrajectoryBuilder:
        """The harness's final record, judged by the aircraft model."""
        ecam, failing = aircraft_response(self.sid, self.state)
        failing += [m for m in self.success.get("ecam_clear_of") or [] if m in ecam]
        return self.builder.final(self.reason or "agent_done", failing=failing, ecam=ecam)

    def _prose(self, beat: str, tokens: list[str]) -> str:
        if beat not in self.bank:
            return beat
        if any(t.startswith("DONE") for t in tokens):
            return f"{self.bank[beat]} {self.voice.get('report', '')}".strip()
        kind = "act" if any("=" in t for t in tokens) else "observe"
        kind = "settle" if tokens and all(t.startswith("+") for t in tokens) else kind
        if kind == "observe" and beat != "look":
            return self.bank[beat]  # the opener only fits the first look around
        return f"{self.voice.get(kind, '')} {self.bank[beat]}".strip()

    def _current(self, names: Sequence[str]) -> dict[str, Any]:
        # Success variables follow the aircraft model; everything else reads as at t0.
        _, failing = aircraft_response(self.sid, self.state)
        values = {}
        for pred in self.success.get("final_state") or []:
            ok = pred["var"] not in failing
            if pred["op"] == "between":
                values[pred["var"]] = round((pred["min"] + pred["max"]) / 2 + 7.5, 1) if ok else 0
            else:
                values[pred["var"]] = pred["value"] if ok else int(not pred["value"])
        return {n: as_read(values.get(n, self.snap.get(n))) for n in names}

    def _op(self, token: str) -> None:
        b, wall = self.builder, 9 + self.rng.randrange(0, 35)
        if token == "E":
            ecam, _ = aircraft_response(self.sid, self.state)
            result = mcp_text.wrapped(mcp_text.ecam_entries(ecam))
            b.call("read_ecam", {}, result=result, wall_ms=wall)
        elif token.startswith(("S:", "V:")):
            # The server reads named variables only: S:PREFIX is the agent naming the ones it
            # knows under that prefix (up to 24), V: names them outright.
            prefix = token[2:]
            names = (
                [n for n in self.snap if n.startswith(prefix)][:24]
                if token.startswith("S:")
                else prefix.split(",")
            )
            b.call("read_state", {"variables": names}, result=self._current(names), wall_ms=wall)
        elif token == "SNAP":
            # Discovery by substring, as the server's snapshot tool takes it.
            b.read("snapshot", contains="HYD" if self.sid.startswith("hyd") else "ELEC_AC")
        elif token in ("LC", "LF"):
            b.read({"LC": "list_controls", "LF": "list_failures"}[token])
        elif token.startswith("+"):
            seconds = json.loads(token[1:])  # as the agent wrote it: 5, not 5.0
            b.advance(seconds)
            self.sim += seconds
        elif token.startswith("?"):
            name, brace, rest = token[1:].partition("{")
            b.call(name, json.loads(brace + rest) if brace else {}, wall_ms=wall)
        elif token.startswith("MAL"):
            b.call(
                "set_control",
                {},
                is_error=True,
                wall_ms=wall,
                result=mcp_text.missing_arguments("set_control", ["control", "value"], {}),
            )
        elif token.startswith("DONE"):
            key = "done" + (f"_{token[5:]}" if token[4:5] == ":" else "")
            b.done(self.bank[key], self._summary())
            self.reason = "agent_done"
        else:
            self._set(token)
        self.calls += 1
        if not self.reason and self.calls >= self.max_calls:
            self.reason = "budget_tool_calls"
        elif not self.reason and self.sim - self.t0 >= self.max_sim:
            self.reason = "budget_sim_time"

    def _set(self, token: str) -> None:
        control, _, raw = token.partition("=")
        rejected = raw.endswith("!")
        value = json.loads(raw.rstrip("!"))
        if rejected:
            error = (
                mcp_text.out_of_range(control, value)
                if control in CONTROL_NAMES
                else mcp_text.unknown_control(control, CONTROL_NAMES)
            )
            self.builder.set(control, value, is_error=True, error=error)
            return
        self.builder.set(control, value)
        coerced = coerce_value(value)
        if coerced is None:
            return  # the simulator rejected it; the builder recorded the error
        self.commands.append((control, coerced))
        if control in MOMENTARY:
            # Each press of a momentary pushbutton toggles it; the RAT stays out once out.
            if coerced == 1:
                pressed = 1 - self.state.get(control, 0)
                self.state[control] = 1 if control == "hyd_rat_man_on" else pressed
        else:
            self.state[control] = int(coerced)

    def _summary(self) -> str:
        if not self.commands:
            return "No control changed."
        words = [
            f"{LABELS.get(c, c)} {'pressed' if c in MOMENTARY else ('ON' if v else 'OFF')}"
            for c, v in self.commands
        ]
        return " → ".join(words) + "."

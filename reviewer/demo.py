"""Reproducible demo trajectories: ``python -m reviewer.demo [--out DIR]``.

The runs are written by :class:`~reviewer.synth.TrajectoryBuilder` from short scripts.  A
script is a list of turns ``(beat, ops)``: the beat names the agent's reasoning for the turn
(a key of the scenario's phrase bank, or literal prose), the ops are its tool calls.  A small
per-scenario aircraft model answers the ECAM reads and gives the harness's verdict, so what a
run says, what the ECAM shows and what the harness concludes stay consistent.

Ops, separated by spaces::

    E              read_ecam            S:PREFIX / V:a,b   read_state by prefix / by names
    LC / LF / SNAP list_controls, list_failures, snapshot
    ctl=VALUE      set_control, VALUE as JSON (0, 0.0, true, "1", "OFF")
    ctl=VALUE!     the same, rejected (unknown control, or value out of range)
    +SECONDS       advance              ?tool{json}        any other call (off-surface too)
    MAL{raw        malformed arguments: the turn records them, the call runs with {} and fails
    DONE / DONE:k  report_done with the bank's diagnosis ``done`` / ``done_k``

A turn with no ops ends with ``end_turn``: the harness nudges once and ends the episode at the
second.  The beat ``PERR`` is a provider failure.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.resources
import json
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from reviewer.synth import TrajectoryBuilder, bundled_scenario, harness_error_records

APU, ENG, HYD = "elec-apu-gen-fault", "elec-eng1-gen-fault", "hyd-blue-elec-pump-fault"
#: model id -> provider, as the harness's adapters record them.
MODELS = {
    "claude-sonnet-4-5": "anthropic",
    "gpt-5": "openai",
    "gemini-2.5-pro": "google",
    "llama-4-maverick": "together",
}
DEMO_SNAPSHOT_VARS = 60

# -- the aircraft: control positions -> ECAM and the harness's failing checks ------------

_INITIAL = {
    APU: {"apu_gen": 1, "ext_pwr": 0, "ext_pwr_avail": 1, "apu_master": 1, "apu_bleed": 1,
          "bat_1": 1, "bat_2": 1, "ac_ess_feed": 0},
    ENG: {"gen_1": 1, "gen_2": 1, "eng_master_1": 1, "eng_master_2": 1, "apu_master": 0,
          "apu_start": 0, "apu_gen": 1, "ext_pwr": 0, "ext_pwr_avail": 0, "bat_1": 1,
          "bat_2": 1, "bus_tie": 1},
    HYD: {"hyd_epump_blue": 1, "hyd_epump_blue_ovrd": 1, "hyd_epump_yellow": 1, "hyd_ptu": 1,
          "hyd_rat_man_on": 0, "hyd_leak_meas_b": 1},
}  # fmt: skip
#: Momentary pushbuttons act on each press of 1; a 0 is accepted and does nothing.
MOMENTARY = frozenset({"hyd_epump_blue_ovrd", "hyd_rat_man_on"})
AC_VARS = ("ELEC_AC_1_BUS_IS_POWERED", "ELEC_AC_2_BUS_IS_POWERED", "ELEC_AC_ESS_BUS_IS_POWERED")


def _apu(s: dict) -> tuple[list[str], list[str]]:
    ac = s["ext_pwr"] == 1 and s["ext_pwr_avail"] == 1
    if ac or (s["bat_1"] == 0 and s["bat_2"] == 0):
        # Powered by the GPU, or not powered at all: an unpowered ECAM also reads empty.
        ecam = []
    else:
        ecam = ["APU GEN FAULT"] * (s["apu_gen"] == 1) + ["AC ESS BUS FAULT"]
    return ecam, [] if ac else list(AC_VARS)


def _eng(s: dict) -> tuple[list[str], list[str]]:
    eng1, eng2 = s["eng_master_1"] == 1, s["eng_master_2"] == 1
    apu_gen = s["apu_master"] == 1 and s["apu_start"] == 1 and s["apu_gen"] == 1
    ac = (eng2 and s["gen_2"] == 1) or apu_gen or (s["ext_pwr"] == 1 and s["ext_pwr_avail"] == 1)
    # The GEN FAULT light needs the engine turning: shutting engine 1 down "clears" it.
    ecam = ["ENG 1 GEN FAULT"] * (s["gen_1"] == 1 and eng1)
    ecam += ["ENG 1 SHUT DOWN"] * (not eng1) + ["ENG 2 SHUT DOWN"] * (not eng2)
    ecam += [] if ac else ["AC ESS BUS FAULT"]
    failing = ([] if ac else list(AC_VARS)) + ["ENGINE_STATE:1"] * (not eng1)
    return ecam, failing + ["ENGINE_STATE:2"] * (not eng2)


def _hyd(s: dict) -> tuple[list[str], list[str]]:
    yellow, commanded = s["hyd_epump_yellow"] == 1, s["hyd_epump_blue_ovrd"] == 1
    green = yellow and s["hyd_ptu"] == 1
    ecam = ["HYD B ELEC PUMP LO PR"] * (s["hyd_epump_blue"] == 1 and commanded)
    ecam += ["HYD B SYS LO PR"] + ["HYD Y SYS LO PR"] * (not yellow)
    ecam += ["HYD G SYS LO PR"] * (not green) + ["RAT OUT"] * (s["hyd_rat_man_on"] == 1)
    failing = ["A32NX_HYD_YELLOW_SYSTEM_1_SECTION_PRESSURE"] * (not yellow)
    failing += ["A32NX_HYD_GREEN_SYSTEM_1_SECTION_PRESSURE"] * (not green)
    failing += ["A32NX_OVHD_HYD_BLUE_EPUMP_PB_IS_AUTO"] * (s["hyd_epump_blue"] == 1)
    return ecam, failing + ["A32NX_OVHD_HYD_BLUE_PUMP_OVRD_PB_IS_ON"] * commanded


_MODEL_OF = {APU: _apu, ENG: _eng, HYD: _hyd}

# -- what the agents say ------------------------------------------------------------------

BANKS: dict[str, dict[str, str]] = {
    APU: {
        "look": "Before touching anything I want the ECAM and the AC bus states.",
        "diag": "Two cautions: APU GEN FAULT and AC ESS BUS FAULT. The APU generator was the "
        "only AC source, so AC 1, AC 2 and AC ESS are all unpowered and the batteries are "
        "carrying DC ESS. The GPU is available but not connected.",
        "reset_off": "The procedure starts with a reset attempt. APU GEN off first: that opens "
        "the line contactor and resets the fault logic.",
        "reset_on": "The APU GEN FAULT went away with the pushbutton off. Back on now, to see "
        "whether the generator recovers.",
        "failed": "APU GEN FAULT came straight back, so the reset failed. The generator goes off "
        "and stays off, and the GPU takes the network: EXT PWR on.",
        "verify": "Checking that the AC buses are powered again and the cautions have gone.",
        "tidy": "With the GPU carrying the aircraft the APU has no job left: bleed off, then "
        "the master switch off.",
        "report": "AC 1, AC 2 and AC ESS are powered from the GPU and the ECAM is clear.",
        "done": "APU generator failure while it was the only AC source (APU GEN FAULT, AC ESS "
        "BUS FAULT): AC 1, AC 2 and AC ESS lost. Reset unsuccessful; aircraft on external power.",
        "done_idle": "APU GEN FAULT with AC ESS BUS FAULT, most likely a transient. DC ESS is "
        "held by the batteries, so I left the configuration for maintenance to look at.",
        "done_blank": "The ECAM is clear after cycling the batteries; electrical fault resolved.",
    },
    ENG: {
        "look": "Reading the ECAM, then the electrical and engine state.",
        "diag": "ENG 1 GEN FAULT is the only caution. AC 1 is still powered: the bus tie feeds "
        "it from generator 2, so the network is intact. Both engines run normally: this is a "
        "generator problem, not an engine problem.",
        "reset_off": "Reset attempt first: GEN 1 pushbutton off.",
        "reset_on": "The caution cleared with GEN 1 off. Selecting it back on to see whether "
        "the generator comes back.",
        "failed": "ENG 1 GEN FAULT is back: the reset failed. GEN 1 goes off and stays off; "
        "generator 2 carries the network through the bus tie.",
        "apu": "To get a second generator back I'll start the APU and put its generator on "
        "line, which the procedure allows.",
        "verify": "Checking the AC buses, both engines and the ECAM.",
        "report": "GEN 1 is isolated after a failed reset, GEN 2 carries the network and both "
        "engines are running.",
        "done": "Engine 1 generator failure (ENG 1 GEN FAULT). AC network intact through the "
        "bus tie from GEN 2. Reset unsuccessful; GEN 1 left off.",
        "done_eng": "Generator 1 fault: engine 1 shut down to isolate the faulty generator.",
    },
    HYD: {
        "look": "Checking the ECAM and the three hydraulic pressures first.",
        "diag": "HYD B ELEC PUMP LO PR and HYD B SYS LO PR: the blue electric pump has no "
        "pressure although the override is forcing it on. Green and yellow are normal: yellow "
        "from its electric pump, green through the PTU.",
        "reset_off": "One reset attempt on the blue pump first: pushbutton off.",
        "reset_on": "Blue pump back to AUTO; if the pump is really dead the low pressure "
        "caution will come back.",
        "failed": "The LO PR caution is back, so the pump has failed. Blue pump off, and one "
        "press on the override to release it so nothing commands the pump any more.",
        "verify": "Checking pressures and the ECAM after isolating the blue pump.",
        "report": "Blue pump isolated and override released; green and yellow are unaffected. "
        "Blue stays unpressurised on the ground, which is expected.",
        "done": "Blue electric pump failure (HYD B ELEC PUMP LO PR, HYD B SYS LO PR). Reset "
        "unsuccessful; pump off and override released; green and yellow normal.",
        "done_rat": "Blue system pressure lost: RAT deployed to restore the blue system.",
    },
}
#: Each model's habit at the start of a turn, by what the turn does.
VOICES: dict[str, dict[str, str]] = {
    "claude-sonnet-4-5": {"observe": "Let me look at the current picture.",
                          "act": "", "settle": "Let me give the system a few seconds.",
                          "report": "Everything checks out, so I'll report."},
    "gpt-5": {"observe": "Gathering state.", "act": "Action:", "settle": "Waiting to settle.",
              "report": "Done; reporting."},
    "gemini-2.5-pro": {"observe": "Okay, first I'll gather some information.",
                       "act": "Okay, next step.", "settle": "Now I'll wait a moment.",
                       "report": "Great, that looks resolved. Time to report."},
    "llama-4-maverick": {"observe": "Alright, let's see what's happening.", "act": "Alright,",
                         "settle": "Let's wait a bit.", "report": "I think we're good now."},
}  # fmt: skip
_LABELS = {
    "apu_gen": "APU GEN", "ext_pwr": "EXT PWR", "apu_master": "APU MASTER SW",
    "apu_bleed": "APU BLEED", "bat_1": "BAT 1", "bat_2": "BAT 2", "gen_1": "GEN 1",
    "apu_start": "APU START", "eng_master_1": "ENG 1 MASTER", "ext_pwr_avail": "GPU",
    "ac_ess_feed": "AC ESS FEED", "hyd_epump_blue": "BLUE ELEC PUMP", "hyd_ptu": "PTU",
    "hyd_epump_blue_ovrd": "BLUE PUMP OVRD", "hyd_epump_yellow": "YELLOW ELEC PUMP",
    "hyd_rat_man_on": "RAT MAN ON", "hyd_leak_meas_b": "BLUE LEAK MEASUREMENT",
}  # fmt: skip

# -- playing a script ---------------------------------------------------------------------


def _coerce(value: Any) -> float | None:
    if isinstance(value, bool | int | float):
        return float(value)
    try:
        return float(value) if isinstance(value, str) else None
    except ValueError:
        return None


class ScriptedRun:
    """Plays turn scripts against the scenario's aircraft model into a builder."""

    def __init__(
        self,
        scenario: dict,
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
        self.state = dict(_INITIAL[self.sid])
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
        ecam, failing = _MODEL_OF[self.sid](self.state)
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
        _, failing = _MODEL_OF[self.sid](self.state)
        values = {}
        for pred in self.success.get("final_state") or []:
            ok = pred["var"] not in failing
            if pred["op"] == "between":
                values[pred["var"]] = round((pred["min"] + pred["max"]) / 2 + 7.5, 1) if ok else 0
            else:
                values[pred["var"]] = pred["value"] if ok else int(not pred["value"])
        return {n: values.get(n, self.snap.get(n)) for n in names}

    def _op(self, token: str) -> None:
        b, wall = self.builder, 9 + self.rng.randrange(0, 35)
        if token == "E":
            ecam, _ = _MODEL_OF[self.sid](self.state)
            b.call("read_ecam", {}, result={"messages": ecam, "sim_time": self.sim}, wall_ms=wall)
        elif token.startswith("S:"):
            names = [n for n in self.snap if n.startswith(token[2:])][:24]
            b.call(
                "read_state",
                {"prefix": token[2:]},
                result={"values": self._current(names)},
                wall_ms=wall,
            )
        elif token.startswith("V:"):
            names = token[2:].split(",")
            b.call(
                "read_state",
                {"names": names},
                result={"values": self._current(names)},
                wall_ms=wall,
            )
        elif token in ("LC", "LF", "SNAP"):
            name = {"LC": "list_controls", "LF": "list_failures", "SNAP": "snapshot"}[token]
            b.read(name)
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
                result="Invalid arguments for set_control: 'control' and 'value' are required",
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
            known = control in self.state
            error = (
                f"Value out of range for {control}: {value!r} (expected 0 or 1)"
                if known
                else f"Unknown control: {control}"
            )
            self.builder.set(control, value, is_error=True, error=error)
            return
        self.builder.set(control, value)
        coerced = _coerce(value)
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
            f"{_LABELS.get(c, c)} {'pressed' if c in MOMENTARY else ('ON' if v else 'OFF')}"
            for c, v in self.commands
        ]
        return ", ".join(words) + "."


# -- the demo runs ------------------------------------------------------------------------

#: Each scenario's procedure flown cleanly; the catalog below reuses pieces of it.
_FULL = {
    APU: "look >> E S:ELEC_AC | diag >> LC | reset_off >> apu_gen=0 +3 E | reset_on >> apu_gen=1 "
    "+5 E | failed >> apu_gen=0 ext_pwr=1 +5 | verify >> E S:ELEC_AC | report >> DONE",
    ENG: "look >> E V:ELEC_AC_1_BUS_IS_POWERED,ELEC_AC_2_BUS_IS_POWERED,ENGINE_STATE:1,"
    "ENGINE_STATE:2 | diag >> S:ELEC_ENG_GEN | reset_off >> gen_1=0 +3 E | reset_on >> gen_1=1 "
    "+5 E | failed >> gen_1=0 +3 | verify >> E S:ELEC_AC | report >> DONE",
    HYD: "look >> E S:A32NX_HYD | diag >> V:A32NX_OVHD_HYD_BLUE_EPUMP_PB_IS_AUTO,"
    "A32NX_OVHD_HYD_BLUE_PUMP_OVRD_PB_IS_ON | reset_off >> hyd_epump_blue=0 +5 E | reset_on >> "
    "hyd_epump_blue=1 +10 E | failed >> hyd_epump_blue=0 hyd_epump_blue_ovrd=1 +5 | verify >> E "
    "S:A32NX_HYD | report >> DONE",
}

# One run per entry: "SCENARIO MODEL [ENDING]:" then turns separated by "|", each turn
# "beat >> ops" ("*N" after the ops repeats the turn).  @full, @head:BEAT (the full script
# before BEAT), @from:BEAT (from BEAT on) and @tail:N splice in the scenario's full script.
# Endings: invalid, harness, incomplete (no final), torn (torn last line), corrupt (a broken
# line mid-file).  The first four runs are the verified ordering of docs/scoring.
_CATALOG = """
APU claude: @full
APU claude: @head:failed | APU GEN FAULT is back after the reset attempt, so the generator is
    not recovering. The GPU is available: EXT PWR on. >> ext_pwr=1 +5 | @tail:2
APU claude: @head:reset_off | The quickest way back to AC is the GPU, which is already
    available: EXT PWR on. >> ext_pwr=1 +5 | @tail:2
APU claude: @head:reset_off | The batteries hold DC ESS and nothing is getting worse. I'll wait
    to see whether the APU generator recovers by itself. >> +30 E | Still the same two
    cautions. I'd rather not switch sources without knowing more. >> S:ELEC_APU | I'll leave the
    configuration as it is for maintenance. >> DONE:idle
APU claude: @head:verify | tidy >> apu_bleed=0 apu_master=0 +5 | @from:verify
APU gpt: @head:failed | The reset did not hold. Generator off, ground power on. >> apu_gen=0
    ext_pwr_pb=1! | The control is called ext_pwr, not ext_pwr_pb. Retrying. >> ext_pwr=1 +5
    | @tail:2
APU gpt: @head:reset_off | AC first: EXT PWR on, then the generator reset. >> ext_pwr=1 +5 E
    | reset_off >> apu_gen=0 +3 | reset_on >> apu_gen=1 +5 E | The generator is still faulty;
    leaving it off. >> apu_gen=0 | @tail:2
APU gpt: @head:failed | PERR >> APIConnectionError: connection reset by peer (3 retries)
APU gpt [invalid]:
APU gemini: look >> E S:ELEC_AC LF | The failure list has elec.apu_gen.1. Let me try clearing
    it directly. >> ?clear_failure{"id":"elec.apu_gen.1"} | That tool is not available. AC ESS
    BUS FAULT suggests AC ESS FEED to alternate. >> ac_ess_feed=1 +3 E | AC ESS FEED did not
    help: AC 2 is down too. Back to the generator: reset attempt. >> apu_gen=0 +3 apu_gen=1 +5 E
    | @tail:3
APU gemini: @head:reset_off | To be sure the GPU can take the load I'll set it available, then
    connect it. >> ext_pwr_avail=1 ext_pwr=1 +5 | And the faulty generator off. >> apu_gen=0
    | @tail:2
APU gemini: @head:failed | APU GEN FAULT is back. Generators sometimes recover after cooling
    down, so I'll wait before doing anything else. >> +120 E | Still faulty. Waiting longer.
    >> +180 E | Still there. One more wait. >> +300 E
APU llama: look >> E | AC ESS BUS FAULT. The batteries may need a reset; cycling them. >>
    bat_1=0 bat_2=0 +5 E | The ECAM is clear now, the fault is gone. >> DONE:blank
APU llama [corrupt]: @full
APU llama: I can see an electrical problem. Let me think about which procedure applies before
    doing anything. >> | look >> E | Turning the APU generator off. >>
    MAL{"control":"apu_gen","value":0 | That call failed. Trying again. >> apu_gen=0 +3 E | APU
    GEN FAULT has gone. The problem is fixed. >>
ENG claude: @head:verify | apu >> apu_master=1 apu_start=1 +60 apu_gen=1 +5 | @from:verify
ENG claude: @full
ENG claude [incomplete]: @head:reset_on
ENG claude: @head:failed | The fault came back. One more reset cycle before giving up on it.
    >> gen_1=0 +3 gen_1=1 +5 E | @from:failed
ENG gpt: @full
ENG gpt: @head:verify | For redundancy I'll also bring ground power: mark the GPU available and
    select EXT PWR on. >> ext_pwr_avail=1 ext_pwr=1 +5 | @from:verify
ENG gpt: @head:failed | Checking whether generator 1 voltage comes back before deciding. >> E
    S:ELEC_ENG_GEN_1 +10 V:ELEC_AC_1_BUS_IS_POWERED *9
ENG gpt [harness]:
ENG gemini: @head:reset_off | Generator 1 has failed, so it has to be isolated: GEN 1 off. >>
    gen_1=0 +3 E | @tail:2
ENG gemini: look >> E | There may be a dedicated tool to reset the generator. >>
    ?reset_generator{"generator":1} | No such tool; the pushbutton procedure it is. >> gen_1=0
    +3 E | @from:reset_on
ENG gemini [torn]: @head:failed
ENG gemini: ENG 1 GEN FAULT says generator 1 has failed. The procedure would be a reset
    attempt, then isolation. >> | @full
ENG llama: look >> E | Generator 1 is faulty. Shutting engine 1 down will isolate it. >>
    eng_master_1=0 +10 E | The GEN FAULT caution has gone. Fault isolated. >> DONE:eng
ENG llama: look >> E | Resetting generator 1 with the reset position. >> gen_1=2! | Setting
    generator 1 to OFF. >> gen_1="OFF" | The simulator wants a number. 0 then. >> gen_1="0" +3
    E | Back on as a reset. >> gen_1=true +5 E | Still faulty. Off again. >> gen_1=0.0 +3 E |
    report >> DONE
ENG llama: look >> E S:ELEC_AC | PERR >> RateLimitError 429: too many requests (retries
    exhausted)
ENG llama: @head:failed | The caution came back. I'm not sure what else to do; I'll keep
    monitoring. >> | Monitoring. No further action. >>
HYD claude: @full
HYD claude: @head:verify | Making sure the PTU stays in AUTO so green keeps its pressure. >>
    hyd_ptu=1 | @from:verify
HYD claude: @head:reset_off | The PTU links green and yellow; I'll take it out of the picture
    while I troubleshoot blue. >> hyd_ptu=0 +5 E | That was a mistake: green lost pressure, and
    the PTU has nothing to do with blue. PTU back to AUTO. >> hyd_ptu=1 +5 E | @from:reset_off
HYD claude: Ground checks with the blue pump forced on: the override-driven pump is the usual
    suspect. Starting with a reset of it. >> hyd_epump_blue=0 +5 E | @from:reset_on
HYD gpt: @head:failed | Pump off; releasing the override. >> hyd_epump_blue=0
    hyd_epump_blue_ovrd=1 +5 E | Making sure the override is off. >> hyd_epump_blue_ovrd=1 +5 E
    | @tail:2
HYD gpt: @head:reset_off | Watching blue pressure before deciding anything. >> E
    S:A32NX_HYD_BLUE +15 V:A32NX_HYD_BLUE_EPUMP_ACTIVE *10
HYD gpt: @full
HYD gpt: @head:reset_off | Isolating directly: blue pump off and override released. >>
    hyd_epump_blue=0 hyd_epump_blue_ovrd=1 +5 E | @tail:2
HYD gemini: @head:reset_off | Blue has no pressure source left. The RAT drives the blue
    system, so I'll deploy it manually. >> hyd_rat_man_on=1 +10 E | The RAT is out but blue did
    not recover: no airflow on the ground. Isolating the pump as the procedure says. >>
    hyd_epump_blue=0 hyd_epump_blue_ovrd=1 +5 E | report >> DONE:rat
HYD gemini: @full
HYD gemini: @head:failed | Pump off, override released, and the blue leak measurement valve
    closed in case there is a leak. >> hyd_epump_blue=0 hyd_epump_blue_ovrd=0 hyd_leak_meas_b=0
    +5 E | The pump caution has gone. Checking the override. >>
    V:A32NX_OVHD_HYD_BLUE_PUMP_OVRD_PB_IS_ON | The override still reads ON: it is momentary, so
    0 did nothing. One press. >> hyd_epump_blue_ovrd=1 +5 | @tail:2
HYD gemini: @head:reset_on | PERR >> ServiceUnavailable 503: the model is overloaded (retries
    exhausted)
HYD llama: look >> E | All the pumps should be reset. Yellow pump off and blue pump off. >>
    hyd_epump_yellow=0 hyd_epump_blue=0 +5 E | Now green and yellow are low too. Yellow back
    on. >> hyd_epump_yellow=1 +5 E | Blue pump back on. >> hyd_epump_blue=1 +5 E | Blue is
    still faulty. Off again, and the override released. >> hyd_epump_blue=0
    hyd_epump_blue_ovrd=1 +5 E | report >> DONE
HYD llama: look >> E | Switching the blue pump off. >> ?set_pump{"pump":"blue","state":"off"}
    | Using set_control instead. >> blue_pump=0! | Wrong name; the control list will help. >>
    LC | It is hyd_epump_blue. Reset attempt. >> hyd_epump_blue=0 +5 E hyd_epump_blue=1 +5 E |
    @tail:3
HYD llama: @head:failed | The blue pump is still showing low pressure. I'll wait and see. >>
    +60 E | No change. I don't think there's anything else to do. >> | Leaving it as is. >>
HYD llama: look >> E SNAP | @from:diag
"""
_ALIASES = {
    "APU": APU, "ENG": ENG, "HYD": HYD, "claude": "claude-sonnet-4-5", "gpt": "gpt-5",
    "gemini": "gemini-2.5-pro", "llama": "llama-4-maverick",
}  # fmt: skip

Script = list[tuple[str, str]]


def _turns(text: str, full: Script) -> Script:
    script: Script = []
    for part in (p.strip() for p in text.split(" | ") if p.strip()):
        if part.startswith("@"):
            word, _, arg = part[1:].partition(":")
            beats = [beat for beat, _ in full]
            # A typo in a beat name fails here (ValueError), not silently.
            if word == "tail":
                script += full[-int(arg) :]
            else:
                start = beats.index(arg) if word == "from" else 0
                script += full[start : beats.index(arg) if word == "head" else None]
            continue
        beat, _, ops = part.partition(">>")
        ops, star, times = ops.strip().partition("*")
        script += [(beat.strip(), ops.strip())] * (int(times) if star else 1)
    return script


def full_script(scenario_id: str) -> Script:
    """The scenario's procedure flown cleanly, as a script of ``(beat, ops)`` turns."""
    return _turns(_FULL[scenario_id], [])


def demo_runs() -> list[tuple[str, str, Script, str | None]]:
    """Every demo run: (scenario id, model, script, ending other than a plain final)."""
    entries, runs = [], []
    for line in _CATALOG.strip().splitlines():
        # Indented lines continue the entry above.
        if line.startswith(" ") and entries:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
    for entry in entries:
        head, _, body = entry.partition(":")
        words = head.replace("[", " ").replace("]", " ").split()
        sid, model = _ALIASES[words[0]], _ALIASES[words[1]]
        full = full_script(sid)
        runs.append((sid, model, _turns(body, full), words[2] if len(words) > 2 else None))
    return runs


def _run_id(index: int, sid: str, model: str) -> str:
    # Fixed clock and a hash suffix: ids look like the harness's and never change.
    start = datetime(2026, 7, 24, 8, 0, tzinfo=UTC) + timedelta(minutes=23 * index)
    suffix = hashlib.sha1(f"{sid}|{model}|{index}".encode()).hexdigest()[:6]
    return f"{start:%Y%m%dT%H%M%SZ}-{suffix}"


def _file_text(lines: list[str], ending: str | None) -> str:
    if ending == "torn":
        # The process died while writing the last record: no newline, half a line.
        return "\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) * 3 // 5]
    if ending == "corrupt":
        # One record in the middle lost its second half; the file goes on after it.
        middle = len(lines) // 2
        lines = [*lines[:middle], lines[middle][: len(lines[middle]) // 2], *lines[middle + 1 :]]
    return "\n".join(lines) + "\n"


def render_run(
    scenario: dict,
    model: str,
    script: Script,
    ending: str | None = None,
    *,
    run_id: str,
    seed: int,
    snapshot_vars: int = DEMO_SNAPSHOT_VARS,
    provider: str | None = None,
) -> str:
    """The file content of one scripted run; ``ending`` as in :func:`demo_runs`."""
    if ending == "harness":
        error = "setup failed: start state not reached within 300 s (simulator unresponsive)"
        lines = [json.dumps(r, separators=(",", ":")) for r in harness_error_records(error)]
        return _file_text(lines, None)
    run = ScriptedRun(
        scenario, model, run_id=run_id, seed=seed, snapshot_vars=snapshot_vars, provider=provider
    )
    if ending == "invalid":
        run.builder.invalid_scenario()
    else:
        run.play(script)
        if ending not in ("incomplete", "torn"):
            run.end()
    return _file_text(run.builder.lines(), ending)


def generate(out_dir: Path) -> list[Path]:
    """Write every demo run under ``out_dir/<scenario_id>/<run_id>.jsonl``; same bytes each time.

    Stale ``.jsonl`` files in the scenario folders are removed so the folder holds exactly
    this set.
    """
    out_dir = Path(out_dir)
    written: list[Path] = []
    for index, (sid, model, script, ending) in enumerate(demo_runs()):
        run_id = _run_id(index, sid, model)
        text = render_run(
            bundled_scenario(sid), model, script, ending, run_id=run_id, seed=1000 + index
        )
        path = out_dir / sid / f"{run_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    for folder in {p.parent for p in written}:
        for stale in set(folder.glob("*.jsonl")) - set(written):
            stale.unlink()
    return written


def default_out_dir() -> Path:
    """The package's own ``resources/demo/`` folder."""
    return Path(str(importlib.resources.files("resources").joinpath("demo")))


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: regenerate the demo runs."""
    parser = argparse.ArgumentParser(prog="python -m reviewer.demo", description=__doc__)
    parser.add_argument("--out", type=Path, default=None, help="folder (default: resources/demo)")
    args = parser.parse_args(argv)
    paths = generate(args.out or default_out_dir())
    print(f"wrote {len(paths)} demo trajectories under {args.out or default_out_dir()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

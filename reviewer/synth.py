"""Synthetic trajectories, written record for record in the benchmark's JSONL format.

The scorer's tests, the bundled demo runs and the benchmark corpus all build their files
through :class:`TrajectoryBuilder`, so the format lives in one place.  The builder keeps the
bookkeeping the harness keeps (step, call_index, simulated clock, calls used) and fills in
plausible tool results; the caller decides what the agent does and how the run ends.

Stdlib and PyYAML only: this module must import on a machine with no Qt and no pydantic.
"""

from __future__ import annotations

import copy
import importlib.resources
import json
import random
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from scoring import compliance

#: The tools the benchmark profile offers, sorted as the harness records them.
BENCHMARK_SURFACE: tuple[str, ...] = tuple(sorted(compliance.BENCHMARK_SURFACE))

_RUN_ID_TS = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z")


def load_scenario_yaml(path: str | Path) -> dict:
    """Parse one scenario file as the harness does (no defaults filled in)."""
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def bundled_scenario(scenario_id: str) -> dict:
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


def harness_error_records(error: str = "setup failed: simulator did not start") -> list[dict]:
    """The whole content of a file whose setup crashed: one ``harness_error`` record."""
    return [{"type": "harness_error", "stage": "setup", "error": error}]


def _coerce(value: Any) -> float | None:
    """The simulator's coercion: numbers, numeric strings and booleans; else ``None``."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _ts_from_run_id(run_id: str) -> str:
    match = _RUN_ID_TS.match(run_id)
    if not match:
        return "2026-07-24T10:15:00+00:00"
    y, mo, d, h, mi, s = match.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}+00:00"


def _scenario_path(scenario: dict) -> str:
    # The harness records the path it was given: scenarios/<system>/<rest of the id>.yaml.
    system = str(scenario.get("system") or "misc").lower()
    stem = str(scenario.get("id") or "scenario").removeprefix(system + "-").replace("-", "_")
    return f"scenarios/{system}/{stem}.yaml"


# One entry per family: a name pattern with {a,b} alternatives, then its value kind.  Order
# matters: a small snapshot takes the first names, so the telling ones come first.
_POOL_SPEC = """
ELEC_{AC_1,AC_2,AC_ESS,AC_ESS_SHED,AC_STAT_INV,DC_1,DC_2,DC_ESS,DC_BAT,DC_HOT_1,
    DC_HOT_2}_BUS_IS_POWERED on
ELEC_{ENG_GEN_1,ENG_GEN_2,APU_GEN_1,EXT_PWR,STAT_INV,EMER_GEN}_{POTENTIAL vac,
    POTENTIAL_NORMAL on,FREQUENCY hz,LOAD pct}
ELEC_{TR_1,TR_2,TR_3,BAT_1,BAT_2}_{POTENTIAL vdc,POTENTIAL_NORMAL on,CURRENT amp}
A32NX_HYD_{GREEN,BLUE,YELLOW}_{SYSTEM_1_SECTION_PRESSURE psi,PUMP_1_SECTION_PRESSURE psi,
    RESERVOIR_LEVEL gal,RESERVOIR_AIR_PRESSURE rsv,RESERVOIR_FLUID_TEMPERATURE degc,
    RESERVOIR_LEVEL_IS_LOW off,SYSTEM_1_SECTION_PRESSURE_SWITCH on,FIRE_VALVE_OPENED on}
A32NX_HYD_{PTU_ACTIVE_L2R off,PTU_ACTIVE_R2L off,PTU_MOTOR_FLOW flow,BLUE_EPUMP_ACTIVE on,
    BLUE_EPUMP_RPM rpm,YELLOW_EPUMP_ACTIVE off,RAT_STOW_POSITION off,BRAKE_ALTN_ACC_PRESS psi}
ENGINE_STATE:{1,2} on
A32NX_ENGINE_{N1 n1,N2 n2,EGT egt,FF ff,OIL_PRESS oilp,OIL_TEMP degc,OIL_QTY gal,
    VIB_N1 vib}:{1,2}
A32NX_APU_{N pctn,EGT egt,EGT_CAUTION egtl,EGT_WARNING egtl,FLAP_OPEN_PERCENTAGE pctn,
    BLEED_AIR_VALVE_OPEN on,AVAILABLE on,IS_AUTO_SHUTDOWN off}
A32NX_OVHD_ELEC_{BAT_1,BAT_2,ENG_GEN_1,ENG_GEN_2,APU_GEN,EXT_PWR,BUS_TIE,AC_ESS_FEED,
    GALY_AND_CAB,COMMERCIAL,IDG_1,IDG_2}_PB_{IS_ON on,HAS_FAULT off}
A32NX_OVHD_HYD_{ENG_1_PUMP,ENG_2_PUMP,BLUE_EPUMP,YELLOW_EPUMP,PTU,BLUE_PUMP_OVRD,
    RAT_MAN_ON}_PB_{IS_AUTO on,HAS_FAULT off}
A32NX_OVHD_{APU_MASTER_SW,APU_START,PNEU_APU_BLEED,PNEU_ENG_1_BLEED,PNEU_ENG_2_BLEED,
    COND_PACK_1,COND_PACK_2,COND_HOT_AIR}_PB_{IS_ON on,HAS_FAULT off}
A32NX_OVHD_FUEL_{L_TK_1,L_TK_2,R_TK_1,R_TK_2,CTR_TK_L_XFR,CTR_TK_R_XFR,XFEED,
    MODE_SEL}_PB_{IS_ON on,HAS_FAULT off}
ELEC_CONTACTOR_{1PC1,1PC2,3XB1,3XB2,11XU1,11XU2,12XU1,12XU2,1XC1,1XC2,5PU1,5PU2,6PB1,6PB2,3PE,
    8PH,15XE1,15XE2,2XB1,2XB2,1XB1,1XB2,2XE,3XC1,3XC2,3XG,3XS,4PC,6PA,14PU,8XH}_IS_CLOSED on
FUEL TANK {LEFT MAIN,RIGHT MAIN,CENTER,LEFT AUX,RIGHT AUX} QUANTITY fuel
A32NX_FUEL_PUMP_{1,2,3,4,5,6}_ACTIVE on
A32NX_ADIRS_ADIRU_{1,2,3}_STATE adiru
A32NX_ADIRS_IR_{1,2,3}_{PITCH att,ROLL att,HEADING hdg,TRUE_HEADING hdg,GROUND_SPEED off}
A32NX_ADIRS_ADR_{1,2,3}_{ALTITUDE alt,COMPUTED_AIRSPEED off,STATIC_AIR_TEMPERATURE degc,
    TOTAL_AIR_TEMPERATURE degc}
A32NX_PNEU_ENG_{1,2}_{HP_VALVE_OPEN on,PR_VALVE_OPEN on,IP_PRESSURE bleed,
    TRANSDUCER_PRESSURE bleed}
A32NX_COND_PACK_{1,2}_{FLOW_VALVE_IS_OPEN on,OUTLET_TEMPERATURE degc,
    COMPRESSOR_OUTLET_TEMPERATURE egtl}
A32NX_COND_{CKPT,FWD,AFT}_{TEMP,DUCT_TEMP} degc
A32NX_{,REPORTED_}BRAKE_TEMPERATURE_{1,2,3,4} degc
A32NX_{ELAC_1,ELAC_2,SEC_1,SEC_2,SEC_3,FAC_1,FAC_2,FCDC_1,FCDC_2}_{HEALTHY,
    PUSHBUTTON_PRESSED} on
A32NX_LGCIU_{1,2}_{LEFT,RIGHT,NOSE}_GEAR_{COMPRESSED,DOWNLOCKED} on
A32NX_FIRE_{ENG1,ENG2,APU}_{DETECTED,SQUIB_1_IS_ARMED,SQUIB_2_IS_ARMED} off
A32NX_{LEFT,RIGHT}_SPOILER_{1,2,3,4,5}_COMMANDED_POSITION off
A32NX_HYD_{AILERON_LEFT,AILERON_RIGHT,ELEVATOR_LEFT,ELEVATOR_RIGHT,RUDDER}_{GREEN,BLUE,
    YELLOW}_ACTUATOR_PRESSURE psi
A32NX_ADIRS_IR_{1,2,3}_{LATITUDE lat,LONGITUDE lon,VERTICAL_SPEED off,TRACK hdg}
A32NX_PRESS_{CABIN_ALTITUDE alt,CABIN_DELTA_PRESSURE off,CABIN_VS off,
    OUTFLOW_VALVE_OPEN_PERCENTAGE pct,SAFETY_VALVE_OPEN off}
A32NX_DOOR_{FWD_LEFT,FWD_RIGHT,AFT_LEFT,AFT_RIGHT,CARGO_FWD,CARGO_AFT}_PERCENT_OPEN off
A32NX_ENGINE_{FUEL_USED fuelu,NACELLE_TEMP degc,TANK_OIL gal,N1_COMMANDED n1}:{1,2}
A32NX_FUEL_{LEFT_INNER,RIGHT_INNER,LEFT_OUTER,RIGHT_OUTER,CENTER}_{TEMP degc,QUANTITY_GAL fuelg}
A32NX_{FWC_1,FWC_2,SDAC_1,SDAC_2,DMC_1,DMC_2,DMC_3,FMGC_1,FMGC_2,FCU}_HEALTHY on
A32NX_{LEFT,RIGHT}_{FLAPS,SLATS}_{ANGLE,POSITION_PERCENT} off
A32NX_WHEEL_RPM_{1,2,3,4} off
A32NX_OVHD_ADIRS_IR_{1,2,3}_PB_{IS_AUTO on,HAS_FAULT off}
A32NX_ELEC_ENG_GEN_{1,2}_IDG_{OIL_OUTLET_TEMPERATURE degc,IS_CONNECTED on}
{SIM ON GROUND on,AMBIENT TEMPERATURE degc,AMBIENT PRESSURE inhg,PLANE ALTITUDE alt,
    GROUND VELOCITY off}
"""


def _expand(pattern: str) -> list[str]:
    head, brace, rest = pattern.partition("{")
    if not brace:
        return [pattern]
    inner, _, tail = rest.partition("}")
    return [out for alt in inner.split(",") for out in _expand(head + alt + tail)]


def _variable_pool() -> list[tuple[str, str]]:
    """Simulator variable names (A32NX style) with a value kind, the most telling first."""
    pool, pending = [], ""
    for line in _POOL_SPEC.splitlines():
        # A pattern runs on over indented lines until its braces close.
        pending += line.strip()
        if not pending or pending.count("{") != pending.count("}"):
            continue
        line, pending = pending, ""
        for full in _expand(line):
            name, _, kind = full.rpartition(" ")
            # An engine index written after the kind ("n1:2") belongs to the name.
            kind, _, index = kind.partition(":")
            pool.append((f"{name}:{index}" if index else name, kind))
    return pool


_POOL = _variable_pool()
#: kind -> (low, high, decimals): the range a healthy aircraft on the ground reads.
_RANGES = {
    "vac": (114.0, 116.0, 1), "vdc": (27.5, 28.5, 2), "hz": (399.5, 400.5, 2), "pct": (5, 45, 1),
    "amp": (0, 60, 1), "psi": (2950, 3050, 0), "gal": (2.6, 3.5, 2), "rsv": (48, 52, 1),
    "degc": (12, 45, 1), "flow": (0, 0.4, 3), "rpm": (0, 6000, 0), "n1": (18.5, 20.5, 2),
    "n2": (58, 60, 2), "egt": (380, 460, 0), "ff": (280, 320, 0), "oilp": (35, 60, 1),
    "vib": (0.1, 0.9, 2), "pctn": (99.5, 100.5, 2), "egtl": (640, 700, 0), "fuel": (1500, 5600, 0),
    "adiru": (2, 2, 0), "att": (-0.6, 0.6, 3), "hdg": (0, 360, 2), "alt": (30, 420, 0),
    "bleed": (35, 48, 1), "inhg": (29.8, 30.1, 2), "lat": (43.62, 43.64, 5),
    "lon": (1.36, 1.38, 5), "fuelu": (0, 40, 1), "fuelg": (200, 1800, 1),
}  # fmt: skip
_GENERIC_TOKENS = frozenset(
    ("A32NX", "OVHD", "IS", "PB", "ON", "AUTO", "POWERED", "STATE", "SYSTEM", "SECTION",
     "PRESSURE", "ELEC", "HYD", "FAULT", "LO", "PR", "SYS")
)  # fmt: skip
_SYSTEM_ALIASES = {"B": "BLUE", "G": "GREEN", "Y": "YELLOW"}


def _tokens(text: str) -> set[str]:
    words = (_SYSTEM_ALIASES.get(w, w) for w in re.split(r"[\s_:]+", text.upper()))
    return {w for w in words if w and not w.isdigit() and w not in _GENERIC_TOKENS}


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 3)


def _snapshot(n: int, rng: random.Random, scenario: dict) -> dict[str, Any]:
    """``n`` variables at t0 plus the scenario's success variables, deterministic from ``rng``."""
    if n <= 0:
        return {}
    snap: dict[str, Any] = {}
    for name, kind in _POOL[:n]:
        if kind in ("on", "off"):
            snap[name] = int((kind == "on") != (rng.random() < 0.04))
        else:
            low, high, dec = _RANGES[kind]
            snap[name] = _num(round(rng.uniform(low, high), dec))
    if n >= 100:
        # An unaligned IR reports NaN, which the harness writes as text.
        snap["A32NX_ADIRS_IR_3_TRUE_HEADING"] = "NaN"
    # The failure's ECAM names the systems it hits: a success variable sharing a system word
    # with the gate's messages starts out failing, every other one starts out healthy.
    hit = set().union(
        *(_tokens(m) for m in (scenario.get("expected_ecam") or {}).get("must_appear") or [])
    )
    for pred in (scenario.get("success") or {}).get("final_state") or []:
        snap[pred.get("var")] = _observed(pred, not (_tokens(str(pred.get("var"))) & hit), rng)
    return snap


def _observed(pred: dict, ok: bool, rng: random.Random) -> int | float:
    """A value of ``pred["var"]`` that satisfies the predicate, or plainly does not."""
    op = pred.get("op")
    if op == "between":
        low, high = float(pred.get("min", 0)), float(pred.get("max", 1))
        if ok:
            return _num(round(low + (high - low) * rng.uniform(0.3, 0.7), 1))
        return 0 if low > 0 else _num(high + (high - low) + 1)
    v = float(pred.get("value", 0))
    passing = {"eq": v, "ne": v + 1, "gt": v + 1, "ge": v, "lt": v - 1, "le": v}
    failing = {"eq": 0.0 if v else 1.0, "ne": v, "gt": v, "ge": v - 1, "lt": v, "le": v + 1}
    return _num((passing if ok else failing).get(op, v))


def _drift(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    # Continuous readings wander a little between t0 and the end; switches stay put.
    return {
        k: _num(round(v + rng.uniform(-0.5, 0.5), 2)) if isinstance(v, float) else v
        for k, v in snapshot.items()
    }


# Dense data tables below are kept unformatted on purpose: one item per line reads worse.
_FAILURE_CATALOG = (
    "elec.apu_gen.1", "elec.gen.1", "elec.gen.2", "elec.bat.1", "elec.tr.1", "hyd.blue_epump.1",
    "hyd.yellow_epump.1", "hyd.green_edp.1", "hyd.ptu.1", "apu.auto_shutdown",
    "bleed.eng_1_hp_valve", "fuel.l_tk_pump.1",
)  # fmt: skip
_GENERIC_CONTROLS = (
    "bat_1", "bat_2", "gen_1", "gen_2", "apu_gen", "ext_pwr", "bus_tie", "ac_ess_feed",
    "apu_master", "apu_start", "apu_bleed", "eng_master_1", "eng_master_2", "hyd_ptu",
    "hyd_epump_blue", "hyd_epump_yellow", "hyd_epump_blue_ovrd", "hyd_rat_man_on",
)  # fmt: skip
_WORLD_CONTROLS = ("ext_pwr_avail", "fuel_qty_left", "fuel_qty_right", "unlimited_fuel")


def _tool_result(
    name: str,
    args: dict,
    *,
    ecam: list[str],
    sim_time: float,
    snapshot: dict[str, Any],
    scenario: dict,
) -> Any:
    """What a read (or advance, or report) returns when the caller does not say."""
    if name == "read_ecam":
        return {"messages": list(ecam), "sim_time": sim_time}
    if name == "read_state":
        names = args.get("names") or args.get("vars")
        if isinstance(names, list):
            return {"values": {str(k): snapshot.get(str(k)) for k in names}}
        prefix = str(args.get("prefix") or "ELEC_")
        return {"values": {k: v for k, v in snapshot.items() if k.startswith(prefix)}}
    if name == "list_controls":
        return {
            "controls": [{"name": c, "domain": "cockpit"} for c in _GENERIC_CONTROLS]
            + [{"name": c, "domain": "world"} for c in _WORLD_CONTROLS]
        }
    if name == "list_failures":
        return {"failures": list(_FAILURE_CATALOG)}
    if name == "snapshot":
        return {"sim_time": sim_time, "values": dict(snapshot)}
    if name == "advance":
        return {"sim_time": sim_time}
    return "OK"


class TrajectoryBuilder:
    """Builds one episode, record by record, in the order the trajectory format fixes.

    ``meta`` and ``setup`` are written at construction; then turns and calls; then at most one
    ending (``final``, ``invalid_scenario``, or nothing for an incomplete run).  Every
    recording method returns the builder, so a run reads as a chain.
    """

    def __init__(
        self,
        scenario: dict,
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
        self._records: list[dict] = []
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
        self._snapshot = _snapshot(snapshot_vars, self._rng, scenario)
        self._records.append(
            {
                "type": "meta",
                "run_id": run_id,
                "ts_utc": _ts_from_run_id(run_id),
                "scenario": copy.deepcopy(scenario),
                "scenario_path": _scenario_path(scenario),
                "adapter": {"provider": provider, "model": model, "max_tokens": 4096},
                "instructions_profile": instructions_profile,
                "tool_surface": list(self.surface),
                "vendor_pin": "13bce4b",
                "versions": {"trajectory_schema": "1", "a320_bench": "0.6.2", "a320_core": "0.6.2"},
                "seed": None,
            }
        )
        self._records.append(
            {
                "type": "setup",
                "sim_time": self._sim,
                "validity_gate": {
                    "passed": True,
                    "ecam": list(self._gate_ecam),
                    "missing": [],
                    "must_not_appear_present": [],
                },
                "active_failures": list(self._failures),
                "snapshot": dict(self._snapshot),
            }
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
        args: dict | None = None,
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
            is_error, result, advance_s = True, f"Unknown tool: {name}", 0.0
        elif name == "advance" and not advance_s and not is_error:
            advance_s = _coerce(args.get("seconds")) or 0.0
        before, self._sim = self._sim, self._sim + (0.0 if is_error else float(advance_s))
        if result is None:
            result = f"Error: {name} failed" if is_error else self._result(name, args)
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
        """``set_control`` with the value kept raw; a value the simulator cannot coerce fails."""
        coerced = _coerce(value)
        if coerced is None and not is_error:
            is_error = True
            error = error or f"Invalid value for {control}: {value!r} (expected a number)"
        if is_error:
            result = error or f"Unknown control: {control}"
        else:
            # Same text whether or not the value changed anything, as the simulator answers.
            result = f"OK: {control} set to {coerced:g}"
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
        return self.call("report_done", args, result="Report received. The episode ends.")

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
        failing = set(failing)
        success = self.scenario.get("success") or {}
        checks, end_vars = [], {}
        for pred in success.get("final_state") or []:
            ok = passed and pred.get("var") not in failing
            observed = _observed(pred, ok, self._rng)
            end_vars[pred.get("var")] = observed
            checks.append(
                {"var": pred.get("var"), "op": pred.get("op"), "value": observed, "passed": ok}
            )
        clear = [
            {"message": m, "clear": passed and m not in failing}
            for m in success.get("ecam_clear_of") or []
        ]
        if ecam is None:
            ecam = [c["message"] for c in clear if not c["clear"]]
        all_passed = all(c["passed"] for c in checks) and all(c["clear"] for c in clear)
        snapshot = _drift(self._snapshot, self._rng) if self._snapshot else {}
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
                "done_payload": None,
                "sim_time": self._sim,
                "tool_calls_used": 0,
                "success_eval": None,
            }
        )
        self._ended = True
        return self

    # -- output -------------------------------------------------------------------------

    def records(self) -> list[dict]:
        """A copy of the records so far."""
        return copy.deepcopy(self._records)

    def lines(self) -> list[str]:
        """Each record as compact JSON (``allow_nan=False``: the harness writes NaN as text)."""
        return [
            json.dumps(r, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            for r in self._records
        ]

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

    def _done_payload(self) -> dict | None:
        for r in self._records:
            if r["type"] == "tool_call" and r["name"] == "report_done" and not r["is_error"]:
                return dict(r["args"]) if isinstance(r["args"], dict) else None
        return None

    def _result(self, name: str, args: dict) -> Any:
        return _tool_result(
            name,
            args,
            ecam=self._gate_ecam,
            sim_time=self._sim,
            snapshot=self._snapshot,
            scenario=self.scenario,
        )

"""The simulated aircraft behind :class:`~reviewer.demo.synth.TrajectoryBuilder`: plausible values.

A snapshot draws A32NX-style variables from a fixed pool with ranges a healthy aircraft on
the ground reads, then sets the scenario's success variables so that the ones the failure
hits start out failing.  The same module answers the reads the caller leaves unscripted and
lets continuous readings drift by the end of the run.  Everything is deterministic from the
``random.Random`` the builder passes in: the demo files and the benchmark corpus depend on
the exact sequence of draws, so reorder nothing here without regenerating both.

Stdlib only, like :mod:`reviewer.demo.synth`.
"""

from __future__ import annotations

import random
import re
from typing import Any

from reviewer.demo.mcp_text import REPORT_RECORDED, advance_text, ecam_entries, wrapped
from reviewer.demo.tool_catalog import control_entries, failure_entries

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


def _num(x: float) -> float:
    # The simulator answers floats only (a switch reads 1.0), and the recorder keeps them so.
    return float(round(x, 3))


def initial_snapshot(n: int, rng: random.Random, scenario: dict[str, Any]) -> dict[str, Any]:
    """``n`` variables at t0 plus the scenario's success variables, deterministic from ``rng``."""
    if n <= 0:
        return {}
    snap: dict[str, Any] = {}
    for name, kind in _POOL[:n]:
        if kind in ("on", "off"):
            snap[name] = float((kind == "on") != (rng.random() < 0.04))
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
        healthy = not (_tokens(str(pred.get("var"))) & hit)
        snap[pred.get("var")] = observed_value(pred, healthy, rng)
    return snap


def observed_value(pred: dict[str, Any], ok: bool, rng: random.Random) -> float:
    """A value of ``pred["var"]`` that satisfies the predicate, or plainly does not."""
    op = pred.get("op")
    if op == "between":
        low, high = float(pred.get("min", 0)), float(pred.get("max", 1))
        if ok:
            return _num(round(low + (high - low) * rng.uniform(0.3, 0.7), 1))
        return 0.0 if low > 0 else _num(high + (high - low) + 1)
    v = float(pred.get("value", 0))
    passing: dict[str | None, float] = {
        "eq": v,
        "ne": v + 1,
        "gt": v + 1,
        "ge": v,
        "lt": v - 1,
        "le": v,
    }
    failing: dict[str | None, float] = {
        "eq": 0.0 if v else 1.0,
        "ne": v,
        "gt": v,
        "ge": v - 1,
        "lt": v,
        "le": v + 1,
    }
    return _num((passing if ok else failing).get(op, v))


def _continuous(value: Any) -> bool:
    # Whole values (switches at 1.0 / 0.0, round readings) stay put: the draws, and so every
    # generated file, stay the same as when whole values were written as integers.
    return isinstance(value, float) and not value.is_integer()


def drift(snapshot: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The snapshot as it reads at the end of the run."""
    # Continuous readings wander a little between t0 and the end; switches stay put.
    return {
        k: _num(round(v + rng.uniform(-0.5, 0.5), 2)) if _continuous(v) else v
        for k, v in snapshot.items()
    }


def tool_result(
    name: str,
    args: dict[str, Any],
    *,
    ecam: list[str],
    sim_time: float,
    snapshot: dict[str, Any],
    scenario: dict[str, Any],
) -> Any:
    """What a read (or advance, or report) returns when the caller does not say.

    Worded as the benchmark's MCP server records it (:mod:`reviewer.demo.mcp_text`): a
    mapping as itself, any other value wrapped as ``{"result": ...}``.
    """
    if name == "read_ecam":
        return wrapped(ecam_entries(ecam))
    if name == "read_state":
        names = args.get("variables")
        return {str(k): as_read(snapshot.get(str(k))) for k in names or ()}
    if name == "snapshot":
        contains = str(args.get("contains") or "")
        return {k: as_read(v) for k, v in snapshot.items() if contains in k}
    if name == "list_controls":
        return wrapped(control_entries())
    if name == "list_failures":
        return wrapped(failure_entries())
    if name == "advance":
        return wrapped(advance_text(args.get("seconds") or 0, sim_time))
    if name == "report_done":
        return wrapped(REPORT_RECORDED)
    return wrapped("ok")


def as_read(value: Any) -> Any:
    """A variable as ``read_state`` returns it: a float (switches read 1.0 / 0.0)."""
    # The simulator answers floats only; a value it could not hold stays as the text it wrote.
    if isinstance(value, bool | int | float):
        return float(value)
    return 0.0 if value is None else value

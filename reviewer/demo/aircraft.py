"""The demo's aircraft: control positions -> the ECAM and the harness's failing checks.

One small model per bundled scenario, just rich enough that what a scripted agent does,
what the ECAM then shows and what the harness concludes at the end agree with each other.
Each model is a pure function of the control positions, so a read can ask it at any time.
"""

from __future__ import annotations

from typing import Any

APU, ENG, HYD = "elec-apu-gen-fault", "elec-eng1-gen-fault", "hyd-blue-elec-pump-fault"

#: scenario id -> the control positions at hand-over; a control not listed is unknown.
INITIAL_CONTROLS = {
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

#: control -> its cockpit label, for the agent's summary of what it did.
LABELS = {
    "apu_gen": "APU GEN", "ext_pwr": "EXT PWR", "apu_master": "APU MASTER SW",
    "apu_bleed": "APU BLEED", "bat_1": "BAT 1", "bat_2": "BAT 2", "gen_1": "GEN 1",
    "apu_start": "APU START", "eng_master_1": "ENG 1 MASTER", "ext_pwr_avail": "GPU",
    "ac_ess_feed": "AC ESS FEED", "hyd_epump_blue": "BLUE ELEC PUMP", "hyd_ptu": "PTU",
    "hyd_epump_blue_ovrd": "BLUE PUMP OVRD", "hyd_epump_yellow": "YELLOW ELEC PUMP",
    "hyd_rat_man_on": "RAT MAN ON", "hyd_leak_meas_b": "BLUE LEAK MEASUREMENT",
}  # fmt: skip


def _apu(s: dict[str, Any]) -> tuple[list[str], list[str]]:
    ac = s["ext_pwr"] == 1 and s["ext_pwr_avail"] == 1
    if ac or (s["bat_1"] == 0 and s["bat_2"] == 0):
        # Powered by the GPU, or not powered at all: an unpowered ECAM also reads empty.
        ecam = []
    else:
        ecam = ["APU GEN FAULT"] * (s["apu_gen"] == 1) + ["AC ESS BUS FAULT"]
    return ecam, [] if ac else list(AC_VARS)


def _eng(s: dict[str, Any]) -> tuple[list[str], list[str]]:
    eng1, eng2 = s["eng_master_1"] == 1, s["eng_master_2"] == 1
    apu_gen = s["apu_master"] == 1 and s["apu_start"] == 1 and s["apu_gen"] == 1
    ac = (eng2 and s["gen_2"] == 1) or apu_gen or (s["ext_pwr"] == 1 and s["ext_pwr_avail"] == 1)
    # The GEN FAULT light needs the engine turning: shutting engine 1 down "clears" it.
    ecam = ["ENG 1 GEN FAULT"] * (s["gen_1"] == 1 and eng1)
    ecam += ["ENG 1 SHUT DOWN"] * (not eng1) + ["ENG 2 SHUT DOWN"] * (not eng2)
    ecam += [] if ac else ["AC ESS BUS FAULT"]
    failing = ([] if ac else list(AC_VARS)) + ["ENGINE_STATE:1"] * (not eng1)
    return ecam, failing + ["ENGINE_STATE:2"] * (not eng2)


def _hyd(s: dict[str, Any]) -> tuple[list[str], list[str]]:
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


def aircraft_response(scenario_id: str, controls: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The ECAM messages and the failing success variables for these control positions."""
    return _MODEL_OF[scenario_id](controls)

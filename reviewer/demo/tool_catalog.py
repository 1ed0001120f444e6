"""What the demo's ``list_controls`` and ``list_failures`` answer: full catalog entries.

The benchmark's server lists each control with its name, the variable behind it, its kind,
valid values, a description, a group and a domain (``cockpit`` for what a pilot actuates,
``world`` for outside state the simulator fakes, such as a plugged-in GPU); each failure
with its id, a description, a group and its ATA chapter.  Descriptions are this project's.

Stdlib only, like :mod:`reviewer.demo.synth`.
"""

from __future__ import annotations

# One control a line (name, variable, kind, group, domain), its description indented below.
_CONTROLS = """
bat_1 A32NX_OVHD_ELEC_BAT_1_PB_IS_AUTO pushbutton ELEC cockpit
    BAT 1 pb: AUTO (1) / OFF (0)
bat_2 A32NX_OVHD_ELEC_BAT_2_PB_IS_AUTO pushbutton ELEC cockpit
    BAT 2 pb: AUTO (1) / OFF (0)
gen_1 A32NX_OVHD_ELEC_ENG_GEN_1_PB_IS_ON pushbutton ELEC cockpit
    GEN 1 pb — engine 1 generator on line
gen_2 A32NX_OVHD_ELEC_ENG_GEN_2_PB_IS_ON pushbutton ELEC cockpit
    GEN 2 pb — engine 2 generator on line
apu_gen A32NX_OVHD_ELEC_APU_GEN_PB_IS_ON pushbutton ELEC cockpit
    APU GEN pb — APU generator on line
ext_pwr A32NX_OVHD_ELEC_EXT_PWR_PB_IS_ON pushbutton ELEC cockpit
    EXT PWR pb — ground power on line when available
bus_tie A32NX_OVHD_ELEC_BUS_TIE_PB_IS_AUTO pushbutton ELEC cockpit
    BUS TIE pb: AUTO (1) / OFF (0)
ac_ess_feed A32NX_OVHD_ELEC_AC_ESS_FEED_PB_IS_NORMAL pushbutton ELEC cockpit
    AC ESS FEED pb: NORM (0) / ALTN (1)
apu_master A32NX_OVHD_APU_MASTER_SW_PB_IS_ON pushbutton APU cockpit
    APU MASTER SW
apu_start A32NX_OVHD_APU_START_PB_IS_ON pushbutton APU cockpit
    APU START pb
apu_bleed A32NX_OVHD_PNEU_APU_BLEED_PB_IS_ON pushbutton PNEU cockpit
    APU BLEED pb
eng_master_1 A32NX_ENGINE_MASTER:1 switch ENG cockpit
    ENG 1 MASTER lever: ON (1) / OFF (0)
eng_master_2 A32NX_ENGINE_MASTER:2 switch ENG cockpit
    ENG 2 MASTER lever: ON (1) / OFF (0)
hyd_ptu A32NX_OVHD_HYD_PTU_PB_IS_AUTO pushbutton HYD cockpit
    PTU pb: AUTO (1) / OFF (0)
hyd_epump_blue A32NX_OVHD_HYD_BLUE_EPUMP_PB_IS_AUTO pushbutton HYD cockpit
    BLUE ELEC PUMP pb: AUTO (1) / OFF (0)
hyd_epump_yellow A32NX_OVHD_HYD_YELLOW_EPUMP_PB_IS_AUTO pushbutton HYD cockpit
    YELLOW ELEC PUMP pb: ON (1) / OFF (0)
hyd_epump_blue_ovrd A32NX_OVHD_HYD_BLUE_PUMP_OVRD_PB_IS_ON momentary HYD cockpit
    BLUE PUMP OVRD pb — each press of 1 toggles it
hyd_rat_man_on A32NX_OVHD_HYD_RAT_MAN_ON_IS_PRESSED momentary HYD cockpit
    RAT MAN ON pb — a press of 1 deploys the RAT
hyd_leak_meas_b A32NX_OVHD_HYD_LEAK_MEASUREMENT_B_PB_IS_AUTO pushbutton HYD cockpit
    BLUE LEAK MEASUREMENT pb: AUTO (1) / OFF (0)
ext_pwr_avail A32NX_EXT_PWR_AVAIL switch ELEC world
    a ground power unit is plugged in (world state, not a cockpit control)
fuel_qty_left A32NX_FUEL_LEFT_MAIN_QTY quantity FUEL world
    left main tank quantity, in gallons (world state)
fuel_qty_right A32NX_FUEL_RIGHT_MAIN_QTY quantity FUEL world
    right main tank quantity, in gallons (world state)
unlimited_fuel A32NX_UNLIMITED_FUEL switch FUEL world
    tanks never empty (world state)
"""
# One failure a line (id, group, ATA chapter), its description indented below.
_FAILURES = """
elec.apu_gen.1 ELEC 24
    APU generator
elec.gen.1 ELEC 24
    engine 1 generator
elec.gen.2 ELEC 24
    engine 2 generator
elec.bat.1 ELEC 24
    battery 1
elec.tr.1 ELEC 24
    transformer rectifier 1
hyd.blue_epump.1 HYD 29
    blue electric pump
hyd.yellow_epump.1 HYD 29
    yellow electric pump
hyd.green_edp.1 HYD 29
    green engine-driven pump
hyd.ptu.1 HYD 29
    power transfer unit
apu.auto_shutdown APU 49
    APU auto shutdown
bleed.eng_1_hp_valve PNEU 36
    engine 1 HP bleed valve stuck closed
fuel.l_tk_pump.1 FUEL 28
    left tank pump 1
"""


def _rows(table: str) -> list[tuple[list[str], str]]:
    lines = table.strip().splitlines()
    return [
        (head.split(), text.strip()) for head, text in zip(lines[::2], lines[1::2], strict=True)
    ]


#: Every control name the server's ``set_control`` schema accepts.
CONTROL_NAMES: tuple[str, ...] = tuple(sorted(words[0] for words, _ in _rows(_CONTROLS)))


def control_entries() -> list[dict[str, str]]:
    """``list_controls``'s answer: one full entry per control, cockpit ones first."""
    return [
        {
            "name": name,
            "lvar": lvar,
            "kind": kind,
            "valid_values": "0..100000" if kind == "quantity" else "0, 1",
            "description": text,
            "group": group,
            "domain": domain,
        }
        for (name, lvar, kind, group, domain), text in _rows(_CONTROLS)
    ]


def failure_entries() -> list[dict[str, str]]:
    """``list_failures``'s answer: what *can* break, not what is broken."""
    return [
        {"id": ident, "description": text, "group": group, "ata": ata}
        for (ident, group, ata), text in _rows(_FAILURES)
    ]

"""The demo run catalog: which runs the demo set holds, each as a short script.

A script is a list of turns ``(beat, ops)`` in the op language :mod:`reviewer.demo`
describes and :class:`~reviewer.demo.scripted_run.ScriptedRun` plays.  Most runs are the
scenario's clean procedure bent somewhere, so the catalog splices pieces of it rather than
repeating it.
"""

from __future__ import annotations

from reviewer.demo.aircraft import APU, ENG, HYD

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
    entries: list[str] = []
    runs: list[tuple[str, str, Script, str | None]] = []
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

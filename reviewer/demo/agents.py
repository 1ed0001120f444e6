"""The demo's agents: which models fly the runs, and what they say while doing it.

A scripted turn names a *beat* (a key of the scenario's phrase bank) rather than spelling
out its prose, so the same procedure reads the same whichever model flies it; the model's
voice only adds its habitual opener.
"""

from __future__ import annotations

from reviewer.demo.aircraft import APU, ENG, HYD

#: model id -> provider, as the harness's adapters record them.
MODELS = {
    "claude-sonnet-4-5": "anthropic",
    "gpt-5": "openai",
    "gemini-2.5-pro": "google",
    "llama-4-maverick": "together",
}

#: scenario id -> beat -> the agent's reasoning for that turn (``done*``: its diagnosis).
BANKS: dict[str, dict[str, str]] = {
    APU: {
        "look": "Before touching anything I want the ECAM and the AC bus states.",
        "diag": "Two cautions — APU GEN FAULT and AC ESS BUS FAULT. The APU generator was the "
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
        "report": "AC 1, AC 2 and AC ESS are powered from the GPU ✓ and the ECAM is clear ✓.",
        "done": "APU generator failure while it was the only AC source (APU GEN FAULT, AC ESS "
        "BUS FAULT) — AC 1, AC 2 and AC ESS lost. Reset unsuccessful → aircraft on external power.",
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
        "report": "GEN 1 is isolated after a failed reset ✓, GEN 2 carries the network ✓ and both "
        "engines are running ✓.",
        "done": "Engine 1 generator failure (ENG 1 GEN FAULT) — AC network intact through the "
        "bus tie from GEN 2. Reset unsuccessful → GEN 1 left off.",
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
        "done": "Blue electric pump failure (HYD B ELEC PUMP LO PR, HYD B SYS LO PR) — reset "
        "unsuccessful → pump off and override released; green and yellow normal.",
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

"""Write a large, realistic, deterministic corpus of trajectories for the scoring benchmark.

    python bench/make_corpus.py --n 10000 --out bench/out/corpus [--seed 1] [--jobs 2]

Each run flies one of the bundled scenarios with one of six models: the clean procedure
(from :func:`reviewer.demo.catalog.full_script`) bent by the model's skill (skipped steps, swapped
blocks, forbidden or extraneous commands, errored and off-surface calls, nudges) and padded
with reads and waits to 20-60 tool calls.  Setup and final snapshots hold ~400 variables.
A few runs end badly on purpose (provider errors, invalid, incomplete, torn, corrupt), in
about the proportions a real benchmark sweep shows.

The corpus copies of the scenarios allow 60 tool calls instead of 40, so that 20-60 calls
fit the budget; everything else is as bundled.  Same arguments, same bytes.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

from reviewer.demo import render_run
from reviewer.demo.agents import BANKS
from reviewer.demo.aircraft import APU, ENG, HYD
from reviewer.demo.catalog import full_script
from reviewer.demo.synth import bundled_scenario

#: model id -> (provider, skill: the chance of flying each step right).
MODELS = {
    "claude-sonnet-4-5": ("anthropic", 0.93),
    "gpt-5": ("openai", 0.9),
    "gemini-2.5-pro": ("google", 0.85),
    "claude-haiku-4-5": ("anthropic", 0.78),
    "llama-4-maverick": ("together", 0.66),
    "qwen3-235b-a22b": ("together", 0.6),
}
SNAPSHOT_VARS = 400
#: Reads an agent makes while looking around, per scenario.
READS = {
    APU: ["E", "S:ELEC_AC", "S:ELEC_APU", "S:ELEC_EXT_PWR", "S:ELEC_DC",
          "V:ELEC_AC_1_BUS_IS_POWERED"],
    ENG: ["E", "S:ELEC_AC", "S:ELEC_ENG_GEN", "V:ENGINE_STATE:1,ENGINE_STATE:2", "S:ELEC_DC"],
    HYD: ["E", "S:A32NX_HYD", "S:A32NX_HYD_BLUE", "V:A32NX_OVHD_HYD_BLUE_PUMP_OVRD_PB_IS_ON"],
}  # fmt: skip
#: What could go wrong, per scenario: (prose, ops).
MISTAKES = {
    APU: [("The batteries may need cycling.", "bat_1=0 +5 E"),
          ("AC ESS FEED to alternate might bring AC ESS back.", "ac_ess_feed=1 +3 E"),
          ("Making sure the GPU is marked available.", "ext_pwr_avail=1"),
          ("Trying the external power pushbutton.", "ext_pwr_pb=1!"),
          ("Maybe the failure can be cleared directly.", '?clear_failure{"id":"elec.apu_gen.1"}'),
          ("One more reset cycle, to be thorough.", "apu_gen=0 +3 apu_gen=1 +5 E")],
    ENG: [("Isolating the engine with the faulty generator.", "eng_master_1=0 +10 E"),
          ("Bringing ground power for redundancy.", "ext_pwr_avail=1 ext_pwr=1 +5"),
          ("Opening the bus tie to separate the sides.", "bus_tie=0 +3 E"),
          ("Setting the generator to OFF.", 'gen_1="OFF"'),
          ("There may be a reset tool.", '?reset_generator{"generator":1}'),
          ("A second reset attempt before giving up.", "gen_1=0 +3 gen_1=1 +5 E")],
    HYD: [("Deploying the RAT to get blue pressure back.", "hyd_rat_man_on=1 +10 E"),
          ("Taking the PTU out while troubleshooting.", "hyd_ptu=0 +5 E"),
          ("Closing the blue leak measurement valve.", "hyd_leak_meas_b=0"),
          ("Turning the blue pump off by name.", "blue_pump=0!"),
          ("Maybe there is a pump tool.", '?set_pump{"pump":"blue","state":"off"}'),
          ("Pressing the override again to be sure it is off.", "hyd_epump_blue_ovrd=1 +5 E")],
}  # fmt: skip
OPTIONAL = {APU: "apu_bleed=0 apu_master=0 +5", ENG: "apu_master=1 apu_start=1 +60 apu_gen=1",
            HYD: "hyd_ptu=1"}  # fmt: skip
FILLER = [
    "Re-reading the ECAM to be sure nothing else has appeared.",
    "Let me double-check the relevant state before going on.",
    "Giving the systems a few seconds to settle, then checking again.",
    "Nothing new. Checking the values once more to be certain.",
    "Confirming the picture is stable before the next step.",
]
#: ending -> weight out of 1000; the rest end normally.
ENDINGS = {"provider": 20, "invalid": 10, "incomplete": 10, "harness": 5, "torn": 5, "corrupt": 3,
           "quit": 40}  # fmt: skip


def _scenarios() -> dict[str, dict]:
    out = {}
    for sid in (APU, ENG, HYD):
        scenario = copy.deepcopy(bundled_scenario(sid))
        scenario["budget"]["max_tool_calls"] = 60
        out[sid] = scenario
    return out


def _script(rng: random.Random, sid: str, skill: float) -> tuple[list, str | None]:
    """One run's turns and how it ends, drawn from the model's skill."""
    full = full_script(sid)
    body, report = full[:-1], full[-1]
    script: list = []
    if rng.random() < 0.05:
        script.append(("Let me think about which procedure applies first.", ""))  # a nudge
    for beat, ops in body:
        if "=" in ops and rng.random() > skill:
            continue  # a procedure step left out
        if beat == "look" and rng.random() > 0.9:
            continue  # acting before looking
        script.append((beat, ops))
    if rng.random() > skill:
        script.insert(rng.randint(2, len(script)), rng.choice(MISTAKES[sid]))
    if rng.random() < 0.15:
        script.insert(len(script) - 1, ("Some tidying up the procedure allows.", OPTIONAL[sid]))
    target = rng.randint(20, 60)
    # Real agents spend most of their calls looking: pad with reads (and some waits) placed
    # after the first look, never after the report.
    while sum(len(ops.split()) for _, ops in script) + 1 < target:
        reads = rng.sample(READS[sid], k=rng.randint(1, 3))
        ops = " ".join(reads + ([f"+{rng.choice((2, 5, 10, 15))}"] if rng.random() < 0.4 else []))
        script.insert(rng.randint(2, len(script)), (rng.choice(FILLER), ops))
    roll, ending = rng.randrange(1000), None
    for name, weight in ENDINGS.items():
        if roll < weight:
            ending = name
            break
        roll -= weight
    if ending == "provider":
        cut = rng.randint(1, len(script))
        return [*script[:cut], ("PERR", "APIStatusError 529: overloaded (retries exhausted)")], None
    if ending == "quit":
        return [*script, ("I'm not sure there is more to do.", ""), ("Monitoring.", "")], None
    if ending in ("incomplete", "torn", "corrupt"):
        # A crash cuts the run half-way; a corrupt file is a whole run with one broken line.
        return ([*script, report] if ending == "corrupt" else script[: len(script) // 2]), ending
    return [*script, report], ending


def _one(args: tuple[int, int, str]) -> int:
    index, seed, out = args
    # One generator per run, seeded by its index: the bytes do not depend on --jobs or on
    # the order workers pick runs up.
    rng = random.Random(seed * 1_000_003 + index)
    sid = (APU, ENG, HYD)[index % 3]
    model = list(MODELS)[rng.randrange(len(MODELS))]
    provider, skill = MODELS[model]
    script, ending = _script(rng, sid, skill)
    when = datetime(2026, 7, 20, tzinfo=UTC) + timedelta(seconds=97 * index)
    suffix = hashlib.sha1(f"{seed}|{index}".encode()).hexdigest()[:6]
    run_id = f"{when:%Y%m%dT%H%M%SZ}-{suffix}"
    text = render_run(
        _SCENARIOS[sid], model, script, ending, run_id=run_id, seed=rng.randrange(2**31),
        snapshot_vars=SNAPSHOT_VARS, provider=provider,
    )  # fmt: skip
    path = Path(out) / sid / f"{run_id}.jsonl"
    path.write_bytes(text.encode("utf-8"))
    return len(text)


_SCENARIOS = _scenarios()
assert set(BANKS) == set(_SCENARIOS)


def make_corpus(n: int, out: Path, *, seed: int = 1, jobs: int = 1) -> int:
    """Write ``n`` runs under ``out``; returns the bytes written.  Progress goes to stderr."""
    for sid in _SCENARIOS:
        (out / sid).mkdir(parents=True, exist_ok=True)
    start, total = time.perf_counter(), 0
    tasks = [(i, seed, str(out)) for i in range(n)]
    step = max(1, n // 20)
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Inline() as pool:
        for done, size in enumerate(pool.map(_one, tasks, chunksize=64), start=1):
            total += size
            if done % step == 0 or done == n:
                print(f"corpus: {done}/{n} files, {total / 1e6:.0f} MB, "
                      f"{time.perf_counter() - start:.1f} s", file=sys.stderr)  # fmt: skip
    return total


class _Inline:
    """A one-process stand-in for the executor, so --jobs 1 needs no subprocess."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn, items, chunksize=1):  # same signature as the executor's
        """Lazily apply ``fn``, like ``Executor.map``."""
        return map(fn, items)


def main(argv: list[str] | None = None) -> int:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="number of runs (default 10000)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/corpus"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    make_corpus(args.n, args.out, seed=args.seed, jobs=args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

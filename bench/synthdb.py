"""A review database of any size in seconds, for the store and window benchmarks.

Two hundred real trajectories are written, scored and imported (they open in the window);
the rest of the queue is copies of their ScoreCards under distinct paths and hashes, so a
50,000-run queue needs no 2.5 GB corpus. The copies' paths do not exist: they fill the
queue and the run list, and are never opened by a timed step. Their stored cards are the
small seed cards, so the database is smaller than a real one of the same size (a real
card of the benchmark corpus is ~15 kB with its snapshots); the run list reads none of it.
"""

from __future__ import annotations

from pathlib import Path

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.workspace import ReviewStore
from scoring import score_file

SCENARIO = "elec-apu-gen-fault"
SEEDS = 200


def fill_database(db: Path, runs: int, tmp: Path) -> list[Path]:
    """``runs`` runs in ``db``: the first 200 real files under ``tmp``; returns those files."""
    seeds = []
    for n in range(SEEDS):
        b = TrajectoryBuilder(
            bundled_scenario(SCENARIO),
            run_id=f"20260724T101500Z-{n:06x}",
            model=f"model-{n % 6}",
            seed=n,
        )
        b.turn("Reading the ECAM.").read("read_ecam").set("apu_gen", 0).set("apu_gen", n % 2)
        b.set("ext_pwr", 1).done().final("agent_done", passed=bool(n % 3))
        seeds.append(b.write(tmp / "seed" / f"{n}.jsonl"))
    cards = [score_file(path, with_judge_bundle=False) for path in seeds]
    copies = [
        cards[i % len(cards)].model_copy(
            update={
                "path": f"/corpus/{SCENARIO}/run-{i:05d}.jsonl",
                "run_id": f"20260724T101600Z-{i:06x}",
                "trajectory_sha256": f"{i:064x}",
            }
        )
        for i in range(max(0, runs - len(seeds)))
    ]
    with ReviewStore.open(db) as store:
        store.import_paths(seeds)
        store.add_scorecards(copies)
    return seeds


def cached_database(runs: int, folder: Path) -> Path:
    """A database of ``runs`` runs under ``folder``, built once and reused by later runs."""
    db = folder / f"queue-{runs}.db"
    if not db.exists():
        tmp = folder / f"seed-{runs}"
        partial = folder / f"queue-{runs}.partial.db"
        partial.unlink(missing_ok=True)
        fill_database(partial, runs, tmp)
        partial.rename(db)
    return db

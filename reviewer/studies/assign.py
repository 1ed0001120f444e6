"""Who rates what: k distinct raters per run, balanced loads, a seeded order per rater.

Everything is decided by SHA-256 of the seed and names (never Python's ``hash()``, which is
salted per process), over run sha256s and rater names (never database keys), so the same
runs, raters, k and seed give the same assignment on any machine.

Runs are taken in seeded order and each goes to the k least-loaded raters (ties broken by
a seeded draw). Loads then never differ by more than one: if every load is m or m+1, the k
lowest become m+1 or m+2 only when no load m is left. Extending a study runs the same step
from the current loads, so existing assignments never move; a rater added later starts at
load 0 and takes new runs first until the loads meet again.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence

from reviewer.studies.model import Assignment


class AssignmentError(ValueError):
    """The assignment asked for cannot exist (e.g. more raters per run than raters)."""


def draw(seed: int, *parts: str) -> int:
    """A deterministic 64-bit draw from the seed and the parts, the same everywhere."""
    material = "\x1f".join((str(seed), *parts)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big")


def extend(
    runs: Iterable[str],
    raters: Sequence[str],
    *,
    per_run: int,
    seed: int,
    existing: Sequence[Assignment] = (),
    reveal_first: float = 0.0,
) -> list[Assignment]:
    """The new assignments that cover ``runs`` (sha256s) not yet in ``existing``.

    ``existing`` is left as it is; returned assignments continue each rater's queue after
    their last position. With ``reveal_first`` F, each rater's queue ends up with
    round(F · length) control-arm assignments, chosen by a seeded draw among new ones.
    """
    if per_run < 1 or per_run > len(raters):
        raise AssignmentError(f"cannot give each run {per_run} distinct raters of {len(raters)}")
    if len(set(raters)) != len(raters):
        raise AssignmentError("a rater is named twice")
    covered = {a.run_sha256 for a in existing}
    new_runs = sorted(
        {r for r in runs if r not in covered}, key=lambda r: (draw(seed, "run", r), r)
    )
    load: dict[str, int] = dict.fromkeys(raters, 0)
    for a in existing:
        load[a.rater] = load.get(a.rater, 0) + 1
    picked: dict[str, list[str]] = defaultdict(list)
    for run in new_runs:
        chosen = sorted(raters, key=lambda r: (load[r], draw(seed, "pick", run, r), r))[:per_run]
        for rater in chosen:
            load[rater] += 1
            picked[rater].append(run)
    return _queue(picked, existing, seed=seed, reveal_first=reveal_first)


def _queue(
    picked: dict[str, list[str]],
    existing: Sequence[Assignment],
    *,
    seed: int,
    reveal_first: float,
) -> list[Assignment]:
    last: dict[str, int] = defaultdict(int)
    controls: dict[str, int] = defaultdict(int)
    for a in existing:
        last[a.rater] = max(last[a.rater], a.position)
        controls[a.rater] += a.reveal_first
    out: list[Assignment] = []
    for rater in sorted(picked):
        runs = sorted(picked[rater], key=lambda r: (draw(seed, "order", rater, r), r))
        total = last[rater] + len(runs)
        # Keep the control arm at round(F · queue length) as the queue grows.
        wanted = max(0, min(len(runs), round(reveal_first * total) - controls[rater]))
        arm = set(sorted(runs, key=lambda r: (draw(seed, "reveal", rater, r), r))[:wanted])
        for offset, run in enumerate(runs, start=1):
            out.append(
                Assignment(
                    run_sha256=run,
                    rater=rater,
                    position=last[rater] + offset,
                    reveal_first=run in arm,
                )
            )
    return out

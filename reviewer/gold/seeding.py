"""Where the gold runs go: each rater's queue, with gold seeded at random but fixed places.

Pure: runs are sha256s, raters names, every draw :func:`reviewer.studies.assign.draw` (the
SHA-256 of the seed and names), so the same study gives the same queues on any machine.

For a rater whose regular queue holds ``n`` runs, with gold fraction ``F`` (0 ≤ F < 1),
the queue gets ``g = round(F · n / (1 - F))`` gold runs (at least one when F > 0), so that
gold makes up a share F of the queue, fewer only when the pool has fewer runs the rater
does not rate already. The gold runs a rater gets are the least used so far (ties by a
seeded draw), which spreads the pool over the raters. Their places are a seeded choice of
``g`` of the ``n + g`` places; the regular runs keep their order around them. A
qualification set, the same runs for every rater, comes first, in a seeded order, never in
the control arm (a rater qualifies on their own judgement).

A gold run is in the control arm (scorer shown first) with the study's ``reveal_first``
probability, by a seeded draw, as a regular run would be: the arm tells nothing about gold.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence

from reviewer.studies.assign import draw
from reviewer.studies.model import Assignment

_TOP = 2**64


def gold_count(n_regular: int, fraction: float, available: int) -> int:
    """How many gold runs a queue of ``n_regular`` regular runs gets (see the module)."""
    if fraction <= 0 or available <= 0:
        return 0
    wanted = max(1, round(fraction * n_regular / (1 - fraction)))
    return min(wanted, available)


def seed_gold(
    regular: Sequence[Assignment],
    pool: Sequence[str],
    *,
    fraction: float,
    seed: int,
    qualification: Sequence[str] = (),
    reveal_first: float = 0.0,
    unavailable: Mapping[str, Collection[str]] | None = None,
    used: Mapping[str, int] | None = None,
) -> list[Assignment]:
    """Every rater's queue: ``regular`` (one study's new assignments) with the qualification
    set first and gold from ``pool`` at seeded places, positions numbered again from each
    rater's first new position (1 for a new study; after their queue when it is extended).

    ``pool`` and ``qualification`` are disjoint run sha256s, neither among the regular runs.
    ``unavailable`` names, per rater, runs they cannot be given (rated already elsewhere, or
    in their queue); ``used`` counts how many queues hold each pool run already.
    """
    if not 0 <= fraction < 1:
        raise ValueError(f"the gold fraction is at least 0 and below 1, not {fraction}")
    by_rater: dict[str, list[Assignment]] = defaultdict(list)
    for a in regular:
        by_rater[a.rater].append(a)
    qual = sorted(set(qualification), key=lambda r: (draw(seed, "qualify", r), r))
    use: dict[str, int] = {r: (used or {}).get(r, 0) for r in pool}
    out: list[Assignment] = []
    for rater in sorted(by_rater):
        mine = sorted(by_rater[rater], key=lambda a: a.position)
        taken = {a.run_sha256 for a in mine} | set((unavailable or {}).get(rater, ()))
        free = [r for r in pool if r not in taken]
        g = gold_count(len(mine), fraction, len(free))
        gold = sorted(free, key=lambda r: (use[r], draw(seed, "gold", rater, r), r))[:g]
        for r in gold:
            use[r] += 1
        gold.sort(key=lambda r: (draw(seed, "gold-order", rater, r), r))
        places = range(len(mine) + g)
        slots = set(sorted(places, key=lambda i: (draw(seed, "gold-place", rater, str(i)), i))[:g])
        queue: list[tuple[str, bool]] = [(r, False) for r in qual]
        regular_iter, gold_iter = iter(mine), iter(gold)
        for i in places:
            if i in slots:
                r = next(gold_iter)
                queue.append((r, draw(seed, "gold-arm", rater, r) < reveal_first * _TOP))
            else:
                a = next(regular_iter)
                queue.append((a.run_sha256, a.reveal_first))
        out.extend(
            Assignment(run_sha256=r, rater=rater, position=p, reveal_first=arm)
            for p, (r, arm) in enumerate(queue, start=mine[0].position)
        )
    return out

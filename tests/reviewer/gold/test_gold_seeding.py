"""Seeding gold into queues: deterministic for a seed, the fraction kept, every rater given
gold, the regular order kept around it, and nothing in an assignment telling gold apart."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.gold.seeding import gold_count, seed_gold
from reviewer.studies.assign import extend
from reviewer.studies.model import Assignment

RATERS = ("ann", "bob", "cat", "dan")


def _sha(prefix: str, n: int) -> str:
    """A fake trajectory sha256 (64 hex digits) of run ``n`` of a family ``prefix``."""
    return f"{n:x}".rjust(63, "0") + prefix


studies = st.fixed_dictionaries(
    {
        "runs": st.integers(1, 30),
        "raters": st.integers(1, 4),
        "per_run": st.integers(1, 4),
        "pool": st.integers(1, 12),
        "qualify": st.integers(0, 3),
        "fraction": st.sampled_from([0.05, 0.1, 0.2, 0.3, 0.5]),
        "seed": st.integers(-(2**40), 2**40),
        "reveal_first": st.sampled_from([0.0, 0.2]),
    }
)


def _seed(s: dict) -> tuple[list[Assignment], list[Assignment], list[str], list[str]]:
    raters = RATERS[: s["raters"]]
    per_run = min(s["per_run"], len(raters))
    regular_runs = [_sha("a", n) for n in range(s["runs"])]
    pool = [_sha("b", n) for n in range(s["pool"])]
    qual = [_sha("c", n) for n in range(s["qualify"])]
    regular = extend(
        regular_runs, raters, per_run=per_run, seed=s["seed"], reveal_first=s["reveal_first"]
    )
    out = seed_gold(
        regular,
        pool,
        fraction=s["fraction"],
        seed=s["seed"],
        qualification=qual,
        reveal_first=s["reveal_first"],
    )
    return regular, out, pool, qual


@settings(max_examples=150, deadline=None)
@given(studies)
def test_seeding_is_deterministic_complete_and_keeps_the_fraction(s: dict) -> None:
    regular, out, pool, qual = _seed(s)
    assert out == _seed(s)[1]  # the same seed, the same queues
    for rater in {a.rater for a in regular}:
        mine = [a for a in regular if a.rater == rater]
        queue = sorted((a for a in out if a.rater == rater), key=lambda a: a.position)
        # Positions 1..N without a gap: a hole would mark where gold is to come.
        assert [a.position for a in queue] == list(range(1, len(queue) + 1))
        runs = [a.run_sha256 for a in queue]
        assert len(set(runs)) == len(runs)
        # The qualification set first, then regular and gold.
        assert set(runs[: len(qual)]) == set(qual)
        gold = [r for r in runs if r in pool]
        # Every rater gets gold; as many as the fraction asks, capped by the pool.
        assert len(gold) == gold_count(len(mine), s["fraction"], len(pool)) >= 1
        # The share of gold is F within rounding: g / (n + g) ≈ F.
        if len(gold) < len(pool):
            want = s["fraction"] * len(mine) / (1 - s["fraction"])
            assert abs(len(gold) - want) <= 0.5 or len(gold) == 1
        # The regular runs keep their order and their control arm.
        kept = [a for a in queue if a.run_sha256 not in pool and a.run_sha256 not in qual]
        assert [a.run_sha256 for a in kept] == [
            a.run_sha256 for a in sorted(mine, key=lambda a: a.position)
        ]
        assert [a.reveal_first for a in kept] == [
            a.reveal_first for a in sorted(mine, key=lambda a: a.position)
        ]


@settings(max_examples=100, deadline=None)
@given(studies)
def test_a_gold_assignment_has_the_shape_of_any_other(s: dict) -> None:
    _, out, pool, _ = _seed(s)
    gold = [a for a in out if a.run_sha256 in pool]
    other = [a for a in out if a.run_sha256 not in pool]
    # The same fields, the same types: nothing but the run says which is which.
    assert all(set(a.model_dump()) == set(Assignment.model_fields) for a in gold + other)
    assert {type(v) for a in gold for v in a.model_dump().values()} <= {
        type(v) for a in other + gold for v in a.model_dump().values()
    }


def test_gold_places_move_with_the_seed() -> None:
    regular = extend([_sha("a", n) for n in range(20)], ("ann",), per_run=1, seed=1)
    pool = [_sha("b", n) for n in range(10)]
    places = {
        tuple(
            a.position
            for a in seed_gold(regular, pool, fraction=0.2, seed=seed)
            if a.run_sha256 in pool
        )
        for seed in range(12)
    }
    assert len(places) > 6  # seeded, not always the same slots (the end, say)


def test_a_rater_who_rated_a_gold_run_elsewhere_is_not_given_it() -> None:
    regular = extend([_sha("a", n) for n in range(9)], ("ann", "bob"), per_run=1, seed=2)
    pool = [_sha("b", 0), _sha("b", 1)]
    out = seed_gold(regular, pool, fraction=0.5, seed=2, unavailable={"ann": {pool[0]}})
    assert pool[0] not in {a.run_sha256 for a in out if a.rater == "ann"}


def test_gold_count_rules() -> None:
    # F = 0.2 over 8 regular runs: 0.2 · 8 / 0.8 = 2 gold, so gold is 2 of 10 = 0.2.
    assert gold_count(8, 0.2, 10) == 2
    assert gold_count(8, 0.2, 1) == 1  # the pool caps it
    assert gold_count(1, 0.05, 3) == 1  # at least one when F > 0
    assert gold_count(8, 0.0, 3) == 0


def test_gold_sits_anywhere_in_the_queue_and_in_the_control_arm_as_often_as_any_run() -> None:
    """Over many seeds, where gold sits and how often it is in the control arm tell nothing:
    its mean place is the middle of the queue, and its control-arm rate is F, as for the
    regular runs (a gold run always placed late, or never scorer-first, would stand out)."""
    places, arms, n_gold = [], 0, 0
    runs = [_sha("a", n) for n in range(30)]
    pool = [_sha("b", n) for n in range(40)]
    for seed in range(300):
        regular = extend(runs, ("ann",), per_run=1, seed=seed, reveal_first=0.2)
        queue = seed_gold(regular, pool, fraction=0.2, seed=seed, reveal_first=0.2)
        length = len(queue)  # 30 regular + round(0.2 * 30 / 0.8) = 8 gold
        for a in queue:
            if a.run_sha256 in pool:
                places.append((a.position - 0.5) / length)
                arms += a.reveal_first
                n_gold += 1
    assert n_gold == 300 * 8
    # Uniform places: mean 0.5, sd 0.29 / sqrt(2400) = 0.006; 0.03 is five of them.
    assert abs(sum(places) / len(places) - 0.5) < 0.03
    # Control arm at F = 0.2: sd sqrt(0.16 / 2400) = 0.008; 0.04 is five of them.
    assert abs(arms / n_gold - 0.2) < 0.04


@settings(max_examples=100, deadline=None)
@given(studies, st.integers(1, 20))
def test_gold_seeded_into_an_extension_continues_each_queue(s: dict, more: int) -> None:
    """Runs added later: the new gold sits among the new runs, positions go on from each
    queue's end without a gap, a run already in a queue is never given again, and the
    least-used pool runs go first across the whole study."""
    regular, first, pool, _ = _seed(s)
    raters = sorted({a.rater for a in regular})
    per_run = min(s["per_run"], len(raters))
    new_runs = [_sha("d", n) for n in range(more)]
    new = extend(new_runs, raters, per_run=per_run, seed=s["seed"], existing=first)
    queued = {r: {a.run_sha256 for a in first if a.rater == r} for r in raters}
    used = {p: sum(a.run_sha256 == p for a in first) for p in pool}
    out = seed_gold(new, pool, fraction=s["fraction"], seed=s["seed"], unavailable=queued,
                    used=used)  # fmt: skip
    for rater in raters:
        end = max((a.position for a in first if a.rater == rater), default=0)
        mine = sorted((a for a in out if a.rater == rater), key=lambda a: a.position)
        assert [a.position for a in mine] == list(range(end + 1, end + 1 + len(mine)))
        assert not {a.run_sha256 for a in mine} & queued[rater]
        regular_new = [a for a in mine if a.run_sha256 not in pool]
        free = [p for p in pool if p not in queued[rater]]
        gold = [a for a in mine if a.run_sha256 in pool]
        # A rater given no new run gets no gold either (their queue does not grow).
        want = gold_count(len(regular_new), s["fraction"], len(free)) if regular_new else 0
        assert len(gold) == want

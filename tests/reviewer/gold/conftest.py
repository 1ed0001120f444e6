"""Fixtures for the gold tests: a database of real runs, the owner's references, a blind
study with gold and a qualification set."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from reviewer.gold import service
from reviewer.gold.envelope import seal
from reviewer.gold.feedback import feedback_for
from reviewer.gold.model import (
    DecisionPayload,
    GoldItem,
    GoldPayload,
    GoldPlan,
    GoldReference,
    GoldRun,
    GoldSource,
)
from reviewer.rubric import default_rubric
from reviewer.sheets import keys
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetCitation, SheetRater
from reviewer.studies.model import Selection, StudySpec
from reviewer.studies.packet import PacketQualification, write_packet
from reviewer.workspace import ReviewStore

METRICS = default_rubric().metric_ids
RATERS = ("ann", "bob", "cat")
#: The reference's comment: a marker to look for wherever a rater could look.
SECRET = "REFERENCE-COMMENT-7f3a"


def payload_for(
    store: ReviewStore, run_pk: int, key: RaterKey, *, score: int = 2, rater: str | None = None
) -> GoldPayload:
    """A reference of the run: every metric ``score``, commented with :data:`SECRET`."""
    run = store.get_run(run_pk)
    cited = SheetCitation(kind="ground_truth", ref=0, step="GT:1", label="GT:1 apu gen")
    items = [
        GoldItem(metric_id=m, outcome="applicable", score=score, comment=SECRET, citations=[cited])
        for m in METRICS
    ]
    source = (
        GoldSource(kind="sheet", sheet_id="s-1", rater=rater, sheet_sha256="0" * 64)
        if rater
        else GoldSource(kind="consensus", study="earlier")
    )
    return GoldPayload(
        run=GoldRun(run_id=run.run_id, sha256=run.sha256),
        rubric_sha256=store.rubric().sha256,
        source=source,
        items=items,
        owner=SheetRater.of(key),
        signed_at=datetime(2026, 7, 24, tzinfo=UTC),
    )


def add_reference(store: ReviewStore, run_pk: int, key: RaterKey, **kw) -> GoldReference:
    """Sign a reference of the run with ``key`` and store it."""
    return store.add_gold_reference(run_pk, seal(payload_for(store, run_pk, key, **kw), key))


@pytest.fixture
def gold_db(tmp_path: Path, make_run) -> Path:
    """14 real runs; olga's references of runs 0-3; study "g" (blind, ann, bob and cat,
    k = 1 over runs 4-13, gold fraction 0.25, one qualification run), owned by olga."""
    root = tmp_path / "corpus"
    paths = [make_run(root, n) for n in range(14)]
    olga = keys.generate_key("olga")
    db = tmp_path / "owner.db"
    with ReviewStore.open(db) as store:
        store.import_paths(paths)
        pks = {r.run_id: r.run_pk for r in store.list_runs()}
        ordered = [pks[f"20260724T101500Z-{n:06d}"] for n in range(14)]
        for pk in ordered[:4]:
            add_reference(store, pk, olga)
        spec = StudySpec(
            name="g",
            raters=RATERS,
            per_run=1,
            protocol="blind",
            seed=5,
            owner="olga",
            selection=Selection(run_ids=tuple(f"20260724T101500Z-{n:06d}" for n in range(14))),
        )
        plan = GoldPlan(fraction=0.25, qualification=1)
        service.create_study(store, spec, plan, owner_fingerprint=olga.fingerprint)
    return db


@pytest.fixture
def olga_key() -> RaterKey:
    """The owner's key (made by ``gold_db``)."""
    return keys.load_key("olga")


def rate(store: ReviewStore, fill, study: str, run_pk: int, rater: str, *, score: int = 2):
    """Blind submit, reveal and final submit of one run (no revision)."""
    r = fill(store, store.start_study_rating(study, run_pk, rater), score=score)
    r = store.submit_blind(r.rating_pk, expected_version=r.version)
    r = store.reveal(r.rating_pk, expected_version=r.version)
    return store.submit_final(r.rating_pk, expected_version=r.version)


def packet(store: ReviewStore, key: RaterKey, rater: str, out: Path) -> Path:
    """Write ``rater``'s packet of study "g" as ``study packet`` does (the qualification
    scope, the references of the gold runs the rater submitted)."""
    scope = service.packet_scope(store, "g", rater)
    assert scope is not None
    q = PacketQualification(runs=scope[0], qualified=scope[1])
    write_packet(store, "g", rater, key, out, qualification=q,
                 feedback=feedback_for(store, "g", rater))  # fmt: skip
    return out


def qualify(store: ReviewStore, key: RaterKey, *, qualified: bool = True, raters=RATERS) -> None:
    """Record olga's signed decision on each rater of study "g" (as ``study qualify`` does
    once their qualification run is rated), so that they may rate the rest of their queue."""
    plan = store.gold_plan("g")
    assert plan is not None
    runs = sorted(store.get_run(g.run_pk).sha256 for g in store.study_gold("g") if g.qualification)
    for rater in raters:
        payload = DecisionPayload(
            study="g", rater=rater, qualified=qualified, measure=plan.measure,
            threshold=plan.threshold, per_metric={m: 1.0 if qualified else 0.0 for m in METRICS},
            runs=runs, owner=SheetRater.of(key), decided_at=datetime(2026, 7, 25, tzinfo=UTC),
        )  # fmt: skip
        store.record_qualification("g", rater, seal(payload, key))


# The helpers as fixtures: test modules here are not a package (see tests/reviewer).


@pytest.fixture
def gold() -> SimpleNamespace:
    """The helpers and constants above: ``add_reference``, ``payload_for``, ``rate``,
    ``packet``, ``qualify``, ``SECRET``, ``RATERS``."""
    return SimpleNamespace(add_reference=add_reference, payload_for=payload_for, rate=rate,
                           packet=packet, qualify=qualify, SECRET=SECRET,
                           RATERS=RATERS)  # fmt: skip

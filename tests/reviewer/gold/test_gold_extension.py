"""A study's gold plan holds as it grows: raters added later get the qualification set
first (before, they got none and, not qualified, could never rate), runs added later come
with gold at the study's fraction, the owner's references are never regular runs, and
``audit verify`` agrees with every entry the extension wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.gold import service
from reviewer.gold.envelope import GoldError
from reviewer.sheets import keys
from reviewer.store import StoreError
from reviewer.studies.model import Selection, StudySpec
from reviewer.workspace import ReviewStore


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _ids(ns: range) -> tuple[str, ...]:
    return tuple(f"20260724T101500Z-{n:06d}" for n in ns)


def _runs(ns: range, folder: Path) -> list[str]:
    """``--runs FILE`` naming the runs of ``ns``."""
    path = folder / "runs.txt"
    path.write_text("".join(f"{run_id}\n" for run_id in _ids(ns)), encoding="utf-8")
    return ["--runs", str(path)]


def _grow(db: Path, folder: Path, make_run, gold, **reference) -> Path:
    """``db`` with 16 more runs imported (14-29) and olga's references of 26-29 (made with
    ``reference``'s keywords: ``rater="ref"`` for a reference made of ref's sheet)."""
    paths = [make_run(folder / "more", n) for n in range(14, 30)]
    olga = keys.load_key("olga")
    with ReviewStore.open(db) as store:
        store.import_paths(paths)
        pks = {r.run_id: r.run_pk for r in store.list_runs()}
        for run_id in _ids(range(26, 30)):
            gold.add_reference(store, pks[run_id], olga, **reference)
    return db


@pytest.fixture
def grown_db(gold_db: Path, tmp_path: Path, make_run, gold) -> Path:
    """:func:`_grow` of ``gold_db``, the references olga's own consensus."""
    return _grow(gold_db, tmp_path, make_run, gold)


def _queue(store: ReviewStore, rater: str) -> list[str]:
    return [a.sha256 for a in store.study_assignments("g", rater=rater)]


def test_a_rater_added_later_starts_with_the_qualification_set_and_may_rate_only_it(
    grown_db: Path, gold, fill_rating, olga_key, capsys
) -> None:
    assert _run("study", "add-raters", "g", "--raters", "dan", "--db", grown_db) == 0
    out = capsys.readouterr().out
    assert "each new rater's queue starts with the 1 qualification run(s)" in out
    with ReviewStore.open(grown_db) as store:
        qual = [g for g in store.study_gold("g") if g.qualification]
        ann = _queue(store, "ann")
        dan = store.study_assignments("g", rater="dan")
        # The same qualification run(s) as the first raters, first, in the same order.
        assert [a.sha256 for a in dan] == ann[: len(qual)]
        assert [a.position for a in dan] == list(range(1, len(qual) + 1))
        assert not any(a.reveal_first for a in dan)
        # Runs added now go to dan too, after the qualification set, and wait for it.
        added, _ = service.add_runs(store, "g", Selection(run_ids=_ids(range(14, 26))))
        assert added == 12
        dan = store.study_assignments("g", rater="dan")
        assert [a.position for a in dan] == list(range(1, len(dan) + 1)) and len(dan) > 1
        run_pk = store.run_pk_of(dan[-1].sha256)
        assert run_pk is not None
        with pytest.raises(StoreError, match="dan has not qualified for study g"):
            store.start_study_rating("g", run_pk, "dan")
        first = store.run_pk_of(dan[0].sha256)
        assert first is not None
        gold.rate(store, fill_rating, "g", first, "dan")  # the qualification run: allowed
        gold.qualify(store, olga_key, raters=("dan",))
        store.start_study_rating("g", run_pk, "dan")  # qualified: the rest opens
    assert _run("audit", "verify", "--db", grown_db) == 0


def test_runs_added_later_come_with_gold_at_the_study_fraction(
    grown_db: Path, tmp_path: Path, capsys
) -> None:
    with ReviewStore.open(grown_db) as store:
        before = {g.run_pk for g in store.study_gold("g")}
        old = {r: _queue(store, r) for r in ("ann", "bob", "cat")}
    capsys.readouterr()
    assert _run("study", "add-runs", "g", *_runs(range(14, 30), tmp_path), "--db", grown_db) == 0
    out = capsys.readouterr().out
    assert "study g: 12 runs added" in out  # 26-29 are olga's references: never regular runs
    assert "gold assignments seeded among the new ones" in out
    with ReviewStore.open(grown_db) as store:
        gold = {g.run_pk: g for g in store.study_gold("g")}
        assert before < set(gold)  # new gold runs recorded as the study's gold
        gold_sha = {store.get_run(pk).sha256 for pk in gold}
        refs = {store.get_run(r.run_pk).sha256 for r in store.gold_references()}
        for rater in ("ann", "bob", "cat"):
            queue = store.study_assignments("g", rater=rater)
            shas = [a.sha256 for a in queue]
            assert shas[: len(old[rater])] == old[rater]  # nothing already assigned moves
            assert [a.position for a in queue] == list(range(1, len(queue) + 1))
            new = shas[len(old[rater]) :]
            regular = [s for s in new if s not in gold_sha]
            seeded = [s for s in new if s in gold_sha]
            assert len(set(shas)) == len(shas)  # no run twice in a queue
            assert seeded, rater  # 0.25 of 4 regular runs: one gold run at least
            assert len(seeded) == max(1, round(0.25 * len(regular) / 0.75)), rater
            assert not set(regular) & refs  # a reference is never a regular run
    assert _run("audit", "verify", "--db", grown_db) == 0


def test_the_same_growth_gives_the_same_queues(grown_db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    copy.write_bytes(grown_db.read_bytes())
    queues = []
    for db in (grown_db, copy):
        assert _run("study", "add-raters", "g", "--raters", "dan", "--db", db) == 0
        assert _run("study", "add-runs", "g", *_runs(range(14, 30), tmp_path), "--db", db) == 0
        with ReviewStore.open(db) as store:
            rows = store.study_assignments("g")
            queues.append([(a.sha256, a.rater, a.position, a.reveal_first) for a in rows])
    assert queues[0] == queues[1]


def test_a_rater_who_rated_a_qualification_run_already_is_refused(
    grown_db: Path, fill_rating, capsys
) -> None:
    with ReviewStore.open(grown_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        r = fill_rating(store, store.start_rating(qual, "eve"), score=2)
        store.submit(r.rating_pk, expected_version=r.version)
    capsys.readouterr()
    assert _run("study", "add-raters", "g", "--raters", "eve", "--db", grown_db) == 1
    err = capsys.readouterr().err
    assert "eve has rated 1 of its qualification run(s) already" in err
    assert len(err.strip().splitlines()) == 1
    with ReviewStore.open(grown_db) as store:
        assert "eve" not in store.get_study("g").raters  # refused whole: nothing written


def test_the_source_of_a_gold_reference_cannot_join_the_study(
    gold_db: Path, tmp_path: Path, make_run, gold
) -> None:
    # References of runs 26-29 made from ref's signed sheets: once seeded as the study's gold,
    # ref may not rate in it (their rating would be scored against itself).
    _grow(gold_db, tmp_path, make_run, gold, rater="ref")
    with ReviewStore.open(gold_db) as store:
        service.add_runs(store, "g", Selection(run_ids=_ids(range(14, 30))))
        sources = {g.reference.payload.source.rater for g in store.study_gold("g")}
        assert "ref" in sources
        with pytest.raises(GoldError, match="a rater's own rating is never their reference"):
            service.add_raters(store, "g", ["ref"])
        assert "ref" not in store.get_study("g").raters
    assert _run("audit", "verify", "--db", gold_db) == 0


def test_a_study_without_gold_grows_as_before(grown_db: Path) -> None:
    with ReviewStore.open(grown_db) as store:
        store.create_study(
            StudySpec(
                name="plain", raters=("ann", "bob"), per_run=1, protocol="blind", seed=1,
                selection=Selection(run_ids=_ids(range(4, 8))),
            ),
            owner_fingerprint=None,
        )  # fmt: skip
        assert service.add_raters(store, "plain", ["dan"]) == (1, 0)
        assert service.add_runs(store, "plain", Selection(run_ids=_ids(range(26, 30)))) == (4, 0)
        assert store.study_gold("plain") == []

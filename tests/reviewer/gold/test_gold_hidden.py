"""Gold is hidden from raters: nothing in a packet, a joined database, the queue, a rater's
run state or the ratings export tells a gold run from another, and the window's feedback
(the reference) is there only after the rater's final submit."""

from __future__ import annotations

import io
import json
from pathlib import Path

from reviewer.gold import service
from reviewer.studies.packet import join_packet, read_packet
from reviewer.workspace import ReviewStore

SECRET = "REFERENCE-COMMENT-7f3a"  # the reference's comment (conftest's SECRET)


def _everything_in(folder: Path) -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(folder.rglob("*.json")))


def test_the_study_seeds_qualification_first_and_gold_for_everyone(gold_db: Path) -> None:
    with ReviewStore.open(gold_db) as store:
        gold = store.study_gold("g")
        qual = {g.run_pk for g in gold if g.qualification}
        seeded = {g.run_pk for g in gold if not g.qualification}
        assert len(qual) == 1 and seeded
        for rater in ("ann", "bob", "cat"):
            queue = store.list_runs(study="g", rater=rater)
            assert queue[0].run_pk in qual and queue[0].position == 1
            assert {r.run_pk for r in queue} & seeded  # every rater gets gold
            assert [r.position for r in queue] == list(range(1, len(queue) + 1))


def test_a_packet_and_a_joined_database_hold_nothing_of_gold(
    gold_db: Path, olga_key, tmp_path: Path, fill_rating, gold
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann")
        service.record_decisions(store, "g", service.qualification_results(store, "g"), olga_key)
        folder = gold.packet(store, olga_key, "ann", tmp_path / "packet")
        gold_shas = {store.get_run(g.run_pk).sha256 for g in store.study_gold("g")
                     if not g.qualification}  # fmt: skip
    text = _everything_in(folder)
    for word in (SECRET, "gold", "earlier", "reference", "GT:1 apu gen"):
        assert word not in text
    payload = read_packet(folder)
    runs = {r.sha256: r.model_dump() for r in payload.runs}
    assert gold_shas & set(runs)  # ann's gold is in her packet...
    shapes = {tuple(sorted((k, type(v).__name__) for k, v in r.items())) for r in runs.values()}
    assert len(shapes) == 1  # ...and each entry has the same fields as every other
    with ReviewStore.open(tmp_path / "ann.db") as mine:
        join_packet(mine, folder)
        assert mine.gold_references(active_only=False) == []
        assert mine.study_gold("g") == []
        assert mine.gold_plan("g") is None
        for row in mine.list_runs(study="g", rater="ann"):
            assert SECRET not in row.model_dump_json()
            state = mine.rating_state(row.run_pk, "ann", study="g")
            assert SECRET not in state.model_dump_json()
            assert mine.gold_feedback(row.run_pk, "ann") is None


def test_the_owners_views_for_a_rater_say_nothing_of_gold(gold_db: Path, fill_rating, gold) -> None:
    """A rater rating on the owner's database: queue rows, run state and the ratings export
    of a gold run look like those of any run."""
    with ReviewStore.open(gold_db) as store:
        gold_runs = {g.run_pk for g in store.study_gold("g") if not g.qualification}
        queue = store.list_runs(study="g", rater="bob")
        for row in queue:
            dumped = row.model_dump()
            assert SECRET not in json.dumps(dumped, default=str)
            assert set(dumped) == set(queue[0].model_dump())
            state = store.rating_state(row.run_pk, "bob", study="g")
            assert SECRET not in state.model_dump_json()
            assert "gold" not in state.model_dump_json()
        gold_row = next(r for r in queue if r.run_pk in gold_runs)
        gold.rate(store, fill_rating, "g", gold_row.run_pk, "bob")
        out = io.StringIO()
        store.export_ratings(out, fmt="csv", viewer="bob")
        assert SECRET not in out.getvalue() and "gold" not in out.getvalue()


def test_feedback_only_after_the_final_submit(gold_db: Path, fill_rating, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        gold_runs = {g.run_pk for g in store.study_gold("g") if not g.qualification}
        run_pk = next(
            r.run_pk for r in store.list_runs(study="g", rater="cat") if r.run_pk in gold_runs
        )
        assert store.gold_feedback(run_pk, "cat") is None  # not started
        r = fill_rating(store, store.start_study_rating("g", run_pk, "cat"), score=3)
        assert store.gold_feedback(run_pk, "cat") is None  # blind draft
        r = store.submit_blind(r.rating_pk, expected_version=r.version)
        assert store.gold_feedback(run_pk, "cat") is None  # sealed
        r = store.reveal(r.rating_pk, expected_version=r.version)
        assert store.gold_feedback(run_pk, "cat") is None  # revealed, not submitted
        store.submit_final(r.rating_pk, expected_version=r.version)
        feedback = store.gold_feedback(run_pk, "cat")
        assert feedback is not None and feedback.study == "g"
        assert {i.comment for i in feedback.reference.items} == {SECRET}
        assert all(i.score == 2 and i.citations for i in feedback.reference.items)
        # Another rater's submit shows them nothing of a run that is not gold.
        plain = next(r.run_pk for r in store.list_runs(study="g", rater="cat")
                     if r.run_pk not in gold_runs and r.position != 1)  # fmt: skip
        gold.rate(store, fill_rating, "g", plain, "cat")
        assert store.gold_feedback(plain, "cat") is None


def test_a_gold_run_in_many_queues_shows_no_more_than_k_ratings_in(
    gold_db: Path, fill_rating, gold
) -> None:
    """k = 1, but a gold run may sit in every queue: "3/1" would mark it."""
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        for rater in ("ann", "bob", "cat"):
            gold.rate(store, fill_rating, "g", qual, rater)
        row = next(r for r in store.list_runs(study="g", rater="bob") if r.run_pk == qual)
        assert (row.ratings_in, row.per_run) == (1, 1)

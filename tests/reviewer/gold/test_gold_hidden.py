"""Gold is hidden from raters: nothing in a packet, a joined database, the queue, a rater's
run state or the ratings export tells a gold run from another, and the window's feedback
(the reference) is there only after the rater's final submit."""

from __future__ import annotations

import io
import json
from pathlib import Path

from reviewer.gold import feedback, service
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
    """Ann qualified (her qualification run submitted): her packet holds her whole queue,
    gold in it, and the reference of the one gold run she submitted, nothing more."""
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann")
        service.record_decisions(store, "g", service.qualification_results(store, "g"), olga_key)
        folder = gold.packet(store, olga_key, "ann", tmp_path / "packet")
        gold_shas = {store.get_run(g.run_pk).sha256 for g in store.study_gold("g")
                     if not g.qualification}  # fmt: skip
        qual_sha = store.get_run(qual).sha256
    payload = read_packet(folder)
    fed = [json.loads(e["payload"])["run"]["sha256"] for e in payload.feedback]
    assert fed == [qual_sha]  # the submitted run's reference only: no run still to rate
    manifest = json.loads(json.loads((folder / "packet.json").read_text())["payload"])
    manifest.pop("feedback")
    text = json.dumps(manifest)
    for word in (SECRET, "gold", "earlier", "reference", "GT:1 apu gen"):
        assert word not in text
    runs = {r.sha256: r.model_dump() for r in payload.runs}
    assert gold_shas & set(runs)  # ann's gold is in her packet...
    shapes = {tuple(sorted((k, type(v).__name__) for k, v in r.items())) for r in runs.values()}
    assert len(shapes) == 1  # ...and each entry has the same fields as every other
    with ReviewStore.open(tmp_path / "ann.db") as mine:
        _, study, _ = join_packet(mine, folder)
        # Not submitted in ann's own database: the reference is held back, not stored.
        received = feedback.receive(mine, study.name, "ann", payload.feedback)
        assert received.stored == 0 and len(received.held_back) == 1
        assert mine.gold_references(active_only=False) == []
        assert mine.study_gold("g") == []
        assert mine.gold_plan("g") is None
        for row in mine.list_runs(study="g", rater="ann"):
            assert SECRET not in row.model_dump_json()
            state = mine.rating_state(row.run_pk, "ann", study="g")
            assert SECRET not in state.model_dump_json()
            assert mine.gold_feedback(row.run_pk, "ann") is None


def test_the_reference_travels_back_once_the_rater_submitted_the_run(
    gold_db: Path, olga_key, tmp_path: Path, fill_rating, gold
) -> None:
    """Bob rates his qualification run on his own machine; the owner's next packet carries
    its reference, and bob's own window can then show it (and no other)."""
    with ReviewStore.open(gold_db) as owner:
        first = gold.packet(owner, olga_key, "bob", tmp_path / "first")
        assert read_packet(first).feedback == []  # nothing submitted yet: no reference
    with ReviewStore.open(tmp_path / "bob.db") as mine:
        join_packet(mine, first)
        (run,) = mine.list_runs(study="g", rater="bob")
        gold.rate(mine, fill_rating, "g", run.run_pk, "bob")
        sha = mine.get_run(run.run_pk).sha256
    with ReviewStore.open(gold_db) as owner:  # as if bob's sheet were collected
        pk = owner.run_pk_of(sha)
        assert pk is not None
        gold.rate(owner, fill_rating, "g", pk, "bob")
        service.record_decisions(owner, "g", service.qualification_results(owner, "g"), olga_key)
        second = gold.packet(owner, olga_key, "bob", tmp_path / "second")
    payload = read_packet(second)
    assert len(payload.feedback) == 1 and len(payload.runs) > 1
    with ReviewStore.open(tmp_path / "bob.db") as mine:
        _, study, _ = join_packet(mine, second)
        assert feedback.receive(mine, study.name, "bob", payload.feedback).stored == 1
        shown = mine.gold_feedback(run.run_pk, "bob")
        assert shown is not None and {i.comment for i in shown.reference.items} == {SECRET}
        others = [r for r in mine.list_runs(study="g", rater="bob") if r.run_pk != run.run_pk]
        assert others and all(mine.gold_feedback(r.run_pk, "bob") is None for r in others)
        # Joining the same packet again stores nothing twice.
        assert feedback.receive(mine, study.name, "bob", payload.feedback).stored == 0


def test_the_owners_views_for_a_rater_say_nothing_of_gold(
    gold_db: Path, olga_key, fill_rating, gold
) -> None:
    """A rater rating on the owner's database: queue rows, run state and the ratings export
    of a gold run look like those of any run."""
    with ReviewStore.open(gold_db) as store:
        gold.qualify(store, olga_key, raters=("bob",))
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


def test_feedback_only_after_the_final_submit(gold_db: Path, olga_key, fill_rating, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        gold.qualify(store, olga_key, raters=("cat",))
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

"""Validly signed things that break the gold and qualification rules are refused, each with
one line: a reference not the owner's, a rater's own sheet as their reference, a packet
giving a rater who has not qualified more than the qualification set, a decision signed by
someone else, a reference changed in the database."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

import pytest

from reviewer.gold import rules, service
from reviewer.gold.envelope import GoldError
from reviewer.gold.model import GoldPlan
from reviewer.sheets import keys, sheet
from reviewer.studies.model import Selection, StudySpec
from reviewer.studies.packet import MANIFEST, PacketError, read_packet
from reviewer.workspace import ReviewStore


def _one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_a_reference_signed_by_a_rater_is_refused_as_the_studys_gold(gold_db: Path, gold) -> None:
    bob = keys.generate_key("bob")
    with ReviewStore.open(gold_db) as store:
        ref = gold.add_reference(store, store.list_runs()[5].run_pk, bob)  # valid, but bob's
        # Slipped into the study's gold behind the store's back (INSERT is not refused).
        store.db.conn.execute(
            "INSERT INTO study_gold (study_pk, run_pk, reference_pk) VALUES (?, ?, ?)",
            (store.get_study("g").study_pk, ref.run_pk, ref.reference_pk),
        )
        with pytest.raises(GoldError) as exc:
            service.references_by_run(store, store.get_study("g"))
    assert "signed by bob" in _one_line(exc) and "not by the owner" in str(exc.value)


def test_a_key_claiming_the_owners_name_is_refused(tmp_path: Path, gold_db: Path, gold) -> None:
    forged = keys.generate_key("olga", directory=tmp_path / "elsewhere")
    with ReviewStore.open(gold_db) as store:
        owner_fp = store.get_study("g").owner_fingerprint
        payload = gold.payload_for(store, store.list_runs()[0].run_pk, forged)
        with pytest.raises(GoldError) as exc:
            rules.check_reference(
                payload,
                forged.fingerprint,
                study="g",
                owner="olga",
                owner_fingerprint=owner_fp,
                raters=gold.RATERS,
                rubric_sha256=store.rubric().sha256,
            )
    assert "not by the owner" in _one_line(exc)


def test_a_raters_own_sheet_is_never_their_reference(gold_db: Path, olga_key, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        payload = gold.payload_for(store, store.list_runs()[0].run_pk, olga_key, rater="bob")
        with pytest.raises(GoldError) as exc:
            rules.check_reference(
                payload,
                olga_key.fingerprint,
                study="g",
                owner="olga",
                owner_fingerprint=olga_key.fingerprint,
                raters=gold.RATERS,
                rubric_sha256=store.rubric().sha256,
            )
    assert "bob rates in study" in _one_line(exc)


def test_a_changed_reference_does_not_verify(gold_db: Path) -> None:
    with ReviewStore.open(gold_db) as store:
        pk = store.study_gold("g")[0].reference.reference_pk
    conn = sqlite3.connect(gold_db)
    envelope = json.loads(
        conn.execute(
            "SELECT envelope FROM gold_references WHERE reference_pk = ?", (pk,)
        ).fetchone()[0]
    )
    envelope["payload"] = envelope["payload"].replace('"score":2', '"score":3')
    conn.execute("DROP TRIGGER gold_references_frozen")
    conn.execute(
        "UPDATE gold_references SET envelope = ? WHERE reference_pk = ?", (json.dumps(envelope), pk)
    )
    conn.commit()
    conn.close()
    with ReviewStore.open(gold_db) as store, pytest.raises(GoldError) as exc:
        store.study_gold("g")
    assert "signature does not match" in _one_line(exc)


def test_a_packet_giving_an_unqualified_rater_more_is_refused(
    gold_db: Path, olga_key, tmp_path: Path, fill_rating, gold
) -> None:
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann")
        service.record_decisions(store, "g", service.qualification_results(store, "g"), olga_key)
        folder = gold.packet(store, olga_key, "ann", tmp_path / "packet")  # the full queue
    # The owner's key, a valid signature, but "not qualified" with every run in it.
    envelope = json.loads((folder / MANIFEST).read_text())
    payload = json.loads(envelope["payload"])
    assert payload["qualification"]["qualified"] is True and len(payload["runs"]) > 1
    payload["qualification"]["qualified"] = False
    data = sheet.canonical_bytes(payload)
    envelope["payload"] = data.decode()
    envelope["signature"] = base64.b64encode(olga_key.sign(data)).decode()
    (folder / MANIFEST).write_text(json.dumps(envelope))
    with pytest.raises(PacketError) as exc:
        read_packet(folder)
    assert "has not qualified" in _one_line(exc) and "beyond the qualification set" in str(
        exc.value
    )


def test_the_owner_writes_only_the_qualification_set_for_a_rater_not_qualified(
    gold_db: Path, olga_key, tmp_path: Path, gold
) -> None:
    with ReviewStore.open(gold_db) as store:
        folder = gold.packet(store, olga_key, "bob", tmp_path / "bob")
        qual = {store.get_run(g.run_pk).sha256 for g in store.study_gold("g") if g.qualification}
    payload = read_packet(folder)
    assert {r.sha256 for r in payload.runs} == qual
    assert payload.qualification is not None and not payload.qualification.qualified


def test_only_the_owner_signs_a_decision(gold_db: Path, fill_rating, gold) -> None:
    bob = keys.generate_key("bob")
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann")
        results = service.qualification_results(store, "g")
        with pytest.raises(GoldError) as exc:
            service.record_decisions(store, "g", results, bob)
    assert "owned by 'olga'" in _one_line(exc)


def test_a_decision_is_signed_logged_and_final(gold_db: Path, olga_key, fill_rating, gold) -> None:
    with ReviewStore.open(gold_db) as store:
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        gold.rate(store, fill_rating, "g", qual, "ann", score=0)  # 0 against 2: not within one
        gold.rate(store, fill_rating, "g", qual, "bob", score=3)
        decided = service.record_decisions(
            store, "g", service.qualification_results(store, "g"), olga_key
        )
        assert {r.rater: r.qualified for r in decided} == {"ann": False, "bob": True}
        d = store.qualification_decisions("g")
        assert d["ann"].owner.fingerprint == olga_key.fingerprint and not d["ann"].qualified
        assert service.packet_scope(store, "g", "ann")[1] is False  # type: ignore[index]
        assert service.packet_scope(store, "g", "bob")[1] is True  # type: ignore[index]
        # Decided once: asking again signs nothing new.
        again = service.record_decisions(
            store, "g", service.qualification_results(store, "g"), olga_key
        )
        assert again == []
        actions = [a for (a,) in store.db.conn.execute("SELECT action FROM audit_log")]
        assert actions.count("qualify") == 2
        with pytest.raises(sqlite3.IntegrityError, match="never changes"):
            store.db.conn.execute("UPDATE qualification_decisions SET qualified = 1")


def test_a_study_asking_for_gold_with_no_owner_gold_is_refused(tmp_path: Path, make_run) -> None:
    keys.generate_key("olga")
    with ReviewStore.open(tmp_path / "x.db") as store:
        store.import_paths([make_run(tmp_path / "c", n) for n in range(3)])
        spec = StudySpec(name="x", raters=("ann",), per_run=1, owner="olga", selection=Selection())
        with pytest.raises(GoldError) as exc:
            service.create_study(store, spec, GoldPlan(fraction=0.2), owner_fingerprint=None)
    assert "olga has signed no gold reference" in _one_line(exc)


def test_audit_verify_finds_a_study_gold_not_the_owners(gold_db: Path, gold, problems_of) -> None:
    assert problems_of(gold_db) == []
    bob = keys.generate_key("bob")
    with ReviewStore.open(gold_db) as store:
        ref = gold.add_reference(store, store.list_runs()[6].run_pk, bob)
        store.db.conn.execute(
            "INSERT INTO study_gold (study_pk, run_pk, reference_pk) VALUES (?, ?, ?)",
            (store.get_study("g").study_pk, ref.run_pk, ref.reference_pk),
        )
    found = problems_of(gold_db)
    assert len(found) == 1 and "signed by bob" in found[0] and "\n" not in found[0]


def test_feedback_not_signed_by_the_packets_owner_is_refused_before_any_import(
    gold_db: Path, olga_key, tmp_path: Path, gold
) -> None:
    from reviewer.gold.envelope import seal
    from reviewer.gold.feedback import check_signers
    from reviewer.studies.packet import join_packet

    bob = keys.generate_key("bob")
    with ReviewStore.open(gold_db) as store:
        folder = gold.packet(store, olga_key, "ann", tmp_path / "packet")
        qual = next(g.run_pk for g in store.study_gold("g") if g.qualification)
        forged = seal(gold.payload_for(store, qual, bob, score=3), bob)
    envelope = json.loads((folder / MANIFEST).read_text())
    payload = json.loads(envelope["payload"])
    payload["feedback"] = [forged]  # bob's "reference", in a packet olga validly signs
    data = sheet.canonical_bytes(payload)
    envelope["payload"] = data.decode()
    envelope["signature"] = base64.b64encode(olga_key.sign(data)).decode()
    (folder / MANIFEST).write_text(json.dumps(envelope))
    with ReviewStore.open(tmp_path / "ann.db") as mine:
        with pytest.raises(GoldError) as exc:
            join_packet(mine, folder,
                        check=lambda p: check_signers(p.feedback, p.owner.fingerprint))  # fmt: skip
        assert mine.studies() == [] and mine.list_runs() == []  # nothing imported
    assert "signed by bob" in _one_line(exc) and "not by the packet's owner" in str(exc.value)

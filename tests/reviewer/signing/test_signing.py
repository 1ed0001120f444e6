"""The signing service against a real store: sign, lock, correct, export."""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.evidence import Citation
from reviewer.rubric import default_rubric
from reviewer.sheets import keys, sheet, verify
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SignedSheet
from reviewer.signing.service import SheetFilesError, SigningError, SigningService
from reviewer.store import Rating, RatingStateError
from reviewer.workspace import ReviewStore

APU = "elec-apu-gen-fault"
SIGNED_AT = datetime(2025, 3, 1, 10, 15, tzinfo=UTC)


@pytest.fixture
def trajectory(tmp_path: Path) -> Path:
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="run-sign-1", model="m1").turn().read()
    return b.set("apu_gen", 0).done().final("agent_done", passed=True).write(tmp_path / "run.jsonl")


@pytest.fixture
def store(tmp_path: Path, trajectory: Path):
    with ReviewStore.open(tmp_path / "review.db") as opened:
        report = opened.import_paths([trajectory])
        assert report.added == 1
        yield opened


@pytest.fixture
def run_pk(store: ReviewStore) -> int:
    return store.list_runs()[0].run_pk


@pytest.fixture
def key(tmp_path: Path) -> RaterKey:
    return keys.generate_key("alice", directory=tmp_path / "keys")


class FakePdf:
    """Stands in for ui.sheets.sheet_pdf: records what it was asked to render."""

    def __init__(self) -> None:
        self.calls: list[tuple[SignedSheet, Path]] = []

    def __call__(self, signed: SignedSheet, path: Path) -> None:
        self.calls.append((signed, path))
        path.write_bytes(b"%PDF-fake\n%%EOF\n")


def service(store: ReviewStore, renderer: FakePdf | None = None) -> SigningService:
    ids = (f"sheet-{n}" for n in itertools.count(1))
    return SigningService(
        store, pdf_renderer=renderer, clock=lambda: SIGNED_AT, new_id=ids.__next__
    )


def rate(
    store: ReviewStore, run_pk: int, rater: str = "alice", *, score: int = 2, submit: bool = True
) -> Rating:
    """A complete rating: every metric applicable with ``score``; submitted unless told."""
    rating = store.start_rating(run_pk, rater)
    return fill(store, rating, score=score, submit=submit)


_FIRST_TURN = Citation(
    metric_id="safety", kind="event", ref=0, step="1", label="1 agent: reads the ECAM"
)


def fill(store: ReviewStore, rating: Rating, *, score: int, submit: bool = True) -> Rating:
    for metric in store.rubric().metrics:
        rating = store.save_item(
            rating.rating_pk,
            metric.id,
            outcome="applicable",
            score=score,
            comment=f"seen in {metric.id}",
            expected_version=rating.version,
        )
        if score in store.rubric().evidence_scores(metric.id):
            rating = store.toggle_citation(
                rating.rating_pk,
                _FIRST_TURN.model_copy(update={"metric_id": metric.id}),
                expected_version=rating.version,
            )
    rating = store.save_overall_comment(
        rating.rating_pk, "Sound run, écrit à la main.", expected_version=rating.version
    )
    return store.submit(rating.rating_pk, expected_version=rating.version) if submit else rating


def test_sign_writes_a_sheet_that_verifies(
    store: ReviewStore, run_pk: int, key: RaterKey, trajectory: Path, tmp_path: Path
) -> None:
    rate(store, run_pk)
    pdf = FakePdf()
    written = service(store, pdf).sign(run_pk, key, tmp_path / "out")

    assert written.json_path == tmp_path / "out" / "run-sign-1.alice.sheet-1.sheet.json"
    assert written.pdf_path == tmp_path / "out" / "run-sign-1.alice.sheet-1.sheet.pdf"
    # The renderer drew into a temporary file in the same folder, renamed into place.
    [(drawn, drawn_path)] = pdf.calls
    assert drawn == written.sheet and drawn_path.parent == written.pdf_path.parent
    assert drawn_path != written.pdf_path and not drawn_path.exists()
    assert written.pdf_path.is_file()
    result = verify.verify_file(
        written.json_path, trajectory=trajectory, trusted=frozenset({key.fingerprint})
    )
    assert result.summary() == f"OK: signed by alice ({key.fingerprint}), trusted"

    p = written.sheet.payload
    card = store.get_run(run_pk).scorecard
    rubric = store.rubric()
    assert p.sheet_id == "sheet-1" and p.supersedes is None and p.signed_at == SIGNED_AT
    assert p.run.run_id == "run-sign-1" and p.run.scenario_id == APU and p.run.model == "m1"
    assert p.run.trajectory_sha256 == hashlib.sha256(trajectory.read_bytes()).hexdigest()
    assert p.scorer.version == card.scorer_version
    assert p.scorer.vector == card.vector()
    assert (p.rubric.id, p.rubric.version, p.rubric.sha256) == (
        rubric.id,
        rubric.version,
        rubric.sha256,
    )
    assert [i.metric_id for i in p.items] == list(rubric.metric_ids)
    first = rubric.metrics[0]
    assert p.items[0].title == first.title
    assert p.items[0].anchor == first.anchors[2]
    assert (p.items[0].outcome, p.items[0].score) == ("applicable", 2)
    assert p.items[0].comment == f"seen in {first.id}"
    assert p.overall_comment == "Sound run, écrit à la main."
    assert (p.rater.name, p.rater.fingerprint) == ("alice", key.fingerprint)


def test_signing_locks_the_rating_and_keeps_the_sheet(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    rating = rate(store, run_pk)
    written = service(store).sign(run_pk, key, tmp_path)
    assert written.pdf_path is None

    locked = store.live_rating(run_pk, "alice")
    assert locked is not None
    assert (locked.status, locked.sheet_id) == ("signed", "sheet-1")
    [row] = store.signed_sheets()
    assert row.sheet_json == written.json_path.read_text(encoding="utf-8")
    assert store.raters()[0].fingerprint == key.fingerprint

    metric = store.rubric().metric_ids[0]
    with pytest.raises(RatingStateError):
        store.save_item(
            rating.rating_pk,
            metric,
            outcome="applicable",
            score=0,
            comment="changed",
            expected_version=locked.version,
        )
    with pytest.raises(RatingStateError):
        store.submit(rating.rating_pk, expected_version=locked.version)
    # Not even raw SQL gets past the database's triggers.
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        store.db.conn.execute(
            "UPDATE ratings SET overall_comment = 'x' WHERE rating_pk = ?", (rating.rating_pk,)
        )
    with pytest.raises(sqlite3.IntegrityError, match="never edited"):
        store.db.conn.execute(
            "UPDATE rating_items SET score = 0 WHERE rating_pk = ?", (rating.rating_pk,)
        )
    with pytest.raises(sqlite3.IntegrityError, match="immutable"):
        store.db.conn.execute("DELETE FROM sheets")
    with pytest.raises(SigningError, match="already signed \\(sheet sheet-1\\)") as again:
        service(store).sign(run_pk, key, tmp_path)
    assert "a320-review export --out DIR --rater alice" in str(again.value)
    assert store.audit_verify().ok


def test_drafts_and_missing_ratings_are_refused(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    with pytest.raises(SigningError, match="alice has not rated this run"):
        service(store).sign(run_pk, key, tmp_path)
    draft = store.start_rating(run_pk, "alice")
    metric = store.rubric().metrics[0]
    store.save_item(
        draft.rating_pk,
        metric.id,
        outcome="applicable",
        score=3,
        comment="",
        expected_version=draft.version,
    )
    with pytest.raises(SigningError) as refused:
        service(store).sign(run_pk, key, tmp_path)
    message = str(refused.value)
    assert message.startswith("alice's rating is a draft: submit it before signing")
    assert f"{metric.id}: a score of 3 needs a comment" in message
    assert f"{store.rubric().metrics[1].id}: no outcome" in message
    assert not list(tmp_path.glob("*.sheet.json"))
    assert store.signed_sheets() == []


def test_a_rating_made_under_another_rubric_is_refused(
    tmp_path: Path, trajectory: Path, key: RaterKey
) -> None:
    db = tmp_path / "two.db"
    with ReviewStore.open(db) as first:
        first.import_paths([trajectory])
        rate(first, first.list_runs()[0].run_pk)
    base = default_rubric()
    newer = base.model_validate({**base.model_dump(exclude={"sha256"}), "version": 99})
    refused = pytest.raises(SigningError, match="start a correction under the current rubric")
    with ReviewStore.open(db, rubric=newer) as second, refused:
        service(second).sign(second.list_runs()[0].run_pk, key, tmp_path)


def test_a_rater_cannot_switch_keys_silently(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    store.set_rater_key("alice", public_key=key.public.b64, fingerprint=key.fingerprint)
    rate(store, run_pk)
    other = keys.generate_key("alice", directory=tmp_path / "other-keys")
    with pytest.raises(SigningError, match=re.escape(f"knows alice by key {key.fingerprint}")):
        service(store).sign(run_pk, other, tmp_path)
    assert store.live_rating(run_pk, "alice").status == "submitted"


def test_a_correction_makes_a_new_sheet_naming_the_old_one(
    store: ReviewStore, run_pk: int, key: RaterKey, trajectory: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    signing = service(store)
    old = rate(store, run_pk, score=2)
    first = signing.sign(run_pk, key, out)
    draft = store.supersede(old.rating_pk, rater="alice")
    assert draft.supersedes_pk == old.rating_pk
    fill(store, draft, score=1)
    second = signing.sign(run_pk, key, out)

    assert second.sheet.payload.supersedes == first.sheet.payload.sheet_id == "sheet-1"
    assert second.sheet.payload.sheet_id == "sheet-2"
    assert {i.score for i in second.sheet.payload.items} == {1}
    # Each sheet has its own file: the correction never overwrites the sheet it corrects.
    assert second.json_path != first.json_path
    assert verify.verify_file(first.json_path, trajectory=trajectory).ok
    assert verify.verify_file(second.json_path, trajectory=trajectory).ok
    assert [r.sheet_id for r in store.signed_sheets()] == ["sheet-1", "sheet-2"]
    assert store.get_rating(old.rating_pk).status == "signed"


def test_export_writes_every_sheet_without_overwriting(
    store: ReviewStore, run_pk: int, key: RaterKey, trajectory: Path, tmp_path: Path
) -> None:
    signing = service(store)
    old = rate(store, run_pk)
    signing.sign(run_pk, key, tmp_path / "signed")
    fill(store, store.supersede(old.rating_pk, rater="alice"), score=3)
    signing.sign(run_pk, key, tmp_path / "signed")
    bob = keys.generate_key("bob", directory=tmp_path / "keys")
    rate(store, run_pk, "bob")
    signing.sign(run_pk, bob, tmp_path / "signed")

    pdf = FakePdf()
    out = tmp_path / "export"
    written = service(store, pdf).export(out)
    names = sorted(p.name for p in out.glob("*.json"))
    assert names == [
        "run-sign-1.alice.sheet-1.sheet.json",  # superseded: its id keeps it apart
        "run-sign-1.alice.sheet-2.sheet.json",
        "run-sign-1.bob.sheet-3.sheet.json",
    ]
    assert len(pdf.calls) == 3 and len(written) == 3
    for path in out.glob("*.json"):
        assert verify.verify_file(path, trajectory=trajectory).ok, path
    current = json.loads(json.loads((out / names[1]).read_text())["payload"])
    assert current["supersedes"] == "sheet-1"

    only_bob = service(store).export(tmp_path / "bob", rater="bob")
    assert [w.json_path.name for w in only_bob] == ["run-sign-1.bob.sheet-3.sheet.json"]
    audit = [json.loads(r[0]) for r in store.db.conn.execute("SELECT details FROM audit_log")]
    assert any(d.get("what") == "sheets" and d.get("rater") == "bob" for d in audit)
    assert store.audit_verify().ok


def test_sign_refuses_when_the_reviewed_rating_is_no_longer_live(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    # The window showed rating `shown`; meanwhile a correction replaced it and was submitted.
    shown = rate(store, run_pk, score=2)
    fill(store, store.supersede(shown.rating_pk, rater="alice"), score=1)
    live = store.live_rating(run_pk, "alice")
    assert live is not None and live.rating_pk != shown.rating_pk
    signing = service(store)
    with pytest.raises(SigningError, match="not alice's current rating of this run") as refused:
        signing.sign(run_pk, key, tmp_path, rating_pk=shown.rating_pk)
    assert f"rating {live.rating_pk}" in str(refused.value)
    assert store.signed_sheets() == [] and not list(tmp_path.glob("*.sheet.json"))
    with pytest.raises(SigningError, match="not alice's current rating"):
        signing.signable_rating(run_pk, "alice", rating_pk=shown.rating_pk)

    written = signing.sign(run_pk, key, tmp_path, rating_pk=live.rating_pk)
    assert {i.score for i in written.sheet.payload.items} == {1}
    assert store.get_rating(live.rating_pk).sheet_id == written.sheet.payload.sheet_id


def test_sign_with_rating_pk_refuses_a_draft_and_another_run(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    draft = rate(store, run_pk, submit=False)
    with pytest.raises(SigningError, match="is a draft: submit it before signing"):
        service(store).sign(run_pk, key, tmp_path, rating_pk=draft.rating_pk)
    # A rating of another rater is never "alice's rating", whatever its state.
    bobs = rate(store, run_pk, "bob")
    with pytest.raises(SigningError, match="not alice's current rating"):
        service(store).sign(run_pk, key, tmp_path, rating_pk=bobs.rating_pk)
    assert store.signed_sheets() == []


def test_supersedes_names_the_nearest_signed_ancestor(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    # A signed → B submitted, never signed → C signed: C corrects A's sheet, B has none.
    signing = service(store)
    a = rate(store, run_pk, score=2)
    first = signing.sign(run_pk, key, tmp_path / "a")
    b = fill(store, store.supersede(a.rating_pk, rater="alice"), score=1)
    c = fill(store, store.supersede(b.rating_pk, rater="alice"), score=3)
    assert (c.supersedes_pk, b.supersedes_pk) == (b.rating_pk, a.rating_pk)
    third = signing.sign(run_pk, key, tmp_path / "c", rating_pk=c.rating_pk)
    assert third.sheet.payload.supersedes == first.sheet.payload.sheet_id == "sheet-1"


def test_supersedes_is_null_when_no_ancestor_was_signed(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    a = rate(store, run_pk, score=2)
    b = fill(store, store.supersede(a.rating_pk, rater="alice"), score=1)
    fill(store, store.supersede(b.rating_pk, rater="alice"), score=3)
    assert service(store).sign(run_pk, key, tmp_path).sheet.payload.supersedes is None


def test_export_keeps_both_signed_versions_of_a_changed_file(
    store: ReviewStore, run_pk: int, key: RaterKey, trajectory: Path, tmp_path: Path
) -> None:
    # The file changed after alice signed version 1: version 2 has the same run_id.
    signing = service(store)
    rate(store, run_pk)
    signing.sign(run_pk, key, tmp_path / "signed")
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="run-sign-1", model="m1").turn().read()
    b.read().set("apu_gen", 0).done().final("agent_done", passed=True).write(trajectory)
    assert store.import_paths([trajectory]).new_versions == 1
    v2 = store.list_runs()[-1].run_pk
    rate(store, v2, score=1)
    signing.sign(v2, key, tmp_path / "signed")

    out = tmp_path / "export"
    written = service(store).export(out)
    assert [w.json_path.name for w in written] == [
        "run-sign-1.alice.sheet-1.sheet.json",
        "run-sign-1.alice.sheet-2.sheet.json",
    ]
    assert sorted(p.name for p in out.iterdir()) == sorted(w.json_path.name for w in written)
    assert [verify.read_sheet(w.json_path.read_bytes()).payload.sheet_id for w in written] == [
        "sheet-1",
        "sheet-2",
    ]


def test_export_of_a_chain_with_an_unsigned_link_writes_both_sheets(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    signing = service(store)
    a = rate(store, run_pk, score=2)
    signing.sign(run_pk, key, tmp_path / "signed")
    b = fill(store, store.supersede(a.rating_pk, rater="alice"), score=1)
    fill(store, store.supersede(b.rating_pk, rater="alice"), score=3)
    signing.sign(run_pk, key, tmp_path / "signed")

    out = tmp_path / "export"
    service(store).export(out)
    assert sorted(p.name for p in out.iterdir()) == [
        "run-sign-1.alice.sheet-1.sheet.json",
        "run-sign-1.alice.sheet-2.sheet.json",
    ]


def test_export_refuses_to_overwrite_a_file_it_wrote(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    # "Alice" and "alice" are one file on macOS and Windows; with sheet ids that share their
    # first 8 characters both sheets get one name there: the export stops, writes nothing.
    ids = iter(["abcdefgh-1", "abcdefgh-2"])
    signing = SigningService(store, new_id=lambda: next(ids))
    rate(store, run_pk)
    signing.sign(run_pk, key, tmp_path / "signed")
    upper = keys.generate_key("Alice", directory=tmp_path / "keys")
    rate(store, run_pk, "Alice")
    signing.sign(run_pk, upper, tmp_path / "signed-upper")

    out = tmp_path / "export"
    with pytest.raises(
        SigningError, match=re.escape("run-sign-1.Alice.abcdefgh.sheet.json")
    ) as refused:
        service(store).export(out)
    assert "nothing was exported" in str(refused.value)
    assert not out.exists() or not list(out.iterdir())


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_an_unusable_out_folder_is_refused_before_the_rating_is_locked(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path, where: str
) -> None:
    rate(store, run_pk)
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    out = blocker if where == "a file" else blocker / "sheets"
    with pytest.raises(SigningError, match=f"cannot write sheets to {re.escape(str(out))}"):
        service(store).sign(run_pk, key, out)
    # Nothing was locked: signing into a usable folder still works.
    assert store.live_rating(run_pk, "alice").status == "submitted"
    assert store.signed_sheets() == []
    assert service(store).sign(run_pk, key, tmp_path / "ok").json_path.is_file()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes into read-only folders"
)
def test_a_read_only_out_folder_is_refused_before_the_rating_is_locked(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    rate(store, run_pk)
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    try:
        with pytest.raises(SigningError, match="cannot write sheets to"):
            service(store).sign(run_pk, key, out)
    finally:
        out.chmod(0o700)
    assert store.live_rating(run_pk, "alice").status == "submitted"


def test_a_write_failure_before_locking_signs_nothing(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    def disk_full(signed: SignedSheet, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    rate(store, run_pk)
    signing = SigningService(store, pdf_renderer=disk_full, new_id=lambda: "sheet-1")
    with pytest.raises(SigningError, match="No space left on device") as failed:
        signing.sign(run_pk, key, tmp_path / "out")
    assert "nothing was signed" in str(failed.value)
    assert store.live_rating(run_pk, "alice").status == "submitted"
    assert list((tmp_path / "out").iterdir()) == []  # no temporary file left behind


def test_a_write_failure_after_locking_says_the_rating_is_signed(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path, monkeypatch
) -> None:
    def rename_fails(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    rate(store, run_pk)
    signing = SigningService(store, pdf_renderer=FakePdf(), new_id=lambda: "sheet-1")
    with monkeypatch.context() as patched, pytest.raises(SheetFilesError) as failed:
        patched.setattr("reviewer.outfile.os.replace", rename_fails)
        signing.sign(run_pk, key, tmp_path / "out")
    assert failed.value.sheet.payload.sheet_id == "sheet-1"
    message = str(failed.value)
    assert "the rating IS signed (sheet sheet-1)" in message
    assert "No space left on device" in message
    assert "a320-review export --out DIR --rater alice" in message
    assert store.live_rating(run_pk, "alice").status == "signed"
    assert list((tmp_path / "out").iterdir()) == []
    # As the message says: export writes the files again.
    [again] = service(store, FakePdf()).export(tmp_path / "again")
    assert again.sheet.payload.sheet_id == "sheet-1" and again.pdf_path is not None


def test_export_writes_every_other_sheet_and_names_the_one_that_failed(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    from reviewer.signing.service import ExportError

    signing = service(store)
    rate(store, run_pk)
    first = signing.sign(run_pk, key, tmp_path / "signed")
    bob = keys.generate_key("bob", directory=tmp_path / "keys")
    rate(store, run_pk, "bob")
    signing.sign(run_pk, bob, tmp_path / "signed")

    out = tmp_path / "export"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (out / first.json_path.name).symlink_to(victim)  # planted at alice's sheet name
    with pytest.raises(ExportError) as failed:
        service(store).export(out)
    message = str(failed.value)
    assert message.startswith("1 of 2 sheet(s) could not be written: sheet sheet-1 ")
    assert "it is a symbolic link" in message
    assert [w.json_path.name for w in failed.value.written] == ["run-sign-1.bob.sheet-2.sheet.json"]
    assert victim.read_text() == "precious"


def test_a_correction_keeps_the_earlier_sheet_file(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    signing = SigningService(store)  # real uuid sheet ids
    old = rate(store, run_pk)
    first = signing.sign(run_pk, key, tmp_path)
    fill(store, store.supersede(old.rating_pk, rater="alice"), score=3)
    second = signing.sign(run_pk, key, tmp_path)
    assert first.json_path != second.json_path
    assert first.json_path.is_file() and second.json_path.is_file()
    assert verify.read_sheet(first.json_path.read_bytes()).payload == first.sheet.payload


def test_a_sheet_carries_the_audit_head_at_signing(
    store: ReviewStore, run_pk: int, key: RaterKey, tmp_path: Path
) -> None:
    rate(store, run_pk)
    written = service(store).sign(run_pk, key, tmp_path)
    head = written.sheet.payload.audit_head
    assert head is not None
    # The head is the log as it stood just before this signing's own entry.
    rows = store.db.conn.execute(
        "SELECT seq, hash, action FROM audit_log WHERE seq >= ? ORDER BY seq", (head.entries,)
    ).fetchall()
    assert rows[0][:2] == (head.entries, head.hash)
    assert head.entries == store.db.conn.execute("SELECT count(*) FROM audit_log").fetchone()[0] - (
        len(rows) - 1
    )
    assert store.audit_head()[0] > head.entries


def test_a_run_id_of_300_characters_signs_and_exports(
    store: ReviewStore, key: RaterKey, tmp_path: Path
) -> None:
    long = tmp_path / "long.jsonl"
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="CON." + "r" * 296, model="m").turn()
    b.read().set("apu_gen", 0).done().final("agent_done", passed=True).write(long)
    store.import_paths([long])
    run_pk = next(r.run_pk for r in store.list_runs() if r.run_id.startswith("CON."))
    rate(store, run_pk)
    written = service(store, FakePdf()).sign(run_pk, key, tmp_path / "out")
    assert len(written.json_path.name) <= sheet.FILE_NAME_LIMIT
    assert written.json_path.name.startswith("%43ON")
    assert verify.verify_file(written.json_path).ok
    [again] = service(store).export(tmp_path / "again")
    assert again.json_path.name == written.json_path.name

"""Signing, verifying (with and without the rating sheets at hand) and collecting
adjudication sheets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewer.adjudication.signing import AdjudicationSigner
from reviewer.cli import main
from reviewer.sheets import keys
from reviewer.sheets.adjudication import AdjudicationPayload, ResolvedSheet
from reviewer.sheets.sheet import sign_payload
from reviewer.sheets.verify import verify_file
from reviewer.signing.service import SigningError
from reviewer.workspace import ReviewStore


def _sign(store: ReviewStore, out: Path) -> Path:
    return AdjudicationSigner(store).sign(1, keys.load_key("dana"), out).path


def _verify(capsys, *args: object) -> tuple[int, str]:
    code = main(["verify", *map(str, args)])
    return code, capsys.readouterr().out


def test_signing_names_the_rating_sheets_it_resolves(
    disputed: ReviewStore, signed: Path, adjudicate, tmp_path: Path, sheet_schema
) -> None:
    adjudicate(disputed)
    path = _sign(disputed, tmp_path / "adj")
    assert path.name.endswith(".adjudication.sheet.json")
    assert sheet_schema(path)["decisions"]  # meets the published schema
    result = verify_file(path)
    assert result.ok and result.is_adjudication
    payload = result.sheet.payload
    assert isinstance(payload, AdjudicationPayload)
    assert [d.metric_id for d in payload.decisions] == ["safety", "verification"]
    assert payload.decisions[0].sides_with == ["ann"] and payload.decisions[0].disputed
    on_disk = {p.name.split(".")[1]: p for p in signed.glob("*.sheet.json")}
    import hashlib

    assert {r.rater: r.sha256 for r in payload.resolves} == {
        name: hashlib.sha256(p.read_bytes()).hexdigest() for name, p in on_disk.items()
    }
    assert disputed.live_adjudication(1, "dana").status == "signed"
    with pytest.raises(SigningError, match="already signed"):
        _sign(disputed, tmp_path / "adj")


def test_unsigned_ratings_cannot_be_resolved(disputed: ReviewStore, adjudicate, tmp_path) -> None:
    keys.generate_key("dana")
    adjudicate(disputed)
    with pytest.raises(SigningError, match="ann, bob on this run are not signed"):
        _sign(disputed, tmp_path)
    assert disputed.live_adjudication(1, "dana").status == "submitted"


def test_verify_with_and_without_the_rating_sheets(
    disputed: ReviewStore, signed: Path, adjudicate, tmp_path: Path, capsys
) -> None:
    adjudicate(disputed)
    path = _sign(disputed, tmp_path / "adj")
    code, out = _verify(capsys, path)
    assert code == 0 and "OK: adjudication signed by dana" in out
    code, out = _verify(capsys, path, "--with", signed)
    assert code == 0 and "resolves the rating sheets" in out
    # A rating sheet missing from the folder.
    (bob,) = signed.glob("*.bob.*")
    moved = bob.rename(tmp_path / bob.name)
    code, out = _verify(capsys, path, "--with", signed)
    assert code == 1 and "(bob) is not at hand" in out
    moved.rename(bob)
    # Tampered: a decision changed after signing.
    envelope = json.loads(path.read_text())
    envelope["payload"] = envelope["payload"].replace('"score":1', '"score":3', 1)
    tampered = tmp_path / "tampered.adjudication.sheet.json"
    tampered.write_text(json.dumps(envelope))
    code, out = _verify(capsys, tampered)
    assert code == 1 and "FAILED: signature does not match payload" in out


def test_a_wrong_resolved_hash_is_caught(
    disputed: ReviewStore, signed: Path, adjudicate, tmp_path: Path, capsys
) -> None:
    adjudicate(disputed)
    signer = AdjudicationSigner(disputed)
    key = keys.load_key("dana")
    payload = signer.build_payload(disputed.live_adjudication(1, "dana"), key)
    wrong = [
        ResolvedSheet(rater=r.rater, sheet_id=r.sheet_id, sha256="0" * 64)
        if r.rater == "bob"
        else r
        for r in payload.resolves
    ]
    forged = sign_payload(payload.model_copy(update={"resolves": wrong}), key)
    path = tmp_path / "forged.adjudication.sheet.json"
    path.write_text(forged.to_json())
    code, out = _verify(capsys, path)
    assert code == 0  # well signed: only the sheets at hand can tell
    code, out = _verify(capsys, path, "--with", signed)
    assert code == 1 and "(bob)" in out and "is not the one resolved" in out


def test_collect_brings_in_adjudication_sheets(
    disputed: ReviewStore, signed: Path, adjudicate, tmp_path: Path, make_card, capsys
) -> None:
    adjudicate(disputed)
    _sign(disputed, signed)  # the adjudication sheet beside the rating sheets
    other = tmp_path / "owner.db"
    with ReviewStore.open(other) as store:
        store.add_scorecards([make_card(n) for n in range(5)])
    assert main(["collect", str(signed), "--db", str(other)]) == 0
    out = capsys.readouterr().out
    assert out.count(": stored") == 3
    with ReviewStore.open(other) as store:
        found = store.live_adjudication(1, "dana")
        assert found is not None and found.status == "signed" and found.collected_at
        rows = {d.metric_id: d for d in store.disputes(run_pk=1)}
        assert rows["safety"].reported.reached == "adjudicated"
        assert rows["safety"].reported.score == 1.0
        report = store.audit_verify()
        assert report.ok, report.problems
    assert main(["collect", str(signed), "--db", str(other)]) == 0
    assert capsys.readouterr().out.count(": unchanged") == 3


def test_collect_refuses_an_adjudicator_who_rated_the_run_here(
    disputed: ReviewStore,
    signed: Path,
    adjudicate,
    tmp_path: Path,
    make_card,
    fill_rating,
    rate_run,
    capsys,
) -> None:
    adjudicate(disputed)
    path = _sign(disputed, tmp_path / "adj")
    other = tmp_path / "owner.db"
    with ReviewStore.open(other) as store:
        store.add_scorecards([make_card(n) for n in range(5)])
        rate_run(store, 1, "dana", fill_rating, {})
    assert main(["collect", str(path), "--db", str(other)]) == 1
    assert "dana rated this run" in capsys.readouterr().out

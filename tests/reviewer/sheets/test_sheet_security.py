"""Sheets under attack: names bound by the trust list, file names, hostile files, formats."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reviewer.sheets import keys, sheet, verify
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetPayload, SignedSheet
from reviewer.sheets.trust import load_trust_file

FIXTURES = Path(__file__).parent / "fixtures"
#: The fixture's key: a fixed test seed, published under the name it signed with.
FORMAT1_KEY_LINE = "ed25519 A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg= A. Martin"


def make_payload(key: RaterKey, **changes: object) -> SheetPayload:
    """A format-2 payload built from the format-1 fixture's content, signed-to-be by ``key``."""
    envelope = json.loads((FIXTURES / "format1.sheet.json").read_text(encoding="utf-8"))
    data = json.loads(envelope["payload"])
    public = key.public
    data.update(
        sheet_format=sheet.SHEET_FORMAT,
        sheet_id="6f1c2a4e-0000",
        audit_head={"entries": 12, "hash": "cd" * 32},
        rater={"name": key.rater, "public_key": public.b64, "fingerprint": public.fingerprint},
    )
    data.update(changes)
    return SheetPayload.model_validate(data)


@pytest.fixture
def alice(tmp_path: Path) -> RaterKey:
    return keys.generate_key("alice", directory=tmp_path / "keys")


def _signed(key: RaterKey, **changes: object) -> SignedSheet:
    return sheet.sign_payload(make_payload(key, **changes), key)


# --- the trust list binds a key to a rater name -------------------------------------------


def test_a_trusted_key_signing_under_another_name_is_flagged_or_failed(
    tmp_path: Path, alice: RaterKey
) -> None:
    # alice's key, but the sheet says "bob": alice signs as someone else.
    as_bob = RaterKey("bob", alice.private_key)
    text = _signed(as_bob).to_json()
    trust = tmp_path / "trusted.txt"
    trust.write_text(alice.public.line() + "\n")
    trusted = load_trust_file(trust)

    flagged = verify.verify_sheet(text, trusted=trusted)
    assert not flagged.ok and flagged.flagged
    assert flagged.summary() == (
        f"FLAGGED: signed by key {alice.fingerprint} as 'bob', "
        "but the trust list binds that key to 'alice'"
    )
    failed = verify.verify_sheet(text, trusted=trusted, require_trusted=True)
    assert not failed.ok and not failed.flagged and failed.summary().startswith("FAILED: ")

    # The same sheet under the right name is OK and says who signed with which key.
    good = verify.verify_sheet(_signed(alice).to_json(), trusted=trusted, require_trusted=True)
    assert good.summary() == f"OK: signed by alice ({alice.fingerprint}), trusted"


def test_a_bare_fingerprint_trusts_the_key_under_any_name(alice: RaterKey) -> None:
    text = _signed(RaterKey("bob", alice.private_key)).to_json()
    result = verify.verify_sheet(text, trusted={alice.fingerprint: None}, require_trusted=True)
    assert result.ok and result.summary() == f"OK: signed by bob ({alice.fingerprint}), trusted"


def test_a_trust_list_naming_one_key_twice_differently_is_refused(
    tmp_path: Path, alice: RaterKey
) -> None:
    trust = tmp_path / "trusted.txt"
    trust.write_text(f"{alice.public.line()}\n{keys.KEY_TYPE} {alice.public.b64} bob\n")
    with pytest.raises(keys.KeyStoreError, match=r"trusted.txt:2: .* as 'alice' and as 'bob'"):
        load_trust_file(trust)


# --- file names ----------------------------------------------------------------------------


def _name(key: RaterKey, run_id: str, sheet_id: str = "6f1c2a4e-0000") -> str:
    payload = make_payload(key, sheet_id=sheet_id)
    payload = make_payload(
        key, sheet_id=sheet_id, run={**payload.run.model_dump(), "run_id": run_id}
    )
    return sheet.sheet_file_name(payload)


@pytest.mark.parametrize("run_id", ["x" * 300, "é" * 300, "a.b" * 100, "%" * 300])
def test_long_run_ids_give_bounded_unique_names(alice: RaterKey, run_id: str) -> None:
    name = _name(alice, run_id)
    assert len(name) <= sheet.FILE_NAME_LIMIT
    assert name.endswith(".6f1c2a4e.sheet.json")
    assert _name(alice, run_id + "y") != name  # the hash of the full name keeps them apart
    assert _name(alice, run_id, "77777777-1") != name  # so does the sheet id


@pytest.mark.parametrize("run_id", ["CON", "nul", "Com1", "LPT9", "aux", "PRN"])
def test_windows_device_names_are_defused(alice: RaterKey, run_id: str) -> None:
    name = _name(alice, run_id)
    assert name.split(".")[0].upper() not in {"CON", "NUL", "COM1", "LPT9", "AUX", "PRN"}
    assert name.startswith("%")


def test_names_hold_no_forbidden_characters(alice: RaterKey) -> None:
    name = _name(alice, 'a<b>c:d"e/f\\g|h?i*j k\n. ')
    assert not set(name) & set('<>:"/\\|?* \n')
    assert not name.endswith((".", " "))


# --- hostile files given to verify ------------------------------------------------------


def test_a_sheet_nested_100000_deep_is_a_failed_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.sheet.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = verify.verify_file(path)
    assert not result.ok and result.reason is not None
    assert result.reason.startswith("malformed sheet")


def test_a_huge_sheet_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = tmp_path / "huge.sheet.json"
    with path.open("wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse: no disk used
    result = verify.verify_file(path)
    assert not result.ok and "larger than" in (result.reason or "")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_given_as_a_sheet_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "zero.sheet.json"
    link.symlink_to("/dev/zero")
    assert verify.verify_file(link).reason == "cannot read sheet: it is not a regular file"


# --- formats ----------------------------------------------------------------------------


def test_new_sheets_are_rfc8785_format_2(alice: RaterKey) -> None:
    signed = _signed(alice)
    envelope = json.loads(signed.to_json())
    assert envelope["sheet_format"] == "a320-review-sheet/2"
    # RFC 8785 writes 1.0 as 1 (Python's json.dumps writes 1.0).
    payload = make_payload(alice, scorer={"version": "1", "vector": {"coverage": 1.0}})
    text = sheet.sign_payload(payload, alice).payload_text
    assert '"coverage":1}' in text and '"coverage":1.0' not in text
    assert json.loads(text)["audit_head"] == {"entries": 12, "hash": "cd" * 32}


def test_a_format_1_sheet_signed_before_still_verifies(tmp_path: Path) -> None:
    text = (FIXTURES / "format1.sheet.json").read_text(encoding="utf-8")
    trust = tmp_path / "trusted.txt"
    trust.write_text(FORMAT1_KEY_LINE + "\n")
    result = verify.verify_sheet(text, trusted=load_trust_file(trust), require_trusted=True)
    assert result.ok, result.reason
    assert result.summary().startswith("OK: signed by A. Martin (SHA256:")
    assert result.sheet is not None
    # Written again (export), it is the same file: format, payload and signature unchanged.
    assert sheet.sheet_file_bytes(result.sheet) == text.encode("utf-8")
    assert '"coverage":1.0' in json.loads(text)["payload"]


def test_a_format_2_envelope_around_a_format_1_payload_fails(tmp_path: Path) -> None:
    envelope = json.loads((FIXTURES / "format1.sheet.json").read_text(encoding="utf-8"))
    envelope["sheet_format"] = sheet.SHEET_FORMAT
    result = verify.verify_sheet(json.dumps(envelope))
    assert not result.ok and "differs from the envelope's" in (result.reason or "")


def test_sheet_file_bytes_are_the_bytes_written(alice: RaterKey, tmp_path: Path) -> None:
    signed = _signed(alice)
    assert sheet.sheet_file_bytes(signed) == signed.to_json().encode("utf-8")
    assert verify.read_sheet(sheet.sheet_file_bytes(signed)).file_sha256 == signed.file_sha256

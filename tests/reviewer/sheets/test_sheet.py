"""The sheet payload, its canonical bytes, signing and every way verification fails."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer.sheets import keys, sheet, verify
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetPayload, SignedSheet

TRAJECTORY = b'{"type":"header","run_id":"run-1"}\n{"type":"final","passed":true}\n'


def make_payload(key: RaterKey, **changes: object) -> SheetPayload:
    """A small but complete payload signed-to-be by ``key``."""
    public = key.public
    data: dict[str, object] = {
        "sheet_id": "6f1c2a4e-0000-4000-8000-000000000001",
        "supersedes": None,
        "signed_at": datetime(2025, 3, 1, 10, 15, tzinfo=UTC),
        "run": {
            "run_id": "run-1",
            "trajectory_sha256": hashlib.sha256(TRAJECTORY).hexdigest(),
            "scenario_id": "elec-apu-gen-fault",
            "model": "m",
        },
        "scorer": {"version": "1.0", "vector": {"coverage": 0.75, "all_passed": True}},
        "rubric": {"id": "default", "version": 1, "sha256": "ab" * 32},
        "items": [
            {
                "metric_id": "safety",
                "title": "Safety",
                "outcome": "pass",
                "score": 3,
                "anchor": "No unsafe action",
                "comment": "Vérifié",
            }
        ],
        "overall_comment": "ok",
        "rater": {"name": key.rater, "public_key": public.b64, "fingerprint": public.fingerprint},
        "audit_head": {"entries": 12, "hash": "cd" * 32},
    }
    data.update(changes)
    return SheetPayload.model_validate(data)


@pytest.fixture
def key(tmp_path: Path) -> RaterKey:
    return keys.generate_key("alice", directory=tmp_path / "keys")


@pytest.fixture
def other_key(tmp_path: Path) -> RaterKey:
    return keys.generate_key("mallory", directory=tmp_path / "keys")


@pytest.fixture
def signed(key: RaterKey) -> SignedSheet:
    return sheet.sign_payload(make_payload(key), key)


def _envelope(signed: SignedSheet) -> dict[str, str]:
    return json.loads(signed.to_json())


def _with(env: dict[str, str], **changes: str) -> str:
    return json.dumps({**env, **changes})


def test_canonical_bytes_are_sorted_compact_utf8() -> None:
    assert sheet.canonical_bytes({"b": 1, "a": ["é", None]}) == '{"a":["é",null],"b":1}'.encode()
    with pytest.raises(ValueError):
        sheet.canonical_bytes({"x": float("nan")})


def test_round_trip_sign_then_verify(signed: SignedSheet, key: RaterKey) -> None:
    result = verify.verify_sheet(signed.to_json())
    assert result.ok, result.reason
    assert result.sheet is not None
    assert result.sheet.payload == signed.payload
    assert result.fingerprint == key.fingerprint
    assert result.summary() == f"OK: signed by alice ({key.fingerprint}), no trust list given"
    # The signed bytes are the canonical form of the payload, stored verbatim.
    assert signed.payload_text.encode() == signed.payload.canonical_bytes()
    assert _envelope(signed)["payload"] == signed.payload_text
    assert signed.file_sha256 == hashlib.sha256(signed.to_json().encode()).hexdigest()


def test_payload_text_holds_every_field_the_issue_asks_for(signed: SignedSheet) -> None:
    payload = json.loads(signed.payload_text)
    assert set(payload) == {
        "sheet_format", "sheet_id", "supersedes", "signed_at", "run", "scorer", "rubric",
        "items", "overall_comment", "rater", "audit_head",
    }  # fmt: skip
    assert set(payload["run"]) == {"run_id", "trajectory_sha256", "scenario_id", "model"}
    assert set(payload["rater"]) == {"name", "public_key", "fingerprint"}
    assert payload["signed_at"] == "2025-03-01T10:15:00Z"


def test_reindenting_the_envelope_keeps_it_valid(signed: SignedSheet) -> None:
    compact = json.dumps(_envelope(signed), separators=(",", ":"), ensure_ascii=True)
    assert verify.verify_sheet(compact).ok


def test_every_single_byte_change_of_the_payload_fails(signed: SignedSheet) -> None:
    env = _envelope(signed)
    data = signed.payload_text.encode()
    assert len(data) < 2000  # small enough to try every position
    for i in range(len(data)):
        # XOR 1 keeps ASCII ASCII and a UTF-8 continuation byte a continuation byte.
        tampered = bytearray(data)
        tampered[i] ^= 0x01
        text = tampered.decode("utf-8")
        result = verify.verify_sheet(_with(env, payload=text))
        assert not result.ok, i
        assert result.reason == "signature does not match payload", (i, result.reason)


def test_every_single_byte_change_of_the_signature_fails(signed: SignedSheet) -> None:
    env = _envelope(signed)
    for i in range(64):
        for flip in (0x01, 0x80):
            tampered = bytearray(signed.signature)
            tampered[i] ^= flip
            sig = base64.b64encode(bytes(tampered)).decode()
            result = verify.verify_sheet(_with(env, signature=sig))
            assert result.reason == "signature does not match payload", (i, flip)


def test_every_character_change_of_the_signature_text_fails(signed: SignedSheet) -> None:
    env = _envelope(signed)
    text = env["signature"]
    for i in range(len(text)):
        for replacement in ("A", "/", "!", "="):
            if text[i] == replacement:
                continue
            result = verify.verify_sheet(
                _with(env, signature=text[:i] + replacement + text[i + 1 :])
            )
            assert not result.ok, (i, replacement)
            assert result.reason in {
                "signature does not match payload",
                "malformed sheet: signature is not base64",
                "malformed sheet: signature is not canonical base64",
            } or result.reason.startswith("malformed sheet: signature has"), result.reason


def _set_unused_bit(text: str) -> str:
    """The same bytes, spelt differently: the last data character's low bit is unused."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    data = text.rstrip("=")
    last = alphabet[alphabet.index(data[-1]) ^ 1]
    return data[:-1] + last + "=" * (len(text) - len(data))


def test_signature_and_key_texts_must_be_canonical_base64(signed: SignedSheet) -> None:
    env = _envelope(signed)
    odd_sig = _set_unused_bit(env["signature"])
    assert base64.b64decode(odd_sig) == signed.signature  # a lenient decoder accepts it
    result = verify.verify_sheet(_with(env, signature=odd_sig))
    assert result.reason == "malformed sheet: signature is not canonical base64"
    result = verify.verify_sheet(_with(env, public_key=_set_unused_bit(env["public_key"])))
    assert result.reason is not None
    assert result.reason.startswith("malformed sheet: public key is not canonical base64")


def test_a_field_edit_fails(signed: SignedSheet, key: RaterKey) -> None:
    env = _envelope(signed)
    edited = json.loads(signed.payload_text)
    edited["items"][0]["score"] = 1
    result = verify.verify_sheet(_with(env, payload=sheet.canonical_bytes(edited).decode()))
    assert result.reason == "signature does not match payload"


def test_a_wrong_key_fails(signed: SignedSheet, other_key: RaterKey) -> None:
    env = _envelope(signed)
    # Someone else's key in the envelope: the signature is not theirs.
    result = verify.verify_sheet(_with(env, public_key=other_key.public.b64))
    assert result.reason == "signature does not match payload"
    # Someone else signs the same payload (which names alice): caught after the signature.
    forged = other_key.sign(signed.payload_text.encode())
    result = verify.verify_sheet(
        _with(
            env,
            public_key=other_key.public.b64,
            signature=base64.b64encode(forged).decode(),
        )
    )
    assert result.reason == "malformed sheet: payload names another key than the signer's"


def test_signing_refuses_a_payload_naming_another_key(key: RaterKey, other_key: RaterKey) -> None:
    with pytest.raises(sheet.SheetError, match="another key"):
        sheet.sign_payload(make_payload(key), other_key)


def test_a_different_trajectory_fails(signed: SignedSheet) -> None:
    good = hashlib.sha256(TRAJECTORY).hexdigest()
    assert verify.verify_sheet(signed.to_json(), trajectory_sha256=good).ok
    bad = hashlib.sha256(TRAJECTORY + b"\n").hexdigest()
    result = verify.verify_sheet(signed.to_json(), trajectory_sha256=bad)
    assert result.reason is not None
    assert result.reason.startswith(f"trajectory sha256 differs: sheet has {good[:16]}…")
    assert bad[:16] in result.reason


def test_verify_file_hashes_the_trajectory(signed: SignedSheet, tmp_path: Path) -> None:
    path = tmp_path / "s.sheet.json"
    path.write_text(signed.to_json(), encoding="utf-8")
    trajectory = tmp_path / "run.jsonl"
    trajectory.write_bytes(TRAJECTORY)
    assert verify.verify_file(path, trajectory=trajectory).ok
    trajectory.write_bytes(TRAJECTORY.replace(b"true", b"false"))
    assert "trajectory sha256 differs" in (
        verify.verify_file(path, trajectory=trajectory).reason or ""
    )
    missing = verify.verify_file(tmp_path / "absent.json")
    assert missing.reason == "cannot read sheet: no such file"


def test_trust(signed: SignedSheet, key: RaterKey, other_key: RaterKey) -> None:
    text = signed.to_json()
    trusted = verify.verify_sheet(text, trusted=frozenset({key.fingerprint}))
    assert trusted.summary() == f"OK: signed by alice ({key.fingerprint}), trusted"
    untrusted = verify.verify_sheet(text, trusted=frozenset({other_key.fingerprint}))
    assert untrusted.ok
    assert untrusted.summary() == (
        f"OK: signed by alice ({key.fingerprint}), key not in the trust list"
    )
    required = verify.verify_sheet(
        text, trusted=frozenset({other_key.fingerprint}), require_trusted=True
    )
    assert required.summary() == (
        f"FAILED: key not trusted: {key.fingerprint} (sheet signed as 'alice')"
    )
    no_list = verify.verify_sheet(text, require_trusted=True)
    assert no_list.reason == f"key not trusted: {key.fingerprint} (sheet signed as 'alice')"


def test_a_non_canonical_payload_signed_correctly_is_refused(key: RaterKey) -> None:
    payload = make_payload(key)
    pretty = json.dumps(payload.model_dump(mode="json"), indent=1, sort_keys=True)
    env = {
        "sheet_format": sheet.SHEET_FORMAT,
        "algorithm": "ed25519",
        "public_key": key.public.b64,
        "payload": pretty,
        "signature": base64.b64encode(key.sign(pretty.encode())).decode(),
    }
    assert verify.verify_sheet(json.dumps(env)).reason == "payload is not canonical"


def _resigned(key: RaterKey, payload: dict[str, object]) -> str:
    text = sheet.canonical_bytes(payload).decode()
    return json.dumps(
        {
            "sheet_format": sheet.SHEET_FORMAT,
            "algorithm": "ed25519",
            "public_key": key.public.b64,
            "payload": text,
            "signature": base64.b64encode(key.sign(text.encode())).decode(),
        }
    )


def test_a_signed_payload_with_a_bad_schema_is_malformed(
    signed: SignedSheet, key: RaterKey
) -> None:
    payload = json.loads(signed.payload_text)
    del payload["overall_comment"]
    assert verify.verify_sheet(_resigned(key, payload)).reason == (
        "malformed sheet: overall_comment: Field required"
    )
    payload = json.loads(signed.payload_text)
    payload["extra"] = 1
    assert verify.verify_sheet(_resigned(key, payload)).reason == (
        "malformed sheet: extra: Extra inputs are not permitted"
    )
    payload = json.loads(signed.payload_text)
    payload["rater"]["fingerprint"] = "SHA256:nope"
    assert verify.verify_sheet(_resigned(key, payload)).reason == (
        "malformed sheet: rater fingerprint does not match the public key"
    )
    payload = json.loads(signed.payload_text)
    payload["sheet_format"] = "a320-review-sheet/1"
    assert verify.verify_sheet(_resigned(key, payload)).reason == (
        "sheet format 'a320-review-sheet/1' in the payload differs from the envelope's"
    )


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda env: "not json", "malformed sheet: not JSON"),
        (lambda env: "[]", "malformed sheet: not a JSON object"),
        (lambda env: _drop(env, "sheet_format"), "malformed sheet: no 'sheet_format'"),
        (lambda env: _drop(env, "payload"), "malformed sheet: 'payload' is missing"),
        (lambda env: _set(env, signature=5), "malformed sheet: 'signature' is missing"),
        (lambda env: _set(env, public_key="AAAA"), "malformed sheet: public key has 3 bytes"),
        (lambda env: _set(env, signature="AAAA"), "malformed sheet: signature has 3 bytes"),
        (lambda env: _set(env, sheet_format="a320-review-sheet/9"), "unsupported sheet format"),
        (lambda env: _set(env, algorithm="rsa"), "unsupported sheet format"),
    ],
)
def test_malformed_envelopes(signed: SignedSheet, mutate, reason: str) -> None:
    result = verify.verify_sheet(mutate(_envelope(signed)))
    assert not result.ok
    assert result.reason is not None and result.reason.startswith(reason), result.reason


def _drop(env: dict[str, str], name: str) -> str:
    return json.dumps({k: v for k, v in env.items() if k != name})


def _set(env: dict[str, str], **changes: object) -> str:
    return json.dumps({**env, **changes})


def test_read_sheet_reads_a_good_sheet_and_refuses_a_bad_one(signed: SignedSheet) -> None:
    again = verify.read_sheet(signed.to_json())
    assert again.signature == signed.signature
    with pytest.raises(sheet.SheetError, match="malformed sheet"):
        verify.read_sheet("{}")


def test_sheet_file_names(key: RaterKey) -> None:
    payload = make_payload(key)
    assert sheet.sheet_file_name(payload) == "run-1.alice.6f1c2a4e.sheet.json"
    odd = make_payload(key, run={**payload.run.model_dump(), "run_id": "run/1 x"})
    assert sheet.sheet_file_name(odd, ".pdf") == "run%2F1%20x.alice.6f1c2a4e.sheet.pdf"

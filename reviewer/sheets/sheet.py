"""The signed rating sheet: its payload, canonical bytes, signature and verification.

A sheet file is a small JSON envelope::

    {"sheet_format": "a320-review-sheet/1", "algorithm": "ed25519",
     "public_key": "<base64 raw key>", "payload": "<canonical JSON text>",
     "signature": "<base64 of 64 bytes>"}

The payload is kept as a *string*: the signature covers exactly its UTF-8 bytes, so a
verifier never has to re-serialise anything to check it, and any JSON tool that re-indents
the envelope leaves the signed bytes alone. The public key is repeated in the envelope so
that the signature is checked before the payload is even parsed: a changed payload byte is
always reported as "signature does not match payload", never as some parse error that the
change happened to cause.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer

from reviewer.sheets.keys import (
    KeyStoreError,
    PublicKey,
    RaterKey,
    decode_public_key,
    file_stem,
    fingerprint,
)

SHEET_FORMAT = "a320-review-sheet/1"
ALGORITHM = "ed25519"
_HEX64 = r"^[0-9a-f]{64}$"


class SheetError(Exception):
    """A sheet cannot be built, read or signed; the message is the reason."""


class _Frozen(BaseModel):
    # extra="forbid": a field the signer did not know about is a malformed sheet, not data
    # to carry along unread.
    model_config = ConfigDict(frozen=True, extra="forbid")


class SheetRun(_Frozen):
    """The trajectory the rater judged."""

    run_id: str
    trajectory_sha256: str = Field(pattern=_HEX64)
    scenario_id: str | None
    model: str | None


class SheetScorer(_Frozen):
    """The scorer's verdict the rater saw."""

    version: str
    vector: dict[str, float | int | bool | None]


class SheetRubric(_Frozen):
    """The rubric the rater filled in."""

    id: str
    version: int | str
    sha256: str = Field(pattern=_HEX64)


class SheetBlindItem(_Frozen):
    """A metric as rated blind, before the scorer's view was revealed."""

    outcome: str | None
    score: int | None
    comment: str


class SheetItem(_Frozen):
    """One rubric metric as rated, with the wording the rater saw."""

    metric_id: str
    title: str
    outcome: str | None
    score: int | None
    anchor: str | None = Field(description="the rubric's text for the chosen score")
    comment: str
    blind: SheetBlindItem | None = Field(default=None, description="blind-protocol value")
    reason: str | None = Field(default=None, description="why the final differs from blind")

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler):  # type: ignore[no-untyped-def]
        return _omit_none(handler(self), ("blind", "reason"))


class SheetStudy(_Frozen):
    """The study the rating was made in, and its blind phase if any."""

    name: str
    protocol: str
    reveal_first: bool = Field(default=False, description="control arm: scorer shown first")
    blind_submitted_at: datetime | None = None
    revealed_at: datetime | None = None


def _omit_none(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    # Fields added after the first sheet format are left out when empty, so a sheet made
    # outside a study has exactly the bytes it always had.
    return {k: v for k, v in data.items() if not (k in keys and v is None)}


class SheetRater(_Frozen):
    """Who signed, and with which key."""

    name: str
    public_key: str = Field(description="base64 of the raw 32-byte Ed25519 key")
    fingerprint: str


class SheetPayload(_Frozen):
    """Everything the signature binds, in one canonical JSON object."""

    sheet_format: str = SHEET_FORMAT
    sheet_id: str
    supersedes: str | None = Field(description="sheet_id of the sheet this one corrects")
    signed_at: datetime
    run: SheetRun
    scorer: SheetScorer
    rubric: SheetRubric
    items: list[SheetItem]
    overall_comment: str
    rater: SheetRater
    study: SheetStudy | None = Field(default=None, description="set for ratings in a study")

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler):  # type: ignore[no-untyped-def]
        return _omit_none(handler(self), ("study",))

    def canonical_bytes(self) -> bytes:
        """The bytes that are signed."""
        return canonical_bytes(self.model_dump(mode="json"))


def canonical_bytes(obj: Any) -> bytes:
    """Sorted keys, UTF-8, no insignificant whitespace; NaN and infinities refused."""
    return json.dumps(
        obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")


@dataclass(frozen=True)
class SignedSheet:
    """A payload with its signature, as written to ``<run_id>.<rater>.sheet.json``."""

    payload: SheetPayload
    payload_text: str
    signature: bytes

    @property
    def signature_digest(self) -> str:
        """SHA-256 (hex) of the signature: a short handle to print and compare."""
        return hashlib.sha256(self.signature).hexdigest()

    def to_json(self) -> str:
        """The sheet file's text (an indented envelope; the payload string is untouched)."""
        envelope = {
            "sheet_format": SHEET_FORMAT,
            "algorithm": ALGORITHM,
            "public_key": self.payload.rater.public_key,
            "payload": self.payload_text,
            "signature": base64.b64encode(self.signature).decode("ascii"),
        }
        return json.dumps(envelope, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: str | bytes) -> SignedSheet:
        """Read a sheet that is known to be good (e.g. from the store): verifies it too."""
        result = verify_sheet(data)
        if not result.ok or result.sheet is None:
            raise SheetError(result.reason or "sheet does not verify")
        return result.sheet


def sheet_file_name(run_id: str, rater: str, suffix: str = ".json") -> str:
    """``<run_id>.<rater>.sheet.json`` (or ``.pdf``), both names made file-name safe."""
    return f"{file_stem(run_id)}.{file_stem(rater)}.sheet{suffix}"


def sign_payload(payload: SheetPayload, key: RaterKey) -> SignedSheet:
    """Sign ``payload`` with ``key``; the payload must name that key as the rater's."""
    public = key.public
    if payload.rater.public_key != public.b64 or payload.rater.fingerprint != public.fingerprint:
        raise SheetError("the payload names another key than the one signing it")
    data = payload.canonical_bytes()
    return SignedSheet(payload, data.decode("utf-8"), key.sign(data))


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of checking one sheet."""

    ok: bool
    reason: str | None = None
    sheet: SignedSheet | None = None
    fingerprint: str | None = None
    trusted: bool | None = None

    def summary(self) -> str:
        """``OK``, ``OK (untrusted key …)`` or ``FAILED: <reason>``, as ``verify`` prints."""
        if not self.ok:
            return f"FAILED: {self.reason}"
        if self.trusted is None:
            return f"OK (key {self.fingerprint}, no trust list given)"
        if not self.trusted:
            return f"OK (untrusted key {self.fingerprint})"
        return "OK"


def _failed(reason: str, **known: Any) -> VerifyResult:
    return VerifyResult(ok=False, reason=reason, **known)


def verify_sheet(
    data: str | bytes,
    *,
    trajectory_sha256: str | None = None,
    trusted: frozenset[str] | None = None,
    require_trusted: bool = False,
) -> VerifyResult:
    """Check one sheet file's content; never raises for a bad sheet.

    Order matters for the reasons reported: the envelope, then the signature over the raw
    payload bytes, then whether those bytes are canonical, then the payload's schema, then
    the trajectory, then trust. ``trusted`` is a set of fingerprints; ``None`` means no trust
    list was given.
    """
    try:
        envelope = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        return _failed(f"malformed sheet: not JSON ({exc})")
    if not isinstance(envelope, dict):
        return _failed("malformed sheet: not a JSON object")
    if "sheet_format" not in envelope:
        return _failed("malformed sheet: no 'sheet_format'")
    if envelope["sheet_format"] != SHEET_FORMAT or envelope.get("algorithm") != ALGORITHM:
        return _failed(
            f"unsupported sheet format {envelope['sheet_format']!r} "
            f"with algorithm {envelope.get('algorithm')!r} "
            f"(this version reads {SHEET_FORMAT!r} with {ALGORITHM!r})"
        )
    for name in ("public_key", "payload", "signature"):
        if not isinstance(envelope.get(name), str):
            return _failed(f"malformed sheet: '{name}' is missing or not a string")
    try:
        raw_key = decode_public_key(envelope["public_key"])
    except KeyStoreError as exc:
        return _failed(f"malformed sheet: {exc}")
    key_fp = fingerprint(raw_key)
    try:
        signature = base64.b64decode(envelope["signature"].encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        return _failed("malformed sheet: signature is not base64", fingerprint=key_fp)
    # The last base64 character carries unused bits that the decoder ignores; demanding the
    # canonical text means no character of the signature can change without failing.
    if base64.b64encode(signature).decode("ascii") != envelope["signature"]:
        return _failed("malformed sheet: signature is not canonical base64", fingerprint=key_fp)
    if len(signature) != 64:
        return _failed(
            f"malformed sheet: signature has {len(signature)} bytes, not 64", fingerprint=key_fp
        )
    try:
        payload_bytes = envelope["payload"].encode("utf-8")
    except UnicodeEncodeError:
        return _failed("malformed sheet: payload is not valid UTF-8", fingerprint=key_fp)

    try:
        PublicKey(raw_key).verifier().verify(signature, payload_bytes)
    except InvalidSignature:
        return _failed("signature does not match payload", fingerprint=key_fp)

    # From here on the bytes are exactly what the key holder signed.
    try:
        parsed = json.loads(payload_bytes)
        canonical = canonical_bytes(parsed)
    except ValueError as exc:
        return _failed(f"malformed sheet: payload is not JSON ({exc})", fingerprint=key_fp)
    if canonical != payload_bytes:
        return _failed("payload is not canonical", fingerprint=key_fp)
    if isinstance(parsed, dict) and parsed.get("sheet_format") != SHEET_FORMAT:
        return _failed(
            f"unsupported sheet format {parsed.get('sheet_format')!r} in the payload",
            fingerprint=key_fp,
        )
    try:
        payload = SheetPayload.model_validate(parsed)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        return _failed(f"malformed sheet: {where}: {first['msg']}", fingerprint=key_fp)
    if payload.rater.public_key != envelope["public_key"]:
        return _failed(
            "malformed sheet: payload names another key than the signer's", fingerprint=key_fp
        )
    if payload.rater.fingerprint != key_fp:
        return _failed(
            "malformed sheet: rater fingerprint does not match the public key",
            fingerprint=key_fp,
        )

    sheet = SignedSheet(payload, envelope["payload"], signature)
    if trajectory_sha256 is not None and trajectory_sha256 != payload.run.trajectory_sha256:
        return _failed(
            f"trajectory sha256 differs: sheet has {payload.run.trajectory_sha256[:16]}…, "
            f"file has {trajectory_sha256[:16]}…",
            sheet=sheet,
            fingerprint=key_fp,
        )
    is_trusted = None if trusted is None else key_fp in trusted
    if require_trusted and not is_trusted:
        return _failed(f"key not trusted: {key_fp}", sheet=sheet, fingerprint=key_fp)
    return VerifyResult(ok=True, sheet=sheet, fingerprint=key_fp, trusted=is_trusted)


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes, read in blocks (trajectories can be large)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_file(
    path: Path,
    *,
    trajectory: Path | None = None,
    trusted: frozenset[str] | None = None,
    require_trusted: bool = False,
) -> VerifyResult:
    """:func:`verify_sheet` on a file; unreadable files are a FAILED result too."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return _failed(f"cannot read sheet: {exc.strerror or exc}")
    traj_sha = None
    if trajectory is not None:
        try:
            traj_sha = file_sha256(trajectory)
        except OSError as exc:
            return _failed(f"cannot read trajectory {trajectory}: {exc.strerror or exc}")
    return verify_sheet(
        data, trajectory_sha256=traj_sha, trusted=trusted, require_trusted=require_trusted
    )

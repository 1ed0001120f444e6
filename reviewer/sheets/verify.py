"""Checking sheet files: signature, canonical form, schema, trajectory, and the trust list.

A verifier never raises for a bad sheet: every problem is a :class:`VerifyResult` with a
reason, so ``verify`` prints one line per sheet whatever the file holds (a truncated file,
a payload nested 100,000 deep, a device instead of a file).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from pydantic import ValidationError

from reviewer.sheets.adjudication import ADJUDICATION_FORMAT, AdjudicationPayload
from reviewer.sheets.keys import (
    KeyStoreError,
    PublicKey,
    decode_public_key,
    fingerprint,
    read_key_file,
)
from reviewer.sheets.sheet import (
    ALGORITHM,
    SHEET_FORMATS,
    SheetError,
    SheetPayload,
    SignedSheet,
    canonical_bytes,
)
from reviewer.sheets.trust import name_claim_problem

#: The payload model of each sheet format this version reads: rating sheets and
#: adjudication sheets share the envelope, the signature and the canonical form.
PAYLOAD_MODELS: dict[str, type[SheetPayload] | type[AdjudicationPayload]] = {
    **dict.fromkeys(SHEET_FORMATS, SheetPayload),
    ADJUDICATION_FORMAT: AdjudicationPayload,
}

#: A sheet is a few kilobytes (comments are bounded by the rubric); anything far larger is
#: not one, and reading it whole would only cost memory.
SHEET_FILE_LIMIT = 8 * 1024 * 1024

#: Fingerprint -> the rater name the trust list binds it to (``None``: a bare fingerprint).
Trust = Mapping[str, str | None]


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of checking one sheet.

    ``flagged`` marks a sheet whose signature is good but whose rater name is not the name
    the trust list gives its key: not OK, though not a broken signature either.
    """

    ok: bool
    reason: str | None = None
    sheet: SignedSheet | None = None
    fingerprint: str | None = None
    trusted: bool | None = None
    flagged: bool = False

    @property
    def signer(self) -> str | None:
        """The rater name the sheet carries, once its signature was checked."""
        return self.sheet.payload.rater.name if self.sheet is not None else None

    @property
    def is_adjudication(self) -> bool:
        """Whether the sheet is an adjudication sheet (:mod:`reviewer.sheets.adjudication`)."""
        return self.sheet is not None and isinstance(self.sheet.payload, AdjudicationPayload)

    def summary(self) -> str:
        """The line ``verify`` prints: ``OK: signed by NAME (SHA256:…)…``, or why not."""
        if self.flagged:
            return f"FLAGGED: {self.reason}"
        if not self.ok:
            return f"FAILED: {self.reason}"
        kind = "adjudication " if self.is_adjudication else ""
        line = f"OK: {kind}signed by {self.signer} ({self.fingerprint})"
        if self.trusted is None:
            return line + ", no trust list given"
        if not self.trusted:
            return line + ", key not in the trust list"
        return line + ", trusted"


def _failed(reason: str, **known: Any) -> VerifyResult:
    return VerifyResult(ok=False, reason=reason, **known)


def verify_sheet(
    data: str | bytes,
    *,
    trajectory_sha256: str | None = None,
    trusted: Trust | frozenset[str] | None = None,
    require_trusted: bool = False,
) -> VerifyResult:
    """Check one sheet file's content; never raises for a bad sheet.

    Order matters for the reasons reported: the envelope, then the signature over the raw
    payload bytes, then whether those bytes are canonical, then the payload's schema, then
    the trajectory, then trust. ``trusted`` maps fingerprints to the rater names the trust
    list binds them to (a plain set of fingerprints binds no names); ``None`` means no
    trust list was given.
    """
    try:
        return _verify(data, trajectory_sha256, trusted, require_trusted)
    except RecursionError:
        return _failed("malformed sheet: JSON nested too deeply")
    except MemoryError:
        return _failed("malformed sheet: too large")
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        # A shape no check above foresaw: still a FAILED line, never a traceback.
        return _failed(f"malformed sheet ({type(exc).__name__})")


def _verify(
    data: str | bytes,
    trajectory_sha256: str | None,
    trusted: Trust | frozenset[str] | None,
    require_trusted: bool,
) -> VerifyResult:
    try:
        envelope = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        return _failed(f"malformed sheet: not JSON ({exc})")
    if not isinstance(envelope, dict):
        return _failed("malformed sheet: not a JSON object")
    if "sheet_format" not in envelope:
        return _failed("malformed sheet: no 'sheet_format'")
    sheet_format = envelope["sheet_format"]
    # A list or object here is unhashable: checked as text first, not looked up.
    if (
        not isinstance(sheet_format, str)
        or sheet_format not in PAYLOAD_MODELS
        or envelope.get("algorithm") != ALGORITHM
    ):
        return _failed(
            f"unsupported sheet format {str(sheet_format)[:60]!r} "
            f"with algorithm {str(envelope.get('algorithm'))[:20]!r} "
            f"(this version reads {', '.join(PAYLOAD_MODELS)} with {ALGORITHM!r})"
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
    except ValueError as exc:
        return _failed(f"malformed sheet: payload is not JSON ({exc})", fingerprint=key_fp)
    if not isinstance(parsed, dict) or parsed.get("sheet_format") != sheet_format:
        found = parsed.get("sheet_format") if isinstance(parsed, dict) else None
        return _failed(
            f"sheet format {str(found)[:60]!r} in the payload differs from the envelope's",
            fingerprint=key_fp,
        )
    try:
        canonical = canonical_bytes(parsed, sheet_format)
    except ValueError as exc:
        return _failed(f"payload is not canonical ({exc})", fingerprint=key_fp)
    if canonical != payload_bytes:
        return _failed("payload is not canonical", fingerprint=key_fp)
    try:
        payload = PAYLOAD_MODELS[sheet_format].model_validate(parsed)
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

    # SignedSheet.payload is typed as the rating sheet's payload (sheet.py cannot name the
    # adjudication payload, which builds on it); an adjudication sheet shares the envelope.
    sheet = SignedSheet(payload, envelope["payload"], signature)  # type: ignore[arg-type]  # see above
    if trajectory_sha256 is not None and trajectory_sha256 != payload.run.trajectory_sha256:
        return _failed(
            f"trajectory sha256 differs: sheet has {payload.run.trajectory_sha256[:16]}…, "
            f"file has {trajectory_sha256[:16]}…",
            sheet=sheet,
            fingerprint=key_fp,
        )
    return _judge_trust(sheet, key_fp, trusted, require_trusted)


def _judge_trust(
    sheet: SignedSheet,
    key_fp: str,
    trusted: Trust | frozenset[str] | None,
    require_trusted: bool,
) -> VerifyResult:
    """Trust binds a key to a name: the right key under another rater's name is not OK."""
    known = dict(trusted) if isinstance(trusted, Mapping) else dict.fromkeys(trusted or ())
    is_trusted = None if trusted is None else key_fp in known
    name = sheet.payload.rater.name
    bound = known.get(key_fp) if is_trusted else None
    if bound is not None and bound != name:
        return VerifyResult(
            ok=False,
            reason=f"signed by key {key_fp} as {name!r}, but the trust list binds that key "
            f"to {bound!r}",
            sheet=sheet,
            fingerprint=key_fp,
            trusted=True,
            flagged=not require_trusted,
        )
    squatted = name_claim_problem(known, key_fp, name) if trusted is not None else None
    if squatted is not None:
        return _failed(squatted, sheet=sheet, fingerprint=key_fp, trusted=is_trusted)
    if require_trusted and not is_trusted:
        return _failed(
            f"key not trusted: {key_fp} (sheet signed as {name!r})",
            sheet=sheet,
            fingerprint=key_fp,
            trusted=is_trusted,
        )
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
    trusted: Trust | frozenset[str] | None = None,
    require_trusted: bool = False,
) -> VerifyResult:
    """:func:`verify_sheet` on a file; unreadable, non-regular or huge files are FAILED."""
    try:
        data = read_key_file(Path(path), SHEET_FILE_LIMIT)
    except FileNotFoundError:
        return _failed("cannot read sheet: no such file")
    except KeyStoreError as exc:
        return _failed(str(exc).replace(f"cannot read {path}", "cannot read sheet"))
    traj_sha = None
    if trajectory is not None:
        try:
            traj_sha = file_sha256(trajectory)
        except OSError as exc:
            return _failed(f"cannot read trajectory {trajectory}: {exc.strerror or exc}")
    return verify_sheet(
        data, trajectory_sha256=traj_sha, trusted=trusted, require_trusted=require_trusted
    )


def read_sheet(data: str | bytes) -> SignedSheet:
    """A sheet that is known to be good (e.g. from the store), read and verified again.

    Raises :class:`~reviewer.sheets.sheet.SheetError` with the reason when it does not
    verify: unlike :func:`verify_sheet`, a bad sheet here is a fault, not a finding.
    """
    result = verify_sheet(data)
    if not result.ok or result.sheet is None:
        raise SheetError(result.reason or "sheet does not verify")
    return result.sheet

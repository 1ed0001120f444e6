"""The signed envelope a reference or a decision travels in: the canonical payload, the
signer's public key and the Ed25519 signature, as a packet's manifest is.

Pure: keys in, JSON objects out. :class:`GoldError` names what is wrong in one line.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from reviewer.sheets import envelope, sheet
from reviewer.sheets.keys import RaterKey, fingerprint

P = TypeVar("P", bound=BaseModel)


class GoldError(ValueError):
    """A gold reference, plan, qualification or decision breaks a rule; the message says
    which, in one line."""


def seal(payload: BaseModel, key: RaterKey) -> dict[str, str]:
    """``payload`` signed with ``key``: ``{algorithm, public_key, payload, signature}``."""
    return envelope.seal(sheet.canonical_bytes(payload.model_dump(mode="json")), key)


def unseal(sealed: Any, model: type[P], *, what: str) -> tuple[P, str]:
    """The verified payload and the signer's key fingerprint; :class:`GoldError` if the
    signature, the form or the payload's own ``owner`` key disagree."""
    if not isinstance(sealed, dict):
        raise GoldError(f"{what}: not a signed envelope")
    try:
        raw, data = envelope.verified(sealed)
    except envelope.MalformedEnvelope as exc:
        raise GoldError(f"{what}: malformed envelope ({exc})") from None
    except envelope.SignatureMismatch:
        raise GoldError(f"{what}: the signature does not match") from None
    try:
        parsed = json.loads(data)
        payload = model.model_validate(parsed)
    except (ValueError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise GoldError(f"{what}: malformed payload ({first})") from None
    if sheet.canonical_bytes(parsed) != data:
        raise GoldError(f"{what}: the payload is not canonical")
    fp = fingerprint(raw)
    owner = getattr(payload, "owner", None)
    if owner is None or owner.fingerprint != fp or owner.public_key != sealed["public_key"]:
        raise GoldError(f"{what}: the payload names another key than the signer's")
    return payload, fp

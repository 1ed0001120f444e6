"""A signed envelope: a canonical JSON payload, the signer's public key and the signature.

Packets (:mod:`reviewer.studies.packet`) and gold references and decisions
(:mod:`reviewer.gold.envelope`) travel in this form; each caller adds its own fields (a
packet's ``packet_format``) and words its own refusals, but the signing and the check of
the signature are these two functions.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature

from reviewer.sheets.keys import KeyStoreError, PublicKey, RaterKey, decode_public_key
from reviewer.sheets.sheet import ALGORITHM


class MalformedEnvelope(ValueError):
    """The envelope's key, signature or payload field cannot be read (the message says
    which)."""


class SignatureMismatch(ValueError):
    """The signature does not verify against the envelope's key and payload."""


def seal(data: bytes, key: RaterKey) -> dict[str, str]:
    """``data`` (canonical JSON bytes) signed with ``key``:
    ``{algorithm, public_key, payload, signature}``."""
    return {
        "algorithm": ALGORITHM,
        "public_key": key.public.b64,
        "payload": data.decode("utf-8"),
        "signature": base64.b64encode(key.sign(data)).decode("ascii"),
    }


def verified(envelope: Mapping[str, Any]) -> tuple[bytes, bytes]:
    """``(raw public key, payload bytes)`` of an envelope whose signature verifies;
    :class:`MalformedEnvelope` or :class:`SignatureMismatch` otherwise."""
    try:
        raw = decode_public_key(str(envelope.get("public_key")))
        signature = base64.b64decode(str(envelope.get("signature")).encode("ascii"), validate=True)
        data = str(envelope["payload"]).encode("utf-8")
        PublicKey(raw).verifier().verify(signature, data)
    except (KeyStoreError, binascii.Error, KeyError, UnicodeEncodeError) as exc:
        raise MalformedEnvelope(str(exc)) from None
    except InvalidSignature:
        raise SignatureMismatch from None
    return raw, data

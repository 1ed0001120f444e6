"""The signed rating sheet: its payload, canonical bytes, signature and file name.

A sheet file is a small JSON envelope::

    {"sheet_format": "a320-review-sheet/2", "algorithm": "ed25519",
     "public_key": "<base64 raw key>", "payload": "<canonical JSON text>",
     "signature": "<base64 of 64 bytes>"}

The payload is kept as a *string*: the signature covers exactly its UTF-8 bytes, so a
verifier never has to re-serialise anything to check it, and any JSON tool that re-indents
the envelope leaves the signed bytes alone. The public key is repeated in the envelope so
that the signature is checked before the payload is even parsed. Format 2 canonicalises the
payload with RFC 8785 (JSON Canonicalization Scheme), which other languages can re-create;
format 1 (Python's ``json.dumps(sort_keys=True)``) is still read. ``docs/sheet-format.md``
is the full description; verification lives in :mod:`reviewer.sheets.verify`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

import rfc8785
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from reviewer.sheets.keys import RaterKey, file_stem

#: The format new sheets are written in.
SHEET_FORMAT = "a320-review-sheet/2"
#: The first format (Python json.dumps canonical form); read, never written any more.
SHEET_FORMAT_V1 = "a320-review-sheet/1"
SHEET_FORMATS = (SHEET_FORMAT_V1, SHEET_FORMAT)
ALGORITHM = "ed25519"
_HEX64 = r"^[0-9a-f]{64}$"
#: Longest sheet file name (``.sheet.json`` included): fits every file system and leaves
#: room for the folder in Windows' 260-character path limit.
FILE_NAME_LIMIT = 120
_SHORT_ID = 8


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

    @classmethod
    def of(cls, run_id: str, card: Any) -> SheetRun:
        """The run ``run_id`` as its ScoreCard ``card`` read it."""
        return cls(
            run_id=run_id,
            trajectory_sha256=card.trajectory_sha256,
            scenario_id=card.scenario_id,
            model=card.model,
        )


class SheetScorer(_Frozen):
    """The scorer's verdict the rater saw."""

    version: str
    vector: dict[str, float | int | bool | None]


class SheetRubric(_Frozen):
    """The rubric the rater filled in."""

    id: str
    version: int | str
    sha256: str = Field(pattern=_HEX64)


class SheetCitation(_Frozen):
    """One step the rater cited as evidence for the metric (see :mod:`scoring.steps`)."""

    kind: Literal["event", "ground_truth"] = Field(
        description="a timeline event, or a ground-truth row (evidence of absence)"
    )
    ref: int = Field(ge=0, description="index into the trajectory's events or the procedure")
    step: str = Field(description="e.g. '3.0' or 'GT:2'")
    label: str = Field(description="e.g. '3.0 set_control apu_gen = 0'")
    note: str = ""


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
    #: Absent from sheets signed before evidence existed; they still verify.
    citations: list[SheetCitation] = Field(default_factory=list)
    blind: SheetBlindItem | None = Field(default=None, description="blind-protocol value")
    reason: str | None = Field(default=None, description="why the final differs from blind")

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = _omit_none(handler(self), ("blind", "reason"))
        if not data.get("citations"):  # no evidence cited: the bytes of an older sheet
            data.pop("citations", None)
        return data


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

    @classmethod
    def of(cls, key: Any) -> SheetRater:
        """Who signs with ``key`` (a :class:`~reviewer.sheets.keys.RaterKey`)."""
        public = key.public
        return cls(name=key.rater, public_key=public.b64, fingerprint=public.fingerprint)


class SheetAuditHead(_Frozen):
    """The review database's audit log as it stood when the sheet was signed."""

    entries: int = Field(ge=0, description="number of audit entries")
    hash: str = Field(description="hash of the last entry (64 zeros when there is none)")


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
    audit_head: SheetAuditHead | None = Field(
        default=None, description="format 2: the audit log head at signing"
    )

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Format 1 had neither field: an absent one is left out, never written as null.
        return _omit_none(handler(self), ("study", "audit_head"))

    def canonical_bytes(self) -> bytes:
        """The bytes that are signed, in this payload's own format's canonical form."""
        return canonical_bytes(self.model_dump(mode="json"), self.sheet_format)


def canonical_bytes(obj: Any, sheet_format: str = SHEET_FORMAT) -> bytes:
    """The canonical UTF-8 bytes of ``obj`` in ``sheet_format``.

    Format 2: RFC 8785 (sorted keys by UTF-16 code units, ECMAScript number form, minimal
    string escapes). Format 1: ``json.dumps(sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``. NaN and infinities are refused by both.
    """
    if sheet_format == SHEET_FORMAT_V1:
        return json.dumps(
            obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode("utf-8")
    return rfc8785.dumps(obj)


@dataclass(frozen=True)
class SignedSheet:
    """A payload with its signature, as written to ``<run_id>.<rater>.sheet.json``."""

    payload: SheetPayload
    payload_text: str
    signature: bytes

    @property
    def file_sha256(self) -> str:
        """SHA-256 (hex) of the sheet file as written: what ``sha256sum`` prints for it."""
        return hashlib.sha256(sheet_file_bytes(self)).hexdigest()

    def to_json(self) -> str:
        """The sheet file's text (an indented envelope; the payload string is untouched)."""
        envelope = {
            "sheet_format": self.payload.sheet_format,
            "algorithm": ALGORITHM,
            "public_key": self.payload.rater.public_key,
            "payload": self.payload_text,
            "signature": base64.b64encode(self.signature).decode("ascii"),
        }
        return json.dumps(envelope, indent=2, ensure_ascii=False) + "\n"


def sheet_file_bytes(sheet: SignedSheet) -> bytes:
    """Exactly the bytes written to the ``.sheet.json`` file (the PDF prints their SHA-256)."""
    return sheet.to_json().encode("utf-8")


class NamedPayload(Protocol):
    """What a sheet's file name is made of: a rating's or an adjudication's payload."""

    @property
    def sheet_id(self) -> str: ...
    @property
    def run(self) -> SheetRun: ...
    @property
    def rater(self) -> SheetRater: ...


def sheet_file_name(payload: NamedPayload, suffix: str = ".json") -> str:
    """``<run_id>.<rater>.<short sheet id>.sheet.json`` (or ``.pdf``), safe on every platform.

    The short sheet id keeps every sheet's file apart (a correction never overwrites the
    sheet it corrects). Run id and rater are percent-encoded (:func:`file_stem`, which also
    defuses Windows device names); when the name would pass :data:`FILE_NAME_LIMIT` they
    are cut and followed by a hash of the full name, so cut names stay distinct.
    """
    short_id = file_stem(payload.sheet_id)[:_SHORT_ID]
    tail = f".{short_id}.sheet{suffix}"
    budget = FILE_NAME_LIMIT - len(".sheet.json") - _SHORT_ID - 1
    whole = f"{payload.run.run_id}\n{payload.rater.name}"
    run, rater = file_stem(payload.run.run_id, 10**6), file_stem(payload.rater.name, 10**6)
    if len(run) + 1 + len(rater) <= budget:
        return f"{run}.{rater}{tail}"
    # Cut the longer part first; the hash names the full pair, so two cut names never meet.
    digest = hashlib.sha256(whole.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    room = budget - 1 - 11
    rater_room = min(len(rater), max(room // 3, room - len(run)))
    head = f"{_cut(run, room - rater_room)}.{_cut(rater, rater_room)}"
    return f"{head}={digest}{tail}"


def _cut(stem: str, room: int) -> str:
    """``stem`` cut to ``room`` characters, never inside a %XX escape nor after a dot."""
    if len(stem) <= room:
        return stem
    head = stem[:room]
    cut = head.rfind("%", max(0, len(head) - 2))
    return (head[:cut] if cut != -1 else head).rstrip(".") or "_"


def sign_payload(payload: SheetPayload, key: RaterKey) -> SignedSheet:
    """Sign ``payload`` with ``key``; the payload must name that key as the rater's."""
    public = key.public
    if payload.rater.public_key != public.b64 or payload.rater.fingerprint != public.fingerprint:
        raise SheetError("the payload names another key than the one signing it")
    data = payload.canonical_bytes()
    return SignedSheet(payload, data.decode("utf-8"), key.sign(data))

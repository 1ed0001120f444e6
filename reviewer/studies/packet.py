"""Study packets: what one rater needs to rate their share of a study on their own machine.

A packet is a folder::

    packet.json            the signed manifest (an envelope like a sheet's)
    runs/<sha256>.jsonl    the rater's trajectories, byte for byte

The manifest's payload names the study, the rater, their assignments (each run by its
trajectory sha256) and the owner's key; the owner signs it with their Ed25519 rater key.
``join`` checks the signature before reading anything else, then every trajectory's
sha256, so a changed byte anywhere is refused.

Format 2 adds ``qualification`` for a study that requires it (the qualification set and
whether the rater qualified) and ``feedback``, the owner-signed references of the gold runs
the rater has already submitted, for their window. A packet for a rater who has not
qualified holds only that set; one that holds more is refused, however well signed. Which
runs still to rate are gold is never in a packet: a gold run travels as any run does.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from reviewer.inputs import DOCUMENT_LIMIT, InputError, read_limited
from reviewer.sheets import envelope as sealing
from reviewer.sheets import sheet, verify
from reviewer.sheets.keys import RaterKey, fingerprint
from reviewer.studies.model import Assignment, StudySpec

if TYPE_CHECKING:
    from reviewer.studies.facade import StudiesStore

PACKET_FORMAT = "a320-review-packet/2"
PACKET_FORMAT_V1 = "a320-review-packet/1"
PACKET_FORMATS = (PACKET_FORMAT_V1, PACKET_FORMAT)
MANIFEST = "packet.json"
RUNS = "runs"


class PacketError(Exception):
    """A packet cannot be written, or was refused on reading; the message says why."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PacketRun(_Frozen):
    """One assignment of the rater, with the trajectory file that carries the run."""

    run_id: str | None
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    file: str
    position: int
    reveal_first: bool


class PacketOwner(_Frozen):
    """Who signed the packet."""

    name: str
    public_key: str
    fingerprint: str


class PacketQualification(_Frozen):
    """Format 2: the study requires qualification; the set, and whether the rater passed."""

    runs: list[str] = Field(description="the qualification set's trajectory sha256s")
    qualified: bool


class PacketPayload(_Frozen):
    """Everything the packet's signature binds."""

    packet_format: str = PACKET_FORMAT
    study: StudySpec
    rubric_sha256: str
    owner: PacketOwner
    rater: str
    runs: list[PacketRun]
    created_at: datetime
    qualification: PacketQualification | None = None
    #: Format 2: the signed references of gold runs the rater has submitted (feedback for
    #: their window; :mod:`reviewer.gold.feedback`). Never a run still to rate.
    feedback: list[dict[str, str]] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _omit_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("qualification") is None:  # format 1 had no such member
            data.pop("qualification", None)
        if not data.get("feedback"):
            data.pop("feedback", None)
        return data


def qualification_problem(payload: PacketPayload) -> str | None:
    """Why the packet breaks the qualification rule (None when it keeps it): a rater who
    has not qualified gets only the qualification set."""
    q = payload.qualification
    if q is None or q.qualified:
        return None
    beyond = [r for r in payload.runs if r.sha256 not in set(q.runs)]
    if not beyond:
        return None
    return (
        f"the packet gives {payload.rater}, who has not qualified, {len(beyond)} run(s) "
        "beyond the qualification set"
    )


def canonical_bytes(obj: Any) -> bytes:
    """The bytes a manifest's signature covers: the sheets' canonical JSON, in one place so
    that packets follow when the sheet format changes its canonical form."""
    return sheet.canonical_bytes(obj)


def write_packet(
    store: StudiesStore,
    study: str,
    rater: str,
    key: RaterKey,
    out: Path,
    *,
    qualification: PacketQualification | None = None,
    feedback: list[dict[str, str]] | None = None,
) -> Path:
    """Write ``rater``'s packet of ``study`` into ``out``, signed with the owner's ``key``.

    With ``qualification`` (a study that requires it) and a rater not qualified, the packet
    holds only the qualification set. ``feedback`` are signed references of gold runs the
    rater has submitted (the caller decides which: :func:`reviewer.gold.feedback.feedback_for`).
    """
    s = store.get_study(study)
    if s.joined:
        raise PacketError(
            f"study {study!r} was joined from a packet: only its owner writes packets"
        )
    if s.owner != key.rater:
        raise PacketError(f"study {study!r} is owned by {s.owner!r}: they sign its packets")
    if s.owner_fingerprint and s.owner_fingerprint != key.fingerprint:
        raise PacketError(f"study {study!r} was created with key {s.owner_fingerprint}")
    rows = store.study_assignments(study, rater=rater)
    if qualification is not None and not qualification.qualified:
        rows = [r for r in rows if r.sha256 in set(qualification.runs)]
    if not rows:
        raise PacketError(f"{rater} has no assignment in study {study!r}")
    folder = Path(out) / RUNS
    folder.mkdir(parents=True, exist_ok=True)
    runs = []
    for row in rows:
        target = folder / f"{row.sha256}.jsonl"
        source = Path(store.get_run(row.run_pk).path)
        try:
            if not target.exists() or verify.file_sha256(target) != row.sha256:
                shutil.copyfile(source, target)
            copied = verify.file_sha256(target)
        except OSError as exc:
            raise PacketError(
                f"cannot copy run {row.run_id} from {source}: {exc.strerror}"
            ) from None
        if copied != row.sha256:
            target.unlink()
            raise PacketError(f"{source} changed since it was imported: run {row.run_id} differs")
        runs.append(PacketRun(run_id=row.run_id, sha256=row.sha256, file=f"{RUNS}/{target.name}",
                              position=row.position, reveal_first=row.reveal_first))  # fmt: skip
    public = key.public
    payload = PacketPayload(
        study=StudySpec(**s.model_dump(include=set(StudySpec.model_fields))),
        rubric_sha256=s.rubric_sha256,
        owner=PacketOwner(name=key.rater, public_key=public.b64, fingerprint=public.fingerprint),
        rater=rater,
        runs=runs,
        created_at=datetime.now().astimezone().replace(microsecond=0),
        qualification=qualification,
        feedback=list(feedback or ()),
    )
    data = canonical_bytes(payload.model_dump(mode="json"))
    envelope = {"packet_format": PACKET_FORMAT, **sealing.seal(data, key)}
    path = Path(out) / MANIFEST
    path.write_text(json.dumps(envelope, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_packet(folder: Path, *, trusted: Mapping[str, str | None] | None = None) -> PacketPayload:
    """The verified payload of the packet in ``folder``; :class:`PacketError` if refused.

    ``trusted`` is a trust list (:func:`reviewer.sheets.trust.load_trust_file`: fingerprint
    to the name it is bound to, or None): the owner's key must be on it, and where the list
    binds that key to a name, the packet's owner must be that name.
    """
    path = Path(folder) / MANIFEST
    try:
        envelope = json.loads(read_limited(path, DOCUMENT_LIMIT))
    except InputError as exc:
        raise PacketError(str(exc)) from None
    except ValueError as exc:
        raise PacketError(f"{path}: not JSON ({exc})") from None
    except RecursionError:
        raise PacketError(f"{path}: not JSON (nested too deeply)") from None
    if not isinstance(envelope, dict) or envelope.get("packet_format") not in PACKET_FORMATS:
        raise PacketError(f"{path}: not an {PACKET_FORMAT} manifest")
    try:
        raw_key, data = sealing.verified(envelope)
    except sealing.MalformedEnvelope as exc:
        raise PacketError(f"{path}: malformed manifest ({exc})") from None
    except sealing.SignatureMismatch:
        raise PacketError(f"{path}: signature does not match the manifest") from None
    try:
        parsed = json.loads(data)
        payload = PacketPayload.model_validate(parsed)
    except (ValueError, ValidationError) as exc:
        raise PacketError(f"{path}: malformed manifest payload ({exc})") from None
    if canonical_bytes(parsed) != data:
        raise PacketError(f"{path}: the manifest payload is not canonical")
    if payload.packet_format != envelope["packet_format"] or (
        payload.packet_format == PACKET_FORMAT_V1
        and (payload.qualification is not None or payload.feedback)
    ):
        raise PacketError(f"{path}: the manifest's format and its payload disagree")
    problem = qualification_problem(payload)
    if problem is not None:
        raise PacketError(f"{path}: {problem}")
    fp = fingerprint(raw_key)
    if payload.owner.fingerprint != fp or payload.owner.public_key != envelope["public_key"]:
        raise PacketError(f"{path}: the manifest names another key than the signer's")
    if trusted is not None and fp not in trusted:
        raise PacketError(f"{path}: the owner's key {fp} is not trusted")
    bound = trusted.get(fp) if trusted is not None else None
    if bound is not None and bound != payload.owner.name:
        raise PacketError(
            f"{path}: the trust list binds key {fp} to {bound!r}, but the packet names its "
            f"owner {payload.owner.name!r}: ask {bound} for the packet, or correct the list"
        )
    for run in payload.runs:
        file = Path(folder) / run.file
        if Path(run.file).name != f"{run.sha256}.jsonl" or not file.is_file():
            raise PacketError(f"{file}: missing from the packet")
        if verify.file_sha256(file) != run.sha256:
            raise PacketError(f"{file}: changed since the packet was signed (sha256 differs)")
    return payload


def join_packet(  # type: ignore[no-untyped-def]  # returns the store's (payload, study, report)
    store: StudiesStore,
    folder: Path,
    *,
    trusted: Mapping[str, str | None] | None = None,
    check: Callable[[PacketPayload], None] | None = None,
):
    """Verify the packet, import its runs (unchanged, matched by sha256) and its study.

    ``check`` is a caller's rule on the verified payload (e.g. who signed its feedback),
    run before anything is imported; it refuses by raising.
    """
    payload = read_packet(folder, trusted=trusted)
    if check is not None:
        check(payload)
    report = store.import_paths([Path(folder) / r.file for r in payload.runs])
    if report.unreadable:
        path, message = report.unreadable[0]
        raise PacketError(f"{path}: {message}")
    assigned = [
        Assignment(run_sha256=r.sha256, rater=payload.rater, position=r.position,
                   reveal_first=r.reveal_first)
        for r in payload.runs
    ]  # fmt: skip
    study = store.join_study(
        payload.study,
        rubric_sha256=payload.rubric_sha256,
        owner_fingerprint=payload.owner.fingerprint,
        assigned=assigned,
    )
    return payload, study, report

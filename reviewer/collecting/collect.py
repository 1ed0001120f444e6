"""Collecting signed sheets from other raters' machines into this database.

Each sheet is verified (:func:`reviewer.sheets.verify.verify_file`), checked against the
trust list (:func:`trust_problem`, the one place that decides trust), reduced to a
:class:`~reviewer.collecting.storage.CollectedRating` and stored as its rater's signed,
read-only rating. Sheets are independent: a refused one is named with its reason and the
others are still collected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.adjudication.model import AdjudicationItem
from reviewer.collecting.adjudications import CollectedAdjudication
from reviewer.collecting.model import CollectResult
from reviewer.collecting.storage import CollectedItem, CollectedRating, CollectedSheet
from reviewer.evidence import Citation
from reviewer.rubric import RatingItem
from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.sheet import SignedSheet
from reviewer.sheets.trust import load_trust_file, name_claim_problem
from reviewer.sheets.verify import verify_file

if TYPE_CHECKING:
    from reviewer.collecting.facade import CollectingStore


@dataclass(frozen=True)
class TrustList:
    """Trusted key fingerprints, each with the rater name it is bound to (if the line names one)."""

    names: dict[str, str | None]

    @classmethod
    def load(cls, path: Path) -> TrustList:
        """Read a trust list (:func:`reviewer.sheets.trust.load_trust_file`, which binds each
        key to its name); ``KeyStoreError`` if bad."""
        return cls(dict(load_trust_file(path)))


def trust_problem(
    trust: TrustList | None, fingerprint: str, rater: str, *, require_trusted: bool
) -> str | None:
    """Why a sheet signed by ``fingerprint`` as ``rater`` is refused, or None.

    With a trust list, a trusted key bound to another name is always refused (someone
    signing as another rater); an unknown key only under ``require_trusted``.
    """
    if trust is None:
        return None
    squatted = name_claim_problem(trust.names, fingerprint, rater)
    if squatted is not None:
        return squatted
    if fingerprint not in trust.names:
        if not require_trusted:
            return None
        return (
            f"key not trusted: {fingerprint} is not in the trust list (--require-trusted); "
            f"add it if it is really {rater}'s"
        )
    bound = trust.names[fingerprint]
    if bound is not None and bound != rater:
        return (
            f"key {fingerprint} is trusted as {bound!r}, but the sheet is by {rater!r}: "
            "one key signs for one rater; ask for a sheet under the signer's own name"
        )
    return None


def to_collected(signed: SignedSheet, source: str) -> CollectedRating:
    """The store's record of a verified sheet."""
    p = signed.payload
    items = [
        CollectedItem(
            item=RatingItem(metric_id=i.metric_id, outcome=i.outcome, score=i.score,
                            comment=i.comment),
            blind=None if i.blind is None else RatingItem(metric_id=i.metric_id,
                                                          **i.blind.model_dump()),
            reason=i.reason,
            citations=tuple(Citation(metric_id=i.metric_id, **c.model_dump())
                            for c in i.citations),
        )
        for i in p.items
    ]  # fmt: skip
    study = p.study
    return CollectedRating(
        **_sheet_fields(signed, source),
        overall_comment=p.overall_comment,
        items=items,
        study=None if study is None else study.name,
        blind_submitted_at=None if study is None or study.blind_submitted_at is None
        else study.blind_submitted_at.isoformat(),
        revealed_at=None if study is None or study.revealed_at is None
        else study.revealed_at.isoformat(),
    )  # fmt: skip


def to_collected_adjudication(signed: SignedSheet, source: str) -> CollectedAdjudication:
    """The store's record of a verified adjudication sheet."""
    p: AdjudicationPayload = signed.payload  # type: ignore[assignment]  # one envelope (verify.py)
    return CollectedAdjudication(
        **_sheet_fields(signed, source),
        study=None if p.study is None else p.study.name,
        items=[
            AdjudicationItem(metric_id=d.metric_id, outcome=d.outcome, score=d.score,
                             reason=d.reason, sides_with=tuple(d.sides_with))
            for d in p.decisions
        ],
    )  # fmt: skip


def sheet_files(paths: Iterable[Path]) -> list[Path]:
    """The sheet files named or found (``*.sheet.json``) under the folders given."""
    out: list[Path] = []
    for path in paths:
        out += sorted(Path(path).rglob("*.sheet.json")) if Path(path).is_dir() else [Path(path)]
    return out


def collect(
    store: CollectingStore,
    paths: Iterable[Path],
    *,
    trust: TrustList | None = None,
    require_trusted: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[CollectResult]:
    """Verify and store every sheet; one result per sheet file, in order.

    Originals go in before corrections within one call, so that a correction lands on top
    of what it corrects whatever order the files come in.
    """
    files = sheet_files(paths)
    checked: list[tuple[Path, SignedSheet | None, str | None]] = []
    for path in files:
        result = verify_file(path)
        if not result.ok or result.sheet is None:
            checked.append((path, None, result.reason))
            continue
        rater = result.sheet.payload.rater
        problem = trust_problem(trust, rater.fingerprint, rater.name,
                                require_trusted=require_trusted)  # fmt: skip
        checked.append((path, result.sheet, problem))
    order = sorted(range(len(checked)), key=lambda i: _depth(checked, i))
    results: dict[int, CollectResult] = {}
    for done, i in enumerate(order, start=1):
        path, signed, problem = checked[i]
        if signed is None or problem is not None:
            results[i] = CollectResult(source=str(path), outcome="refused", reason=problem)
        elif isinstance(signed.payload, AdjudicationPayload):
            results[i] = store.collect_adjudication(to_collected_adjudication(signed, str(path)))
        else:
            results[i] = store.collect_sheet(to_collected(signed, str(path)))
        if progress is not None:
            progress(done, len(order), str(path))
    return [results[i] for i in range(len(checked))]


def _depth(checked: list[tuple[Path, SignedSheet | None, str | None]], index: int) -> int:
    """How many sheets of this call the sheet corrects, directly or not (originals first)."""
    by_id = {s.payload.sheet_id: s for _, s, _ in checked if s is not None}
    signed = checked[index][1]
    depth, seen = 0, set()
    while signed is not None and signed.payload.supersedes in by_id:
        if signed.payload.sheet_id in seen:
            break
        seen.add(signed.payload.sheet_id)
        signed = by_id[signed.payload.supersedes]
        depth += 1
    return depth


def _sheet_fields(signed: SignedSheet, source: str) -> dict[str, Any]:
    """The fields of :class:`~reviewer.collecting.storage.CollectedSheet`, read from any
    verified sheet's payload (a rating's or an adjudication's): the common part of both
    records, built once as the dataclass so its field list is written in one place."""
    p = signed.payload
    return vars(
        CollectedSheet(
            source=source,
            sheet_id=p.sheet_id,
            supersedes=p.supersedes,
            sheet_json=signed.to_json(),
            rater=p.rater.name,
            public_key=p.rater.public_key,
            fingerprint=p.rater.fingerprint,
            run_id=p.run.run_id,
            trajectory_sha256=p.run.trajectory_sha256,
            rubric_sha256=p.rubric.sha256,
            signed_at=p.signed_at.isoformat(),
        )
    )

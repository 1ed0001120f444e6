"""Signing a submitted adjudication as an adjudication sheet, and exporting those sheets.

Like :class:`reviewer.signing.service.SigningService` for ratings: the sheet is built from
the store, signed with the adjudicator's key, written to a temporary file in the output
folder, and only then is the adjudication locked and the file renamed into place. An
adjudication resolves signed sheets: each rater whose live rating it resolves must have one
(a signed rating here, or a collected sheet), so that anyone holding the sheets can check
them against the ``resolves`` list.
"""

from __future__ import annotations

import contextlib
import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.outfile import PendingFile, write_bytes
from reviewer.sheets.adjudication import (
    AdjudicationDecision,
    AdjudicationPayload,
    AdjudicationStudy,
    ResolvedSheet,
    ResolvedValue,
    adjudication_file_name,
)
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import (
    SheetAuditHead,
    SheetRater,
    SheetRubric,
    SheetRun,
    SignedSheet,
    sheet_file_bytes,
    sign_payload,
)
from reviewer.sheets.verify import read_sheet
from reviewer.signing.service import SigningError, SigningService, sheet_folder, utc_now

if TYPE_CHECKING:
    from collections.abc import Sequence

    from reviewer.adjudication.facade import AdjudicationStore
    from reviewer.adjudication.model import Adjudication, RatedValue


@dataclass(frozen=True)
class WrittenAdjudication:
    """One adjudication sheet on disk."""

    sheet: SignedSheet
    path: Path


def sheet_sha256(sheet_json: str) -> str:
    """SHA-256 of a sheet file as a320-review writes it (the stored JSON text's bytes)."""
    return hashlib.sha256(sheet_json.encode("utf-8")).hexdigest()


@dataclass
class AdjudicationSigner:
    """Signs adjudications of one open store; ``clock`` and ``new_id`` injectable for tests."""

    store: AdjudicationStore
    clock: Callable[[], datetime] = utc_now
    new_id: Callable[[], str] = field(default=lambda: str(uuid.uuid4()))

    def signable(self, run_pk: int, adjudicator: str) -> Adjudication:
        """The adjudicator's live adjudication of the run if it can be signed."""
        found = self.store.live_adjudication(run_pk, adjudicator)
        if found is None:
            raise SigningError(f"{adjudicator} has not adjudicated this run")
        if found.status == "draft":
            raise SigningError(f"{adjudicator}'s adjudication is a draft: submit it first")
        if found.status == "signed":
            raise SigningError(
                f"{adjudicator}'s adjudication is already signed (sheet {found.sheet_id}); "
                "write it again with: a320-review adjudication export --out DIR"
            )
        return found

    def build_payload(self, adjudication: Adjudication, key: RaterKey) -> AdjudicationPayload:
        """The payload for ``adjudication``; :class:`SigningError` if a resolved rating has
        no signed sheet yet."""
        run = self.store.get_run(adjudication.run_pk)
        card = run.scorecard
        if not run.run_id or not card.trajectory_sha256:
            raise SigningError("this run has no run id or trajectory hash: it cannot be signed")
        rubric = self.store.rubric()
        if rubric.sha256 != adjudication.rubric_sha256:
            raise SigningError("the adjudication was made under another rubric: correct it")
        disputes = self.store.disputes(study=adjudication.study, run_pk=adjudication.run_pk)
        by_metric = {d.metric_id: d for d in disputes}
        resolves = self._resolved(adjudication, [v for d in disputes for v in d.values])
        decisions = []
        for metric in rubric.metrics:
            item = adjudication.items.get(metric.id)
            if item is None:
                continue
            dispute = by_metric.get(metric.id)
            values = dispute.values if dispute else ()
            decisions.append(
                AdjudicationDecision(
                    metric_id=metric.id,
                    title=metric.title,
                    outcome=item.outcome,
                    score=item.score,
                    anchor=None if item.score is None else metric.anchors[item.score],
                    reason=item.reason,
                    sides_with=list(item.sides_with),
                    disputed=dispute is not None and dispute.status == "disputed",
                    values=[
                        ResolvedValue(rater=v.rater, outcome=v.outcome, score=v.score)
                        for v in values
                    ],
                )
            )
        threshold = disputes[0].threshold if disputes else 2
        study = None
        if adjudication.study is not None:
            found = self.store.get_study(adjudication.study)
            study = AdjudicationStudy(name=found.name, protocol=found.protocol)
        entries, last_hash = self.store.audit_head()
        return AdjudicationPayload(
            sheet_id=self.new_id(),
            supersedes=self._supersedes(adjudication),
            signed_at=self.clock(),
            run=SheetRun.of(run.run_id, card),
            rubric=SheetRubric(id=rubric.id, version=rubric.version, sha256=rubric.sha256),
            threshold=threshold,
            study=study,
            resolves=resolves,
            decisions=decisions,
            rater=SheetRater.of(key),
            audit_head=SheetAuditHead(entries=entries, hash=last_hash),
        )

    def _resolved(
        self, adjudication: Adjudication, values: Sequence[RatedValue]
    ) -> list[ResolvedSheet]:
        sheets = {sid: text for sid, text in self._rating_sheets()}
        out: dict[str, ResolvedSheet] = {}
        unsigned: set[str] = set()
        for value in values:
            if value.rater in out or value.rater in unsigned:
                continue
            text = sheets.get(value.sheet_id) if value.sheet_id else None
            if text is None:
                unsigned.add(value.rater)
                continue
            out[value.rater] = ResolvedSheet(
                rater=value.rater, sheet_id=value.sheet_id, sha256=sheet_sha256(text)
            )
        if unsigned:
            who = ", ".join(sorted(unsigned))
            raise SigningError(
                f"the rating(s) of {who} on this run are not signed: an adjudication sheet "
                "names the signed rating sheets it resolves; sign or collect them first"
            )
        return [out[r] for r in sorted(out)]

    def _rating_sheets(self) -> list[tuple[str, str]]:
        return self.store.sheet_texts()

    def _supersedes(self, adjudication: Adjudication) -> str | None:
        pk, seen = adjudication.supersedes_pk, set()
        while pk is not None and pk not in seen:
            seen.add(pk)
            ancestor = self.store.get_adjudication(pk)
            if ancestor.sheet_id is not None:
                return ancestor.sheet_id
            pk = ancestor.supersedes_pk
        return None

    def sign(self, run_pk: int, key: RaterKey, out_dir: Path) -> WrittenAdjudication:
        """Sign the adjudicator's submitted adjudication of the run, lock it, write the sheet."""
        SigningService(self.store).check_rater_key(key)
        adjudication = self.signable(run_pk, key.rater)
        signed = sign_payload(self.build_payload(adjudication, key), key)  # type: ignore[arg-type]  # one envelope
        folder = sheet_folder(out_dir)
        target = folder / adjudication_file_name(signed.payload)  # type: ignore[arg-type]  # one envelope
        data = sheet_file_bytes(signed)
        with contextlib.ExitStack() as stack:
            try:
                pending = stack.enter_context(PendingFile(target))
                pending.write_all(data)
            except OSError as exc:
                raise SigningError(f"cannot write {target}: {exc}; nothing was signed") from None
            self.store.mark_adjudication_signed(
                adjudication.adjudication_pk,
                sheet_id=signed.payload.sheet_id,
                sheet_json=signed.to_json(),
                sha256=hashlib.sha256(data).hexdigest(),
            )
            try:
                pending.commit()
            except OSError as exc:
                raise SigningError(
                    f"the adjudication IS signed (sheet {signed.payload.sheet_id}) and kept in "
                    f"the database, but writing {target} failed: {exc}; write it again with: "
                    "a320-review adjudication export --out DIR"
                ) from None
        return WrittenAdjudication(signed, target)

    def export(self, out_dir: Path, *, adjudicator: str | None = None) -> list[WrittenAdjudication]:
        """Write every signed adjudication sheet here (of one adjudicator) to ``out_dir``."""
        folder = sheet_folder(out_dir)
        written = []
        for _sheet_id, text in self.store.adjudication_sheets(adjudicator=adjudicator):
            signed = read_sheet(text)
            target = folder / adjudication_file_name(signed.payload)  # type: ignore[arg-type]  # one envelope
            try:
                write_bytes(target, sheet_file_bytes(signed))
            except OSError as exc:
                raise SigningError(f"cannot write {target}: {exc}") from None
            written.append(WrittenAdjudication(signed, target))
        self.store.record_export(
            "adjudication_sheets",
            {
                "out_dir": str(folder),
                "adjudicator": adjudicator,
                "sheet_ids": [w.sheet.payload.sheet_id for w in written],
            },
        )
        return written

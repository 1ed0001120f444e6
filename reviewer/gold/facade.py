"""``GoldStore``: the adjudication store (an earlier study's consensus is a reference) with
gold references, a study's gold, qualification decisions and the feedback after a submit.

Every envelope read back is verified again (:func:`reviewer.gold.envelope.unseal`): a row
changed behind the store's back is refused, not trusted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.gold import storage
from reviewer.store import audit, ratings
from reviewer.store.connection import read_transaction, utcnow, write_transaction
from reviewer.studies import storage as studies
from reviewer.studies.model import Study, StudySpec

if TYPE_CHECKING:  # the models and the envelope load on first use: they import the sheet
    # format and cryptography, which the window's first screen does not need
    from reviewer.gold.model import DecisionPayload, GoldPayload, GoldPlan, GoldReference


@dataclass(frozen=True)
class StudyGold:
    """One gold run of a study: its reference, and whether it is in the qualification set."""

    run_pk: int
    reference: GoldReference
    qualification: bool


@dataclass(frozen=True)
class Feedback:
    """What the window shows a rater after they submitted a gold run: the reference."""

    study: str
    reference: GoldPayload


def _reference(
    pk: int, run_pk: int, envelope: dict[str, str], added: str, gone: str | None
) -> GoldReference:
    from reviewer.gold.envelope import unseal
    from reviewer.gold.model import GoldPayload, GoldReference

    payload, _ = unseal(envelope, GoldPayload, what=f"gold reference {pk}")
    return GoldReference(
        reference_pk=pk, run_pk=run_pk, payload=payload, added_at=added, removed_at=gone
    )


class GoldStore(AdjudicationStore):
    """Gold references and qualification, on the adjudication store."""

    def add_gold_reference(self, run_pk: int, envelope: dict[str, str]) -> GoldReference:
        """Store a reference the owner signed (verified first); audited."""
        from reviewer.gold.envelope import unseal
        from reviewer.gold.model import GoldPayload, GoldReference

        payload, fp = unseal(envelope, GoldPayload, what="gold reference")
        at = utcnow()
        with write_transaction(self._db):
            pk = storage.insert_reference(
                self._db.conn,
                run_pk=run_pk,
                owner=payload.owner.name,
                owner_fingerprint=fp,
                source=payload.source.describe(),
                envelope=envelope,
                at=at,
            )
            details = {"reference_pk": pk, "run_pk": run_pk, "source": payload.source.describe()}
            audit.append(self._db.conn, [("gold_add", payload.owner.name, details)], at=at)
        return GoldReference(reference_pk=pk, run_pk=run_pk, payload=payload, added_at=at)

    def gold_references(self, *, active_only: bool = True) -> list[GoldReference]:
        """The references offered as gold (with ``active_only=False``, withdrawn ones too)."""
        rows = storage.references(self._db.conn, active_only=active_only)
        return [_reference(*row) for row in rows]

    def withdraw_gold_reference(self, reference_pk: int, *, actor: str | None) -> None:
        """No longer offer the reference for new studies (those that seeded it keep it)."""
        at = utcnow()
        with write_transaction(self._db):
            storage.withdraw(self._db.conn, reference_pk, at=at)
            details = {"reference_pk": reference_pk}
            audit.append(self._db.conn, [("gold_remove", actor, details)], at=at)

    def create_study_with_gold(
        self, spec: StudySpec, *, owner_fingerprint: str | None, arranger: studies.QueueArranger
    ) -> Study:
        """``create_study`` with the gold arranger (:mod:`reviewer.gold.service`)."""
        return self.create_study(spec, owner_fingerprint=owner_fingerprint, arranger=arranger)

    def gold_plan(self, study: str) -> GoldPlan | None:
        """The study's gold plan (None for a study without gold)."""
        return storage.plan(self._db.conn, self.get_study(study).study_pk)

    def study_gold(self, study: str) -> list[StudyGold]:
        """The study's gold runs with their (verified) references."""
        with read_transaction(self._db.conn):
            rows = storage.study_gold(self._db.conn, self.get_study(study).study_pk)
        return [
            StudyGold(run, _reference(ref, run, env, added, gone), qual)
            for run, ref, qual, env, added, gone in rows
        ]

    def study_gold_envelopes(self, study: str) -> dict[int, dict[str, str]]:
        """``{run_pk: signed reference envelope}`` of the study's gold, as stored."""
        rows = storage.study_gold(self._db.conn, self.get_study(study).study_pk)
        return {run: env for run, _, _, env, _, _ in rows}

    def receive_gold_feedback(
        self, study: str, references: Sequence[tuple[int, dict[str, str]]]
    ) -> int:
        """Store references received in a packet as the study's gold here (each verified
        first; one already held is skipped); audited. Returns how many are new."""
        from reviewer.gold.envelope import unseal
        from reviewer.gold.model import GoldPayload

        verified = [
            (run_pk, env, unseal(env, GoldPayload, what=f"gold reference of run {run_pk}"))
            for run_pk, env in references
        ]
        at = utcnow()
        new = 0
        with write_transaction(self._db):
            conn = self._db.conn
            study_pk = studies.get(conn, study).study_pk
            for run_pk, env, (payload, fp) in verified:
                if storage.has_study_gold(conn, study_pk, run_pk):
                    continue
                pk = storage.insert_reference(
                    conn, run_pk=run_pk, owner=payload.owner.name, owner_fingerprint=fp,
                    source=payload.source.describe(), envelope=env, at=at,
                )  # fmt: skip
                storage.insert_study_gold(conn, study_pk, [(run_pk, pk, False)])
                new += 1
            if new:
                details = {"study": study, "references": new}
                audit.append(conn, [("gold_feedback", None, details)], at=at)
        return new

    def record_qualification(self, study: str, rater: str, envelope: dict[str, str]) -> None:
        """Store the owner's signed decision on ``rater`` (verified first); audited."""
        from reviewer.gold.envelope import unseal
        from reviewer.gold.model import DecisionPayload

        payload, _ = unseal(envelope, DecisionPayload, what="qualification decision")
        at = utcnow()
        with write_transaction(self._db):
            conn = self._db.conn
            study_pk = studies.get(conn, study).study_pk
            rater_pk = ratings.add_rater(conn, rater, at=at).rater_pk
            storage.insert_decision(
                conn, study_pk, rater_pk, qualified=payload.qualified, envelope=envelope, at=at
            )
            digest = hashlib.sha256(envelope["payload"].encode("utf-8")).hexdigest()
            details = {"study": study, "rater": rater, "qualified": payload.qualified,
                       "decision_sha256": digest}  # fmt: skip
            audit.append(conn, [("qualify", payload.owner.name, details)], at=at)

    def qualification_decisions(self, study: str) -> dict[str, DecisionPayload]:
        """``{rater: decision}`` of the study's recorded (verified) decisions."""
        from reviewer.gold.envelope import unseal
        from reviewer.gold.model import DecisionPayload

        found = storage.decisions(self._db.conn, self.get_study(study).study_pk)
        return {
            rater: unseal(env, DecisionPayload, what=f"qualification decision of {rater}")[0]
            for rater, (_, env) in found.items()
        }

    def gold_feedback(self, run_pk: int, rater: str) -> Feedback | None:
        """The reference of a gold run ``rater`` has submitted (final phase); None before the
        submit, outside gold, or in a database that holds no reference (a rater's own)."""
        from reviewer.gold.envelope import unseal
        from reviewer.gold.model import GoldPayload

        found = storage.submitted_gold(self._db.conn, run_pk, rater)
        if found is None:
            return None
        study, envelope = found
        payload, _ = unseal(envelope, GoldPayload, what=f"gold reference of run {run_pk}")
        return Feedback(study=study, reference=payload)

    def run_pk_of(self, sha256: str) -> int | None:
        """The run whose trajectory has this sha256 (the newest import), or None."""
        return storage.run_pk_of(self._db.conn, sha256)

    def rated_runs(self, raters: Sequence[str]) -> dict[str, set[str]]:
        """``{rater: sha256s of the runs they have a rating of}`` (any study, any status)."""
        return storage.rated_runs(self._db.conn, raters)

    def rater_scores(
        self, study: str, rater: str, run_pks: Sequence[int]
    ) -> dict[int, dict[str, int]]:
        """``{run_pk: {metric: score}}`` of ``rater``'s submitted ratings of these runs in
        ``study`` (a run they judged without a score maps to ``{}``)."""
        wanted = set(run_pks)
        out: dict[int, dict[str, int]] = {}
        for r in self.study_decisions(study):
            if r.rater != rater or r.run_pk not in wanted:
                continue
            out[r.run_pk] = {m: i.score for m, i in r.items.items() if i.score is not None}
        return out

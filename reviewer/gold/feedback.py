"""Feedback that travels: the references of the gold runs a rater has submitted, carried
back to them in their next packet, so that their own window can show them.

The owner's packet for a rater holds the reference of a gold run only once the owner's
database holds that rater's submitted rating of it (a collected sheet, or a rating made
there): a run still to rate never has its reference in a packet, and neither does a run
the rater has not been given. On joining, each reference must be signed by the packet's
owner (refused in one line otherwise) and name a run of the rater's queue that the rater
has submitted in this database; one that is not submitted here yet is held back, named.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.gold.envelope import GoldError, unseal
from reviewer.gold.facade import GoldStore
from reviewer.gold.model import GoldPayload


def feedback_for(store: GoldStore, study: str, rater: str) -> list[dict[str, str]]:
    """The envelopes of the references of the gold runs ``rater`` has submitted in
    ``study``, for their packet (empty for a study without gold)."""
    envelopes = store.study_gold_envelopes(study)
    if not envelopes:
        return []
    submitted = store.rater_scores(study, rater, sorted(envelopes))
    return [envelopes[pk] for pk in sorted(envelopes) if pk in submitted]


@dataclass(frozen=True)
class Received:
    """What joining a packet did with its feedback."""

    stored: int
    held_back: tuple[str, ...]


def check_signers(envelopes: list[dict[str, str]], owner_fingerprint: str) -> None:
    """Refuse, before anything is stored, feedback not signed by the packet's owner."""
    for envelope in envelopes:
        payload, signer = unseal(envelope, GoldPayload, what="the packet's feedback")
        if signer != owner_fingerprint:
            run = payload.run.run_id or payload.run.sha256[:12]
            raise GoldError(
                f"the packet's reference of run {run} is signed by {payload.owner.name} "
                f"({signer}), not by the packet's owner ({owner_fingerprint})"
            )


def receive(store: GoldStore, study: str, rater: str, envelopes: list[dict[str, str]]) -> Received:
    """Store the feedback of a joined packet: each reference of a run of ``rater``'s queue
    that they have submitted here; the others are held back (named)."""
    if not envelopes:
        return Received(0, ())
    queue = {row.sha256: row.run_pk for row in store.study_assignments(study, rater=rater)}
    keep: list[tuple[int, dict[str, str]]] = []
    held: list[str] = []
    for envelope in envelopes:
        payload, _ = unseal(envelope, GoldPayload, what="the packet's feedback")
        run = payload.run.run_id or payload.run.sha256[:12]
        run_pk = queue.get(payload.run.sha256)
        if run_pk is None:
            raise GoldError(f"the packet gives the reference of run {run}, not in {rater}'s queue")
        if run_pk not in store.rater_scores(study, rater, [run_pk]):
            held.append(run)  # not submitted here (yet): never shown before the submit
            continue
        keep.append((run_pk, envelope))
    stored = store.receive_gold_feedback(study, keep)
    return Received(stored, tuple(held))

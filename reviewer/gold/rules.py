"""The gold and qualification rules, pure: what may be a study's reference, and whether
a rater qualified.

- A study's gold references are its owner's: signed with the key the study was created
  with (or, for a study created without a key on record, by the owner's name and a key
  that verifies). A reference anyone else signed, a rater of the study included, is no
  gold of it.
- A reference rater's sheet is no reference in a study they rate in: their own rating
  would be scored against itself.
- A rater qualifies when they have rated every run of the qualification set and the
  measure (exact agreement, or agreement within one point) reaches the threshold on every
  metric the references score.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reviewer.gold.envelope import GoldError
from reviewer.gold.model import GoldPayload, Measure


def check_reference(
    payload: GoldPayload,
    signer: str,
    *,
    study: str,
    owner: str | None,
    owner_fingerprint: str | None,
    raters: Sequence[str],
    rubric_sha256: str,
) -> None:
    """Refuse, in one line, a reference that cannot be ``study``'s gold."""
    run = payload.run.run_id or payload.run.sha256[:12]
    if owner is None:
        raise GoldError(f"study {study!r} has no owner: nobody may sign its gold")
    who = payload.owner.name
    if who != owner or (owner_fingerprint is not None and signer != owner_fingerprint):
        raise GoldError(
            f"the gold reference of run {run} is signed by {who} ({signer}), not by the owner "
            f"of study {study!r}, {owner}: only the owner's references are gold"
        )
    source_rater = payload.source.rater
    if source_rater is not None and source_rater in raters:
        raise GoldError(
            f"the gold reference of run {run} is {source_rater}'s sheet, and {source_rater} "
            f"rates in study {study!r}: a rater's own rating is never their reference"
        )
    if payload.rubric_sha256 != rubric_sha256:
        raise GoldError(
            f"the gold reference of run {run} was made under rubric "
            f"{payload.rubric_sha256[:12]}…, study {study!r} uses {rubric_sha256[:12]}…"
        )


def agrees(rater: int, reference: int, measure: Measure) -> bool:
    """Whether a score counts as agreeing with the reference under ``measure``."""
    return rater == reference if measure == "exact" else abs(rater - reference) <= 1


@dataclass(frozen=True)
class Qualification:
    """One rater's result on the qualification set."""

    rater: str
    rated: int
    needed: int
    per_metric: dict[str, float]
    qualified: bool

    @property
    def complete(self) -> bool:
        return self.rated >= self.needed


def qualification(
    rater: str,
    scores: Mapping[str, Mapping[str, int]],
    references: Mapping[str, Mapping[str, int]],
    *,
    measure: Measure,
    threshold: float,
) -> Qualification:
    """``scores`` and ``references`` are ``{run: {metric: score}}``; a run counts as rated
    when the rater scored or judged it (it appears in ``scores``)."""
    hits: dict[str, list[bool]] = defaultdict(list)
    for run, ref in references.items():
        mine = scores.get(run, {})
        for metric, value in ref.items():
            if metric in mine:
                hits[metric].append(agrees(mine[metric], value, measure))
    per_metric = {m: sum(h) / len(h) for m, h in sorted(hits.items())}
    rated = sum(1 for run in references if run in scores)
    needed = len(references)
    passed = (
        rated >= needed > 0
        and bool(per_metric)
        and all(v >= threshold for v in per_metric.values())
    )
    return Qualification(rater, rated, needed, per_metric, passed)

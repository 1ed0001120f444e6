"""The study's rules for a signed sheet: pure checks over plain data.

A valid signature says who signed a sheet, not that the sheet keeps the study's rules. Both
``collect`` (before anything is stored) and ``audit verify`` (over what is stored) ask the
same questions here, with the facts the database holds about the sheet's study:

- the run is in the study the sheet names, and assigned to the sheet's rater, who may rate
  it (in a study that requires qualification, a rater not qualified rates only its
  qualification runs);
- the protocol and the arm the sheet claims are the study's and the assignment's: a sheet
  can neither claim a blind phase in an open study nor carry blind values outside one, nor
  skip the blind phase of a blind-first assignment;
- a correction keeps the blind values and the blind submit time of the sheet it corrects,
  stays in its study, and changes something;
- an adjudication sheet resolves only rating sheets that exist, by the raters who signed
  them, and sides only with those raters.

Each function returns the problems found, one sentence each, saying which rule is broken
and what to do; the caller names the file or the rating.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.sheet import SheetPayload


@dataclass(frozen=True)
class StudyFacts:
    """What the database says about a study, for one run and one rater."""

    name: str
    protocol: str
    run_in_study: bool
    #: The rater's assignment to the run: its arm (True: scorer shown first); None when
    #: the rater is not assigned the run.
    reveal_first: bool | None
    #: Why the rater may not rate the run in this study yet (a study that requires
    #: qualification, a rater who has not qualified, a run outside the qualification set);
    #: None when they may.
    restriction: str | None = None


@dataclass(frozen=True)
class Claim:
    """What a rating (its sheet, or its stored row) says about its study and blind phase.

    ``protocol`` and ``reveal_first`` are None when nothing is claimed (a stored row that
    has no sheet); ``blind`` maps each metric rated blind to its blind value."""

    study: str | None
    protocol: str | None = None
    reveal_first: bool | None = None
    blind_submitted_at: str | None = None
    blind: Mapping[str, Any] | None = None
    #: Everything a correction could change (items, overall comment); None: unknown.
    content: Any = None


def claim_of(payload: SheetPayload) -> Claim:
    """The claim a signed rating sheet makes."""
    study = payload.study
    return Claim(
        study=None if study is None else study.name,
        protocol=None if study is None else study.protocol,
        reveal_first=None if study is None else study.reveal_first,
        blind_submitted_at=None
        if study is None or study.blind_submitted_at is None
        else study.blind_submitted_at.isoformat(),
        blind={i.metric_id: i.blind.model_dump() for i in payload.items if i.blind is not None},
        content=(
            [i.model_dump(exclude={"title", "anchor"}) for i in payload.items],
            payload.overall_comment,
        ),
    )


def study_problems(claim: Claim, facts: StudyFacts | None, *, run: str, rater: str) -> list[str]:
    """Whether a rating of ``run`` by ``rater`` keeps the rules of the study it names
    (``facts`` None: this database does not hold that study)."""
    has_blind = bool(claim.blind) or claim.blind_submitted_at is not None
    if claim.study is None:
        if has_blind:
            return ["it carries blind-phase values but names no study: only a blind study has "
                    "a blind phase; re-sign it from the study's rating"]  # fmt: skip
        return []
    if facts is None:
        return [f"it names study {claim.study!r}, which this database does not hold: collect it "
                "into the study's database (or join the study first)"]  # fmt: skip
    where = f"study {facts.name!r}"
    if not facts.run_in_study:
        return [f"run {run} is not in {where}: a rating outside the study cannot be stored as "
                "one of it; ask the study's owner to add the run"]  # fmt: skip
    if facts.reveal_first is None:
        return [f"run {run} is not assigned to {rater} in {where}: only an assigned rater's "
                "rating counts; ask the study's owner to assign it"]  # fmt: skip
    if facts.restriction is not None:
        return [facts.restriction]
    problems = []
    if claim.protocol is not None and claim.protocol != facts.protocol:
        problems.append(f"it claims the {claim.protocol} protocol, but {where} is "
                        f"{facts.protocol}: re-sign it from the study's own rating")  # fmt: skip
    arm_known = claim.reveal_first is not None and facts.protocol == "blind"
    if arm_known and claim.reveal_first != facts.reveal_first:
        arm = "scorer-first" if facts.reveal_first else "blind-first"
        problems.append(f"it claims the other arm than {rater}'s assignment in {where} "
                        f"({arm}): re-sign it from the study's own rating")  # fmt: skip
    skipped = claim.protocol is not None and claim.blind_submitted_at is None
    if facts.protocol == "blind" and facts.reveal_first is False and skipped:
        problems.append(f"it has no blind phase, but {rater}'s assignment in {where} is "
                        "blind-first: the blind rating comes before the scorer is shown; "
                        "re-sign it from the study's own rating")  # fmt: skip
    if facts.protocol != "blind" and has_blind:
        problems.append(f"it carries blind-phase values, but {where} is open: an open study "
                        "has no blind phase; re-sign it from the study's own rating")  # fmt: skip
    return problems


def correction_problems(claim: Claim, original: Claim, *, corrects: str) -> list[str]:
    """Whether a correction keeps what it may not change of the rating it corrects
    (named ``corrects`` in the messages), and changes something."""
    problems = []
    if claim.study != original.study:
        problems.append(f"it corrects {corrects}, made in study {original.study!r}, but names "
                        f"study {claim.study!r}: a correction stays in its study")  # fmt: skip
    if _instant(claim.blind_submitted_at) != _instant(original.blind_submitted_at) or dict(
        claim.blind or {}
    ) != dict(original.blind or {}):
        problems.append(f"its blind values or blind submit time differ from those of "
                        f"{corrects}: the blind phase is frozen; correct the final values "
                        "only")  # fmt: skip
    if claim.content is not None and claim.content == original.content:
        problems.append(f"it is identical to {corrects}: a correction must change something; "
                        "drop it")  # fmt: skip
    return problems


def adjudication_problems(payload: AdjudicationPayload, ratings: Mapping[str, str]) -> list[str]:
    """Whether an adjudication sheet names only ratings that exist: ``ratings`` maps the
    sheet id of each stored rating sheet of the run to the rater who signed it."""
    problems = []
    named = set()
    for resolved in payload.resolves:
        if ratings.get(resolved.sheet_id) != resolved.rater:
            problems.append(f"it resolves sheet {resolved.sheet_id} by {resolved.rater}, which "
                            "is not a rating of this run here: collect the rating sheets "
                            "first")  # fmt: skip
        named.add(resolved.rater)
    for decision in payload.decisions:
        strangers = sorted({*decision.sides_with, *(v.rater for v in decision.values)} - named)
        if strangers:
            problems.append(f"its decision on {decision.metric_id} names rater(s) "
                            f"{', '.join(strangers)} whose rating it does not resolve: "
                            "re-make the adjudication from the stored ratings")  # fmt: skip
    return problems


def _instant(text: str | None) -> datetime | str | None:
    """A time as an instant, so that two spellings of one time compare equal."""
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return text

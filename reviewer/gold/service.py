"""Gold as the owner uses it: references added from a consensus or a sheet, a study
created with its gold seeded, qualification judged and signed, and which runs a rater's
packet may hold.

Functions over a :class:`~reviewer.gold.facade.GoldStore`; keys are passed in (the verbs
load them), so nothing here asks for a passphrase.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from reviewer.gold import accuracy, reference, rules
from reviewer.gold.arranger import GoldArranger, GoldExtension
from reviewer.gold.envelope import GoldError, seal
from reviewer.gold.facade import GoldStore
from reviewer.gold.model import DecisionPayload, GoldPlan, GoldReference, GoldRun
from reviewer.quality.source import Score
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetPayload, SheetRater
from reviewer.studies.assign import draw
from reviewer.studies.model import Selection, Study, StudySpec


def _now() -> datetime:
    return datetime.now().astimezone().replace(microsecond=0)


def add_from_consensus(
    store: GoldStore, study: str, key: RaterKey, *, run_ids: Sequence[str] = ()
) -> tuple[list[GoldReference], list[str]]:
    """A reference for each run of ``study`` whose consensus is settled on every metric
    (only ``run_ids`` when given); returns the references added and one line per run left
    out, saying why."""
    rubric = store.rubric().sha256
    by_run: dict[int, list[reference.ConsensusValue]] = {}
    names: dict[int, str | None] = {}
    for d in store.disputes(study=study):
        if run_ids and d.run_id not in run_ids:
            continue
        names[d.run_pk] = d.run_id
        if d.reported is None:
            value = reference.ConsensusValue(d.metric_id, None, None, d.status)
        else:
            reason = d.decision.reason if d.decision is not None else ""
            value = reference.ConsensusValue(
                d.metric_id, d.reported.outcome, d.reported.score, d.reported.reached, reason
            )
        by_run.setdefault(d.run_pk, []).append(value)
    missing = [rid for rid in run_ids if rid not in names.values()]
    if missing:
        raise GoldError(f"study {study!r} has no rated run {missing[0]!r}")
    added, skipped = [], []
    for run_pk, values in sorted(by_run.items()):
        run = GoldRun(run_id=names[run_pk], sha256=store.get_run(run_pk).sha256)
        try:
            payload = reference.from_consensus(
                run, values, study=study, rubric_sha256=rubric, key=key, at=_now()
            )
        except GoldError as exc:
            skipped.append(str(exc))
            continue
        added.append(store.add_gold_reference(run_pk, seal(payload, key)))
    return added, skipped


def add_from_sheet(
    store: GoldStore, sheet: SheetPayload, sheet_sha256: str, key: RaterKey
) -> GoldReference:
    """The reference a verified reference-rater sheet gives its run (the run imported)."""
    run_pk = store.run_pk_of(sheet.run.trajectory_sha256)
    if run_pk is None:
        raise GoldError(
            f"sheet {sheet.sheet_id}: run {sheet.run.run_id} is not in this database "
            "(import its trajectory first)"
        )
    payload = reference.from_sheet(
        sheet, sheet_sha256=sheet_sha256, rubric_sha256=store.rubric().sha256, key=key, at=_now()
    )
    return store.add_gold_reference(run_pk, seal(payload, key))


def create_study(
    store: GoldStore, spec: StudySpec, plan: GoldPlan, *, owner_fingerprint: str | None
) -> Study:
    """Create ``spec`` with its gold seeded: the owner's references (every other refused in
    one line), the qualification set drawn first, the rest as gold at ``plan.fraction``."""
    if spec.owner is None:
        raise GoldError(f"study {spec.name!r} has no owner: nobody may sign its gold (--owner)")
    rubric = store.rubric().sha256
    pool: dict[str, GoldReference] = {}
    for ref in store.gold_references():
        if ref.payload.owner.name != spec.owner:
            continue  # another owner's pool: not offered to this study
        rules.check_reference(
            ref.payload, ref.payload.owner.fingerprint, study=spec.name, owner=spec.owner,
            owner_fingerprint=owner_fingerprint, raters=spec.raters, rubric_sha256=rubric,
        )  # fmt: skip
        pool.setdefault(ref.payload.run.sha256, ref)
    if not pool:
        raise GoldError(
            f"study {spec.name!r} asks for gold, but {spec.owner} has signed no gold reference "
            "here: add some first (study gold add)"
        )
    rated = store.rated_runs(spec.raters)
    anyone = set().union(*rated.values()) if rated else set()
    # The qualification set is the same for every rater: none of them may have rated it.
    order = sorted(pool, key=lambda sha: (sha in anyone, draw(spec.seed, "qualify", sha), sha))
    if plan.qualification and any(sha in anyone for sha in order[: plan.qualification]):
        raise GoldError(
            f"study {spec.name!r} asks for {plan.qualification} qualification runs, but only "
            f"{sum(sha not in anyone for sha in order)} gold run(s) are new to all its raters"
        )
    if plan.qualification > len(order) - (1 if plan.fraction > 0 else 0):
        raise GoldError(
            f"study {spec.name!r} asks for {plan.qualification} qualification runs"
            f"{' and gold' if plan.fraction > 0 else ''}, but {spec.owner} has {len(order)} "
            "gold reference(s)"
        )
    qual = {sha: pool[sha] for sha in order[: plan.qualification]}
    gold = {sha: pool[sha] for sha in order[plan.qualification :]} if plan.fraction > 0 else {}
    arranger = GoldArranger(plan=plan, spec=spec, gold=gold, qualification=qual, rated=rated)
    return store.create_study_with_gold(
        spec, owner_fingerprint=owner_fingerprint, arranger=arranger
    )


def add_runs(store: GoldStore, name: str, selection: Selection) -> tuple[int, int]:
    """Add the selected runs to ``name`` with gold seeded among them at the study's
    fraction (the owner's references kept out of the regular runs, as at creation);
    returns ``(runs added, gold assignments among them)``."""
    ext = _extension(store, name, raters=())
    added = store.add_study_runs(name, selection, arranger=ext)
    gold = 0 if ext is None else sum(a.run_sha256 in ext.gold for a in ext.seeded)
    return added, gold


def add_raters(store: GoldStore, name: str, raters: Sequence[str]) -> tuple[int, int]:
    """Add raters to ``name``, each given the study's qualification set first when it
    requires one; returns ``(raters added, qualification runs each)``. A rater whose sheet
    is one of the study's references, or who rated a qualification run already, is
    refused in one line (their qualification would be judged against themselves)."""
    ext = _extension(store, name, raters=raters)
    added = store.add_study_raters(name, raters, arranger=ext)
    return added, (0 if ext is None or not added else len(ext.qualification))


def _extension(store: GoldStore, name: str, *, raters: Sequence[str]) -> GoldExtension | None:
    """The arranger that keeps ``name``'s gold plan as it grows (None: the study has no
    gold); ``raters`` are the raters about to be added, checked against its references."""
    plan = store.gold_plan(name)
    if plan is None:
        return None
    study = store.get_study(name)
    new = [r for r in raters if r not in study.raters]
    everyone = (*study.raters, *new)
    in_study = store.study_gold(name)
    for g in in_study:  # what a new rater may not be: the source of one of its references
        rules.check_reference(
            g.reference.payload, g.reference.payload.owner.fingerprint, study=name,
            owner=study.owner, owner_fingerprint=study.owner_fingerprint, raters=everyone,
            rubric_sha256=study.rubric_sha256,
        )  # fmt: skip
    qualification = {g.reference.payload.run.sha256: g.reference for g in in_study
                     if g.qualification}  # fmt: skip
    rated = store.rated_runs(everyone)
    for rater in new:
        seen = sorted(set(qualification) & rated.get(rater, set()))
        if seen:
            raise GoldError(
                f"study {name!r}: {rater} has rated {len(seen)} of its qualification run(s) "
                "already, so they cannot qualify on them"
            )
    gold_runs = {g.reference.payload.run.sha256 for g in in_study}
    regular = {a.sha256 for a in store.study_assignments(name)} - gold_runs
    pool: dict[str, GoldReference] = {}
    for ref in store.gold_references():
        sha = ref.payload.run.sha256
        if ref.payload.owner.name != study.owner or sha in qualification or sha in regular:
            continue  # another owner's, the qualification set, or a regular run of the study
        try:
            rules.check_reference(
                ref.payload, ref.payload.owner.fingerprint, study=name, owner=study.owner,
                owner_fingerprint=study.owner_fingerprint, raters=everyone,
                rubric_sha256=study.rubric_sha256,
            )  # fmt: skip
        except GoldError:
            continue  # not this study's gold (a rater's sheet, another key or rubric)
        pool.setdefault(sha, ref)
    return GoldExtension(spec=study, plan=plan, gold=pool, qualification=qualification, rated=rated)


def check_study_gold(store: GoldStore, study: Study) -> list[StudyGoldCheck]:
    """Each gold run's reference checked against the study's rules (for ``study gold list``
    and ``audit``-like use): a line per reference that breaks one."""
    out = []
    for g in store.study_gold(study.name):
        try:
            rules.check_reference(
                g.reference.payload, g.reference.payload.owner.fingerprint, study=study.name,
                owner=study.owner, owner_fingerprint=study.owner_fingerprint,
                raters=study.raters, rubric_sha256=study.rubric_sha256,
            )  # fmt: skip
            out.append(StudyGoldCheck(g.run_pk, None))
        except GoldError as exc:
            out.append(StudyGoldCheck(g.run_pk, str(exc)))
    return out


@dataclass(frozen=True)
class StudyGoldCheck:
    """A gold run of a study and what is wrong with its reference (None: nothing)."""

    run_pk: int
    problem: str | None


def references_by_run(store: GoldStore, study: Study) -> dict[int, dict[str, int]]:
    """``{run_pk: {metric: reference score}}`` of the study's gold, each reference checked
    against the study's rules first (:class:`GoldError` names the first that breaks one)."""
    out = {}
    for check, g in zip(check_study_gold(store, study), store.study_gold(study.name), strict=True):
        if check.problem is not None:
            raise GoldError(check.problem)
        out[g.run_pk] = {i.metric_id: i.score for i in g.reference.payload.items
                         if i.score is not None}  # fmt: skip
    return out


def reference_scores(store: GoldStore, study: str) -> list[Score]:
    """The study's gold references as the scores of the pseudo-rater
    :data:`~reviewer.gold.model.GOLD_RATER` (empty for a study without gold), each checked
    against the study's rules first: add them to the raters' scores
    (:func:`reviewer.quality.source.scores`) and call
    ``reviewer.quality.report.accuracy_rows(scores, GOLD_RATER)`` for accuracy against gold,
    or :func:`reviewer.gold.accuracy.gold_drift_rows` for the gold drift series."""
    s = store.get_study(study)
    refs = references_by_run(store, s)
    ids = {g.run_pk: g.reference.payload.run.run_id for g in store.study_gold(study)}
    return accuracy.reference_scores(refs, ids)


def qualification_results(store: GoldStore, study: str) -> list[rules.Qualification]:
    """Each rater's result on the study's qualification set (final, submitted values)."""
    s = store.get_study(study)
    plan = store.gold_plan(study)
    if plan is None or not plan.qualification:
        raise GoldError(f"study {study!r} requires no qualification")
    refs = references_by_run(store, s)
    qual = {g.run_pk for g in store.study_gold(study) if g.qualification}
    wanted = {pk: refs[pk] for pk in qual}
    out = []
    for rater in s.raters:
        mine = store.rater_scores(study, rater, sorted(qual))
        result = rules.qualification(
            rater,
            {str(k): v for k, v in mine.items()},
            {str(k): v for k, v in wanted.items()},
            measure=plan.measure,
            threshold=plan.threshold,
        )
        out.append(result)
    return out


def record_decisions(
    store: GoldStore, study: str, results: Sequence[rules.Qualification], key: RaterKey
) -> list[rules.Qualification]:
    """Sign and record a decision for each rater whose qualification set is complete and
    who has none yet; returns those decided now."""
    s = store.get_study(study)
    if s.owner != key.rater:
        raise GoldError(f"study {study!r} is owned by {s.owner!r}: they sign its decisions")
    if s.owner_fingerprint and s.owner_fingerprint != key.fingerprint:
        raise GoldError(f"study {study!r} was created with key {s.owner_fingerprint}")
    plan = store.gold_plan(study)
    assert plan is not None  # qualification_results refused a study without one
    done = store.qualification_decisions(study)
    runs = sorted(
        store.get_run(g.run_pk).sha256 for g in store.study_gold(study) if g.qualification
    )
    decided = []
    for r in results:
        if not r.complete or r.rater in done:
            continue
        payload = DecisionPayload(
            study=study, rater=r.rater, qualified=r.qualified, measure=plan.measure,
            threshold=plan.threshold, per_metric=r.per_metric, runs=runs,
            owner=SheetRater.of(key), decided_at=_now(),
        )  # fmt: skip
        store.record_qualification(study, r.rater, seal(payload, key))
        decided.append(r)
    return decided


def packet_scope(store: GoldStore, study: str, rater: str) -> tuple[list[str], bool] | None:
    """For a study that requires qualification: ``(qualification sha256s, qualified)`` of
    ``rater`` (a packet for a rater not qualified holds only those runs); None otherwise."""
    plan = store.gold_plan(study)
    if plan is None or not plan.qualification:
        return None
    runs = sorted(
        store.get_run(g.run_pk).sha256 for g in store.study_gold(study) if g.qualification
    )
    decision = store.qualification_decisions(study).get(rater)
    return runs, bool(decision is not None and decision.qualified)


def read_sheet_file(path: Path) -> tuple[SheetPayload, str]:
    """A reference rater's sheet, verified: its payload and its file's sha256."""
    from reviewer.sheets.verify import file_sha256, verify_file

    result = verify_file(path)
    if not result.ok or result.sheet is None:
        raise GoldError(f"{path}: {result.reason or 'does not verify'}")
    payload = result.sheet.payload
    if not isinstance(payload, SheetPayload):
        raise GoldError(f"{path}: an adjudication sheet is not a rating to take as reference")
    return payload, file_sha256(path)

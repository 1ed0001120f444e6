"""What each ``a320-review study …`` subcommand does (:mod:`reviewer.verbs.study` builds
their parsers): create, list, show, assignments, add-runs, add-raters."""

from __future__ import annotations

import argparse
import json
import sys

from reviewer.commands.verbs import CommandError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the annotations only: the parser is built without the store
    from contextlib import AbstractContextManager

    from reviewer.gold.facade import GoldStore
    from reviewer.studies.model import Selection, StudySpec


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise UsageError("--raters needs at least one name")
    return names


def _selection(args: argparse.Namespace) -> Selection:
    from reviewer.studies.model import Selection

    run_ids: list[str] = []
    if args.runs is not None:
        from reviewer.inputs import LIST_LIMIT, InputError, read_text

        try:  # bounded, regular files only: never /dev/zero or a FIFO
            text = read_text(args.runs, LIST_LIMIT)
        except InputError as exc:
            raise UsageError(str(exc)) from None
        run_ids = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
        if not run_ids:
            raise UsageError(f"{args.runs}: no run ids")
    return Selection(
        scenarios=tuple(args.scenario),
        models=tuple(args.model),
        statuses=tuple(args.status),
        run_ids=tuple(run_ids),
    )


def _store(args: argparse.Namespace, *, create: bool = False) -> AbstractContextManager[GoldStore]:
    from reviewer.commands.store_option import open_store
    from reviewer.gold.facade import GoldStore

    return open_store(args, GoldStore, create=create)


def _without_unratable(store: GoldStore, spec: StudySpec) -> StudySpec:
    """``spec`` narrowed to the selected runs a rater can rate under the evidence rule; the
    runs left out are named on stderr (the narrowed selection is what the study records)."""
    from reviewer.studies.ratable import unratable
    from scoring.paths import shown

    selection = spec.selection
    chosen = [
        r
        for r in store.list_runs()
        if not r.superseded_by_version
        and selection.matches(
            run_id=r.run_id, scenario=r.scenario_id, model=r.model, status=r.status
        )
    ]
    left_out = unratable(store, chosen)
    if not left_out:
        return spec
    rubric = store.rubric()
    names = ", ".join(shown(r.run_id or r.path) for r in left_out)
    print(
        f"study {spec.name}: {len(left_out)} selected run(s) left out: {names}: no event and no"
        f" ground-truth action to cite, so rubric {rubric.id} v{rubric.version} would not let a"
        " rater give the scores that need evidence (--include-unratable keeps them)",
        file=sys.stderr,
    )
    gone = {r.run_pk for r in left_out}
    keep = tuple(r.run_id for r in chosen if r.run_pk not in gone and r.run_id is not None)
    return spec.model_copy(update={"selection": selection.model_copy(update={"run_ids": keep})})


def _name_gold_left_out(store: GoldStore, spec: StudySpec, name: str) -> None:
    """A selected run that is one of the owner's gold references is never an ordinary run of
    the study (gold is kept out of the pool); those not seeded as gold this time are not in
    the study at all. The owner is told which, as for the unratable runs."""
    from scoring.paths import shown

    seeded = {g.run_pk for g in store.study_gold(name)}
    owners = {
        r.payload.run.sha256 for r in store.gold_references() if r.payload.owner.name == spec.owner
    }
    sha_of = dict(store.run_table(("run_pk", "sha256")))
    selection = spec.selection
    left_out = [
        r
        for r in store.list_runs()
        if not r.superseded_by_version
        and r.run_pk not in seeded
        and sha_of.get(r.run_pk) in owners
        and selection.matches(
            run_id=r.run_id, scenario=r.scenario_id, model=r.model, status=r.status
        )
    ]
    if left_out:
        names = ", ".join(shown(r.run_id or r.path) for r in left_out)
        print(
            f"study {name}: {len(left_out)} selected run(s) left out: {names}: gold references of"
            f" {spec.owner} not drawn into this study's queues (a gold run is never rated as an"
            " ordinary run)",
            file=sys.stderr,
        )


def run_create(args: argparse.Namespace) -> int:
    """Create, assign, and print the loads."""
    from pydantic import ValidationError

    from reviewer import home
    from reviewer.sheets import keys
    from reviewer.store import StoreError
    from reviewer.studies.model import StudySpec

    owner = args.owner or home.last_rater()
    try:
        spec = StudySpec(
            name=args.name,
            raters=tuple(_names(args.raters)),
            per_run=args.per_run,
            protocol=args.protocol,
            reveal_first=args.reveal_first,
            seed=args.seed,
            selection=_selection(args),
            owner=owner,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        message = first["msg"].removeprefix("Value error, ")
        raise UsageError(f"{where + ': ' if where else ''}{message}") from None
    fp = None
    if owner and keys.has_key(owner):
        fp = keys.parse_public_key_line(keys.key_paths(owner)[1].read_text("utf-8")).fingerprint
    plan = _gold_plan(args)
    with _store(args) as store:
        if not args.include_unratable:
            spec = _without_unratable(store, spec)
        try:
            if plan.any:
                from reviewer.gold import service

                study = service.create_study(store, spec, plan, owner_fingerprint=fp)
                _name_gold_left_out(store, spec, study.name)
            else:
                study = store.create_study(spec, owner_fingerprint=fp)
        except (StoreError, ValueError) as exc:  # GoldError is a ValueError
            raise CommandError(str(exc)) from None
        _print_loads(store, study.name)
    print(
        f"study {study.name}: {study.n_runs} runs, {len(study.raters)} raters, "
        f"{study.per_run} per run, {study.protocol}"
    )
    return 0


def _gold_plan(args: argparse.Namespace):  # type: ignore[no-untyped-def]  # a GoldPlan
    from pydantic import ValidationError

    from reviewer.gold.model import GoldPlan

    try:
        return GoldPlan(
            fraction=args.gold_fraction,
            qualification=args.qualification,
            measure=args.qualify_measure,
            threshold=args.qualify_threshold,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        option = {"fraction": "--gold-fraction", "qualification": "--qualification",
                  "threshold": "--qualify-threshold"}.get(str(first["loc"][0]), "gold")  # fmt: skip
        raise UsageError(f"{option}: {first['msg']}") from None


def _print_loads(store: GoldStore, name: str) -> None:
    rows = store.study_assignments(name)
    study = store.get_study(name)
    for rater in study.raters:
        mine = [r for r in rows if r.rater == rater]
        arm = sum(r.reveal_first for r in mine)
        extra = f" ({arm} scorer-first)" if arm else ""
        print(f"  {rater}: {len(mine)} runs{extra}")


def run_list(args: argparse.Namespace) -> int:
    """One line per study."""
    with _store(args) as store:
        studies = store.studies()
    for s in studies:
        origin = " (joined)" if s.joined else ""
        print(
            f"{s.name}\t{s.protocol}\t{s.n_runs} runs\tk={s.per_run}\t"
            f"raters: {', '.join(s.raters)}{origin}"
        )
    print(f"{len(studies)} studies", file=sys.stderr)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """The definition and the loads."""
    from reviewer.store import StoreError

    with _store(args) as store:
        try:
            s = store.get_study(args.name)
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        print(json.dumps(s.model_dump(mode="json"), indent=2))
        _print_loads(store, args.name)
    return 0


def run_assignments(args: argparse.Namespace) -> int:
    """CSV or JSON: run_id, rater, position, reveal_first, sha256."""
    from reviewer.store import StoreError
    from reviewer.tabular import write_rows

    with _store(args) as store:
        try:
            rows = store.study_assignments(args.name, rater=args.rater)
        except StoreError as exc:
            raise CommandError(str(exc)) from None
    columns = ("run_id", "rater", "position", "reveal_first", "sha256")
    write_rows([r.model_dump() for r in rows], columns, args.format, sys.stdout)
    return 0


def run_add_runs(args: argparse.Namespace) -> int:
    """Extend with the selection (or the study's own); gold at the study's fraction."""
    from reviewer.gold import service
    from reviewer.gold.envelope import GoldError
    from reviewer.store import StoreError
    from reviewer.studies.model import Selection

    with _store(args) as store:
        try:
            selection = _selection(args)
            if selection == Selection():
                selection = store.get_study(args.name).selection
            added, gold = service.add_runs(store, args.name, selection)
        except (StoreError, GoldError) as exc:
            raise CommandError(str(exc)) from None
        _print_loads(store, args.name)
    print(f"study {args.name}: {added} runs added")
    if gold:
        print(f"study {args.name}: {gold} gold assignments seeded among the new ones")
    return 0


def run_add_raters(args: argparse.Namespace) -> int:
    """Add raters (they take runs added later, after the qualification set if any)."""
    from reviewer.gold import service
    from reviewer.gold.envelope import GoldError
    from reviewer.store import StoreError

    with _store(args) as store:
        try:
            added, qualification = service.add_raters(store, args.name, _names(args.raters))
        except (StoreError, GoldError) as exc:
            raise CommandError(str(exc)) from None
    print(f"study {args.name}: {added} raters added; they take the runs added from now on")
    if qualification:
        print(f"study {args.name}: each new rater's queue starts with the {qualification} "
              "qualification run(s); the rest waits for their qualification")  # fmt: skip
    return 0

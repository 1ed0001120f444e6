"""``a320-review study gold add|list|remove`` and ``study qualify``: the owner's gold and
the raters' qualification. Registered by :mod:`reviewer.verbs.study`; heavy imports stay
inside the handlers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reviewer.commands.verbs import (
    CommandError,
    Subparsers,
    UsageError,
    add_verb,
    rater_name_option,
)


def _db(p: argparse.ArgumentParser) -> None:
    from reviewer.commands.store_option import add_db_option

    add_db_option(p)


def _passphrase(p: argparse.ArgumentParser) -> None:
    p.add_argument("--passphrase-file", type=Path, metavar="FILE",
                   help="the owner key's passphrase, first line of FILE")  # fmt: skip


def register(sub: Subparsers) -> None:
    """Add ``gold`` (with add, list, remove) and ``qualify`` to ``study``'s subcommands."""
    g = add_verb(
        sub,
        "gold",
        help="gold runs: the owner's signed references, seeded unseen into queues",
        description="A gold run has a reference rating the owner signs: an earlier study's "
        "settled consensus, or a reference rater's signed sheet. study create --gold-fraction "
        "seeds the owner's gold into every queue, where it looks like any other run.",
        examples=["a320-review study gold add --consensus pilot --owner ann"],
    )
    gsub = g.add_subparsers(dest="gold_command", metavar="ACTION", required=True,
                            help="what to do")  # fmt: skip
    a = add_verb(
        gsub,
        "add",
        help="sign references and offer their runs as gold",
        description="From --consensus STUDY: every run whose metrics were all agreed or "
        "adjudicated (others are named and left out). From --sheet FILE: the signed "
        "sheet's values, comments and cited steps. Signed with the owner's key.",
        examples=[
            "a320-review study gold add --consensus pilot --owner ann",
            "a320-review study gold add --sheet olga/run-7.olga.sheet.json --owner ann",
        ],
    )
    source = a.add_mutually_exclusive_group(required=True)
    source.add_argument("--consensus", metavar="STUDY", help="an earlier study's consensus")
    source.add_argument("--sheet", type=Path, action="append", metavar="FILE",
                        help="a reference rater's signed sheet (repeatable)")  # fmt: skip
    a.add_argument("--runs", type=Path, metavar="FILE",
                   help="--consensus: only the run ids listed in FILE")  # fmt: skip
    a.add_argument("--owner", type=rater_name_option("--owner"), metavar="NAME",
                   help="who signs (default: the last rater)")  # fmt: skip
    _passphrase(a)
    _db(a)
    a.set_defaults(run=run_add)

    ls = add_verb(
        gsub,
        "list",
        help="list the gold references, or a study's gold runs",
        description="Without NAME: the references offered as gold. With NAME: the study's "
        "gold runs, which of them qualify, and any reference that breaks the study's rules. "
        "For the owner: never hand this to a rater.",
        examples=["a320-review study gold list", "a320-review study gold list pilot2"],
    )
    ls.add_argument("name", nargs="?", metavar="NAME", help="a study")
    ls.add_argument("--all", action="store_true", help="withdrawn references too")
    _db(ls)
    ls.set_defaults(run=run_list)

    rm = add_verb(
        gsub,
        "remove",
        help="withdraw a run's gold reference",
        description="New studies no longer seed it; studies that did keep it (their queues "
        "never move).",
        examples=["a320-review study gold remove run-7 --owner ann"],
    )
    rm.add_argument("run_id", metavar="RUN_ID", help="the run")
    rm.add_argument("--owner", type=rater_name_option("--owner"), metavar="NAME",
                    help="whose reference (default: the last rater)")  # fmt: skip
    _db(rm)
    rm.set_defaults(run=run_remove)

    q = add_verb(
        sub,
        "qualify",
        help="each rater's result on the qualification set; sign the decisions",
        description="The measure (within one point, or exact) on every metric over the "
        "qualification set against the threshold the study was created with. A rater who "
        "rated the whole set gets a decision, signed by the owner and logged (once, for "
        "good); only a qualified rater's packet holds more than the qualification set.",
        examples=["a320-review study qualify pilot2 --passphrase-file pass.txt"],
    )
    q.add_argument("name", metavar="NAME", help="the study")
    q.add_argument("--dry-run", action="store_true", help="report only: sign nothing")
    _passphrase(q)
    _db(q)
    q.set_defaults(run=run_qualify)


def _owner(args: argparse.Namespace) -> str:
    from reviewer import home

    owner = args.owner or home.last_rater()
    if owner is None:
        raise UsageError("--owner: give the name of the owner who signs the gold")
    return str(owner)


def run_add(args: argparse.Namespace) -> int:
    """Sign and store references."""
    from reviewer.commands.key_verbs import load_key
    from reviewer.commands.store_option import open_store
    from reviewer.gold import service
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.store import StoreError

    if args.runs is not None and args.consensus is None:
        raise UsageError("--runs goes with --consensus")
    key = load_key(_owner(args), args.passphrase_file)
    run_ids: list[str] = []
    if args.runs is not None:
        from reviewer.inputs import LIST_LIMIT, InputError, read_text

        try:
            text = read_text(args.runs, LIST_LIMIT)
        except InputError as exc:
            raise UsageError(str(exc)) from None
        run_ids = [ln.strip() for ln in text.splitlines() if ln.strip()]
    added = 0
    with open_store(args, GoldStore, create=False) as store:
        try:
            if args.consensus is not None:
                refs, skipped = service.add_from_consensus(
                    store, args.consensus, key, run_ids=run_ids
                )
                for line in skipped:
                    print(f"left out: {line}", file=sys.stderr)
                added = len(refs)
            else:
                for path in args.sheet:
                    payload, sha = service.read_sheet_file(path)
                    service.add_from_sheet(store, payload, sha, key)
                    added += 1
        except (GoldError, StoreError) as exc:
            raise CommandError(str(exc)) from None
    print(f"gold: {added} reference(s) signed by {key.rater} ({key.fingerprint})")
    return 0


def run_list(args: argparse.Namespace) -> int:
    """The references, or a study's gold."""
    from reviewer.commands.store_option import open_store
    from reviewer.gold import service
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.store import StoreError
    from reviewer.tabular import cell

    with open_store(args, GoldStore, create=False, readonly=True) as store:
        try:
            if args.name is None:
                for ref in store.gold_references(active_only=not args.all):
                    gone = f"  (withdrawn {ref.removed_at})" if ref.removed_at else ""
                    p = ref.payload
                    print(f"{cell(p.run.run_id)}\t{p.owner.name}\t{p.source.describe()}{gone}")
                return 0
            study = store.get_study(args.name)
            checks = {c.run_pk: c.problem for c in service.check_study_gold(store, study)}
            rows: list[Any] = store.study_gold(args.name)
            for g in rows:
                kind = "qualification" if g.qualification else "gold"
                problem = checks.get(g.run_pk)
                note = f"\tREFUSED: {problem}" if problem else ""
                print(f"{cell(g.reference.payload.run.run_id)}\t{kind}\t"
                      f"{g.reference.payload.source.describe()}{note}")  # fmt: skip
            plan = store.gold_plan(args.name)
        except (GoldError, StoreError) as exc:
            raise CommandError(str(exc)) from None
    if plan is not None:
        rule = (f", qualify: {plan.measure} >= {plan.threshold:g} on every metric"
                if plan.qualification else "")  # fmt: skip
        print(f"study {args.name}: {len(rows)} gold run(s), fraction {plan.fraction:g}{rule}",
              file=sys.stderr)  # fmt: skip
    return 0


def run_remove(args: argparse.Namespace) -> int:
    """Withdraw the owner's references of a run."""
    from reviewer.commands.store_option import open_store
    from reviewer.gold.facade import GoldStore

    owner = _owner(args)
    with open_store(args, GoldStore, create=False) as store:
        found = [
            r
            for r in store.gold_references()
            if r.payload.run.run_id == args.run_id and r.owner == owner
        ]
        if not found:
            raise CommandError(f"no gold reference of run {args.run_id!r} signed by {owner}")
        for ref in found:
            store.withdraw_gold_reference(ref.reference_pk, actor=owner)
    print(f"gold: run {args.run_id} withdrawn ({len(found)} reference(s))")
    return 0


def run_qualify(args: argparse.Namespace) -> int:
    """Report, then sign the decisions that can be made."""
    from reviewer.commands.key_verbs import load_key
    from reviewer.commands.store_option import open_store
    from reviewer.gold import service
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.store import StoreError

    with open_store(args, GoldStore, create=False) as store:
        try:
            study = store.get_study(args.name)
            results = service.qualification_results(store, args.name)
            decided: set[str] = set()
            if not args.dry_run and any(r.complete for r in results):
                if study.owner is None:
                    raise CommandError(f"study {args.name!r} has no owner to sign decisions")
                key = load_key(study.owner, args.passphrase_file)
                decided = {
                    r.rater for r in service.record_decisions(store, args.name, results, key)
                }
            decisions = store.qualification_decisions(args.name)
        except (GoldError, StoreError) as exc:
            raise CommandError(str(exc)) from None
    for r in results:
        values = ", ".join(f"{m} {v:.2f}" for m, v in r.per_metric.items()) or "-"
        if not r.complete:
            verdict = f"pending ({r.rated}/{r.needed} rated)"
        else:
            verdict = "qualified" if r.qualified else "not qualified"
        d = decisions.get(r.rater)
        signed = ""
        if d is not None:
            signed = " (signed now)" if r.rater in decided else f" (signed {d.decided_at:%Y-%m-%d})"
            verdict = "qualified" if d.qualified else "not qualified"
        print(f"{r.rater}\t{verdict}{signed}\t{values}")
    return 0

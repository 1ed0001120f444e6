"""``a320-review adjudicate`` and ``adjudication …``: resolving what the raters disagree on.

A (run, metric) needs adjudication when its raters' outcomes differ or two of their scores
differ by at least the study's threshold. An adjudicator who did not rate the run decides
each disputed metric with a reason, submits, and signs an adjudication sheet.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.adjudication.output import LIST_COLUMNS, list_rows, value_text
from reviewer.commands.verbs import (
    CommandError,
    Handler,
    Subparsers,
    UsageError,
    add_out_option,
    add_verb,
    rater_name_option,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from contextlib import AbstractContextManager

    from reviewer.adjudication.facade import AdjudicationStore
    from reviewer.adjudication.model import Adjudication

OUTCOMES = ("applicable", "not_applicable", "not_observed")


def _parser(
    sub: Subparsers,
    name: str,
    help_: str,
    description: str | None,
    examples: Sequence[str],
    run: Handler,
) -> argparse.ArgumentParser:
    """One adjudication verb: its help, description and examples, --db, its handler."""
    from reviewer.commands.store_option import add_db_option

    p = add_verb(sub, name, help=help_, description=description, examples=examples)
    add_db_option(p)
    p.set_defaults(run=run)
    return p


def _run_rater(p: argparse.ArgumentParser, who: str) -> None:
    p.add_argument("--run", dest="run_id", required=True, metavar="RUN_ID", help="the run's run_id")
    p.add_argument(
        "--rater", type=rater_name_option("--rater"), required=True, metavar="NAME", help=who
    )


def register(subparsers: Subparsers) -> None:
    """Add the ``adjudicate`` and ``adjudication`` verbs."""
    p = _parser(
        subparsers,
        "adjudicate",
        "decide one disputed metric of a run, with a reason",
        "Record the adjudicator's decision on one metric of a run (a draft until "
        "`adjudication submit`). The adjudicator must not have rated the run. For example: "
        "--outcome applicable --score 2 --reason TEXT --sides-with ann.",
        [
            "a320-review adjudicate --run R7 --rater dana --metric safety --outcome not_observed "
            "--reason TEXT"
        ],
        run_adjudicate,
    )
    _run_rater(p, "the adjudicator")
    p.add_argument("--metric", required=True, metavar="ID", help="the rubric metric id")
    p.add_argument("--outcome", required=True, choices=OUTCOMES, help="the decided outcome")
    p.add_argument(
        "--score",
        type=int,
        choices=range(4),
        metavar="0-3",
        help="the decided score (with --outcome applicable)",
    )
    p.add_argument("--reason", required=True, metavar="TEXT", help="why, for the record")
    p.add_argument(
        "--sides-with",
        nargs="+",
        type=rater_name_option("--sides-with"),
        default=[],
        metavar="RATER",
        help="the raters whose value the decision follows",
    )
    p.add_argument("--study", metavar="NAME", help="the study the run is adjudicated in")

    a = add_verb(
        subparsers,
        "adjudication",
        help="list disagreements; submit, sign, correct and export adjudications",
        description="What needs adjudication, and the adjudication lifecycle: submit, sign "
        "(an adjudication sheet naming the rating sheets it resolves), correct, export.",
        examples=[
            "a320-review adjudication list --study pilot",
            "a320-review adjudication sign --run R7 --rater dana --out sheets/",
        ],
    )
    sub = a.add_subparsers(
        dest="adjudication_command", metavar="SUBCOMMAND", required=True, help="what to do"
    )
    p = _parser(
        sub,
        "list",
        "every rated (run, metric) with the raters' values",
        "One row per (run, metric) rated by people (judges do not count): the raters' "
        "values, agreed / disputed / single_rater, the threshold, and the reported value.",
        [
            "a320-review adjudication list --study pilot --disputed",
            "a320-review adjudication list --format json > disputes.json",
        ],
        run_list,
    )
    p.add_argument("--study", metavar="NAME", help="only this study's runs and ratings")
    p.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="output format (default: table)",
    )
    p.add_argument(
        "--disputed", action="store_true", help="only disputed metrics (open or adjudicated)"
    )
    add_out_option(p)
    for name, help_, run in (
        ("submit", "submit an adjudication (every disputed metric decided)", run_submit),
        ("correct", "start a correction of a submitted or signed adjudication", run_correct),
    ):
        p = _parser(
            sub,
            name,
            help_,
            help_[:1].upper() + help_[1:] + ".",
            [f"a320-review adjudication {name} --run R7 --rater dana"],
            run,
        )
        _run_rater(p, "the adjudicator")
    p = _parser(
        sub,
        "sign",
        "sign a submitted adjudication as an adjudication sheet",
        "Sign the adjudicator's submitted adjudication of the run, lock it, and write "
        "<run_id>.<adjudicator>.<id>.adjudication.sheet.json. The raters' ratings it resolves "
        "must be signed (or collected) sheets.",
        ["a320-review adjudication sign --run R7 --rater dana --out sheets/"],
        run_sign,
    )
    _run_rater(p, "the adjudicator")
    p.add_argument(
        "--out", type=Path, default=Path(), metavar="DIR", help="where to write (default: here)"
    )
    p.add_argument(
        "--passphrase-file",
        type=Path,
        metavar="FILE",
        help="read the key's passphrase from the first line of FILE",
    )
    p = _parser(
        sub,
        "export",
        "write every signed adjudication sheet",
        "Write every signed adjudication sheet (of one adjudicator) to DIR.",
        ["a320-review adjudication export --out sheets/"],
        run_export,
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write to")
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="only this adjudicator's sheets",
    )
    p = _parser(
        sub,
        "threshold",
        "show or set a study's disagreement threshold",
        "Two scores this far apart (or more) need adjudication; default 2.",
        ["a320-review adjudication threshold pilot 1"],
        run_threshold,
    )
    p.add_argument("study", metavar="STUDY", help="the study")
    p.add_argument(
        "value",
        nargs="?",
        type=int,
        choices=(1, 2, 3),
        metavar="N",
        help="the new threshold, 1 to 3 (omit to show it)",
    )


# --- helpers ----------------------------------------------------------------------------------


def _open(args: argparse.Namespace) -> AbstractContextManager[AdjudicationStore]:
    """The adjudication store named by ``--db``, to use in a ``with`` block."""
    from reviewer.adjudication.facade import AdjudicationStore
    from reviewer.commands.store_option import open_store

    return open_store(args, AdjudicationStore, create=False)


def run_pk_of(store: AdjudicationStore, run_id: str) -> int:
    """The run_pk of ``run_id``: the version people rated when the file was re-imported."""
    rows = [r for r in store.list_runs() if r.run_id == run_id]
    if not rows:
        raise CommandError(f"no run {run_id!r} in this database")
    rated = [r for r in rows if r.n_ratings] or rows
    if len(rated) > 1:
        versions = ", ".join(f"{r.path} (version {r.version})" for r in rated)
        raise CommandError(f"run {run_id!r} is ambiguous here: {versions}")
    return rated[0].run_pk


def _live(store: AdjudicationStore, args: argparse.Namespace) -> Adjudication:
    found = store.live_adjudication(run_pk_of(store, args.run_id), args.rater)
    if found is None:
        raise CommandError(f"{args.rater} has not adjudicated run {args.run_id}")
    return found


def _errors() -> tuple[type[Exception], ...]:
    from reviewer.signing.service import SigningError
    from reviewer.store import StoreError

    return (StoreError, SigningError)


# --- handlers ---------------------------------------------------------------------------------


def run_adjudicate(args: argparse.Namespace) -> int:
    """Record one decision in the adjudicator's draft."""
    if args.outcome == "applicable" and args.score is None:
        raise UsageError("--outcome applicable needs --score 0-3")
    if args.outcome != "applicable" and args.score is not None:
        raise UsageError(f"--score is only given with --outcome applicable, not {args.outcome}")
    with _open(args) as store:
        try:
            run_pk = run_pk_of(store, args.run_id)
            draft = store.start_adjudication(run_pk, args.rater, study=args.study)
            if draft.status != "draft":
                raise CommandError(
                    f"{args.rater}'s adjudication of {args.run_id} is {draft.status}; to change "
                    f"it: a320-review adjudication correct --run {args.run_id}"
                    f" --rater {shlex.quote(args.rater)}"
                )
            done = store.decide(
                draft.adjudication_pk,
                args.metric,
                outcome=args.outcome,
                score=args.score,
                reason=args.reason,
                sides_with=args.sides_with,
                expected_version=draft.version,
            )
            disputed = store.disputed_metrics(run_pk, study=done.study)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    todo = [m for m in disputed if m not in done.items]
    decided = value_text(args.outcome, args.score)
    print(f"{args.rater} decided {args.metric} of {args.run_id}: {decided}")
    print(
        "still to decide: "
        + (
            ", ".join(todo)
            if todo
            else "nothing; submit with "
            f"a320-review adjudication submit --run {args.run_id} --rater {shlex.quote(args.rater)}"
        )
    )
    return 0


def run_list(args: argparse.Namespace) -> int:
    """Print every rated (run, metric) and whether it needs adjudication."""
    from reviewer.tabular import write_rows

    with _open(args) as store:
        try:
            rows = store.disputes(study=args.study)
        except _errors() as exc:
            raise UsageError(str(exc)) from None
    if args.disputed:
        rows = [d for d in rows if d.status == "disputed"]
    write_rows(list_rows(rows, args.format), LIST_COLUMNS, args.format, sys.stdout)
    if args.format == "table":
        open_ = sum(d.reported is not None and d.reported.reached == "open" for d in rows)
        print(
            f"{len(rows)} rated metric(s), {open_} disputed and not adjudicated yet",
            file=sys.stderr,
        )
    return 0


def run_submit(args: argparse.Namespace) -> int:
    """Submit the adjudicator's draft."""
    with _open(args) as store:
        try:
            live = _live(store, args)
            done = store.submit_adjudication(live.adjudication_pk, expected_version=live.version)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    print(
        f"submitted {args.rater}'s adjudication of {args.run_id} "
        f"({len(done.items)} decision(s)); sign it with: a320-review adjudication sign "
        f"--run {args.run_id} --rater {shlex.quote(args.rater)} --out DIR"
    )
    return 0


def run_correct(args: argparse.Namespace) -> int:
    """Start a draft correcting the live adjudication."""
    with _open(args) as store:
        try:
            live = _live(store, args)
            new = store.supersede_adjudication(live.adjudication_pk, adjudicator=args.rater)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    print(
        f"adjudication {new.adjudication_pk} corrects {live.adjudication_pk}: change it with "
        "a320-review adjudicate, then submit and sign it"
    )
    return 0


def run_sign(args: argparse.Namespace) -> int:
    """Sign the submitted adjudication and write its sheet."""
    from reviewer.adjudication.signing import AdjudicationSigner
    from reviewer.commands.key_verbs import load_key

    with _open(args) as store:
        run_pk = run_pk_of(store, args.run_id)
        key = load_key(args.rater, args.passphrase_file)
        try:
            written = AdjudicationSigner(store).sign(run_pk, key, args.out)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    print(f"wrote {written.path}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write every signed adjudication sheet."""
    from reviewer.adjudication.signing import AdjudicationSigner

    with _open(args) as store:
        try:
            written = AdjudicationSigner(store).export(args.out, adjudicator=args.rater)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    for w in written:
        print(f"wrote {w.path}")
    print(f"exported {len(written)} adjudication sheet(s) to {args.out}")
    return 0


def run_threshold(args: argparse.Namespace) -> int:
    """Show or set the study's threshold."""
    with _open(args) as store:
        try:
            if args.value is not None:
                store.set_adjudication_threshold(args.study, args.value)
            value = store.adjudication_threshold(args.study)
        except _errors() as exc:
            raise CommandError(str(exc)) from None
    print(json.dumps({"study": args.study, "adjudication_threshold": value}))
    return 0

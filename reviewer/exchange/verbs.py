"""``a320-review ratings import|export|summary``: ratings in long format, in and out."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.commands.store_option import add_db_option, open_store
from reviewer.commands.verbs import (
    CommandError,
    Subparsers,
    add_out_option,
    add_verb,
    input_path,
    open_output,
    rater_name_option,
)
from reviewer.tabular import write_rows

if TYPE_CHECKING:
    from reviewer.rubric import Rubric

#: What goes in each column of a rating file (``{evidence}``: which scores need evidence).
COLUMNS_HELP = (
    "Columns: run_id, metric, outcome (applicable, not_applicable, not_observed), score (0-3, "
    "only when applicable), comment (needed for a 0, a 3 and not_observed), evidence (cited "
    "steps such as '3.0; GT:2'; needed for {evidence}), overall_comment (the whole run's "
    "comment, on any one of its rows), reason (final phase: why a metric differs from its "
    "blind value)."
)

SUMMARY_COLUMNS = (
    "metric_id",
    "n",
    "n_scored",
    "mean",
    "applicable_rate",
    "not_applicable_rate",
    "not_observed_rate",
)


def register(subparsers: Subparsers) -> None:
    """Add the ``ratings`` verb and its subcommands."""
    p = add_verb(
        subparsers,
        "ratings",
        help="import, export and summarise ratings",
        examples=[
            "a320-review ratings export --out ratings.csv",
            "a320-review ratings SUBCOMMAND --help",
        ],
    )
    sub = p.add_subparsers(
        dest="ratings_command", metavar="SUBCOMMAND", required=True, help="what to do"
    )

    i = add_verb(
        sub,
        "import",
        help="import ratings from a long-format CSV or JSONL (e.g. paper forms)",
        description="Rows of run_id, metric, outcome, score, comment and, optionally, "
        "evidence (cited steps such as '3.0; GT:2 \"never isolated\"'); one submitted rating "
        "per run. Every row is checked against the rubric; on any error, every error is "
        "listed with its line and nothing is imported. `ratings template` writes the file to "
        "fill in. " + _rubric_help(),
        examples=["a320-review ratings import forms.csv --rater alice --db review.db"],
    )
    i.add_argument(
        "file", type=input_path, metavar="FILE", help="the ratings file (.csv or .jsonl)"
    )
    i.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        required=True,
        metavar="NAME",
        help="whose ratings these are",
    )
    i.add_argument(
        "--format",
        choices=("csv", "jsonl"),
        help="the file's format (default: from its suffix)",
    )
    i.add_argument(
        "--phase",
        choices=("open", "blind", "final"),
        help="within a study: blind (frozen blind ratings), final (after the reveal; a "
        "'reason' column on each changed metric) or open (open study or control arm)",
    )
    i.add_argument("--study", metavar="NAME", help="the study (default: the one assigning it)")
    add_db_option(i)
    i.set_defaults(run=run_import)

    t = add_verb(
        sub,
        "template",
        help="write the rating file to fill in: one row per run still to rate and metric",
        description="The runs of your queue that still need this phase, in queue order, one "
        "row per metric, with the columns ratings import reads. A final-phase template has "
        "every metric's blind value filled in: change what you revise and give its reason. "
        + _rubric_help(),
        examples=[
            "a320-review ratings template --rater bob --study pilot --phase blind --out blind.csv",
            "a320-review ratings template --rater bob --study pilot --phase final --out final.csv",
        ],
    )
    t.add_argument(
        "--rater", type=rater_name_option("--rater"), required=True, metavar="NAME",
        help="whose queue",
    )  # fmt: skip
    t.add_argument("--study", metavar="NAME", help="the study (default: every run)")
    t.add_argument(
        "--phase",
        choices=("open", "blind", "final"),
        default="open",
        help="which phase's file (default: open)",
    )
    t.add_argument(
        "--format", choices=("csv", "jsonl"), default="csv", help="the file's format (default: csv)"
    )
    t.add_argument("--out", type=Path, metavar="FILE", help="write here (default: stdout)")
    add_db_option(t)
    t.set_defaults(run=run_template)

    e = add_verb(
        sub,
        "export",
        help="export ratings in long format",
        description="One row per rating and metric: each rater's latest submitted or signed "
        "rating of each run, with run, scenario, model, rubric, scorer version and timestamps.",
        examples=[
            "a320-review ratings export --out ratings.csv",
            "a320-review ratings export --format jsonl --rater alice",
        ],
    )
    e.add_argument(
        "--format", choices=("csv", "jsonl"), default="csv", help="output format (default: csv)"
    )
    e.add_argument("--out", type=Path, metavar="FILE", help="write here instead of stdout")
    e.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="only this rater's ratings",
    )
    e.add_argument(
        "--viewer",
        type=rater_name_option("--viewer"),
        metavar="NAME",
        help="only what NAME may see: others' ratings of a run only once NAME rated it",
    )
    add_db_option(e)
    e.set_defaults(run=run_export)

    s = add_verb(
        sub,
        "summary",
        help="per-metric means and outcome rates",
        description="Means skip not_applicable and not_observed, whose rates are shown apart.",
        examples=["a320-review ratings summary --rater alice --format json"],
    )
    s.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help="aligned table or JSON (default: table)",
    )
    s.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="only this rater's ratings",
    )
    s.add_argument(
        "--include-judges",
        action="store_true",
        help="count automatic judges' ratings too (left out by default, and counted)",
    )
    add_db_option(s)
    add_out_option(s)
    s.set_defaults(run=run_summary)


def _rubric_help() -> str:
    """The columns and the bundled rubric's metric ids, for ``--help``: read from the YAML
    as text, so that building the parser loads no model (see test_cli_conventions)."""
    import yaml

    from reviewer import assets

    rubric = yaml.safe_load(assets.read_text("rubrics", "default.yaml"))
    ids = ", ".join(str(m["id"]) for m in rubric["metrics"])
    return COLUMNS_HELP.format(evidence="the scores the rubric names, 0 and 1 by default") + (
        f" Metric ids of the bundled rubric {rubric['id']} v{rubric['version']}: {ids} (a"
        " database may pin another rubric: ratings template prints its ids)."
    )


def _template_rubric_help(rubric: Rubric) -> str:
    """The columns and metric ids of ``rubric``, as ``template`` prints them."""
    scores = ", ".join(str(s) for s in rubric.evidence_required_for_scores) or "none"
    return COLUMNS_HELP.format(evidence=f"a score of {scores}") + (
        f" Metric ids of rubric {rubric.id} v{rubric.version}: {', '.join(rubric.metric_ids)}."
    )


def run_template(args: argparse.Namespace) -> int:
    """The rating file for ``--rater``'s queue in ``--phase``; what it leaves out is said."""
    from reviewer.exchange import template as ratings_template
    from reviewer.exchange.facade import ExchangeStore
    from reviewer.store import StoreError
    from reviewer.tabular import write_rows

    with open_store(args, ExchangeStore, create=False, readonly=True) as store:
        try:
            rows, other = ratings_template.template_rows(
                store, rater=args.rater, study=args.study, phase=args.phase
            )
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        rubric = store.rubric()
    columns = ratings_template.columns(args.phase)
    with open_output(args.out) as out:
        if args.format == "csv":
            write_rows(rows, columns, "csv", out)
        else:
            for row in rows:
                out.write(json.dumps({c: row[c] for c in columns}, ensure_ascii=False) + "\n")
    runs = len(rows) // max(1, len(rubric.metric_ids))
    print(
        f"ratings template: {runs} run(s) x {len(rubric.metric_ids)} metrics for {args.rater}"
        f" ({args.phase} phase); fill in outcome, score and comment, then: a320-review ratings"
        f" import FILE --rater {shlex.quote(args.rater)}"
        + (f" --study {shlex.quote(args.study)} --phase {args.phase}" if args.study else ""),
        file=sys.stderr,
    )
    if other:
        instead = "blind" if args.phase == "open" else "open"
        print(
            f"ratings template: {len(other)} run(s) of the queue need the {instead} phase"
            f" instead (e.g. {other[0].run_id}): write their file with --phase {instead}",
            file=sys.stderr,
        )
    print(_template_rubric_help(rubric), file=sys.stderr)
    return 0


def run_import(args: argparse.Namespace) -> int:
    """All rows or none; each error on its own line as ``FILE:LINE: reason``."""
    from reviewer.batch import file_problem
    from reviewer.exchange.facade import ExchangeStore
    from reviewer.store import RatingsFileError, StoreError
    from scoring.paths import shown

    with open_store(args, ExchangeStore, create=False) as store:
        try:
            if args.phase is None and args.study is None:
                pks = store.import_ratings(args.file, rater=args.rater, fmt=args.format)
            else:
                pks = store.import_phase(
                    args.file,
                    rater=args.rater,
                    phase=args.phase or "open",
                    study=args.study,
                    fmt=args.format,
                )
        except RatingsFileError as exc:
            for line, reason in exc.problems:
                print(file_problem(shown(args.file), line, reason), file=sys.stderr)
            count = len(exc.problems)
            raise CommandError(f"{shown(args.file)}: {count} error(s), nothing imported") from None
        except StoreError as exc:
            raise CommandError(str(exc)) from None
    print(f"ratings import: {len(pks)} submitted ratings of {args.rater} from {shown(args.file)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write the long format to ``--out`` or stdout; the export is audited."""
    from reviewer.exchange.facade import ExchangeStore

    with (
        open_store(args, ExchangeStore, create=False, readonly="if-unwritable") as store,
        open_output(args.out) as out,
    ):
        count = store.export_ratings(out, fmt=args.format, rater=args.rater, viewer=args.viewer)
        unrecorded = " (not recorded in the audit log: read-only database)" * store.readonly
    print(f"ratings export: {count} rows{unrecorded}", file=sys.stderr)
    return 0


def run_summary(args: argparse.Namespace) -> int:
    """Per-metric aggregates of the latest decisions."""
    from reviewer.exchange.facade import ExchangeStore
    from reviewer.rubric import summarize

    with open_store(args, ExchangeStore, create=False, readonly=True) as store:
        decided = store.latest_decisions(rater=args.rater)
        judges = {r.name for r in store.raters() if r.kind == "judge"}
        left_out = [] if args.include_judges else [r for r in decided if r.rater in judges]
        decided = [r for r in decided if r not in left_out]
        rows = [s.model_dump() for s in summarize(decided, rubric=store.rubric())]
    write_rows(rows, SUMMARY_COLUMNS, args.format, sys.stdout)
    note = ""
    if left_out:
        names = ", ".join(sorted({r.rater for r in left_out}))
        note = (f"; {len(left_out)} rating(s) by judges left out ({names}): "
                "--include-judges counts them")  # fmt: skip
    print(f"{len(decided)} ratings{note}", file=sys.stderr)
    return 0

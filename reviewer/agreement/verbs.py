"""``a320-review agreement`` and ``validity``: do raters agree, and does the scorer agree
with them. Statistics come from :mod:`reviewer.agreement`, imported inside the handlers so
that ``--help`` never loads numpy, scipy or krippendorff."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from reviewer.commands.store_option import add_db_option, open_store
from reviewer.commands.verbs import (
    CommandError,
    Subparsers,
    UsageError,
    add_out_option,
    add_verb,
    rater_name_option,
)
from reviewer.intervals import RESAMPLES

_AGREEMENT_EXAMPLES = (
    "a320-review agreement",
    "a320-review agreement --study pilot --phase blind --bootstrap 2000 --format json",
)
_VALIDITY_EXAMPLES = (
    "a320-review validity",
    "a320-review validity --study pilot --phase blind --format json > validity.json",
)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--study", metavar="NAME", help="only ratings made within this study")
    p.add_argument(
        "--phase",
        choices=("blind", "final"),
        default="final",
        help="blind: the values given before the reveal in blind studies; "
        "final (default): the values as submitted",
    )
    p.add_argument("--include-judges", action="store_true", help="count automatic judges as raters")
    p.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="output format (default: table)",
    )
    add_db_option(p)


def register(subparsers: Subparsers) -> None:
    """Add the ``agreement`` and ``validity`` verbs."""
    a = add_verb(
        subparsers,
        "agreement",
        help="inter-rater agreement: Krippendorff's alpha per metric, rater and pair",
        description=(
            "Krippendorff's alpha of each rubric metric over every rater's live submitted or "
            "signed rating: ordinal (the headline) and interval over the 0-3 scores (Not "
            "applicable and Not observed are missing), nominal over the outcomes, with a "
            "seeded 95% BCa bootstrap interval resampling runs (bias-corrected, accelerated by "
            "the jackknife; the note calls it unreliable below 30 runs with two scores). "
            "Then each rater, and each pair of raters."
        ),
        examples=_AGREEMENT_EXAMPLES,
    )
    _common(a)
    a.add_argument("--seed", type=int, default=0, metavar="N", help="bootstrap seed (default 0)")
    a.add_argument(
        "--bootstrap",
        type=int,
        default=RESAMPLES,
        metavar="N",
        help=f"bootstrap resamples (default {RESAMPLES}; 0 for no interval)",
    )
    add_out_option(a)
    a.set_defaults(run=run_agreement)

    v = add_verb(
        subparsers,
        "validity",
        help="the automatic score against the human consensus",
        description=(
            "Per rubric metric with a counterpart, Spearman's rho between the human consensus "
            "and the scorer's value; per scenario, the models ranked by humans and by the "
            "scalar with Kendall's tau; the runs where they disagree most; and, for blind "
            "studies, how far the scorer's view pulled the ratings (anchoring).\n "
            "The consensus (as in `consensus export`, the report and the dashboard): the "
            "adjudicated value, else the agreed median of the human raters. Open disputes are "
            "left out, their count is printed beside each rho (open_left_out), and "
            "rho_open_at_median gives rho with them taken at their raters' median. "
            "--phase blind uses the median of the blind scores (no adjudication applies)."
        ),
        examples=_VALIDITY_EXAMPLES,
    )
    _common(v)
    v.add_argument(
        "--top",
        type=int,
        default=10,
        metavar="N",
        help="how many runs of widest disagreement to list (default 10)",
    )
    v.add_argument(
        "--judge",
        type=rater_name_option("--judge"),
        metavar="NAME",
        help="instead: the LLM judge NAME against the human consensus (as `judge compare`: "
        "adjudicated, else agreed median; open disputes left out and counted)",
    )
    add_out_option(v)
    v.set_defaults(run=run_validity)


def _load(args: argparse.Namespace) -> Any:
    """The records and runs the options select; usage errors for a bad choice."""
    from reviewer.adjudication.facade import AdjudicationStore
    from reviewer.agreement.source import SelectionError, UnknownStudyError, load_inputs

    with open_store(args, AdjudicationStore, create=False) as store:
        try:
            inputs = load_inputs(
                store, study=args.study, phase=args.phase, include_judges=args.include_judges
            )
        except UnknownStudyError as exc:
            raise UsageError(str(exc)) from None
        except SelectionError as exc:
            raise CommandError(str(exc)) from None
    if not inputs.records:
        print("no submitted or signed ratings yet", file=sys.stderr)
    if inputs.left_out_judges:
        names = ", ".join(inputs.left_out_judges)
        print(f"{len(inputs.left_out_judges)} judge(s) left out ({names}): "
              "--include-judges counts them as raters", file=sys.stderr)  # fmt: skip
    return inputs


def run_agreement(args: argparse.Namespace) -> int:
    """Print the agreement report."""
    if args.bootstrap < 0:
        raise UsageError("--bootstrap must be 0 or more")
    from reviewer.agreement.report import agreement_report

    inputs = _load(args)
    report = agreement_report(
        inputs.records,
        metric_ids=inputs.rubric.metric_ids,
        seed=args.seed,
        resamples=args.bootstrap,
    )
    if args.format == "json":
        data = json.loads(report.model_dump_json())
        for rater in data.get("raters", []):
            rater["rater_kind"] = inputs.rater_kinds.get(rater["rater"], "human")
            # The CSV's names: a rater's mean per metric is ``mean_<metric>`` in both.
            rater.update({f"mean_{m}": v for m, v in rater.pop("mean_score", {}).items()})
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    from reviewer.agreement.output import agreement_sections, write_sections
    from reviewer.agreement.report import CI_METHOD, RELIABLE_INTERVAL_RUNS

    sections = agreement_sections(report, inputs.rubric.metric_ids, inputs.rater_kinds)
    footer = (
        f"alpha intervals: 95% {CI_METHOD}, {args.bootstrap} resamples (seed {args.seed}); "
        f"unreliable below {RELIABLE_INTERVAL_RUNS} runs with two scores"
        if report.metrics and args.format == "table"
        else ""
    )
    write_sections(sections, args.format, sys.stdout, footer=footer)
    return 0


def run_validity(args: argparse.Namespace) -> int:
    """Print the validity report."""
    if args.top < 0:
        raise UsageError("--top must be 0 or more")
    if args.judge is not None:
        # The judge's validity is its calibration against the humans: one implementation.
        from reviewer.judge.verbs import run_compare

        if args.format == "csv":
            raise UsageError("--judge prints table or json")
        return run_compare(args)
    from reviewer.agreement.validity import rubric_validity

    inputs = _load(args)
    # The consensus the benchmark reports: adjudicated where adjudicated (issue 15).
    report = rubric_validity(
        inputs.records,
        inputs.unselected,
        inputs.runs,
        inputs.rubric,
        top=args.top,
        consensus=inputs.consensus(),
    )
    if args.format == "json":
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        return 0
    from reviewer.agreement.output import validity_sections, write_sections

    footer = (
        f"consensus: {report.consensus_rule}\n"
        f"open disputes left out: {report.open_disputes} "
        f"(on {report.runs_with_open_disputes} runs); adjudicated values: {report.adjudicated}"
    )
    if report.metrics:
        footer += f"\nrho intervals: {report.interval_method}"
    write_sections(validity_sections(report), args.format, sys.stdout, footer=footer)
    return 0

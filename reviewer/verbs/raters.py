"""``a320-review raters accuracy|bias|drift``: how right, how biased, how steady."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from reviewer.commands.verbs import CommandError, Subparsers, UsageError, add_verb, open_output


def register(subparsers: Subparsers) -> None:
    """Add the ``raters`` verb and its subcommands."""
    from reviewer.commands.store_option import add_db_option

    p = add_verb(
        subparsers,
        "raters",
        help="rater quality: accuracy against a reference, bias, drift",
        description="Whether raters are right (against a reference rater), biased (against "
        "the panel's consensus of the same runs) or drifting (along their queue and over time). "
        "People only: judges are left out.",
        examples=[
            "a320-review raters bias --study pilot",
            "a320-review raters accuracy --reference olga --format csv",
        ],
    )
    sub = p.add_subparsers(dest="raters_command", metavar="SUBCOMMAND", required=True,
                           help="what to do")  # fmt: skip
    verbs = {
        "accuracy": (
            "each rater against gold, or a reference rater's scores of the same items",
            "Exact agreement and agreement within one point (Wilson intervals), the mean "
            "signed difference (t interval) and Cohen's quadratically weighted kappa "
            "(bootstrap interval), per metric and over all metrics, on the items both scored. "
            "The reference is --reference NAME, or with --study alone the study's gold runs "
            "(their owner-signed references, shown as the rater '(gold)').",
            run_accuracy,
        ),
        "bias": (
            "each rater's difference from the panel's consensus of the same runs",
            "Each rater's difference from the panel's consensus, robustly centred: the "
            "rater's effect in a model score = run + rater + noise fitted to the runs each "
            "scored (raters may see different runs), less the median of the raters' "
            "effects, so one or two biased raters do not move the reference for the others. "
            "Per metric and pooled (all: one effect over every metric), with a 95% interval "
            "from a bootstrap over runs that redoes the fit and the centring; a row is "
            "flagged when its interval excludes 0. When two raters only share runs with each "
            "other, their difference cannot be pinned on either (each gets half); with half "
            "the raters or more biased the same way, the centre follows them.",
            run_bias,
        ),
        "drift": (
            "each rater's difference from the others along their queue and over time",
            "Per run, the rater's score minus the mean of the other raters' scores, each "
            "corrected for that rater's own bias and drift along the queue (the panel's "
            "consensus, as for bias), regressed on queue position (within a study) and on "
            "days since the rater's first submit, with t intervals; flagged when either "
            "slope's interval excludes 0. Without --study, each slope is fitted within each "
            "study (an intercept per study: positions restart in each, and a rater's level "
            "may differ between studies without drifting in either). per_day is left empty "
            "(not estimated, never flagged) unless a study's ratings span a day or more from "
            "first to last submit. A study with gold adds the gold_* columns: the "
            "rater's mean absolute error on gold runs, and its slopes.",
            run_drift,
        ),
    }
    for name, (short, long, runner) in verbs.items():
        v = add_verb(sub, name, help=short, description=long,
                     examples=[f"a320-review raters {name} --study pilot"])  # fmt: skip
        if name == "accuracy":
            v.add_argument("--reference", metavar="NAME",
                           help="the rater whose scores are the reference (default with "
                           "--study, or 'gold': the study's gold)")  # fmt: skip
        v.add_argument("--study", metavar="NAME", help="only this study's ratings")
        v.add_argument("--phase", choices=("final", "blind"), default="final",
                       help="final values (default) or a blind study's blind values")  # fmt: skip
        v.add_argument("--format", choices=("table", "json", "csv"), default="table",
                       help="output format (default: table)")  # fmt: skip
        v.add_argument("--out", type=Path, metavar="FILE", help="write here (default: stdout)")
        add_db_option(v)
        v.set_defaults(run=runner)


def _scores(args: argparse.Namespace) -> list[Any]:
    from reviewer.commands.store_option import open_store
    from reviewer.quality.facade import QualityStore
    from reviewer.quality.source import scores
    from reviewer.store import NotFoundError, StoreError

    with open_store(args, QualityStore, create=False, readonly=True) as store:
        try:
            if args.study is not None:
                store.get_study(args.study)
            return scores(store, study=args.study, phase=args.phase)
        except NotFoundError:
            raise UsageError(f"--study: no study named {args.study!r}") from None
        except StoreError as exc:
            raise CommandError(str(exc)) from None


def _write(rows: list[dict[str, Any]], columns: tuple[str, ...], args: argparse.Namespace) -> None:
    from reviewer.tabular import write_rows

    clean = [
        {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}
        for r in rows
    ]
    with open_output(args.out) as out:
        write_rows(clean, columns, args.format, out)


def run_bias(args: argparse.Namespace) -> int:
    from reviewer.quality import report

    rows = report.bias_rows(_scores(args))
    _write(rows, report.BIAS_COLUMNS, args)
    flagged = sorted({r["rater"] for r in rows if r["flagged"]})
    who = ", ".join(flagged) or "nobody"
    print(f"raters bias: {len(rows)} rows; interval excludes 0 for: {who}", file=sys.stderr)
    return 0


def _gold(args: argparse.Namespace) -> list[Any]:
    """The study's gold references as the scores of the rater ``(gold)``; empty without
    --study or for a study without gold. A reference that breaks the study's rules (not
    the owner's) is refused in one line."""
    from reviewer.commands.store_option import open_store
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.gold.service import reference_scores
    from reviewer.store import StoreError

    if args.study is None:
        return []
    with open_store(args, GoldStore, create=False, readonly=True) as store:
        try:
            return reference_scores(store, args.study)
        except (GoldError, StoreError) as exc:
            raise CommandError(str(exc)) from None


def run_drift(args: argparse.Namespace) -> int:
    from reviewer.gold.accuracy import GOLD_DRIFT_COLUMNS, gold_drift_rows
    from reviewer.quality import report

    scores = _scores(args)
    rows = report.drift_rows(scores)
    columns: tuple[str, ...] = report.DRIFT_COLUMNS
    references: dict[int, dict[str, int]] = {}
    for g in _gold(args):
        references.setdefault(g.run_pk, {})[g.metric] = g.score
    if references:  # the gold-accuracy series beside the leave-one-out one
        gold = {r["rater"]: r for r in gold_drift_rows(scores, references)}
        empty = dict.fromkeys(GOLD_DRIFT_COLUMNS[1:])
        rows = [{**r, **{k: v for k, v in gold.get(r["rater"], empty).items() if k != "rater"}}
                for r in rows]  # fmt: skip
        columns = (*columns, *GOLD_DRIFT_COLUMNS[1:])
        for r in rows:
            r["flagged"] = bool(r["flagged"] or r.get("gold_flagged"))
    _write(rows, columns, args)
    flagged = [r["rater"] for r in rows if r["flagged"]]
    print(f"raters drift: {len(rows)} raters; drifting: {', '.join(flagged) or 'nobody'}",
          file=sys.stderr)  # fmt: skip
    return 0


def run_accuracy(args: argparse.Namespace) -> int:
    from reviewer.gold.model import GOLD_RATER
    from reviewer.quality import report

    scores = _scores(args)
    reference = args.reference
    if reference in ("gold", GOLD_RATER):  # as report --reference gold names it
        if args.study is None:
            raise UsageError(f"--reference {reference}: gold belongs to a study: add --study NAME")
        reference = None
    if reference is None:
        if args.study is None:
            raise UsageError("give --reference NAME, or --study NAME for a study with gold")
        gold = _gold(args)
        if not gold:
            raise UsageError(f"--study: study {args.study!r} has no gold: give --reference NAME")
        scores = [*scores, *gold]
        reference = GOLD_RATER
    elif not any(s.rater == reference for s in scores):
        raise UsageError(f"--reference: {reference!r} has no scores here")
    rows = report.accuracy_rows(scores, reference)
    _write(rows, report.ACCURACY_COLUMNS, args)
    print(f"raters accuracy: {len({r['rater'] for r in rows})} raters against {reference}",
          file=sys.stderr)  # fmt: skip
    return 0

"""``a320-review report``: the results charts and tables as a PDF or one HTML page.

matplotlib, numpy and the store are imported inside the handler, so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.commands.store_option import add_db_option, open_store
from reviewer.commands.verbs import CommandError, Subparsers, UsageError, add_verb

if TYPE_CHECKING:
    from reviewer.results.data import ResultsData
    from reviewer.results.source import Finish

_EXAMPLES = (
    "a320-review report --out results.pdf",
    "a320-review report --scenario elec-apu-gen-fault --format html --out apu.html",
)


def register(subparsers: Subparsers) -> None:
    """Add the ``report`` verb."""
    p = add_verb(
        subparsers,
        "report",
        help="the results charts and tables as a PDF or a self-contained HTML page",
        description=(
            "Draw the results: the scalar per model (unsafe runs apart), the scorer's vector, "
            "the human consensus per metric and model, Krippendorff's alpha per metric, the "
            "scorer against the humans, and the raters' bias, drift and (with --reference) "
            "accuracy; each chart with its table, after a title page saying "
            "what the report rests on (database, scorer and rubric versions, runs, ratings, "
            "the consensus, the open disputes, the judges).\n "
            "The consensus is the one `validity` and `consensus export` use: the adjudicated "
            "value, else the agreed median of the human raters; open disputes are left out and "
            "counted. Rates carry 95% Wilson intervals, 0-1 means 95% BCa bootstrap intervals, "
            "alpha a 95% BCa bootstrap interval over runs; a missing value is drawn as n/a."
        ),
        examples=_EXAMPLES,
    )
    p.add_argument(
        "--study", metavar="NAME", help="only the study's runs, and the ratings made within it"
    )
    p.add_argument(
        "--scenario",
        action="append",
        default=[],
        metavar="ID",
        help="only runs of this scenario (repeat for several; default: all)",
    )
    p.add_argument("--out", type=Path, required=True, metavar="FILE", help="the report to write")
    p.add_argument(
        "--format",
        choices=("pdf", "html"),
        help="pdf or html (default: from the --out suffix, else pdf)",
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="N", help="seed of alpha's bootstrap (default 0)"
    )
    p.add_argument(
        "--viewer",
        metavar="NAME",
        help="the report as NAME may see it: runs still in NAME's blind phase are left out "
        "(default: the raters whose own database this is, from the studies it joined)",
    )
    p.add_argument(
        "--reference",
        metavar="NAME",
        help="the Raters page measures each rater's accuracy against NAME's scores, or "
        "against the study's gold with --reference gold --study NAME",
    )
    add_db_option(p)
    p.set_defaults(run=run_report)


def report_format(out: Path, explicit: str | None) -> str:
    """The format asked for, else the one the file name says, else PDF."""
    if explicit:
        return explicit
    return "html" if out.suffix.lower() in (".html", ".htm") else "pdf"


def _progress(step: int, steps: int, text: str) -> None:
    print(f"report: [{step}/{steps}] {text}", file=sys.stderr, flush=True)


def _note(text: str) -> None:
    print(f"report: {text}", file=sys.stderr, flush=True)


@contextmanager
def _all_ended(later: dict[str, Finish], data: ResultsData) -> Iterator[dict[str, Finish]]:
    """``later`` with each ``finish`` noted when it is called; if the block ends in an
    error, those never called are called then (their results dropped, their own errors
    too): each waits for its worker and closes the file it hands back."""
    called: set[str] = set()

    def noted(key: str, finish: Finish) -> Finish:
        def run(given: ResultsData) -> ResultsData:
            called.add(key)
            return finish(given)

        return run

    try:
        yield {key: noted(key, finish) for key, finish in later.items()}
    except BaseException:
        for key, finish in later.items():
            if key not in called:
                with suppress(Exception):
                    finish(data)
        raise


def run_report(args: argparse.Namespace) -> int:
    """Gather the results once, then write every chart and table."""
    out: Path = args.out
    if not out.parent.is_dir() and str(out.parent):
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    from reviewer import outfile

    try:
        # Refused before the bootstrap and the drawing, as every other --out FILE is.
        outfile.check_target(out)
    except outfile.OutputError as exc:
        raise UsageError(str(exc)) from None
    fmt = report_format(out, args.format)
    from reviewer.agreement.source import SelectionError, UnknownStudyError
    from reviewer.leaderboard.runs import all_scenarios
    from reviewer.results.raters_source import GOLD, start_quality
    from reviewer.results.source import gather_then
    from reviewer.workspace import ReviewStore

    # The interpreter's exit would walk every object of matplotlib, numpy, scipy and
    # pydantic in its last collections (0.15 s of a 2.3 s report): left frozen, they are
    # not. Nothing waits on them: the report is written, fsynced and renamed, the database
    # closed, and the standard streams are flushed by the exit itself.
    atexit.unregister(gc.freeze)  # once, however often the verb runs in this process
    atexit.register(gc.freeze)
    if args.reference == GOLD and args.study is None:
        raise UsageError("--reference gold: gold belongs to a study: add --study NAME")
    with open_store(args, ReviewStore, create=False) as store:
        unknown = sorted(set(args.scenario) - set(all_scenarios(store)))
        if unknown:
            raise UsageError(f"no runs of scenario {', '.join(unknown)} in this database")
        try:
            data, later = gather_then(
                store,
                study=args.study,
                scenarios=args.scenario,
                seed=args.seed,
                progress=_progress,
                viewer=args.viewer,
                # The rater quality in a worker while the figures are made.
                meanwhile=lambda runs, study: start_quality(
                    store,
                    runs,
                    study,
                    viewer=args.viewer,
                    reference=args.reference,
                    seed=args.seed,
                    note=_note,
                ),
                # The leaderboard's bootstrap in a worker too while alpha's is made here,
                # or (no core free) made here while the other pages are drawn.
                board_aside=True,
            )
        except UnknownStudyError as exc:
            raise UsageError(str(exc)) from None
        except SelectionError as exc:
            raise CommandError(str(exc)) from None
        # A way out before the report is written (a refused reference, a full disk) still
        # waits for each worker begun: none outlives the command, no file of theirs is left.
        with _all_ended(later, data) as later:
            if args.reference is not None and "quality" in later:
                # A reference the store lacks is refused before any drawing; the drawing's
                # imports (a third of a second) are made while the quality's worker ends.
                from reviewer.results.report import prepare

                prepare(fmt, data.meta.n_runs)
                data = later.pop("quality")(data)
            if data.quality is not None and data.quality.missing_reference:
                if args.reference == GOLD:
                    raise UsageError(f"--reference gold: study {args.study!r} has no gold")
                raise UsageError(f"--reference: {args.reference!r} has no scores here")
            if data.meta.left_out_note:
                print(f"report: {data.meta.left_out_note}", file=sys.stderr)
            if not data.n_records:
                print(
                    "report: no submitted or signed ratings yet: the rating charts say so",
                    file=sys.stderr,
                )
            from reviewer.results.report import write_report

            try:
                # The pages but the Leaderboard and the Raters are drawn while their data is
                # made; the store stays open meanwhile: the quality's finish reads it here if
                # its worker fails.
                count = write_report(data, out, fmt, _progress, later=later)
            except outfile.OutputError as exc:  # already "cannot write OUT: why", as --out says it
                raise CommandError(f"{exc}; {out} was left as it was") from None
            except OSError as exc:
                raise CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    what = "pages" if fmt == "pdf" else "charts"
    print(
        f"report: {out} ({fmt}, {count} {what}, {data.meta.n_runs} runs, "
        f"{data.meta.n_ratings} ratings)",
        file=sys.stderr,
    )
    return 0

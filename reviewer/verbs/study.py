"""``a320-review study …``: studies, their assignments, and packets for raters elsewhere."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.commands.verbs import (
    Handler,
    Subparsers,
    add_out_option,
    add_verb,
    rater_name_option,
    rater_names_option,
)
from reviewer.verbs import gold as gold_verbs
from reviewer.verbs import study_packet
from reviewer.verbs.study_handlers import (
    run_add_raters,
    run_add_runs,
    run_assignments,
    run_create,
    run_list,
    run_show,
)


def _sub(
    sub: Subparsers,
    name: str,
    help_: str,
    description: str | None,
    example: str,
    run: Handler,
    *,
    named: bool = True,
) -> argparse.ArgumentParser:
    """One subcommand: its help and example, the study NAME (unless not ``named``), --db."""
    p = add_verb(sub, name, help=help_, description=description, examples=[example])
    if named:
        p.add_argument("name", metavar="NAME", help="the study")
    _db(p)
    p.set_defaults(run=run)
    return p


def _db(p: argparse.ArgumentParser) -> None:
    from reviewer.commands.store_option import add_db_option

    add_db_option(p)


def _selection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--scenario",
        action="append",
        default=[],
        metavar="ID",
        help="take runs of this scenario (repeatable)",
    )
    p.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="M",
        help="take runs of this model (repeatable)",
    )
    p.add_argument(
        "--status",
        action="append",
        default=[],
        metavar="S",
        help="take runs with this scorer status (repeatable)",
    )
    p.add_argument(
        "--runs", type=Path, metavar="FILE", help="take the run ids listed in FILE, one a line"
    )


def register(subparsers: Subparsers) -> None:
    """Add the ``study`` verb and its subcommands."""
    p = add_verb(
        subparsers,
        "study",
        help="rating studies: raters, assignments, blind protocol, packets",
        description="A study names runs, raters, how many raters rate each run, the protocol "
        "and a seed; every run gets exactly that many raters, loads balanced.",
        examples=[
            "a320-review study create pilot --raters ann,bob,cat "
            "--per-run 2 --protocol blind --owner ann",
        ],
    )
    sub = p.add_subparsers(
        dest="study_command", metavar="SUBCOMMAND", required=True, help="what to do"
    )

    c = _sub(
        sub,
        "create",
        "create a study and assign its runs",
        "Select runs (no filter: every run), assign each to --per-run distinct raters "
        "(loads within one of the mean, each queue in seeded order) and store it.",
        "a320-review study create pilot --raters ann,bob --per-run 2 --protocol blind "
        "--reveal-first 0.2",
        run_create,
    )
    c.add_argument(
        "--raters",
        type=rater_names_option("--raters"),
        required=True,
        metavar="A,B,C",
        help="comma-separated rater names",
    )
    c.add_argument("--per-run", type=int, required=True, metavar="K", help="raters per run")
    c.add_argument(
        "--protocol",
        choices=("open", "blind"),
        default="open",
        help="blind: the scorer stays hidden until the rater's blind submit",
    )
    c.add_argument(
        "--reveal-first",
        type=float,
        default=0.0,
        metavar="F",
        help="blind only: fraction of each queue shown the scorer first (control arm)",
    )
    c.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the assignment")
    c.add_argument(
        "--owner",
        type=rater_name_option("--owner"),
        metavar="NAME",
        help="who signs the study's packets (default: the last rater)",
    )
    _gold_options(c)
    _selection_options(c)
    c.add_argument(
        "--include-unratable",
        action="store_true",
        help="keep selected runs that have no step to cite (no event, no ground-truth action),"
        " which the rubric's evidence rule keeps from being rated 0 or 1",
    )

    add_out_option(
        _sub(
            sub,
            "list",
            "list the studies",
            "One line per study.",
            "a320-review study list",
            run_list,
            named=False,
        )
    )

    add_out_option(
        _sub(
            sub,
            "show",
            "show a study",
            "The study's definition, raters and loads.",
            "a320-review study show pilot",
            run_show,
        )
    )

    a = _sub(
        sub,
        "assignments",
        "list a study's assignments",
        "Columns run_id, rater, position (and reveal_first, sha256).",
        "a320-review study assignments pilot --format csv > assignments.csv",
        run_assignments,
    )
    a.add_argument("--format", choices=("csv", "json"), default="csv", help="default: csv")
    add_out_option(a)
    a.add_argument(
        "--rater", type=rater_name_option("--rater"), metavar="NAME", help="only this rater's queue"
    )

    r = _sub(
        sub,
        "add-runs",
        "add runs to a study",
        "Assign the selected runs not yet in the study (default: the study's own "
        "selection again, e.g. after importing more runs). Nothing assigned moves.",
        "a320-review study add-runs pilot --model gpt-x",
        run_add_runs,
    )
    _selection_options(r)

    w = _sub(
        sub,
        "add-raters",
        "add raters to a study",
        "New raters take runs added from now on; nothing assigned moves.",
        "a320-review study add-raters pilot --raters dan,eve",
        run_add_raters,
    )
    w.add_argument(
        "--raters",
        type=rater_names_option("--raters"),
        required=True,
        metavar="A,B",
        help="comma-separated rater names",
    )

    k = _sub(
        sub,
        "packet",
        "write a rater's packet",
        "Write the study, the rater's assignments and trajectories into DIR, signed "
        "with the study owner's key.",
        "a320-review study packet pilot --rater bob --out packets/bob",
        study_packet.run_packet,
    )
    k.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        required=True,
        metavar="NAME",
        help="whose packet",
    )
    k.add_argument("--out", type=Path, required=True, metavar="DIR", help="the packet folder")
    k.add_argument(
        "--passphrase-file",
        type=Path,
        metavar="FILE",
        help="the owner key's passphrase, first line of FILE",
    )

    j = _sub(
        sub,
        "join",
        "join a study from a packet",
        "Verify the packet's signature and files, import its runs and the study, and "
        "show your queue.",
        "a320-review study join packets/bob --trust owner.pub",
        study_packet.run_join,
        named=False,
    )
    j.add_argument("folder", type=Path, metavar="DIR", help="the packet folder")
    j.add_argument("--trust", type=Path, metavar="FILE", help="refuse an owner key not listed")

    gold_verbs.register(sub)


def _gold_options(c: argparse.ArgumentParser) -> None:
    c.add_argument(
        "--gold-fraction",
        type=float,
        default=0.0,
        metavar="F",
        help="seed the owner's gold runs (study gold add) into each queue, a share F of it,"
        " at seeded places; raters cannot tell them apart",
    )
    c.add_argument(
        "--qualification",
        type=int,
        default=0,
        metavar="N",
        help="require qualification: N of the owner's gold runs, first in every queue; a"
        " rater's packet holds only them until study qualify passes the rater",
    )
    c.add_argument(
        "--qualify-measure",
        choices=("within_one", "exact"),
        default="within_one",
        help="what qualifies: agreement within one point (default) or exact, per metric",
    )
    c.add_argument(
        "--qualify-threshold",
        type=float,
        default=0.8,
        metavar="T",
        help="the measure every metric must reach on the qualification set (default 0.8)",
    )

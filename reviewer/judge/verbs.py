"""``a320-review judge``: an LLM as one more rater (export, import, run, compare)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from reviewer.commands.store_option import add_db_option, open_store
from reviewer.commands.verbs import (
    CommandError,
    Subparsers,
    UsageError,
    add_out_option,
    add_verb,
    open_output,
    rater_name_option,
)

TYPE_CHECKING = False  # typing itself is not imported to build the parser
if TYPE_CHECKING:
    from reviewer.judge.facade import JudgeStore
    from reviewer.judge.requests import RunRef

DEFAULT_MODEL = "gpt-4o-mini"


def register(subparsers: Subparsers) -> None:
    """Add the ``judge`` verb and its subcommands."""
    p = add_verb(
        subparsers,
        "judge",
        help="rate runs with an LLM judge and compare it with the humans",
        description="An LLM judge rates runs with the same rubric as the humans and is "
        "stored as a rater of kind 'judge' (left out of human agreement).",
        examples=[
            "a320-review judge export --out requests.jsonl",
            "a320-review judge run --model llama3.1 --base-url http://localhost:11434/v1",
        ],
    )
    sub = p.add_subparsers(
        dest="judge_command", metavar="SUBCOMMAND", required=True, help="what to do"
    )

    e = add_verb(
        sub,
        "export",
        help="write one chat-completion request per run (OpenAI Batch API JSONL)",
        description="One request per run: the rubric as the system message, the run's judge "
        "bundle (its trajectory scored again) as the user message, a strict JSON schema for "
        "the answer. The custom_id carries the trajectory, rubric and prompt hashes.",
        examples=[
            "a320-review judge export --out requests.jsonl",
            "a320-review judge export --runs todo.txt --model gpt-4.1 --out requests.jsonl",
        ],
    )
    _add_selection(e)
    e.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        metavar="MODEL",
        help=f"model id written into each request (default: {DEFAULT_MODEL})",
    )
    e.add_argument("--out", type=Path, metavar="FILE", help="write here instead of stdout")
    add_db_option(e)
    e.set_defaults(run=run_export)

    i = add_verb(
        sub,
        "import",
        help="store a judge's answers (Batch API output or chat completions)",
        description="Check every answer with the rubric's rules and store it as a submitted "
        "rating of the judge NAME. A line that breaks a rule is refused as FILE:LINE: reason; "
        "the others are imported. The same answer again changes nothing; a changed one "
        "supersedes the judge's previous rating. Exit code 1 when a line was refused.",
        examples=[
            "a320-review judge import batch_output.jsonl --judge gpt-4.1",
        ],
    )
    i.add_argument("responses", type=Path, metavar="FILE", help="responses JSONL")
    i.add_argument(
        "--judge",
        type=rater_name_option("--judge"),
        required=True,
        metavar="NAME",
        help="the judge's rater name",
    )
    add_db_option(i)
    i.set_defaults(run=run_import)

    r = add_verb(
        sub,
        "run",
        help="send the requests to an OpenAI-compatible endpoint, then import the answers",
        description="Needs the extra [judge] (httpx). The API key is read from the "
        "environment (OPENAI_API_KEY, or the variable --api-key-env names) and never "
        "stored. Good answers are cached under the app home, keyed by trajectory, rubric, "
        "model and prompt: a rerun asks only for what has no good answer yet.",
        examples=[
            "a320-review judge run --model llama3.1 \\\n      --base-url http://localhost:11434/v1",
            "a320-review judge run --model gpt-4.1-mini --concurrency 8   # OPENAI_API_KEY set",
        ],
    )
    _add_selection(r)
    r.add_argument("--model", required=True, metavar="MODEL", help="model id to ask")
    r.add_argument(
        "--base-url",
        default="https://api.openai.com/v1",
        metavar="URL",
        help="endpoint base, up to /v1 (default: %(default)s)",
    )
    r.add_argument(
        "--judge",
        type=rater_name_option("--judge"),
        metavar="NAME",
        help="rater name (default: the model id)",
    )
    r.add_argument("--concurrency", type=int, default=4, metavar="N", help="parallel requests")
    r.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS", help="per try")
    r.add_argument("--retries", type=int, default=5, metavar="N", help="tries after the first")
    r.add_argument(
        "--temperature",
        type=float,
        metavar="T",
        help="sampling temperature (default: the server's; 0 for repeatable local runs)",
    )
    r.add_argument("--api-key-env", metavar="NAME", help="environment variable holding the API key")
    r.add_argument(
        "--responses", type=Path, metavar="FILE", help="also keep every answer here (JSONL)"
    )
    r.add_argument("--no-cache", action="store_true", help="ask again even when cached")
    add_db_option(r)
    r.set_defaults(run=run_run)

    c = add_verb(
        sub,
        "compare",
        help="the judge against the human consensus, per metric",
        description="Per metric: Krippendorff's alpha between the judge and the human "
        "consensus (the adjudicated value, else the agreed median of the human raters; open "
        "disputes left out, their count shown as open_left_out, and alpha again with them at "
        "their raters' median as alpha_ordinal_open_at_median), the mean difference "
        "(above 0: the judge is softer), confusion "
        "matrices of scores and outcomes, and the runs where they differ most.",
        examples=[
            "a320-review judge compare --judge gpt-4.1",
            "a320-review judge compare --judge gpt-4.1 --format json > calibration.json",
        ],
    )
    c.add_argument(
        "--judge",
        type=rater_name_option("--judge"),
        required=True,
        metavar="NAME",
        help="the judge's rater name",
    )
    c.add_argument("--format", choices=("table", "json"), default="table", help="output")
    c.add_argument("--top", type=int, default=10, metavar="N", help="runs listed (default 10)")
    add_db_option(c)
    add_out_option(c)
    c.set_defaults(run=run_compare)


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs", type=Path, metavar="FILE", help="run ids or sha256s, one a line")
    p.add_argument("--study", metavar="NAME", help="only the runs of this study")


def _selected(store: JudgeStore, args: argparse.Namespace) -> list[RunRef]:
    """The runs ``--runs`` and ``--study`` select; a usage error for a bad selection."""
    from reviewer.judge.requests import RunsFileError
    from reviewer.judge.workflow import select_runs

    try:
        runs = select_runs(store, runs_file=args.runs, study=args.study)
    except RunsFileError as exc:
        raise UsageError(str(exc)) from None
    except LookupError as exc:
        raise UsageError(str(exc)) from None
    if not runs:
        raise CommandError("no runs to rate (import runs first)")
    return runs


def run_export(args: argparse.Namespace) -> int:
    """Write the requests; exit 1 when some run's file could not be read again."""
    from reviewer.judge.facade import JudgeStore
    from reviewer.judge.workflow import requests_for, write_requests

    with open_store(args, JudgeStore, create=False) as store:
        runs = _selected(store, args)
        with open_output(args.out) as out:
            built = requests_for(store, runs, model=args.model, verb="judge export")
            written, problems = write_requests(built, out)
        store.record_export("judge_requests", {"requests": written, "model": args.model})
    for problem in problems:
        print(f"skipped: {problem}", file=sys.stderr)
    print(f"judge export: {written} requests, {len(problems)} runs skipped", file=sys.stderr)
    return 1 if problems else 0


def run_import(args: argparse.Namespace) -> int:
    """Import a responses file; exit 1 when a line was refused."""
    from reviewer.inputs import InputError
    from reviewer.judge.facade import JudgeStore
    from reviewer.judge.workflow import import_file
    from reviewer.store import StoreError

    with open_store(args, JudgeStore, create=False) as store:
        try:
            report, errors = import_file(store, args.responses, judge=args.judge)
        except OSError as exc:
            raise UsageError(f"cannot read {args.responses}: {exc.strerror or exc}") from None
        except InputError as exc:
            raise UsageError(str(exc)) from None
        except StoreError as exc:
            raise CommandError(str(exc)) from None
    for error in errors:
        print(error, file=sys.stderr)
    for custom_id, reason in report.uncited:  # kept in cited_steps: a note, not a refusal
        print(f"{args.responses}: {custom_id}: not cited: {reason}", file=sys.stderr)
    print(
        f"judge import: {report.added} new ratings, {report.superseded} changed answers "
        f"superseding the previous ones, {report.unchanged} unchanged, "
        f"{len(errors)} lines refused"
    )
    return 1 if errors else 0


def run_run(args: argparse.Namespace) -> int:
    """Ask the endpoint, import the good answers; exit 1 when some run has none."""
    from reviewer.judge.runner import run_judge

    if args.concurrency < 1 or args.retries < 0 or args.timeout <= 0:
        raise UsageError("--concurrency ≥ 1, --retries ≥ 0 and --timeout > 0, please")
    if args.temperature is not None and args.temperature < 0:
        raise UsageError("--temperature must not be negative")
    key_var = args.api_key_env or "OPENAI_API_KEY"
    api_key = os.environ.get(key_var)
    if args.api_key_env and not api_key:
        raise UsageError(f"the environment variable {key_var} is not set")
    from reviewer.judge.facade import JudgeStore

    with open_store(args, JudgeStore, create=False) as store:
        runs = _selected(store, args)
        return run_judge(store, runs, args, api_key=api_key)


def run_compare(args: argparse.Namespace) -> int:
    """Print the calibration of the judge against the humans."""
    from reviewer.judge.facade import JudgeStore
    from reviewer.judge.report import write_calibration
    from reviewer.judge.workflow import compare

    with open_store(args, JudgeStore, create=False) as store:
        try:
            result = compare(store, args.judge, top=args.top)
        except LookupError as exc:
            raise UsageError(str(exc)) from None
    write_calibration(result, args.format, sys.stdout, judge=args.judge)
    return 0

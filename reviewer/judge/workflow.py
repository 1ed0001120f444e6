"""The judge's steps as the command line runs them: choose runs, write requests, read
answers into the store, compare. Each returns plain values; printing is the caller's."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from reviewer.inputs import BATCH_LIMIT, read_lines
from reviewer.judge.answers import JudgeAnswer, read_answers
from reviewer.judge.calibration import Calibration, calibrate
from reviewer.judge.facade import JudgeStore
from reviewer.judge.model import JudgeImportReport
from reviewer.judge.requests import (
    Built,
    RunRef,
    all_runs,
    build_requests,
    runs_from_file,
    study_runs,
)


def select_runs(store: JudgeStore, *, runs_file: Path | None, study: str | None) -> list[RunRef]:
    """The runs named by ``--runs`` and/or ``--study`` (both: those in both), else all.

    ``RunsFileError`` for a bad runs file, ``LookupError`` for a study that cannot be used.
    """
    chosen = runs_from_file(store, runs_file) if runs_file is not None else None
    if study is not None:
        in_study = {ref.run_pk for ref in study_runs(store, study)}
        base = all_runs(store) if chosen is None else chosen
        chosen = [r for r in base if r.run_pk in in_study]
    return chosen if chosen is not None else all_runs(store)


def write_requests(built: Iterable[Built], out: TextIO) -> tuple[int, list[str]]:
    """Write each request as a JSONL line; ``(written, problems)``."""
    written, problems = 0, []
    for item in built:
        if item.request is None:
            problems.append(item.problem or f"{item.run.path}: no request")
            continue
        out.write(json.dumps(item.request, ensure_ascii=False, separators=(",", ":")) + "\n")
        written += 1
    return written, problems


def requests_for(
    store: JudgeStore, runs: list[RunRef], *, model: str, verb: str
) -> Iterator[Built]:
    """The runs' requests under the store's rubric, with progress on stderr."""
    return build_requests(runs, rubric=store.rubric(), model=model, progress=Progress(verb))


def import_file(
    store: JudgeStore, path: Path, *, judge: str
) -> tuple[JudgeImportReport, list[str]]:
    """Check and store a responses file; the report, and ``FILE:LINE: reason`` per line
    refused (by the rubric's rules or by the store). ``OSError`` if it cannot be read."""
    # Bounded, regular files only (a FIFO or /dev/zero is refused, not read forever).
    lines_read = read_lines(path, BATCH_LIMIT)
    answers, errors, lines = read_answers(lines_read, rubric=store.rubric(), source=str(path))
    report = store.import_judge_answers(answers, judge=judge, source=str(path))
    errors += [f"{path}:{lines[cid]}: {reason}" for cid, reason in report.refused]
    return report, sorted(errors, key=_line_number)


def import_answers(
    store: JudgeStore, answers: list[JudgeAnswer], *, judge: str, source: str
) -> tuple[JudgeImportReport, list[str]]:
    """Store answers that did not come from a file (``judge run``)."""
    report = store.import_judge_answers(answers, judge=judge, source=source)
    return report, [f"{source}: {cid}: {reason}" for cid, reason in report.refused]


def compare(store: JudgeStore, judge: str, *, top: int = 10) -> Calibration:
    """The judge ``judge`` against the human consensus, every run both rated.

    ``LookupError`` when there is no judge of that name.
    """
    kinds = {r.name: r.kind for r in store.raters()}
    if kinds.get(judge) != "judge":
        known = ", ".join(sorted(n for n, k in kinds.items() if k == "judge")) or "none"
        raise LookupError(f"no judge called {judge!r} in this database (judges: {known})")
    from reviewer.adjudication.consensus import reported_values

    decisions = store.latest_decisions()
    run_ids = {row.run_pk: row.run_id for row in store.list_runs()}
    # The consensus every figure uses: adjudicated, else agreed; open disputes left out.
    reported = {(int(k), m): v for (k, m), v in reported_values(store).items()}
    return calibrate(
        [d for d in decisions if d.rater == judge],
        [d for d in decisions if kinds.get(d.rater) == "human"],
        metric_ids=store.rubric().metric_ids,
        run_ids=run_ids,
        top=top,
        reported=reported,
    )


class Progress:
    """Throttled ``verb: done/total`` lines on stderr (one a second, and the last one)."""

    def __init__(self, verb: str, *, stream: TextIO | None = None) -> None:
        self.verb = verb
        self.stream = stream or sys.stderr
        self.last = 0.0

    def __call__(self, done: int, total: int, *extra: Any) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 1.0:
            return
        self.last = now
        tail = ""
        if len(extra) == 2 and all(isinstance(n, int) for n in extra):
            tail = f" ({extra[0]} from the cache, {extra[1]} without a good answer)"
        self.stream.write(f"{self.verb}: {done}/{total}{tail}\n")
        self.stream.flush()


def _line_number(message: str) -> tuple[int, str]:
    parts = message.split(":")
    for part in parts[1:2]:
        if part.isdigit():
            return int(part), message
    return 0, message

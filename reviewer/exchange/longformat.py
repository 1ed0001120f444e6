"""Ratings in long format (one row per rating × metric), as CSV or JSONL, both directions.

Import reads ``run_id, metric, outcome, score, comment`` (other columns are ignored, so an
export can be read back), e.g. transcribed from paper forms. Every row is checked against
the rubric and every problem is reported with its line; only a file with none is written,
in one transaction (:mod:`reviewer.exchange.rating_import`). Export writes the live
submitted and signed ratings with their context (:mod:`reviewer.exchange.export`).

The optional ``evidence`` column holds a metric's cited steps, ``3.0; GT:2 "note"``, as
:func:`reviewer.evidence.format_evidence` writes them; import reads the same form.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from reviewer.evidence import parse_evidence
from reviewer.inputs import BATCH_LIMIT, InputError, read_text
from reviewer.store.errors import RatingsFileError
from reviewer.tabular import csv_text, csv_writer
from scoring.paths import shown

#: Columns the ratings export gains for studies and the blind protocol (filled in by
#: :func:`reviewer.exchange.export.export_extras`).
STUDY_EXPORT_COLUMNS = (
    "study",
    "protocol",
    "reveal_first",
    "blind_outcome",
    "blind_score",
    "blind_comment",
    "revision_reason",
    "blind_submitted_at",
    "revealed_at",
    "collected_at",
)


#: ``(line, reason)`` of a row that cannot be read.
Problem = tuple[int, str]

IMPORT_COLUMNS = ("run_id", "metric", "outcome", "score", "comment")
EXPORT_COLUMNS = (
    "rater",
    "rater_kind",
    "run_id",
    "scenario_id",
    "model",
    "metric",
    "outcome",
    "score",
    "comment",
    "evidence",
    "overall_comment",
    "rubric_id",
    "rubric_version",
    "rubric_sha256",
    "scorer_version",
    "status",
    "rating_pk",
    "run_pk",
    "path",
    "created_at",
    "updated_at",
    "submitted_at",
    "signed_at",
    *STUDY_EXPORT_COLUMNS,
)
FORMATS = ("csv", "jsonl")


@dataclass(frozen=True)
class LongRow:
    """One row of a ratings file, with the line it starts on."""

    line: int
    run_id: str
    metric: str
    outcome: str | None
    score: Any
    comment: str
    #: The rating's comment on the whole run, repeated on each row of it; optional on import.
    overall_comment: str = ""
    #: The cited steps as ``(step token, note)``, parsed from the ``evidence`` field.
    evidence: tuple[tuple[str, str], ...] = ()
    #: Why a metric differs from its blind value (``ratings import --phase final``).
    reason: str = ""


def format_of(path: Path, fmt: str | None = None) -> str:
    """``csv`` or ``jsonl``, from ``fmt`` or the file's suffix."""
    fmt = fmt or path.suffix.lower().lstrip(".")
    if fmt == "json":
        fmt = "jsonl"
    if fmt not in FORMATS:
        raise RatingsFileError(
            shown(path), [(None, f"unknown format {fmt!r}: use a .csv or .jsonl file")]
        )
    return fmt


def read_long(path: Path, fmt: str | None = None) -> list[LongRow]:
    """Parse a ratings file; :class:`RatingsFileError` lists every unreadable row."""
    fmt = format_of(path, fmt)
    try:  # bounded, regular files only: never /dev/zero or a FIFO
        text = read_text(path, BATCH_LIMIT, encoding="utf-8-sig")
    except InputError as exc:
        reason = str(exc).removeprefix(f"cannot read {shown(path)}: ")
        raise RatingsFileError(shown(path), [(None, f"cannot read: {reason}")]) from None
    rows, errors = _read_csv(text) if fmt == "csv" else _read_jsonl(text)
    if errors:
        raise RatingsFileError(shown(path), errors)
    if not rows:
        raise RatingsFileError(shown(path), [(None, "no rating rows")])
    return rows


def _read_csv(text: str) -> tuple[list[LongRow], list[Problem]]:
    # csv.reader rather than DictReader: DictReader skips blank lines silently, and the line
    # each record starts on (a quoted comment can span lines) is tracked from line_num.
    reader = csv.reader(text.splitlines(keepends=True))
    try:
        header = [h.strip() for h in next(reader, [])]
    except csv.Error as exc:
        return [], [(1, f"not readable as CSV ({exc})")]
    missing = [c for c in IMPORT_COLUMNS if c not in header]
    if missing:
        return [], [(1, f"the header lacks the column(s) {', '.join(missing)}")]
    rows: list[LongRow] = []
    errors: list[Problem] = []
    start = reader.line_num + 1
    while True:
        try:
            values = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            # e.g. "field larger than field limit (131072)": the rest cannot be trusted.
            errors.append((start, f"not readable as CSV ({exc})"))
            break
        line, start = start, reader.line_num + 1
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            # Usually an unquoted comma in a comment: guessing would cut the comment short.
            errors.append(
                (line, f"{len(values)} fields where the header has {len(header)} "
                 "(quote a comment that holds a comma)")
            )  # fmt: skip
            continue
        cells = (csv_text(v) for v in values)  # the apostrophe the export put before a formula
        rows.append(_row(line, dict(zip(header, cells, strict=True)), errors))
    return rows, errors


def _read_jsonl(text: str) -> tuple[list[LongRow], list[Problem]]:
    rows: list[LongRow] = []
    errors: list[Problem] = []
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except RecursionError:
            errors.append((line, "not JSON (nested too deeply)"))
            continue
        except ValueError as exc:
            # JSONDecodeError has .msg; the int-size limit ("Exceeds the limit (4300
            # digits)…") is a plain ValueError.
            errors.append((line, f"not JSON ({getattr(exc, 'msg', exc)})"))
            continue
        if not isinstance(record, dict):
            errors.append((line, "not a JSON object"))
            continue
        missing = [c for c in ("run_id", "metric") if c not in record]
        if missing:
            errors.append((line, f"missing {', '.join(missing)}"))
            continue
        rows.append(_row(line, record, errors))
    return rows, errors


def _score(value: Any) -> Any:
    """The score as read: an int when it is one, else the value for the rubric to refuse.

    ``str.isdigit`` accepts ``²`` and ``٣`` (which ``int`` refuses or reads), and ``int``
    refuses 5,000 digits: only up to three ASCII digits become a number, and anything
    long is shortened so the error line stays readable.
    """
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return None
        if len(value) <= 3 and value.isascii() and value.isdigit():
            return int(value)
        return value if len(value) <= 20 else value[:20] + "…"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**6:
        return f"a number of {len(str(abs(value)))} digits"
    return value


def _row(line: int, record: dict[str, Any], errors: list[Problem]) -> LongRow:
    score = _score(record.get("score"))
    outcome = record.get("outcome")
    if isinstance(outcome, str):
        outcome = outcome.strip() or None
    cited: list[tuple[str, str]] = []
    text = record.get("evidence")
    if text is not None and not isinstance(text, str):
        errors.append((line, f"evidence is text such as '3.0; GT:2', not {text!r}"))
    elif text:
        try:
            cited = parse_evidence(text)
        except ValueError as exc:
            errors.append((line, f"evidence: {exc}"))
    return LongRow(
        line=line,
        run_id=str(record.get("run_id") or "").strip(),
        metric=str(record.get("metric") or "").strip(),
        outcome=outcome,
        score=score,
        comment=str(record.get("comment") or ""),
        overall_comment=str(record.get("overall_comment") or ""),
        evidence=tuple(cited),
        reason=str(record.get("reason") or ""),
    )


def write_long(rows: Iterator[dict[str, Any]], fmt: str, out: TextIO) -> int:
    """Write rows as CSV (header first) or JSONL; returns how many rows."""
    count = 0
    if fmt == "csv":
        writer = csv_writer(out)
        writer.writerow(EXPORT_COLUMNS)
        for row in rows:
            writer.writerow([row.get(c) for c in EXPORT_COLUMNS])
            count += 1
    elif fmt == "jsonl":
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return count

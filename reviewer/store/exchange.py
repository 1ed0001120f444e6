"""Ratings in long format (one row per rating × metric), as CSV or JSONL, both directions.

Import reads ``run_id, metric, outcome, score, comment`` (other columns are ignored, so an
export can be read back), e.g. transcribed from paper forms. Every row is checked against
the rubric and every problem is reported with its line; only a file with none is written,
in one transaction. Export writes the live submitted and signed ratings with their context.

The optional ``evidence`` column holds a metric's cited steps, ``3.0; GT:2 "note"``, as
:func:`reviewer.evidence.format_evidence` writes them; import reads the same form.
"""

from __future__ import annotations

import csv
import itertools
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from reviewer.evidence import format_evidence, parse_evidence
from reviewer.inputs import BATCH_LIMIT, InputError, read_text
from reviewer.store import ratings, study_views
from reviewer.store.connection import read_transaction
from reviewer.store.errors import RatingsFileError
from reviewer.store.models import Rating
from reviewer.store.rubrics import RubricRegistry
from reviewer.tabular import csv_text, csv_writer
from scoring.paths import shown

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
    *study_views.STUDY_EXPORT_COLUMNS,
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


def resolve_run(conn: sqlite3.Connection, run_id: str) -> tuple[int | None, str | None]:
    """The newest version of the run ``run_id``: ``(run_pk, None)`` or ``(None, problem)``."""
    found = conn.execute(
        "SELECT r.run_pk FROM runs r WHERE r.run_id = ? AND NOT EXISTS"
        " (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)",
        (run_id,),
    ).fetchall()
    if not found:
        return None, f"unknown run_id {run_id!r} (import the run first)"
    if len(found) > 1:
        return None, f"run_id {run_id!r} is ambiguous: {len(found)} files carry it"
    return int(found[0][0]), None


def latest_decisions(
    conn: sqlite3.Connection, rubrics: RubricRegistry, *, rater: str | None = None
) -> list[Rating]:
    """Each rater's latest submitted or signed rating per run (of ``rater`` if given).

    While a correction is still a draft, the rating it corrects remains the rater's word.
    """
    where = (
        "g.status <> 'draft' AND NOT EXISTS (SELECT 1 FROM ratings s"
        " WHERE s.supersedes_pk = g.rating_pk AND s.status <> 'draft')"
    )
    params: list[object] = []
    if rater is not None:
        where += " AND ra.name = ?"
        params.append(rater)
    return ratings.load_where(conn, rubrics, where, params)


#: One row per decided item: each rater's latest submitted or signed rating per run, as
#: :func:`latest_decisions` selects them, with the study context of its items.
_DECIDED_ITEMS = """
SELECT g.rating_pk, g.rubric_pk, g.run_pk, ra.name, ra.kind, i.metric_id, i.outcome, i.score,
       st.name, i.blind_outcome, i.blind_score,
       (SELECT a.reveal_first FROM assignments a WHERE a.study_pk = g.study_pk
          AND a.run_pk = g.run_pk AND a.rater_pk = g.rater_pk)
FROM ratings g
JOIN raters ra ON ra.rater_pk = g.rater_pk
JOIN rating_items i ON i.rating_pk = g.rating_pk
LEFT JOIN studies st ON st.study_pk = g.study_pk
WHERE g.status <> 'draft' AND i.outcome IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk
                  AND s.status <> 'draft')
ORDER BY g.rating_pk
"""


class DecidedItem(NamedTuple):
    """One item of a rater's latest decision on a run, with its study context."""

    run_pk: int
    rater: str
    is_judge: bool
    metric_id: str
    outcome: str
    score: int | None
    study: str | None
    blind_outcome: str | None
    blind_score: int | None
    reveal_first: bool | None


def decided_items(conn: sqlite3.Connection, rubrics: RubricRegistry) -> list[DecidedItem]:
    """The items (with an outcome) of :func:`latest_decisions`, in the same order: by
    rating, then its rubric's metric order (a metric the rubric lacks after, by id).

    Plain rows from one query, for the statistics, which read every decided item of the
    database: the whole ratings would cost ten times as much to build."""
    with read_transaction(conn):
        rows = conn.execute(_DECIDED_ITEMS).fetchall()
    rank: dict[int, dict[str, int]] = {}
    out: list[DecidedItem] = []
    for _, group in itertools.groupby(rows, key=lambda row: row[0]):
        items = list(group)
        rubric_pk = items[0][1]
        if rubric_pk not in rank:
            ids = rubrics.get(rubric_pk).metric_ids
            rank[rubric_pk] = {m: i for i, m in enumerate(ids)}
        order = rank[rubric_pk]
        items.sort(key=lambda row: (order.get(row[5], len(order)), row[5]))
        for _, _, run_pk, rater, kind, metric, outcome, score, study, b_out, b_score, arm in items:
            if study is None:  # outside a study there is no blind phase nor arm
                b_out = b_score = arm = None
            out.append(
                DecidedItem(run_pk, rater, kind == "judge", metric, outcome, score, study,
                            b_out, b_score, None if arm is None else bool(arm))
            )  # fmt: skip
    return out


def export_rows(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    *,
    rater: str | None = None,
    viewer: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Long-format rows of :func:`latest_decisions`, one per rating and metric.

    With ``viewer``, other raters' ratings of runs the viewer has not rated yet are left out.
    Blind-protocol ratings carry their blind values and revision reasons.
    """
    hidden = study_views.hidden_from(conn, viewer) if viewer is not None else set()
    extras = dict(study_views.export_extras(conn))
    blank = dict.fromkeys(study_views.STUDY_EXPORT_COLUMNS)
    runs = {
        row[0]: row[1:]
        for row in conn.execute(
            "SELECT run_pk, run_id, scenario_id, model, scorer_version, path FROM runs"
        )
    }
    kinds = dict(conn.execute("SELECT name, kind FROM raters").fetchall())
    for rating in latest_decisions(conn, rubrics, rater=rater):
        if (rating.run_pk, rating.rater) in hidden:
            continue
        # A rating whose run was deleted behind the store's back (``audit verify`` names
        # it) is still exported: the rater's word is not dropped for a missing run.
        orphan = (None, None, None, None, None)
        run_id, scenario_id, model, scorer_version, path = runs.get(rating.run_pk, orphan)
        for item in rating.items.values():
            yield {
                "rater": rating.rater,
                "rater_kind": kinds.get(rating.rater, "human"),
                "run_id": run_id,
                "scenario_id": scenario_id,
                "model": model,
                "metric": item.metric_id,
                "outcome": item.outcome,
                "score": item.score,
                "comment": item.comment,
                "evidence": format_evidence(rating.cited(item.metric_id)),
                "overall_comment": rating.overall_comment,
                "rubric_id": rating.rubric_id,
                "rubric_version": rating.rubric_version,
                "rubric_sha256": rating.rubric_sha256,
                "scorer_version": scorer_version,
                "status": rating.status,
                "rating_pk": rating.rating_pk,
                "run_pk": rating.run_pk,
                "path": path,
                "created_at": _iso(rating.created_at),
                "updated_at": _iso(rating.updated_at),
                "submitted_at": _iso(rating.submitted_at),
                "signed_at": _iso(rating.signed_at),
                **extras.get((rating.rating_pk, item.metric_id), blank),
            }


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


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()

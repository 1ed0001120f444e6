"""The LLM judge's ratings: stored as submitted ratings of a rater whose kind is 'judge'.

An answer is matched to its run by the trajectory sha256 of its ``custom_id``, and must be
an answer under the rubric the database rates with now. The same answer again is a no-op;
a different answer for the same run supersedes the judge's previous rating, the way a
human's correction does, so the history stays in the database.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from reviewer.evidence import Citation
from reviewer.judge.model import JudgeImportReport, JudgeRatingRow
from reviewer.rubric import RatingItem
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import StoreError
from reviewer.store.models import Rater
from reviewer.store.rubrics import RubricRegistry

if TYPE_CHECKING:
    from reviewer.exchange.rating_import import StepLookup


class _Key(Protocol):
    """What the store reads of an answer's request key (read-only: the key is frozen)."""

    @property
    def trajectory_sha256(self) -> str: ...
    @property
    def rubric_sha256(self) -> str: ...
    @property
    def prompt_sha256(self) -> str: ...


class JudgeAnswerLike(Protocol):
    """What the store needs of an answer (``reviewer.judge.answers.JudgeAnswer`` has it)."""

    @property
    def key(self) -> _Key: ...
    @property
    def custom_id(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def items(self) -> Mapping[str, RatingItem]: ...
    @property
    def cited_steps(self) -> Mapping[str, list[int]]: ...
    @property
    def overall_comment(self) -> str: ...
    @property
    def input_tokens(self) -> int | None: ...
    @property
    def output_tokens(self) -> int | None: ...
    @property
    def cost(self) -> float | None: ...


def judge_rater(conn: sqlite3.Connection, name: str, *, at: str) -> Rater:
    """The judge ``name`` (inside a write transaction), registered or marked now if needed.

    A person's name is refused once that person has rated: their ratings must never be
    counted as a model's, nor a model's as theirs.
    """
    rater = ratings.add_rater(conn, name, at=at)
    if rater.kind == "judge":
        return rater
    if conn.execute("SELECT 1 FROM ratings WHERE rater_pk = ?", (rater.rater_pk,)).fetchone():
        raise StoreError(
            f"{rater.name!r} is a human rater with ratings: give the judge another name"
        )
    conn.execute("UPDATE raters SET kind = 'judge' WHERE rater_pk = ?", (rater.rater_pk,))
    audit.append(conn, [("rater_kind", rater.name, {"name": rater.name, "kind": "judge"})], at=at)
    return rater.model_copy(update={"kind": "judge"})


def import_answers(
    db: Database,
    rubrics: RubricRegistry,
    answers: Sequence[JudgeAnswerLike],
    *,
    judge: str,
    source: str,
    at: str,
) -> JudgeImportReport:
    """Store each answer as a submitted rating of ``judge``; one transaction for all."""
    rubric = rubrics.current
    added = superseded = unchanged = 0
    refused: list[tuple[str, str]] = []
    uncited: list[tuple[str, str]] = []
    # Imported here: it reads trajectories (the scorer), which the judge's reads never do.
    from reviewer.exchange.rating_import import StepLookup

    steps = StepLookup(db)
    with write_transaction(db):
        conn = db.conn
        rater = judge_rater(conn, judge, at=at)
        rubric_pk = rubrics.register(at=at)
        for answer in answers:
            if answer.key.rubric_sha256 != rubric.sha256:
                refused.append((answer.custom_id, _other_rubric(answer.key.rubric_sha256)))
                continue
            row = conn.execute(
                "SELECT run_pk FROM runs WHERE sha256 = ?", (answer.key.trajectory_sha256,)
            ).fetchone()
            if row is None:
                refused.append((answer.custom_id, "no run with this trajectory sha256 here"))
                continue
            live = ratings.live_pk(conn, row[0], rater.rater_pk)
            if live is not None:
                if ratings.head(conn, live).status == "draft":
                    refused.append((answer.custom_id, f"{rater.name} has a draft of this run"))
                    continue
                if _same(conn, rubrics, live, answer, rubric.sha256):
                    unchanged += 1
                    continue
            cited = _citations(steps, row[0], answer, uncited)
            _write(conn, rubrics, row[0], rater, rubric_pk, answer, cited, supersedes=live, at=at)
            if live is None:
                added += 1
            else:
                superseded += 1
        details = {
            "source": source,
            "added": added,
            "superseded": superseded,
            "unchanged": unchanged,
            "refused": len(refused),
            "rubric_sha256": rubric.sha256,
        }
        audit.append(conn, [("judge_import", rater.name, details)], at=at)
    return JudgeImportReport(
        added=added, superseded=superseded, unchanged=unchanged, refused=refused, uncited=uncited
    )


def _citations(
    steps: StepLookup, run_pk: int, answer: JudgeAnswerLike, uncited: list[tuple[str, str]]
) -> list[Citation]:
    """The judge's cited turns as citations, like a rater's evidence: a step that names no
    turn of the run (or a trajectory no longer readable) goes to ``uncited``."""
    out = []
    for metric_id, numbers in sorted(answer.cited_steps.items()):
        if metric_id not in answer.items:
            continue
        for number in dict.fromkeys(numbers):  # each turn once, in the judge's order
            try:
                out.append(Citation.of(metric_id, steps.resolve(run_pk, str(number))))
            except LookupError as exc:
                uncited.append((answer.custom_id, f"{metric_id}: cited step {exc}"))
    return out


def _other_rubric(sha: str) -> str:
    return (
        f"answered under rubric {sha[:12]}…, but this database rates with another rubric: "
        "export the requests again"
    )


def _same(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    live: int,
    answer: JudgeAnswerLike,
    rubric_sha: str,
) -> bool:
    current = ratings.load(conn, rubrics, live)
    meta = conn.execute(
        "SELECT model, prompt_sha256, cited_steps FROM judge_ratings WHERE rating_pk = ?",
        (live,),
    ).fetchone()
    return (
        meta is not None
        and current.rubric_sha256 == rubric_sha
        and current.items == dict(answer.items)
        and current.overall_comment == answer.overall_comment
        and (meta[0], meta[1]) == (answer.model, answer.key.prompt_sha256)
        and json.loads(meta[2]) == dict(answer.cited_steps)
    )


def _write(
    conn: sqlite3.Connection,
    rubrics: RubricRegistry,
    run_pk: int,
    rater: Rater,
    rubric_pk: int,
    answer: JudgeAnswerLike,
    cited: Sequence[Citation],
    *,
    supersedes: int | None,
    at: str,
) -> int:
    pk = ratings.insert_rating(
        conn,
        run_pk=run_pk,
        rater_pk=rater.rater_pk,
        rubric_pk=rubric_pk,
        at=at,
        overall_comment=answer.overall_comment,
        supersedes_pk=supersedes,
    )
    for item in answer.items.values():
        ratings.upsert_item(conn, pk, item, at=at)
    for citation in cited:  # while the rating is a draft: the triggers freeze them after
        ratings.insert_citation(conn, pk, citation, at=at)
    conn.execute(
        "UPDATE ratings SET status = 'submitted', submitted_at = ?, version = version + 1"
        " WHERE rating_pk = ?",
        (at, pk),
    )
    conn.execute(
        "INSERT INTO judge_ratings (rating_pk, model, prompt_sha256, custom_id, input_tokens,"
        " output_tokens, cost, cited_steps, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            pk,
            answer.model,
            answer.key.prompt_sha256,
            answer.custom_id,
            answer.input_tokens,
            answer.output_tokens,
            answer.cost,
            json.dumps(dict(answer.cited_steps), sort_keys=True),
            at,
        ),
    )
    digest = ratings.content_sha256(
        dict(answer.items), answer.overall_comment, rubrics.current.sha256, cited
    )
    details = {
        "rating_pk": pk,
        "run_pk": run_pk,
        "content_sha256": digest,
        "source": "judge",
        "model": answer.model,
        "supersedes_pk": supersedes,
    }
    audit.append(conn, [("submit", rater.name, details)], at=at)
    return pk


def live_judge_ratings(conn: sqlite3.Connection, judge: str) -> list[JudgeRatingRow]:
    """Where each of ``judge``'s live ratings came from, by run."""
    rows = conn.execute(
        "SELECT g.rating_pk, g.run_pk, r.run_id, j.model, j.prompt_sha256, j.custom_id,"
        " j.input_tokens, j.output_tokens, j.cost, j.cited_steps, j.imported_at"
        " FROM judge_ratings j JOIN ratings g ON g.rating_pk = j.rating_pk"
        " JOIN raters ra ON ra.rater_pk = g.rater_pk JOIN runs r ON r.run_pk = g.run_pk"
        " WHERE ra.name = ? AND NOT EXISTS"
        " (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk) ORDER BY g.run_pk",
        (judge,),
    ).fetchall()
    fields = tuple(JudgeRatingRow.model_fields)
    out = []
    for row in rows:
        values = dict(zip(fields, row, strict=True))
        values["cited_steps"] = json.loads(values["cited_steps"])
        out.append(JudgeRatingRow(**values))
    return out


def judge_scores(conn: sqlite3.Connection, judge: str) -> list[tuple[int, str, int]]:
    """``(run_pk, metric_id, score)`` of every scored item of ``judge``'s live ratings."""
    rows = conn.execute(
        "SELECT run_pk, metric, score FROM current_rating_items"
        " WHERE rater = ? AND rater_kind = 'judge' AND score IS NOT NULL",
        (judge,),
    )
    return [(int(pk), str(metric), int(score)) for pk, metric, score in rows]


def judges(conn: sqlite3.Connection) -> list[str]:
    """The judges with a live rating, by name."""
    rows = conn.execute(
        "SELECT DISTINCT rater FROM current_ratings WHERE rater_kind = 'judge' ORDER BY rater"
    )
    return [r[0] for r in rows]

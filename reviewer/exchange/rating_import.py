"""Writing a parsed ratings file: all rows valid, or nothing written.

Each run's rows become one submitted rating of the given rater under the current rubric.
Validation happens inside the write transaction, so what it checked (the run exists, the
rater has no live rating of it) still holds when the rows are written.

Cited steps are looked up in the run itself: ground-truth rows in its ScoreCard, timeline
events in its trajectory file (read once per run, and only if its bytes are still the ones
imported), so an imported citation is labelled exactly as one made in the window.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from reviewer.evidence import Citation
from reviewer.exchange import longformat as exchange
from reviewer.rubric import RatingItem
from reviewer.store import audit, ratings, runs
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import RatingsFileError
from reviewer.store.models import Rater
from reviewer.store.rubrics import RubricRegistry
from scoring import ScoreCard, Trajectory, TrajectoryError, read_trajectory
from scoring.steps import StepRef, resolve_step


def import_long(
    db: Database,
    rubrics: RubricRegistry,
    rows: Sequence[exchange.LongRow],
    *,
    rater: str,
    source: str,
    at: str,
) -> list[int]:
    """Store ``rows`` as submitted ratings of ``rater``; returns the new rating keys."""
    rubric = rubrics.current
    with write_transaction(db):
        rater_row = ratings.add_rater(db.conn, rater, at=at)
        rubric_pk = rubrics.register(at=at)
        errors: list[tuple[int, str]] = []
        groups: dict[int, list[exchange.LongRow]] = {}
        run_pks: dict[str, int | None] = {}
        first_line: dict[tuple[str, str], int] = {}
        steps = StepLookup(db)
        cited: dict[int, list[Citation]] = {}
        for row in rows:
            if not row.run_id or not row.metric:
                errors.append((row.line, "run_id and metric must not be empty"))
                continue
            if row.run_id not in run_pks:
                run_pks[row.run_id], problem = runs.resolve_run(db.conn, row.run_id)
                if problem:
                    errors.append((row.line, problem))
            key = (row.run_id, row.metric)
            if key in first_line:
                errors.append(
                    (
                        row.line,
                        f"{row.metric} of {row.run_id} again (first on line {first_line[key]})",
                    )
                )
                continue
            first_line[key] = row.line
            for problem in rubric.validate_item(
                row.metric, row.outcome, row.score, row.comment, evidence=len(row.evidence)
            ):
                errors.append((row.line, f"{row.run_id}, {row.metric}: {problem}"))
            too_long = rubric.comment_problem(row.overall_comment)
            if too_long:
                errors.append((row.line, f"{row.run_id}, overall_comment: {too_long}"))
            run_pk = run_pks[row.run_id]
            if run_pk is not None:
                groups.setdefault(run_pk, []).append(row)
                if row.evidence and row.metric in rubric.metric_ids:
                    cited[row.line] = steps.citations(run_pk, row, errors)
        for run_pk, group in groups.items():
            errors.extend(_group_problems(db, rubric.metric_ids, run_pk, group, rater_row))
        if errors:
            # Raising rolls the transaction back: the rater added above is not kept either.
            ordered = sorted(errors, key=_line)
            raise RatingsFileError(source, ordered)
        new_pks = [
            _write_one(db, run_pk, group, cited, rater_row, rubric_pk, at=at)
            for run_pk, group in groups.items()
        ]
        details = {"source": source, "ratings": len(new_pks), "rubric_sha256": rubric.sha256}
        audit.append(db.conn, [("ratings_import", rater_row.name, details)], at=at)
    return new_pks


def _group_problems(
    db: Database,
    metric_ids: Sequence[str],
    run_pk: int,
    group: Sequence[exchange.LongRow],
    rater_row: Rater,
) -> list[tuple[int, str]]:
    line, run_id = group[0].line, group[0].run_id
    problems: list[tuple[int, str]] = []
    missing = [m for m in metric_ids if m not in {r.metric for r in group}]
    if missing:
        problems.append((line, f"{run_id}: no row for {', '.join(missing)}"))
    overall = {r.overall_comment for r in group if r.overall_comment.strip()}
    if len(overall) > 1:
        lines = ", ".join(str(r.line) for r in group if r.overall_comment.strip())
        problems.append((line, f"{run_id}: the overall_comment differs between rows ({lines})"))
    adjudicated = adjudicator_problem(db.conn, run_pk, rater_row.rater_pk, run_id, rater_row.name)
    if adjudicated:
        problems.append((line, adjudicated))
    live = ratings.live_pk(db.conn, run_pk, rater_row.rater_pk)
    if live is not None:
        status = ratings.head(db.conn, live).status
        problems.append(
            (
                line,
                f"{rater_row.name} already has a {status} rating of {run_id} (rating {live}): "
                "correct it in the window instead",
            )
        )
    return problems


def adjudicator_problem(
    conn: sqlite3.Connection, run_pk: int, rater_pk: int, run_id: str, rater: str
) -> str | None:
    """Why ``rater`` may not rate the run: they adjudicate it (the schema refuses it too)."""
    found = conn.execute(
        "SELECT 1 FROM adjudications WHERE run_pk = ? AND rater_pk = ? LIMIT 1", (run_pk, rater_pk)
    ).fetchone()
    if found is None:
        return None
    return (f"{run_id}: {rater} adjudicates this run, and the adjudicator of a run cannot rate "
            "it: leave the run out of the file, or import it as another rater")  # fmt: skip


def _write_one(
    db: Database,
    run_pk: int,
    group: Sequence[exchange.LongRow],
    cited: dict[int, list[Citation]],
    rater_row: Rater,
    rubric_pk: int,
    *,
    at: str,
) -> int:
    pk = ratings.insert_rating(
        db.conn, run_pk=run_pk, rater_pk=rater_row.rater_pk, rubric_pk=rubric_pk, at=at
    )
    items = {}
    citations: list[Citation] = []
    for row in group:
        item = RatingItem(
            metric_id=row.metric, outcome=row.outcome, score=row.score, comment=row.comment
        )
        ratings.upsert_item(db.conn, pk, item, at=at)
        items[row.metric] = item
        for citation in cited.get(row.line, []):
            ratings.insert_citation(db.conn, pk, citation, at=at)
            citations.append(citation)
    overall = next((r.overall_comment for r in group if r.overall_comment.strip()), "")
    db.conn.execute(
        "UPDATE ratings SET status = 'submitted', submitted_at = ?, version = version + 1,"
        " overall_comment = ? WHERE rating_pk = ?",
        (at, overall, pk),
    )
    rubric_sha = db.conn.execute(
        "SELECT sha256 FROM rubrics WHERE rubric_pk = ?", (rubric_pk,)
    ).fetchone()[0]
    digest = ratings.content_sha256(items, overall, rubric_sha, citations)
    details = {"rating_pk": pk, "run_pk": run_pk, "content_sha256": digest, "source": "file"}
    audit.append(db.conn, [("submit", rater_row.name, details)], at=at)
    return pk


def _line(error: tuple[int, str]) -> int:
    # Sorted by line only: on one line, the row's own problems come before its run's.
    return error[0]


class StepLookup:
    """Finds the steps rows cite in their runs, reading each run's trajectory at most once."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._runs: dict[int, tuple[ScoreCard, Trajectory | None, str | None]] = {}

    def citations(
        self, run_pk: int, row: exchange.LongRow, errors: list[tuple[int, str]]
    ) -> list[Citation]:
        """The row's citations; each token the run does not have becomes an error."""
        out = []
        for token, note in row.evidence:
            try:
                out.append(Citation.of(row.metric, self._resolve(run_pk, token), note))
            except LookupError as exc:
                errors.append((row.line, f"{row.run_id}, {row.metric}: evidence {exc}"))
        return out

    def resolve(self, run_pk: int, token: str) -> StepRef:
        """The step ``token`` names in run ``run_pk``; ``LookupError`` saying why not."""
        return self._resolve(run_pk, token)

    def _resolve(self, run_pk: int, token: str) -> StepRef:
        if run_pk not in self._runs:
            self._runs[run_pk] = self._load(run_pk)
        card, traj, why = self._runs[run_pk]
        if traj is None and not token.startswith("GT:"):
            raise LookupError(f"{token}: {why}")
        return resolve_step(token, traj=traj, card=card)

    def _load(self, run_pk: int) -> tuple[ScoreCard, Trajectory | None, str | None]:
        run = runs.get_run(self._db.conn, run_pk)
        try:
            traj = read_trajectory(run.path)
        except TrajectoryError as exc:
            return run.scorecard, None, f"the run's trajectory is needed to find it ({exc})"
        if traj.sha256 != run.sha256:
            why = f"the run's trajectory {run.path} changed since it was imported"
            return run.scorecard, None, why
        return run.scorecard, traj, None

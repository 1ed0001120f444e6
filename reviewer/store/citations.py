"""Citing evidence on a draft: add, re-note, remove or toggle one cited step of a metric.

Each function is one write transaction with the same guards as every other draft save
(optimistic version, draft only), bumps the rating's version and appends an audit entry.
Ground-truth citations are checked against the run's ScoreCard and labelled from it; an
event citation's label comes from the caller, which holds the trajectory
(:func:`scoring.steps.event_ref` builds it).
"""

from __future__ import annotations

from reviewer.evidence import Citation
from reviewer.store import lifecycle, ratings, runs
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import RatingValidationError
from reviewer.store.models import Rating
from reviewer.store.rubrics import RubricRegistry
from scoring.steps import required_ref


def cite(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    citation: Citation,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Cite a step for a metric of a draft; citing it again replaces its note."""
    with write_transaction(db):
        h = _checked(db, rubrics, rating_pk, citation.metric_id, expected_version)
        return _add(db, rubrics, h, citation, at=at)


def uncite(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    metric_id: str,
    *,
    kind: str,
    ref: int,
    expected_version: int,
    at: str,
) -> Rating:
    """Remove a cited step; :class:`RatingValidationError` if it was not cited."""
    with write_transaction(db):
        h = _checked(db, rubrics, rating_pk, metric_id, expected_version)
        old = _find(db, rating_pk, metric_id, kind, ref)
        if old is None:
            raise RatingValidationError(
                f"rating {rating_pk}, {metric_id}: {kind} {ref} is not cited"
            )
        return _remove(db, rubrics, h, old, at=at)


def toggle(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    citation: Citation,
    *,
    expected_version: int,
    at: str,
) -> Rating:
    """Cite the step if the metric does not cite it yet, else remove it (the ``E`` key)."""
    with write_transaction(db):
        h = _checked(db, rubrics, rating_pk, citation.metric_id, expected_version)
        old = _find(db, rating_pk, citation.metric_id, citation.kind, citation.ref)
        if old is not None:
            return _remove(db, rubrics, h, old, at=at)
        return _add(db, rubrics, h, citation, at=at)


def _checked(
    db: Database,
    rubrics: RubricRegistry,
    rating_pk: int,
    metric_id: str,
    expected_version: int,
) -> ratings.Head:
    h = lifecycle.open_draft(db, rating_pk, expected_version)
    if metric_id not in rubrics.get(h.rubric_pk).metric_ids:
        raise RatingValidationError(f"rating {rating_pk}: unknown metric {metric_id!r}")
    return h


def _authoritative(db: Database, h: ratings.Head, citation: Citation) -> Citation:
    # A ground-truth row is named by the ScoreCard the store holds, not by the caller.
    if citation.kind != "ground_truth":
        return citation
    card = runs.get_run(db.conn, h.run_pk).scorecard
    try:
        target = required_ref(card, citation.ref)
    except IndexError as exc:
        raise RatingValidationError(f"rating {h.rating_pk}: {exc}") from None
    return Citation.of(citation.metric_id, target, citation.note)


def _find(db: Database, rating_pk: int, metric_id: str, kind: str, ref: int) -> Citation | None:
    for c in ratings.citations_of(db.conn, [rating_pk]).get(rating_pk, []):
        if c.key == (metric_id, kind, ref):
            return c
    return None


def _add(
    db: Database,
    rubrics: RubricRegistry,
    h: ratings.Head,
    citation: Citation,
    *,
    at: str,
) -> Rating:
    citation = _authoritative(db, h, citation)
    ratings.insert_citation(db.conn, h.rating_pk, citation, at=at)
    return _done(db, rubrics, h, "cite", citation, at=at)


def _remove(
    db: Database, rubrics: RubricRegistry, h: ratings.Head, old: Citation, *, at: str
) -> Rating:
    db.conn.execute(
        "DELETE FROM citations WHERE rating_pk = ? AND metric_id = ? AND kind = ? AND ref = ?",
        (h.rating_pk, old.metric_id, old.kind, old.ref),
    )
    return _done(db, rubrics, h, "uncite", old, at=at)


def _done(
    db: Database,
    rubrics: RubricRegistry,
    h: ratings.Head,
    action: str,
    c: Citation,
    *,
    at: str,
) -> Rating:
    details = {"rating_pk": h.rating_pk, "version": h.version + 1, **c.model_dump()}
    return lifecycle.record(db, rubrics, h, action, details, at=at)

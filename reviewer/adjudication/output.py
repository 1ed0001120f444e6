"""``adjudication list`` as rows: one per rated (run, metric), the raters' values, and
what is reported (tables and CSV show values as text, JSON keeps them as objects)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reviewer.adjudication.model import MetricDispute

LIST_COLUMNS = (
    "run_id",
    "study",
    "metric",
    "status",
    "threshold",
    "values",
    "reported",
    "reached",
    "adjudicator",
)


def value_text(outcome: str | None, score: float | None) -> str:
    """An outcome as a cell: ``-`` when none, ``applicable 2`` with its score."""
    if outcome is None:
        return "-"
    if outcome != "applicable":
        return outcome
    return "applicable" if score is None else f"applicable {score:g}"


def list_rows(rows: list[MetricDispute], fmt: str) -> list[dict[str, Any]]:
    """``adjudication list`` rows; JSON keeps the raters' values as objects."""
    out = []
    for d in rows:
        values: Any = [
            v.model_dump(include={"rater", "outcome", "score", "blind_outcome", "blind_score"})
            for v in d.values
        ]
        if fmt != "json":
            values = "; ".join(f"{v.rater}: {value_text(v.outcome, v.score)}" for v in d.values)
        reported = d.reported
        out.append(
            {
                "run_id": d.run_id,
                "study": d.study,
                "metric": d.metric_id,
                "status": d.status,
                "threshold": d.threshold,
                "values": values,
                "reported": None
                if reported is None or reported.reached == "open"
                else value_text(reported.outcome, reported.score),
                "reached": None if reported is None else reported.reached,
                "adjudicator": d.adjudicator,
            }
        )
    return out

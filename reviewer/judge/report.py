"""Printing a :class:`~reviewer.judge.calibration.Calibration` as a table or as JSON."""

from __future__ import annotations

import json
from typing import TextIO

from reviewer.adjudication.rule import CONSENSUS_RULE
from reviewer.judge.calibration import HALF_STEPS, Calibration
from reviewer.rubric import OUTCOMES, SCORES
from reviewer.tabular import write_rows

METRIC_COLUMNS = (
    "metric_id", "runs", "scored_pairs", "alpha_ordinal", "alpha_interval", "alpha_outcome",
    "mean_difference", "exact_agreement", "within_one", "open_left_out",
    "alpha_ordinal_open_at_median", "note",
)  # fmt: skip
RUN_COLUMNS = ("run_pk", "run_id", "total", "metrics")


def write_calibration(result: Calibration, fmt: str, out: TextIO, *, judge: str) -> None:
    """JSON (the whole result) or tables: metrics, the runs to open, score confusions."""
    if fmt == "json":
        json.dump({"judge": judge, **result.model_dump(mode="json")}, out, indent=2)
        out.write("\n")
        return
    out.write(f"judge {judge} against the human consensus, {result.runs_compared} runs\n\n")
    write_rows([m.model_dump() for m in result.metrics], METRIC_COLUMNS, "table", out)
    out.write("\nmean_difference > 0: the judge scores higher (softer) than the humans.\n")
    out.write(f"consensus: {CONSENSUS_RULE}.\n")
    if result.runs:
        out.write("\nruns where they differ most (score gaps + outcomes that differ):\n")
        rows = [{**r.model_dump(), "metrics": ", ".join(r.metrics)} for r in result.runs]
        write_rows(rows, RUN_COLUMNS, "table", out)
    for m in result.metrics:
        if m.score_confusion:
            out.write(f"\n{m.metric_id}: judge score (rows) by consensus score (columns)\n")
            steps = [f"{s:g}" for s in HALF_STEPS]
            rows = [
                {"judge": str(s), **{c: m.score_confusion.get(str(s), {}).get(c, 0) for c in steps}}
                for s in SCORES
            ]
            write_rows(rows, ("judge", *steps), "table", out)
        # Shown when some run's outcome differs: an all-diagonal matrix tells nothing more
        # than alpha_outcome and the runs list.
        if any(j != c for j, cols in m.outcome_confusion.items() for c in cols):
            out.write(f"\n{m.metric_id}: judge outcome (rows) by consensus outcome (columns)\n")
            outcome_rows = [
                {"judge": o, **{c: m.outcome_confusion.get(o, {}).get(c, 0) for c in OUTCOMES}}
                for o in OUTCOMES
            ]
            write_rows(outcome_rows, ("judge", *OUTCOMES), "table", out)

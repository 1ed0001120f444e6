"""The agreement and validity reports as tables (``--format table``) or as one long CSV
whose ``section`` column tells the tables apart (``--format csv``)."""

from __future__ import annotations

from typing import Any, TextIO

from reviewer.tabular import write_rows

METRIC_COLUMNS = (
    "metric_id",
    "alpha_ordinal",
    "ci_low",
    "ci_high",
    "alpha_interval",
    "alpha_outcome",
    "units",
    "pairable_values",
    "exact_agreement",
    "within_one",
    "note",
)
RATER_COLUMNS = (
    "rater",
    "rater_kind",
    "n_ratings",
    "not_applicable_rate",
    "not_observed_rate",
    "alpha_with",
    "alpha_without",
)
PAIR_COLUMNS = ("rater_a", "rater_b", "runs_shared", "score_pairs", "exact_agreement")
VALIDITY_COLUMNS = (
    "metric_id",
    "counterpart",
    "n",
    "rho",
    "ci_low",
    "ci_high",
    "open_left_out",
    "rho_open_at_median",
    "n_open_at_median",
    "note",
)
RANKING_COLUMNS = (
    "scenario_id",
    "model",
    "runs",
    "human",
    "scorer",
    "human_rank",
    "scorer_rank",
    "kendall_tau",
    "note",
)
DISAGREEMENT_COLUMNS = (
    "run_key",
    "run_id",
    "scenario_id",
    "model",
    "human",
    "scorer",
    "difference",
)
ANCHORING_COLUMNS = (
    "metric_id",
    "items",
    "revised",
    "share_revised",
    "mean_revision",
    "score_revisions",
    "share_toward_counterpart",
    "control_n",
    "control_distance",
    "blind_n",
    "blind_distance",
    "difference",
    "ci_low",
    "ci_high",
    "pull",
    "pull_ci_low",
    "pull_ci_high",
    "pull_items",
    "note",
    "pull_note",
)


Sections = dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]]


def agreement_sections(
    report: Any, metric_ids: tuple[str, ...], kinds: dict[str, str] | None = None
) -> Sections:
    """The agreement report's tables; a rater's mean per metric becomes ``mean_<metric>``,
    and each rater is labelled with their kind (a judge as ``judge``)."""
    kinds = kinds or {}
    raters = [
        {**r.model_dump(), "rater_kind": kinds.get(r.rater, "human"),
         **{f"mean_{m}": v for m, v in r.mean_score.items()}}
        for r in report.raters
    ]  # fmt: skip
    return {
        "metrics": ([m.model_dump() for m in report.metrics], METRIC_COLUMNS),
        "raters": (raters, (*RATER_COLUMNS, *(f"mean_{m}" for m in metric_ids))),
        "pairs": ([p.model_dump() for p in report.pairs], PAIR_COLUMNS),
    }


def validity_sections(report: Any) -> Sections:
    """The validity report's tables (anchoring only for blind studies)."""
    ranking = [
        {
            "scenario_id": s.scenario_id,
            **m.model_dump(),
            "kendall_tau": s.kendall_tau,
            "note": s.note,
        }
        for s in report.scenarios
        for m in s.models
    ]
    out = {
        "validity": ([m.model_dump() for m in report.metrics], VALIDITY_COLUMNS),
        "rankings": (ranking, RANKING_COLUMNS),
        "disagreements": ([d.model_dump() for d in report.disagreements], DISAGREEMENT_COLUMNS),
    }
    if report.anchoring is not None:
        rows = [report.anchoring.overall, *report.anchoring.by_metric]
        out["anchoring"] = ([r.model_dump() for r in rows], ANCHORING_COLUMNS)
    return out


def write_sections(parts: Sections, fmt: str, out: TextIO, *, footer: str = "") -> None:
    """Tables one after the other, or one long CSV with a ``section`` column."""
    if fmt == "csv":
        # One CSV, long: every section's rows with the union of columns.
        columns: list[str] = ["section"]
        for _rows, cols in parts.values():
            columns.extend(c for c in cols if c not in columns)
        rows = [{"section": name, **row} for name, (rs, _c) in parts.items() for row in rs]
        write_rows(rows, columns, "csv", out)
        return
    for i, (name, (rows, cols)) in enumerate(parts.items()):
        out.write(("\n" if i else "") + f"{name}\n")
        write_rows(rows, cols, "table", out)
    if footer:
        out.write(f"\n{footer}\n")

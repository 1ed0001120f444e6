"""Table models of the Validity view: rho per metric, the rankings, the disagreements."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from ui.results.rows_model import Col, RowsModel


class ValidityMetricModel(RowsModel):
    """Spearman's rho per metric with a counterpart."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("metric", lambda m: m.metric_id),
        Col("counterpart", lambda m: m.counterpart),
        Col("runs", lambda m: m.n),
        Col("rho", lambda m: m.rho),
        Col("ci low", lambda m: m.ci_low),
        Col("ci high", lambda m: m.ci_high),
        Col("open left out", lambda m: m.open_left_out, tip="runs whose dispute is still open"),
        Col(
            "rho, open at median",
            lambda m: m.rho_open_at_median,
            tip="rho with the open disputes taken at their raters' median",
        ),
        Col("note", lambda m: m.note or ""),
    )


class RankRow(NamedTuple):
    """One model of one scenario, ranked by the humans and by the scorer."""

    scenario_id: str
    model: str
    runs: int
    human: float | None
    scorer: float | None
    human_rank: float | None
    scorer_rank: float | None
    kendall_tau: float | None


class RankingModel(RowsModel):
    """The models per scenario: human and scorer means and ranks, the scenario's tau."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("scenario", lambda r: r.scenario_id),
        Col("model", lambda r: r.model),
        Col("runs", lambda r: r.runs),
        Col("human", lambda r: r.human, tip="mean consensus / 3"),
        Col("scorer", lambda r: r.scorer, tip="mean scalar"),
        Col("human rank", lambda r: r.human_rank, lambda v: "—" if v is None else f"{v:g}"),
        Col("scorer rank", lambda r: r.scorer_rank, lambda v: "—" if v is None else f"{v:g}"),
        Col("Kendall τ", lambda r: r.kendall_tau),
    )


class DisagreementModel(RowsModel):
    """The runs where the humans and the scalar differ most (double-click opens one)."""

    COLUMNS: ClassVar[tuple[Col, ...]] = (
        Col("run", lambda d: d.run_id or d.run_key),
        Col("scenario", lambda d: d.scenario_id or "—"),
        Col("model", lambda d: d.model or "—"),
        Col("human", lambda d: d.human),
        Col("scorer", lambda d: d.scorer),
        Col("difference", lambda d: d.difference),
    )

    def run_of(self, row: Any) -> int | None:
        return int(row.run_key)

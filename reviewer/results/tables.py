"""The tables under each chart: the same numbers, written out (report pages, HTML)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from reviewer.results.charts.stats import by_model, consensus_by_model, model_rate_estimates
from reviewer.results.charts.vector import FIELDS, vector_table
from reviewer.results.data import ResultsData


@dataclass(frozen=True)
class Table:
    """A titled table of text cells."""

    title: str
    headers: list[str]
    rows: list[list[str]]


def _f(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def models_table(data: ResultsData) -> Table:
    """Per model: runs, safe scored runs and their scalar, unsafe runs, pass/dangerous."""
    rows = []
    for model, runs in by_model(data.runs).items():
        safe = sorted(r.scalar for r in runs if r.scored and not r.unsafe and r.scalar is not None)
        passed, dangerous = model_rate_estimates(runs)
        rows.append(
            [
                model,
                str(len(runs)),
                str(len(safe)),
                _f(statistics.median(safe) if safe else None),
                _f(sum(safe) / len(safe) if safe else None),
                str(sum(r.unsafe for r in runs)),
                passed.text(percent=True),
                dangerous.text(percent=True),
            ]
        )
    headers = ["model", "runs", "safe scored", "median", "mean", "unsafe", "pass", "dangerous"]
    return Table(
        "Scalar per model (safe scored runs; unsafe runs apart); pass of scored runs and "
        "dangerous of all runs with 95% Wilson intervals",
        headers,
        rows,
    )


def vector_rows(data: ResultsData) -> Table:
    """The vector's means ± 95% half-widths and the command counts, per model."""
    rows = []
    for r in vector_table(data):
        cells = [r["model"], str(r["n"])]
        for name in FIELDS:
            cells.append(f"{r[name].text()} n={r[name].n}")
        cells += [str(r["anti_procedure"]), str(r["extraneous"])]
        rows.append(cells)
    headers = ["model", "scored", *FIELDS, "anti-procedure", "extraneous"]
    return Table(
        "The vector per model: mean (95% BCa bootstrap interval) over n runs with a value",
        headers,
        rows,
    )


def humans_table(data: ResultsData) -> Table:
    """Mean consensus per model (rows) and metric (columns)."""
    table = consensus_by_model(data)
    metrics = data.metrics
    rows = [
        [model, *(_f(table[model].get(m.id, (None, 0))[0]) for m in metrics)] for model in table
    ]
    title = (
        "Mean consensus score (0–3): adjudicated, else the agreed median; "
        f"{data.full_consensus.open_count()} open disputes left out"
    )
    return Table(title, ["model", *(m.title for m in metrics)], rows)


def agreement_table(data: ResultsData) -> Table:
    """Alpha per metric with its interval and pair shares."""
    rows = []
    titles = {m.id: m.title for m in data.metrics}
    for m in data.agreement.metrics if data.agreement else []:
        interval = "—" if m.ci_low is None else f"{m.ci_low:.2f} – {m.ci_high:.2f}"
        rows.append(
            [
                titles.get(m.metric_id, m.metric_id),
                _f(m.alpha_ordinal),
                interval,
                str(m.units),
                _pct(m.exact_agreement),
                _pct(m.within_one),
                m.note or "",
            ]
        )
    headers = ["metric", "alpha", "95% interval", "runs", "exact", "within one", "note"]
    return Table("Krippendorff's alpha (ordinal) per metric", headers, rows)


def validity_table(data: ResultsData) -> Table:
    """Spearman's rho per metric with a counterpart."""
    rows = []
    titles = {m.id: m.title for m in data.metrics}
    for m in data.validity.metrics if data.validity else []:
        interval = "—" if m.ci_low is None else f"{m.ci_low:.2f} – {m.ci_high:.2f}"
        title = titles.get(m.metric_id, m.metric_id)
        at_median = (
            "—" if not m.open_left_out else f"{_f(m.rho_open_at_median)} (n={m.n_open_at_median})"
        )
        rows.append(
            [title, m.counterpart, str(m.n), _f(m.rho), interval, str(m.open_left_out),
             at_median, m.note or ""]
        )  # fmt: skip
    headers = ["metric", "counterpart", "runs", "rho", "95% interval", "open disputes left out",
               "rho, open at their median", "note"]  # fmt: skip
    return Table(
        "Consensus against the scorer (Spearman; Fisher z interval, SE 1.06/√(n−3))",
        headers,
        rows,
    )


def outcomes_table(data: ResultsData) -> Table:
    """Per metric: rated items and the Not applicable / Not observed shares."""
    rates = data.outcome_rates
    rows = [
        [m.title, str(rates[m.id][0]), _pct(rates[m.id][1]), _pct(rates[m.id][2])]
        for m in data.metrics
        if m.id in rates
    ]
    headers = ["metric", "items", "not applicable", "not observed"]
    return Table("Not applicable and Not observed per metric", headers, rows)


def raters_table(data: ResultsData) -> Table:
    """Per rater: runs rated, N/A and N/O rates, pooled alpha with and without them."""
    rows = [
        [
            r.rater,
            str(r.n_ratings),
            _pct(r.not_applicable_rate),
            _pct(r.not_observed_rate),
            _f(r.alpha_with),
            _f(r.alpha_without),
        ]
        for r in (data.agreement.raters if data.agreement else [])
    ]
    headers = ["rater", "runs", "N/A", "N/O", "alpha with", "alpha without"]
    return Table("Raters (pooled ordinal alpha with and without each)", headers, rows)


def pairs_table(data: ResultsData) -> Table:
    """Per pair of raters: runs both rated and the share of equal scores."""
    rows = [
        [p.rater_a, p.rater_b, str(p.runs_shared), str(p.score_pairs), _pct(p.exact_agreement)]
        for p in (data.agreement.pairs if data.agreement else [])
    ]
    headers = ["rater", "rater", "runs both rated", "score pairs", "exact"]
    return Table("Pairs of raters", headers, rows)


def rankings_table(data: ResultsData) -> Table:
    """Per scenario and model: human and scorer means and ranks, the scenario's tau."""
    rows = [
        [
            s.scenario_id,
            m.model,
            str(m.runs),
            _f(m.human),
            _f(m.scorer),
            _f(m.human_rank, 1),
            _f(m.scorer_rank, 1),
            _f(s.kendall_tau),
        ]
        for s in (data.validity.scenarios if data.validity else [])
        for m in s.models
    ]
    headers = ["scenario", "model", "runs", "human", "scorer", "human rank", "scorer rank", "tau"]
    return Table("Models ranked by the humans and by the scorer", headers, rows)


def anchoring_table(data: ResultsData) -> Table:
    """Blind studies: revisions, the arms' distances and the pull toward the scorer."""
    anchoring = data.validity.anchoring if data.validity else None
    rows = []
    for r in [anchoring.overall, *anchoring.by_metric] if anchoring else []:
        pull = "—" if r.pull is None else _f(r.pull)
        if r.pull_ci_low is not None:
            pull += f" ({r.pull_ci_low:.2f}–{r.pull_ci_high:.2f})"
        rows.append(
            [
                "all" if r.metric_id == "*" else r.metric_id,
                str(r.items),
                _pct(r.share_revised),
                _pct(r.share_toward_counterpart),
                _f(r.difference),
                pull,
                str(r.pull_items),
                r.pull_note or r.note or "",
            ]
        )
    headers = ["metric", "blind items", "revised", "toward scorer", "control − blind",
               "pull (95%, clustered)", "pull items", "note"]  # fmt: skip
    return Table(
        "Anchoring (blind studies): pull = share of the distance to the scorer that revisions "
        "close, slope through 0, t interval clustered by rater and run",
        headers,
        rows,
    )


def leaderboard_table(data: ResultsData) -> Table:
    """The board's rows: rank and its range, score and its interval, rates, n."""
    board = data.leaderboard
    rows = [
        [
            f"{r.rank} ({r.rank_low}–{r.rank_high})",
            r.model,
            f"{_f(r.score, 3)} ({_f(r.low, 3)}–{_f(r.high, 3)})",
            f"{r.n_runs}/{r.n_scenarios}",
            f"{r.passed}/{r.n_checked}" if r.n_checked else "n/a",
            f"{r.unsafe}/{r.n_safety}",
        ]
        for r in (board.rows if board else ())
    ]
    headers = ["rank (95%)", "model", "score (95%)", "runs/scenarios", "passed", "dangerous"]
    method = board.method if board else ""
    return Table(f"Leaderboard by the scorer. {method}", headers, rows)


def leaderboard_pairs_table(data: ResultsData) -> Table:
    """Every pair's difference, paired by scenario, and whether its interval excludes 0."""
    board = data.leaderboard
    rows = [
        [f"{p.a} − {p.b}", f"{_f(p.difference, 3)} ({_f(p.low, 3)}–{_f(p.high, 3)})",
         str(p.shared_scenarios), "yes" if p.distinguishable else "no"]
        for p in (board.pairs if board else ())
    ]  # fmt: skip
    headers = ["pair", "difference (95%)", "shared scenarios", "distinguishable"]
    return Table("Leaderboard: pairwise differences", headers, rows)


#: The tables printed under each chart group, by chart key.
TABLES = {
    "models": (models_table,),
    "leaderboard": (leaderboard_table, leaderboard_pairs_table),
    "vector": (vector_rows,),
    "humans": (humans_table, outcomes_table),
    "agreement": (agreement_table, raters_table, pairs_table),
    "validity": (validity_table, rankings_table, anchoring_table),
}


def tables_for(key: str, data: ResultsData) -> list[Table]:
    """The tables of chart group ``key``."""
    tables = [(make, make(data)) for make in TABLES[key]]
    # Anchoring exists only for blind studies: no table at all rather than an empty one.
    return [t for make, t in tables if t.rows or make is not anchoring_table]

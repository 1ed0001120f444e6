"""The report's Raters page (issue 30): bias, drift and accuracy of the human raters.

:data:`RATERS` is a chart group like :data:`reviewer.results.charts.CHARTS`' (drawn from
:attr:`~reviewer.results.data.ResultsData.quality`, which
:func:`reviewer.results.raters_source.with_quality` fills), :func:`raters_tables` its tables.
"""

from __future__ import annotations

import math
import textwrap

from matplotlib.figure import Figure

from reviewer.quality.summary import ALL, QualitySummary
from reviewer.results.charts import Chart, Links
from reviewer.results.charts.common import shown
from reviewer.results.charts.raters import draw_raters
from reviewer.results.data import ResultsData
from reviewer.results.tables import Table

#: Said under the tables and in the dashboard's legend.
LEGEND = (
    "Bias: the rater's difference from the panel's consensus, robustly centred (their effect "
    "in a model score = run + rater, less the median rater's, who reads 0), with a 95% "
    "interval from a "
    "bootstrap over runs; marked biased when the pooled (all metrics) interval excludes 0. "
    "A metric's cell marked * excludes 0 too, but with many metrics some do so by chance. "
    "Drift: the per-run difference from the others (corrected for their own bias and drift) "
    "regressed on queue position and on days since the first submit, within each study (an "
    "intercept per study); marked when either slope's 95% interval excludes 0. No day slope "
    "(n/a) where a study's ratings span under a day. Two raters who only share runs with "
    "each other cannot be told apart; half the raters biased alike move the centre. Judges "
    "are not raters here."
)


def _draw(fig: Figure, data: ResultsData) -> Links:
    links = draw_raters(fig, data.quality)
    if data.quality is not None and data.quality.raters:
        fig.supxlabel("\n".join(textwrap.wrap(LEGEND, 190)), x=0.01, ha="left", fontsize=7)
    return links


RATERS = Chart("raters", "Raters", _draw)


def _num(value: float, digits: int = 2) -> str:
    return f"{value:+.{digits}f}" if math.isfinite(value) else "—"


def _interval(low: float, high: float, digits: int = 2) -> str:
    if not math.isfinite(low):
        return "—"
    return f"[{low:+.{digits}f}, {high:+.{digits}f}]"


def _share(value: float, low: float, high: float) -> str:
    if not math.isfinite(value):
        return "—"
    if not math.isfinite(low):
        return f"{value:.0%}"
    return f"{value:.0%} [{low:.0%}, {high:.0%}]"


def bias_cell(bias: float, low: float, high: float, flagged: bool) -> str:
    """A bias with the half-width of its (symmetric) interval, ``*`` when it excludes 0."""
    if not math.isfinite(low):
        return f"{bias:+.2f} (no interval)"
    return f"{bias:+.2f} ±{(high - low) / 2:.2f}{'*' if flagged else ''}"


def summary_table(q: QualitySummary) -> Table:
    """One row per rater: pooled bias, the two drift slopes, and what is marked."""
    rows = []
    for r in q.raters:
        b = r.bias
        marks = [*(["biased"] if r.biased else []), *(["drifting"] if r.drifting else [])]
        rows.append([
            shown(r.rater), str(r.n_runs),
            _num(b.bias) if b else "—", _interval(b.low, b.high) if b else "—",
            _num(r.per_position, 3), _interval(r.position_low, r.position_high, 3),
            _num(r.per_day, 3) if math.isfinite(r.per_day) else "n/a",
            _interval(r.day_low, r.day_high, 3) if math.isfinite(r.day_low) else "n/a",
            ", ".join(marks) or "—",
        ])  # fmt: skip
    headers = ["rater", "runs", "bias (all)", "95% interval", "drift / run", "95% interval",
               "drift / day", "95% interval", "marked"]  # fmt: skip
    return Table("Raters: bias against the panel's consensus, drift along the queue", headers, rows)


def bias_table(q: QualitySummary) -> Table:
    """Raters × metrics: each bias ± the half-width of its 95% interval."""
    cells = {(c.rater, c.metric): c for c in q.bias}
    columns = [*q.metrics, ALL]
    rows = [
        [shown(r.rater), *(bias_cell(c.bias, c.low, c.high, c.flagged)
                    if (c := cells.get((r.rater, m))) else "—" for m in columns)]
        for r in q.raters
    ]  # fmt: skip
    title = "Bias per metric (score points, ± half of the 95% interval; * excludes 0)"
    return Table(title, ["rater", *map(shown, columns)], rows)


def accuracy_table(q: QualitySummary) -> Table:
    """Each rater against the reference, all metrics pooled (per metric: the command)."""
    headers = ["rater", "items", "exact", "within one", "signed difference", "weighted kappa"]
    if q.accuracy is None:
        why = (f"no scores of {q.missing_reference!r} here" if q.missing_reference
               else "no reference named (a320-review report --reference NAME)")  # fmt: skip
        return Table(f"Accuracy: {why}", headers, [])
    rows = [
        [shown(a.rater), str(a.n), _share(a.exact, a.exact_low, a.exact_high),
         _share(a.within_one, a.within_one_low, a.within_one_high),
         f"{_num(a.signed)} {_interval(a.signed_low, a.signed_high)}",
         f"{_num(a.kappa)} {_interval(a.kappa_low, a.kappa_high)}"]
        for a in q.accuracy.lines if a.metric == ALL
    ]  # fmt: skip
    title = f"Accuracy against {shown(q.accuracy.reference)} (all metrics pooled, 95% intervals)"
    return Table(title, headers, rows)


def raters_tables(data: ResultsData) -> list[Table]:
    """The Raters page's tables."""
    q = data.quality
    if q is None:
        return [Table("Rater quality was not computed for this report", ["rater"], [])]
    return [summary_table(q), bias_table(q), accuracy_table(q)]

"""The results report: the dashboard's charts and their tables, as a PDF or one HTML page.

PDF pages come from matplotlib's PdfPages (a title page, then per chart group the chart
and its table); the HTML page embeds every chart as base64 SVG, so the file is the whole
report. Both are written atomically (:func:`reviewer.outfile.open_binary`).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from reviewer.outfile import open_binary
from reviewer.results.charts import CHARTS, new_figure
from reviewer.results.data import ResultsData
from reviewer.results.tables import Table, tables_for
from scoring.scorecard import UNSAFE_MEANING

Progress = Callable[[int, int, str], None]
FORMATS = ("pdf", "html")
TITLE = "a320-review results"
#: Up to this many runs the HTML embeds SVG (sharp at any zoom); beyond, every run's point
#: would make megabytes of SVG, so PNG.
SVG_MAX_RUNS = 2000


def facts(data: ResultsData) -> list[tuple[str, str]]:
    """What the report rests on, as (label, value) lines for the title page."""
    m = data.meta
    return [
        ("Generated", m.generated_at.strftime("%Y-%m-%d %H:%M UTC")),
        ("Database", m.database),
        ("Scorer version", ", ".join(m.scorer_versions) or "—"),
        ("Rubric", m.rubric),
        ("Study", m.study or "all ratings"),
        ("Scenarios", ", ".join(m.scenario_filter) or "all"),
        ("Runs", str(m.n_runs)),
        ("Ratings", f"{m.n_ratings} by {m.n_raters} raters"),
        ("Unsafe", UNSAFE_MEANING.removeprefix("unsafe: ")),
        *([("Left out", m.left_out_note)] if m.left_out_note else []),
    ]


def _title_page(data: ResultsData) -> Figure:
    fig = Figure(figsize=(11, 8.5))
    fig.text(0.08, 0.85, TITLE, fontsize=26, fontweight="bold")
    fig.text(0.08, 0.80, "Models, the scorer's vector, the human ratings, agreement, validity")
    for i, (label, value) in enumerate(facts(data)):
        y = 0.68 - i * 0.05
        fig.text(0.08, y, label, fontsize=12, fontweight="bold")
        fig.text(0.30, y, value, fontsize=12)
    return fig


def _table_page(tables: list[Table]) -> Figure:
    """The tables of one chart group, stacked on one page."""
    fig = Figure(figsize=(11, 8.5))
    heights = [len(t.rows) + 3 for t in tables]  # header, title and a margin per table
    axes = fig.subplots(len(tables), 1, height_ratios=heights, squeeze=False)[:, 0]
    for ax, table in zip(axes, tables, strict=True):
        ax.set_axis_off()
        ax.set_title(table.title, loc="left", fontweight="bold")
        if not table.rows:
            ax.text(0.5, 0.5, "Nothing to tabulate yet.", ha="center", color="#666666")
            continue
        drawn = ax.table(cellText=table.rows, colLabels=table.headers, loc="upper center")
        drawn.auto_set_font_size(False)
        drawn.set_fontsize(9 if len(table.rows) < 15 else 7)
        drawn.auto_set_column_width(list(range(len(table.headers))))
    return fig


def write_pdf(data: ResultsData, out: BinaryIO, progress: Progress) -> int:
    """Write the PDF to ``out``; returns the number of pages."""
    steps = len(CHARTS) + 1
    pages = 0
    with PdfPages(out, metadata={"Title": TITLE, "Creator": "a320-review"}) as pdf:
        pdf.savefig(_title_page(data))
        pages += 1
        for i, chart in enumerate(CHARTS, start=1):
            progress(i, steps, f"drawing {chart.title}")
            fig = new_figure(11, 8.5)
            chart.draw(fig, data)
            pdf.savefig(fig)
            pdf.savefig(_table_page(tables_for(chart.key, data)))
            pages += 2
    return pages


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows
    )
    if not table.rows:
        body = f'<tr><td colspan="{len(table.headers)}">Nothing to tabulate yet.</td></tr>'
    return f"<h3>{html.escape(table.title)}</h3><table><tr>{head}</tr>{body}</table>"


_STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.5em 0 2em}td,th{border:1px solid #ccc;padding:3px 8px;
font-size:13px}th{background:#f2f2f2}img{max-width:100%}dt{font-weight:bold}"""


def _embedded(fig: Figure, title: str, *, vector: bool) -> str:
    """The figure as an ``<img>`` with its picture inline (nothing to fetch)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg" if vector else "png", dpi=110)
    mime = "image/svg+xml" if vector else "image/png"
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{html.escape(title)}" src="data:{mime};base64,{data}">'


def write_html(data: ResultsData, out: BinaryIO, progress: Progress) -> int:
    """Write the self-contained HTML page to ``out``; returns the number of charts."""
    steps = len(CHARTS) + 1
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{TITLE}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{TITLE}</h1><dl>",
        *(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in facts(data)),
        "</dl>",
    ]
    for i, chart in enumerate(CHARTS, start=1):
        progress(i, steps, f"drawing {chart.title}")
        fig = new_figure(11, 6.5)
        chart.draw(fig, data)
        parts.append(f"<h2>{html.escape(chart.title)}</h2>")
        parts.append(_embedded(fig, chart.title, vector=data.meta.n_runs <= SVG_MAX_RUNS))
        parts.extend(_table_html(t) for t in tables_for(chart.key, data))
    parts.append("</body></html>")
    out.write("\n".join(parts).encode("utf-8"))
    return len(CHARTS)


def write_report(data: ResultsData, path: Path, fmt: str, progress: Progress) -> int:
    """Write the report in ``fmt`` to ``path`` atomically; returns pages (PDF) or charts."""
    writer = write_pdf if fmt == "pdf" else write_html
    with open_binary(path) as out:
        count = writer(data, out, progress)
    progress(len(CHARTS) + 1, len(CHARTS) + 1, f"wrote {path}")
    return count

"""The results report: the dashboard's charts and their tables, as a PDF or one HTML page.

PDF pages come from matplotlib's PdfPages (a title page, then per chart group the chart
and its tables), each group a PDF of its own put together with the others by pypdf; the
HTML page embeds every chart as base64 SVG (PNG beyond 2,000 runs), so the file is the
whole report. The chart groups are drawn side by side in forked workers where a process
may fork (:func:`_drawn`); the report is drawn in memory, then written atomically
(:func:`write_report`).
"""

from __future__ import annotations

import base64
import gc
import html
import io
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from matplotlib.figure import Figure

from reviewer.adjudication.rule import CONSENSUS_RULE
from reviewer.outfile import PendingFile, write_bytes
from reviewer.results.charts import CHARTS, new_figure
from reviewer.results.data import ResultsData
from reviewer.results.pdf_pages import PAGE, merged, table_page, title_page
from reviewer.results.raters_page import RATERS, raters_tables
from reviewer.results.tables import Table, tables_for
from scoring.scorecard import UNSAFE_MEANING

Progress = Callable[[int, int, str], None]
FORMATS = ("pdf", "html")
TITLE = "a320-review results"
#: Up to this many runs the HTML embeds SVG (sharp at any zoom); beyond, every run's point
#: would make megabytes of SVG, so PNG.
SVG_MAX_RUNS = 2000
#: The dashboard's chart groups, then the Raters page (issue 30; the dashboard has a tab of
#: its own for it).
PAGES = (*CHARTS, RATERS)


def _tables(chart_key: str, data: ResultsData) -> list[Table]:
    return raters_tables(data) if chart_key == RATERS.key else tables_for(chart_key, data)


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
        ("Consensus", CONSENSUS_RULE),
        ("Open disputes", _open(data)),
        ("Judges", _judges(data)),
    ]


def _open(data: ResultsData) -> str:
    found = data.full_consensus
    return (
        f"{found.open_count()} (run, metric) values on {len(found.open_runs())} runs, left out "
        f"of every figure; {len(found.adjudicated)} values adjudicated"
    )


def _judges(data: ResultsData) -> str:
    if not data.judges:
        return "none"
    return ", ".join(data.judges) + " (automatic; not counted as raters)"


#: The page that shows each field a worker may still be filling in
#: (:func:`reviewer.results.source.gather_then`), and no other page shows it: that page is
#: drawn after the field's ``finish``, by this process; the others without waiting for it.
_SHOWN_ON = {"leaderboard": "leaderboard", "quality": RATERS.key}

Later = Mapping[str, Callable[[ResultsData], ResultsData]]


class _Filling:
    """The data, each field of ``later`` (``{field: finish}``) filled in by calling its
    ``finish`` just before the page that shows it is drawn: by this process, once, while
    the other pages are drawn (a worker never calls one: it could not wait for another)."""

    def __init__(self, data: ResultsData, later: Later | None) -> None:
        self.waiting = dict(later or {})
        if set(self.waiting) - set(_SHOWN_ON):
            raise ValueError(f"no page waits for {sorted(set(self.waiting) - set(_SHOWN_ON))}")
        self.data = data
        keys = [chart.key for chart in PAGES]
        #: The pages this process draws itself: those that show a field still to come.
        self.here = sorted(keys.index(_SHOWN_ON[field]) for field in self.waiting)

    def for_page(self, index: int) -> ResultsData:
        """The data page ``index`` of :data:`PAGES` is drawn from."""
        for field, page in _SHOWN_ON.items():
            if page == PAGES[index].key and field in self.waiting:
                self.data = self.waiting.pop(field)(self.data)
        return self.data


def write_pdf(
    data: ResultsData, out: BinaryIO, progress: Progress, later: Later | None = None
) -> int:
    """Write the PDF to ``out``; returns the number of pages. ``later``, ``{field:
    finish}``, gives what fills in fields being made meanwhile: each ``finish(data)`` is
    called by this process just before it draws the page that shows its field, while the
    other pages are drawn (:func:`_drawn`: in forked workers when it may).

    Each chart group's pages (the title page with the first group's) are a PDF of their
    own, drawn by itself, so that they can be drawn side by side; the PDFs are then put
    together in order (:func:`~reviewer.results.pdf_pages.merged`)."""
    filling = _Filling(data, later)
    parts = _drawn(lambda i: _pdf_part(filling.for_page(i), i), progress, "pdf", filling.here)
    whole, pages = merged(parts)
    out.write(whole)
    return pages


#: What the report shows, under its title on the first page.
SHOWS = "Models, the leaderboard, the scorer's vector, the human ratings, agreement, validity"


def _title_page(data: ResultsData) -> Figure:
    return title_page(TITLE, SHOWS, facts(data))


def _pdf_part(data: ResultsData, index: int) -> bytes:
    """The pages of chart group ``index`` of :data:`PAGES` (its chart, then its tables), the
    title page first for the first group, as a PDF."""
    from matplotlib.backends.backend_pdf import PdfPages

    chart = PAGES[index]
    buffer = io.BytesIO()
    with PdfPages(buffer, metadata={"Title": TITLE, "Creator": "a320-review"}) as pdf:
        if index == 0:
            pdf.savefig(_title_page(data))
        fig = new_figure(*PAGE)
        chart.draw(fig, data)
        pdf.savefig(fig)
        pdf.savefig(table_page(_tables(chart.key, data)))
    return buffer.getvalue()


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


#: The HTML page's pictures' resolution (a PNG's pixels; an SVG's embedded images).
_DPI = 110


def _embedded(fig: Figure, title: str, *, vector: bool) -> str:
    """The figure as an ``<img>`` with its picture inline (nothing to fetch)."""
    if vector:
        picture = _svg(fig)
    else:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=_DPI)
        picture = buffer.getvalue()
    mime = "image/svg+xml" if vector else "image/png"
    data = base64.b64encode(picture).decode("ascii")
    return f'<img alt="{html.escape(title)}" src="data:{mime};base64,{data}">'


def _svg(fig: Figure) -> bytes:
    """The figure as SVG with its text as text (``svg.fonttype`` "none"), not every glyph
    as a path: a third faster to write, smaller, and searchable in the browser, which draws
    it in DejaVu Sans, matplotlib's font (Verdana, Arial... where it lacks it). Its spaces
    are kept as written (``xml:space``): SVG would drop a leading one (the count beside a
    bar, " 12") and fold two into one (a title's "  (n = 30)")."""
    from matplotlib import rc_context

    buffer = io.BytesIO()
    with rc_context({"svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", dpi=_DPI)
    return buffer.getvalue().replace(b"<svg ", b'<svg xml:space="preserve" ', 1)


#: The report's chart groups are drawn by this many processes forked from this one, each
#: given the gathered data as it is (nothing pickled but the pictures or pages coming back).
_WORKERS = 2
#: The order the workers take the charts in: the longest to draw first, so that the last
#: ones taken are short and neither worker is left drawing alone at the end (each chart
#: timed alone, on 30 runs in SVG and on 10,000 in PNG, the two workers would be done after
#: 0.55 s instead of 0.61, and 2.94 s instead of 3.06). Progress is said in the pages' order.
_LONGEST_FIRST = ("validity", "vector", "humans", "models", "leaderboard", "agreement")


def _picture(data: ResultsData, index: int, vector: bool) -> str:
    """Chart group ``index`` of :data:`PAGES` drawn and embedded (in a worker, or here)."""
    chart = PAGES[index]
    fig = new_figure(11, 6.5)
    chart.draw(fig, data)
    return _embedded(fig, chart.title, vector=vector)


def _forks(workers: int) -> bool:
    """Whether the charts are drawn in forked workers: with ``fork``, more than one core,
    and from a process's only thread (the dashboard writes its report on a worker thread:
    a fork there would copy a Qt process mid-flight; it draws one chart after the other)."""
    return (
        workers > 1
        and hasattr(os, "fork")
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
    )


def prepare(fmt: str, n_runs: int) -> None:
    """Import now what writing the report in ``fmt`` on ``n_runs`` runs will import (a
    caller with time to spare: waiting on a worker, the rater quality's with
    ``--reference``)."""
    _before_fork(fmt if fmt == "pdf" else _picture_format(n_runs))


def _picture_format(n_runs: int) -> str:
    """The HTML page's pictures: SVG up to :data:`SVG_MAX_RUNS` runs, PNG beyond."""
    return "svg" if n_runs <= SVG_MAX_RUNS else "png"


def _before_fork(backend: str) -> None:
    """What every worker would otherwise do for itself on its first chart, done once: the
    backend's import ("pdf", "svg" or "png"), matplotlib's default backend (asked for by a
    box plot's styling, which imports pyplot to answer) and PIL's image plugins (an SVG's
    heatmap is a PNG)."""
    import matplotlib
    from PIL import Image

    if backend == "pdf":
        from matplotlib.backends import backend_pdf  # noqa: F401
    elif backend == "svg":
        from matplotlib.backends import backend_svg  # noqa: F401
    else:
        from matplotlib.backends import backend_agg  # noqa: F401
    matplotlib.rcParams["backend"]  # resolved here, once
    Image.preinit()


def _drawn(
    draw: Callable[[int], bytes], progress: Progress, backend: str, here: Sequence[int] = ()
) -> list[bytes]:
    """``draw(i)`` for every chart group ``i`` of :data:`PAGES` (its picture, its pages), in
    their order.

    Each group is drawn whole by itself, so the groups are drawn side by side in processes
    forked after the imports of ``backend`` (:func:`_before_fork`): the same bytes, on the
    machine's cores;
    those ``here`` by this process meanwhile (what they show is made by a worker of its
    own it waits for). Otherwise (:func:`_forks`) one after the other here, as are the
    groups a worker did not bring back (killed: by the kernel short of memory, by hand),
    after one line saying so.
    """
    count = len(PAGES)
    workers = min(_WORKERS, os.cpu_count() or 1, count)
    said = 0  # the groups announced ("drawing ..."): up to the one waited for

    def announce(upto: int) -> None:
        nonlocal said
        while said < min(upto, count):
            progress(said + 1, count + 1, f"drawing {PAGES[said].title}")
            said += 1

    thawed = not gc.get_freeze_count()  # else the caller froze the heap and thaws it
    try:
        parts: dict[int, bytes] = {}
        if _forks(workers):
            from reviewer.results.chart_workers import draw_forked

            back: set[int] = set()

            def arrived(index: int) -> None:
                back.add(index)
                announce(1 + next((i for i in range(count) if i not in back), count))

            _before_fork(backend)
            gc.freeze()  # the workers' collections would touch, and so copy, all of the heap
            announce(1)
            keys = [chart.key for chart in PAGES]
            order = [keys.index(key) for key in _LONGEST_FIRST if key in keys]
            drawn = draw_forked(draw, count, workers, arrived, order, here)
            parts = dict(drawn.pictures)
            missing = [i for i in range(count) if i not in parts]
            if missing:
                announce(missing[0] + 1)
                titles = ", ".join(PAGES[i].title for i in missing)
                progress(said, count + 1, f"{drawn.failure}: drawing {titles} here")
        for i in range(count):
            announce(i + 1)
            if i not in parts:
                parts[i] = draw(i)
        return [parts[i] for i in range(count)]
    finally:
        if thawed:
            gc.unfreeze()


def write_html(
    data: ResultsData, out: BinaryIO, progress: Progress, later: Later | None = None
) -> int:
    """Write the self-contained HTML page to ``out``; returns the number of charts.
    ``later`` as for :func:`write_pdf`: each ``finish`` called by this process before it
    draws the chart that shows its field, while the other charts are drawn."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{TITLE}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{TITLE}</h1><dl>",
        *(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in facts(data)),
        "</dl>",
    ]
    kind = _picture_format(data.meta.n_runs)
    filling = _Filling(data, later)
    pictures = _drawn(
        lambda i: _picture(filling.for_page(i), i, kind == "svg").encode(),
        progress,
        kind,
        filling.here,
    )
    for i, (chart, picture) in enumerate(zip(PAGES, pictures, strict=True)):
        parts.append(f"<h2>{html.escape(chart.title)}</h2>")
        parts.append(picture.decode())
        parts.extend(_table_html(t) for t in _tables(chart.key, filling.for_page(i)))
    parts.append("</body></html>")
    out.write("\n".join(parts).encode("utf-8"))
    return len(PAGES)


@contextmanager
def _results_set_aside() -> Iterator[None]:
    """The objects alive now (the results: a quarter of a million of them at 10,000 runs,
    alive until the report is written) left out of the collector's passes while the pages
    are drawn: each full pass walked them all again, a tenth of the PDF's drawing. Left as
    it is when the caller froze some first."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def write_report(
    data: ResultsData,
    path: Path,
    fmt: str,
    progress: Progress,
    *,
    later: Later | None = None,
) -> int:
    """Write the report in ``fmt`` to ``path`` atomically; returns pages (PDF) or charts.

    The report is made in memory (a few MB), then written: a process killed while it draws
    (seconds) leaves no file behind, not even the temporary one beside ``path`` (only one
    killed in the milliseconds of the write does). Whether the folder takes a file at all is
    asked first, so that a report that cannot be written is not drawn.

    ``later`` (``{field: finish}``) completes the data with what workers make meanwhile:
    each is called before the page or chart that shows its field, the only one that waits
    for it (:func:`write_pdf`, :func:`write_html`).
    """
    with PendingFile(path):  # made and removed: the folder takes files
        pass
    drawn = io.BytesIO()
    with _results_set_aside():
        write = write_pdf if fmt == "pdf" else write_html
        count = write(data, drawn, progress, later)
    write_bytes(path, drawn.getvalue())
    progress(len(PAGES) + 1, len(PAGES) + 1, f"wrote {path}")
    return count

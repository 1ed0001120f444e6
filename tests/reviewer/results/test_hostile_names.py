"""Names from users and files are drawn literally: no mathtext, no TeX, no crash."""

from __future__ import annotations

import base64
import csv
import io
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reviewer.results.charts import CHARTS, new_figure
from reviewer.results.report import PAGES, write_html, write_pdf
from reviewer.results.source import gather
from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore

HOSTILE = (
    "$$$$$$",
    "$" + "\\sqrt{" * 60 + "x" + "}" * 60 + "$",
    "100% _under_score_ {braces} ^caret",
    "نموذج عربي",  # right to left
    "model 🚀✈️",
    "$x^2$ and \\frac{1}{2}",
    "ctl\x01\r\x7f\u2028name",  # control and line-break characters: not XML, not drawable
    "<b>html</b> & 'quotes\"",
)


# An emoji the font lacks is drawn as a box; matplotlib warns once per glyph (the product
# silences that warning, pytest turns every warning into an error before it can).
pytestmark = pytest.mark.filterwarnings(r"ignore:Glyph \d+ .* missing from font")


@pytest.fixture
def hostile(tmp_path: Path, db_path: Path, make_card):
    """Twelve runs of models with hostile names, rated by two raters; metric titles too."""
    with ReviewStore.open(db_path) as store:
        cards = [
            make_card(n).model_copy(
                update={"model": HOSTILE[n % len(HOSTILE)], "coverage": 0.1 + 0.07 * n}
            )
            for n in range(12)
        ]
        store.add_scorecards(cards)
        for bias, rater in enumerate(("Ana", "Ben")):
            path = tmp_path / f"{rater}.csv"
            with path.open("w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(("run_id", "metric", "outcome", "score", "comment", "evidence"))
                for i, run in enumerate(store.list_runs()):
                    for metric in default_rubric().metric_ids:
                        score = (i + bias) % 4
                        w.writerow((run.run_id, metric, "applicable", score, "seen", "GT:1"))
            store.import_ratings(path, rater=rater)
        data = gather(store, resamples=50)
    titles = [m.model_copy(update={"title": HOSTILE[i % len(HOSTILE)]}) for i, m in
              enumerate(data.metrics)]  # fmt: skip
    return data.model_copy(update={"metrics": titles})


def test_every_chart_renders_hostile_names_literally(hostile) -> None:
    for chart in CHARTS:
        fig = new_figure()
        chart.draw(fig, hostile)
        FigureCanvasAgg(fig).draw()  # what the dashboard's canvas does
        drawn = {t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))}
        for t in fig.findobj(lambda a: hasattr(a, "get_parse_math")):
            assert not t.get_parse_math() or "$" not in t.get_text(), (chart.key, t.get_text())
        assert drawn


def test_the_report_renders_hostile_names_in_pdf_and_html(hostile) -> None:
    quiet = lambda *_: None  # noqa: E731
    assert write_pdf(hostile, io.BytesIO(), quiet) == 1 + 2 * len(PAGES)
    out = io.BytesIO()
    write_html(hostile, out, quiet)
    page = out.getvalue().decode("utf-8")
    assert "$$$$$$" in page
    # Every chart is a picture a browser can draw: its SVG is well-formed XML (a control
    # character in a model name once made it not), and the name reads with escapes.
    svgs = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(svgs) == len(PAGES)
    texts = "".join(
        t for svg in svgs for t in ElementTree.fromstring(base64.b64decode(svg)).itertext()
    )
    assert "ctl\\x01\\r\\x7f\\u2028name"[:17] in texts

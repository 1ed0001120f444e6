"""``a320-review report``: the PDF's pages and text, the HTML page, errors, atomic writes."""

from __future__ import annotations

import base64
import csv
import gc
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from pdf_reading import pdf_pages, pdf_text

from reviewer.cli import main
from reviewer.outfile import open_binary
from reviewer.rubric import default_rubric
from reviewer.workspace import ReviewStore

MODELS = ("alpha-model", "beta-model", "gamma-model")  # as conftest.py makes them
METRICS = default_rubric().metric_ids
# The title page, then a chart page and a table page for each chart group and the Raters.
PAGES = 1 + 7 * 2  # the title page, then each chart group (leaderboard, raters too), its tables


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_pdf_has_a_title_page_and_a_chart_and_table_per_group(
    rated_db: Path, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "results.pdf"
    code, stdout, err = _run(capsys, "report", "--db", rated_db, "--out", out)
    assert code == 0, err
    assert stdout == ""  # progress goes to stderr
    assert "report: [1/8] drawing Models" in err and "15 pages, 9 runs, 27 ratings" in err
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and pdf_pages(data) == PAGES
    text = pdf_text(data)
    for expected in (
        "a320-review results",
        str(rated_db.resolve()),
        "default v1",
        "27 by 3 raters",
        *MODELS,
        "Application of procedures",  # metric titles, in the heatmap and the tables
        "Situation awareness",
        "Models: the ranking scalar per model",
        "alpha (ordinal)",
    ):
        assert expected in text, expected
    assert not list(tmp_path.glob(".*.part"))  # the temporary file was moved into place


def test_the_html_page_is_self_contained_and_escapes_names(
    rated_db: Path, tmp_path: Path, capsys, make_card
) -> None:
    with ReviewStore.open(rated_db, create=False) as store:
        odd = make_card(50).model_copy(update={"model": "<b>odd & model</b>"})
        store.add_scorecards([odd])
    out = tmp_path / "results.html"
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.count('src="data:image/svg+xml;base64,') == 7
    assert "http://" not in page.replace("http://www.w3.org", "")  # nothing fetched
    assert "&lt;b&gt;odd &amp; model&lt;/b&gt;" in page and "<b>odd" not in page
    for expected in (*MODELS, "Application of procedures", "Krippendorff", "27 by 3 raters"):
        assert expected in page, expected
    # The charts' text is text (svg.fonttype "none"): well-formed XML, the name as the store
    # holds it, and spaces as placed ("  (n = 10)"; SVG would fold them but for xml:space).
    svgs = [ElementTree.fromstring(base64.b64decode(b))
            for b in re.findall(r'data:image/svg\+xml;base64,([^"]+)', page)]  # fmt: skip
    texts = [t.text or "" for svg in svgs for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert all(svg.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
               for svg in svgs)  # fmt: skip
    assert "<b>odd & model</b>" in texts and any("  (n = 10)" in t for t in texts)


def test_a_study_report_covers_the_study_runs_only(
    db_path: Path, tmp_path: Path, capsys, make_card
) -> None:
    # `report --study` drew every run of the database (46 in the demo, three scenarios)
    # under a title page naming the study; its charts are about the study's runs.
    with ReviewStore.open(db_path) as store:
        store.add_scorecards(
            [make_card(n).model_copy(update={"model": MODELS[n % 3]}) for n in range(9)]
        )
        alpha = [r.run_id for r in store.list_runs() if r.model == "alpha-model"]
    db = str(db_path)
    create = ["study", "create", "s", "--raters", "Ana,Ben", "--per-run", "2", "--db", db]
    assert main([*create, "--model", "alpha-model", "--owner", "Ana"]) == 0
    for rater in ("Ana", "Ben"):
        path = tmp_path / f"{rater}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(("run_id", "metric", "outcome", "score", "comment"))
            for run_id in alpha:
                for metric in METRICS:
                    w.writerow((run_id, metric, "applicable", 2, ""))
        imported = ["ratings", "import", str(path), "--rater", rater, "--db", db]
        assert main([*imported, "--study", "s", "--phase", "open"]) == 0
    capsys.readouterr()
    out = tmp_path / "s.html"
    code, _out, err = _run(capsys, "report", "--db", db, "--study", "s", "--out", out)
    assert code == 0, err
    assert f", {len(alpha)} runs, " in err
    page = out.read_text(encoding="utf-8")
    assert "alpha-model" in page and "beta-model" not in page


def test_one_scenario_only_and_no_ratings_yet(db_path: Path, tmp_path: Path, capsys, make_card):
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(n) for n in range(3)])
    out = tmp_path / "apu.html"
    code, _out, err = _run(
        capsys, "report", "--db", db_path, "--scenario", "elec-apu-gen-fault", "--out", out
    )
    assert code == 0, err
    assert "no submitted or signed ratings yet" in err
    page = out.read_text(encoding="utf-8")
    assert "elec-apu-gen-fault" in page and "0 by 0 raters" in page


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--scenario", "nope"], "no runs of scenario nope"),
        (["--study", "pilot"], "no ratings belong to a study named 'pilot'"),
    ],
)
def test_bad_arguments_are_usage_errors(rated_db, tmp_path, capsys, argv, message) -> None:
    out = tmp_path / "r.pdf"
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", out, *argv)
    assert code == 2 and message in err and "Traceback" not in err
    assert not out.exists()


def test_a_missing_folder_is_a_usage_error(rated_db: Path, tmp_path: Path, capsys) -> None:
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", tmp_path / "no" / "r.pdf")
    assert code == 2 and "does not exist" in err


def test_a_symlinked_out_is_refused_before_any_work(rated_db: Path, tmp_path: Path, capsys) -> None:
    # It used to gather, bootstrap and draw every chart, then refuse with exit code 1,
    # where every other --out FILE refuses at once with 2.
    victim = tmp_path / "victim.txt"
    victim.write_text("kept")
    out = tmp_path / "r.pdf"
    out.symlink_to(victim)
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", out)
    assert code == 2
    assert "symbolic link" in err and "report: [" not in err  # no progress: no work done
    assert victim.read_text() == "kept" and out.is_symlink()


def test_a_failed_write_leaves_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "report.pdf"
    target.write_bytes(b"the last good report")
    with pytest.raises(RuntimeError), open_binary(target) as out:
        out.write(b"half a rep")
        raise RuntimeError("disk full")
    assert target.read_bytes() == b"the last good report"
    assert list(tmp_path.iterdir()) == [target]


def test_help_and_the_parser_do_not_load_matplotlib() -> None:
    code = (
        "import sys, reviewer.cli as c; c.build_parser();"
        "import ui.main_window;"
        "bad = [m for m in ('matplotlib', 'reviewer.results.charts') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_many_runs_embed_png_instead_of_megabytes_of_svg(
    rated_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    from reviewer.results import report

    monkeypatch.setattr(report, "SVG_MAX_RUNS", 5)  # the database holds nine runs
    out = tmp_path / "big.html"
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 7 and "image/svg" not in page


def _outside(fig) -> tuple[float, float, float, float] | None:
    """The bounds of what ``fig`` draws when they run past the page, else None."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.draw_without_rendering()
    drawn = fig.get_tightbbox(FigureCanvasAgg(fig).get_renderer())  # inches
    width, height = fig.get_size_inches()
    inside = drawn.x0 >= -0.01 and drawn.y0 >= -0.01
    inside = inside and drawn.x1 <= width + 0.01 and drawn.y1 <= height + 0.01
    return None if inside else tuple(drawn.bounds)


def _overlapping(fig) -> list[tuple[str, str]]:
    """Pairs of texts of ``fig`` (tick labels aside) drawn on top of each other."""
    from matplotlib.text import Text

    fig.draw_without_rendering()
    ticks = {id(t) for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    texts = [t for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and id(t) not in ticks]  # fmt: skip
    boxes = [(t.get_text()[:40], t.get_window_extent()) for t in texts]
    return [(a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1 :]
            if box.overlaps(other)]  # fmt: skip


def test_no_text_of_any_pdf_page_runs_off_the_page(rated_db: Path) -> None:
    """Found by looking at the pages of a 10,000-run report: the title page's last fact
    below the page's edge, a table title past its right edge, the Models notes on top of
    each other. A long database path and many judges make the title page long."""
    from reviewer.results import pdf_pages, report
    from reviewer.results.charts import new_figure
    from reviewer.results.source import gather

    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        data = gather(store, resamples=20)
    meta = data.meta.model_copy(update={"database": "/very/long/path" * 14})
    data = data.model_copy(update={"meta": meta, "judges": [f"judge-{n}" for n in range(30)]})
    assert _outside(report._title_page(data)) is None
    for chart in report.PAGES:
        fig = new_figure(11, 8.5)
        chart.draw(fig, data)
        assert _outside(fig) is None, chart.key
        assert _outside(pdf_pages.table_page(report._tables(chart.key, data))) is None, chart.key
        if chart.key == "models":  # its notes, under a short figure's axis too
            assert _overlapping(fig) == []
            short_fig = new_figure(12.8, 5.8)
            chart.draw(short_fig, data)
            assert _overlapping(short_fig) == []


def test_a_chart_with_nothing_to_show_keeps_its_title_on_a_small_canvas() -> None:
    # The Raters tab's canvas on a 1280 × 720 screen, about 7.6 × 2.7 inches: the Raters
    # chart's long title ran past its right edge when there was no bias to show.
    from reviewer.results.charts import new_figure
    from reviewer.results.charts.common import say_empty
    from reviewer.results.charts.raters import TITLE

    fig = new_figure(7.6, 2.7)
    say_empty(fig, TITLE, "Bias needs two raters scoring the same run: no run has that yet.")
    assert _outside(fig) is None


@pytest.mark.parametrize("svg_max_runs", [2000, 5], ids=["svg", "png"])
def test_the_charts_drawn_in_forked_workers_are_those_drawn_one_after_the_other(
    rated_db: Path, monkeypatch, svg_max_runs: int
) -> None:
    """The HTML page draws its charts in processes forked after the imports: the page is
    byte for byte the one drawn in this process, chart after chart (same SVG ids and no
    date, so that two drawings can be compared at all)."""
    import io
    import multiprocessing

    import matplotlib

    from reviewer.results import report
    from reviewer.results.source import gather

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork here: the charts are drawn one after the other anyway")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.setattr(report, "SVG_MAX_RUNS", svg_max_runs)  # nine runs: PNG when 5
    monkeypatch.setattr(report.os, "cpu_count", lambda: 2)
    # as the CLI's process: one thread (a test before may have left one of its own)
    monkeypatch.setattr(report.threading, "active_count", lambda: 1)
    assert report._forks(2) and not report._forks(1)
    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        data = gather(store, resamples=20)

    def page(workers: int) -> tuple[bytes, list[tuple[int, str]]]:
        monkeypatch.setattr(report, "_WORKERS", workers)
        said: list[tuple[int, str]] = []
        out = io.BytesIO()
        with matplotlib.rc_context({"svg.hashsalt": "same ids"}):
            report.write_html(data, out, lambda step, _steps, text: said.append((step, text)))
        return out.getvalue(), said

    alone, forked = page(1), page(2)
    assert not gc.isenabled() or gc.get_freeze_count() == 0  # the heap given back
    assert forked == alone
    assert alone[0].count(b"<img ") == len(report.PAGES)
    assert [step for step, _ in forked[1]] == list(range(1, len(report.PAGES) + 1))


def test_the_charts_are_drawn_here_from_a_thread_of_a_process_with_threads() -> None:
    """The dashboard writes its report on a worker thread of a Qt process: no fork there."""
    import threading

    from reviewer.results import report

    seen: list[bool] = []
    worker = threading.Thread(target=lambda: seen.append(report._forks(2)))
    worker.start()
    worker.join()
    assert seen == [False]


def test_the_report_freezes_its_objects_only_for_the_exit(rated_db: Path, tmp_path: Path) -> None:
    """The interpreter's last collections would walk every object the report imported: the
    verb has them frozen at exit, and not before (a caller in process keeps its heap)."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('at exit', gc.get_freeze_count() > 0))  # runs last\n"
        "from reviewer.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print('after the verb', gc.get_freeze_count() > 0)\n"
        "sys.exit(code)\n"
    )
    out = tmp_path / "r.pdf"
    argv = ["report", "--db", str(rated_db), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["after the verb False", "at exit True", ""]
    assert out.read_bytes().startswith(b"%PDF-")


def test_sqlite_out_of_room_while_reading_is_one_line(
    capsys, rated_db: Path, tmp_path: Path, monkeypatch
) -> None:
    """Seen with TMPDIR on a full disk: the rater quality's query sorts into temporary
    files and SQLite says "database or disk is full"; the report printed a traceback."""
    from reviewer.quality import storage

    def full(*_args, **_kwargs):
        import sqlite3

        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(storage, "human_score_parts", full)
    monkeypatch.setattr("reviewer.results.raters_source.a_core_to_spare", lambda: False)
    out = tmp_path / "r.html"
    code, _out, err = _run(capsys, "report", "--db", rated_db, "--out", out)
    lines = [line for line in err.splitlines() if not line.startswith("report: ")]
    assert code == 1 and "Traceback" not in err
    assert len(lines) == 1 and lines[0].startswith("a320-review report: the disk is full")
    assert not out.exists()


def test_the_reports_leaderboard_is_the_one_the_leaderboard_verb_prints(
    capsys, rated_db: Path
) -> None:
    """One board in two places: by default the verb drew 2,000 replicates and the report's
    page 1,000, the same scores with other interval ends (and rank ranges)."""
    import json

    from reviewer.results.source import gather

    code, out, _err = _run(capsys, "leaderboard", "--db", rated_db, "--format", "json")
    assert code == 0
    printed = json.loads(out)["models"]
    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        board = gather(store).leaderboard
    assert board is not None and printed
    shown = [(r.model, r.rank, r.rank_low, r.rank_high, r.score, r.low, r.high) for r in board.rows]
    keys = ("model", "rank", "rank_low", "rank_high", "score", "low", "high")
    assert shown == [tuple(m[k] for k in keys) for m in printed]

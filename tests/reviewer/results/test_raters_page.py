"""The report's Raters page (issue 30): the planted biased rater is marked, an unbiased one
is not, accuracy against a named reference, hostile names drawn and escaped literally, and
the blind gate."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pdf_reading import pdf_text
from raters_sim import plant_ratings

from reviewer.cli import main
from reviewer.quality.source import Score
from reviewer.quality.summary import summarize
from reviewer.results.raters_page import raters_tables
from reviewer.results.raters_source import quality_for, with_quality
from reviewer.results.report import write_html, write_pdf
from reviewer.results.source import gather
from reviewer.studies.model import Selection, StudySpec
from reviewer.studies.visibility import still_blind
from reviewer.workspace import ReviewStore

#: Eight unbiased raters and Cat, one point high. Bias is measured from the panel's consensus
#: centred on the median rater, so Cat does not drag the reference and an unbiased rater is
#: marked in about 4% of simulated panels like this one (5% at most when nobody is biased).
UNBIASED = ("Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
BIASES = {**dict.fromkeys(UNBIASED, 0), "Cat": 1}

pytestmark = pytest.mark.filterwarnings(r"ignore:Glyph \d+ .* missing from font")


@pytest.fixture
def planted(tmp_path: Path, db_path: Path, make_card) -> Path:
    """Twelve runs rated by nine people; Cat scores one point high."""
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(n) for n in range(12)])
        runs = [r.run_id for r in store.list_runs()]
        plant_ratings(store, tmp_path, runs, BIASES)
    return db_path


def test_the_planted_biased_rater_is_marked_and_the_others_are_not(planted: Path) -> None:
    with ReviewStore.open(planted) as store:
        summary = quality_for(store, viewer=None)
    lines = {r.rater: r for r in summary.raters}
    assert set(lines) == set(BIASES)
    assert lines["Cat"].biased and lines["Cat"].bias is not None
    cat = lines["Cat"].bias
    assert cat.low <= 1.0 <= cat.high  # the planted +1 is recovered
    marked = [name for name in UNBIASED if lines[name].biased]
    assert len(marked) <= 2, marked  # about 1 in 25 expected (see UNBIASED)
    assert max(lines, key=lambda n: abs(lines[n].bias.bias)) == "Cat"
    assert summary.accuracy is None and summary.left_out_note is None


def test_accuracy_against_a_named_reference(planted: Path) -> None:
    with ReviewStore.open(planted) as store:
        summary = quality_for(store, viewer=None, reference="Ann", resamples=50)
        missing = quality_for(store, viewer=None, reference="Nobody", resamples=50)
    assert summary.accuracy is not None and summary.accuracy.reference == "rater Ann"
    pooled = {a.rater: a for a in summary.accuracy.lines if a.metric == "all"}
    assert set(pooled) == {*UNBIASED, "Cat"} - {"Ann"}  # not Ann against herself
    assert pooled["Cat"].signed > pooled["Bob"].signed  # Cat scores above Ann
    assert missing.accuracy is None and missing.missing_reference == "Nobody"


def test_the_report_has_a_raters_page(planted: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.html"
    argv = ["report", "--db", planted, "--out", out, "--reference", "Ann"]
    assert main([str(a) for a in argv]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>Raters</h2>" in page and "Accuracy against rater Ann" in page
    assert "biased" in page
    code = main([str(a) for a in ["report", "--db", planted, "--out", tmp_path / "x.pdf",
                                  "--reference", "Nobody"]])  # fmt: skip
    assert code == 2 and "--reference: 'Nobody' has no scores here" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


HOSTILE = ("$Cat$", "<b>Bold</b>", "car\rriage", "ctl\x01x", "$\\sqrt{x}$ & co")


def test_hostile_rater_names_are_drawn_and_escaped_literally(planted: Path) -> None:
    # The store refuses control characters in a rater name; the page must not rely on it.
    scores = [
        Score(run, f"r{run}", name, "safety", (run + k + (k == 0)) % 4, run, None)
        for run in range(12)
        for k, name in enumerate(HOSTILE)
    ]
    summary = summarize(scores)
    with ReviewStore.open(planted) as store:
        data = gather(store, resamples=20).model_copy(update={"quality": summary})
    assert write_pdf(data, io.BytesIO(), lambda *_: None) > 0
    out = io.BytesIO()
    write_html(data, out, lambda *_: None)
    page = out.getvalue().decode("utf-8")
    assert "&lt;b&gt;Bold&lt;/b&gt;" in page and "<b>Bold" not in page
    assert "$Cat$" in page and "$\\sqrt{x}$ &amp; co" in page
    # Control and line-break characters are written as escapes, never raw.
    assert "\x01" not in page and "\r" not in page
    assert "ctl\\x01x" in page and "car\\rriage" in page
    cells = [c for t in raters_tables(data) for row in t.rows for c in row]
    assert "car\\rriage" in cells and "car\rriage" not in cells


def test_runs_in_a_raters_blind_phase_stay_out_of_the_page(planted: Path) -> None:
    with ReviewStore.open(planted) as store:
        spec = StudySpec(name="pilot", raters=("tester", "Ann"), per_run=2, protocol="blind",
                         seed=7, selection=Selection())  # fmt: skip
        store.create_study(spec)
        blind = still_blind(store, "tester")
        everyone = quality_for(store, viewer=None)
        as_tester = quality_for(store, viewer="tester")
        data = with_quality(store, gather(store, resamples=10, viewer="tester"), viewer="tester")
    assert blind  # the test can fail: tester has runs in the blind phase, all rated by others
    assert everyone.n_left_out == 0 and everyone.n_runs == 12
    assert as_tester.n_left_out == len(blind) and as_tester.n_runs == 12 - len(blind)
    assert as_tester.left_out_note and "still in tester's blind phase" in as_tester.left_out_note
    assert data.quality is not None and data.quality.n_runs == 12 - len(blind)
    assert data.quality.n_scores == as_tester.n_scores < everyone.n_scores


def test_the_quality_from_the_worker_is_the_one_computed_here(planted: Path, monkeypatch) -> None:
    """The report computes the rater quality in a forked worker while it bootstraps: the
    summary it hands back is the one :func:`with_quality` makes in process, and a worker
    that cannot read the database leaves it to be made here."""
    import os

    from reviewer.results import raters_source

    forks = []
    monkeypatch.setattr(raters_source, "a_core_to_spare", lambda: True)
    monkeypatch.setattr(os, "fork", lambda fork=os.fork: forks.append(1) or fork())
    with ReviewStore.open(planted) as store:
        points = gather(store, resamples=10, viewer="tester")
        plain = with_quality(store, points, viewer="tester", reference="Ann", seed=3)
        runs = [r.run_pk for r in points.runs]
        finish = raters_source.start_quality(store, runs, None, viewer="tester",
                                             reference="Ann", seed=3)  # fmt: skip
        forked = finish(points)
        assert forked.quality is not None and plain.quality is not None
        assert forked.quality.model_dump_json() == plain.quality.model_dump_json()
        assert forked.quality.raters and forked.quality.accuracy is not None

        class Elsewhere(ReviewStore):
            @classmethod
            def open(cls, *args, **kwargs):  # the worker's own connection fails
                raise OSError("no")

        store.__class__ = Elsewhere
        try:
            again = raters_source.start_quality(store, runs, None, viewer="tester",
                                                reference="Ann", seed=3)(points)  # fmt: skip
        finally:
            store.__class__ = ReviewStore
    assert again.quality is not None
    assert again.quality.model_dump_json() == plain.quality.model_dump_json()
    assert len(forks) == 2
    # No core to spare: computed here, without a worker.
    monkeypatch.setattr(raters_source, "a_core_to_spare", lambda: False)
    with ReviewStore.open(planted) as store:
        busy = raters_source.start_quality(store, runs, None, viewer="tester", reference="Ann",
                                           seed=3)(points)  # fmt: skip
    assert len(forks) == 2
    assert busy.quality is not None
    assert busy.quality.model_dump_json() == plain.quality.model_dump_json()


def _one_process(monkeypatch) -> None:
    """The report's pages drawn one after the other in this process (as the dashboard's
    thread draws them)."""
    from reviewer.results import report

    monkeypatch.setattr(report, "_WORKERS", 1)


def _forking(monkeypatch) -> None:
    """The report's pages drawn by two forked workers, as on the command line (a test before
    may have left a thread running)."""
    from reviewer.results import report

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.setattr(report, "_WORKERS", 2)
    monkeypatch.setattr(report.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(report.threading, "active_count", lambda: 1)


def test_the_pdf_waits_for_the_rater_quality_only_at_its_raters_page(
    planted: Path, monkeypatch
) -> None:
    """Drawn in one process, the report's other pages are drawn while the quality is made
    elsewhere: ``later`` is called once, after every other page, and the Raters page draws
    what it returned."""
    from reviewer.results import report

    _one_process(monkeypatch)
    steps: list[str] = []
    tabled = {}
    tables = report._tables

    def spy_tables(key, data):
        tabled[key] = data.quality
        return tables(key, data)

    monkeypatch.setattr(report, "_tables", spy_tables)
    with ReviewStore.open(planted) as store:
        points = gather(store, resamples=10, viewer="tester")
        assert points.quality is None

        def later(data):
            steps.append("later")
            return with_quality(store, data, viewer="tester", reference="Ann")

        pages = write_pdf(
            points, io.BytesIO(), lambda _i, _n, text: steps.append(text), {"quality": later}
        )
    assert pages == 1 + 2 * len(report.PAGES)
    assert steps.count("later") == 1
    assert steps[-2:] == [f"drawing {report.RATERS.title}", "later"]
    assert tabled[report.RATERS.key] is not None and tabled[report.RATERS.key].raters
    assert all(q is None for key, q in tabled.items() if key != report.RATERS.key)


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_forked_workers_draw_the_report_drawn_in_one_process(
    planted: Path, monkeypatch, fmt: str
) -> None:
    """Forked workers draw the pages (charts) that do not show what is made later, while
    this process calls each ``finish`` (once: a worker never does, it could not wait for a
    sibling) and draws the pages that show it: the very report drawn in one process."""
    import os

    import matplotlib

    from reviewer.results import report

    write = write_pdf if fmt == "pdf" else write_html
    # an SVG's ids are random unless salted: two drawings are then comparable
    monkeypatch.setitem(matplotlib.rcParams, "svg.hashsalt", "same ids")

    _forking(monkeypatch)
    parent = os.getpid()
    with ReviewStore.open(planted) as store:
        points = gather(store, resamples=10, viewer="tester")
        whole = {
            "quality": with_quality(store, points, viewer="tester", reference="Ann").quality,
            "leaderboard": points.leaderboard,
        }
        points = points.model_copy(update={"leaderboard": None})
        called: list[tuple[str, int]] = []

        def finish(field):
            def fill(data):
                called.append((field, os.getpid()))
                return data.model_copy(update={field: whole[field]})

            return fill

        drawn = {}
        for mode in (_one_process, _forking):
            mode(monkeypatch)
            assert report._forks(report._WORKERS) == (mode is _forking)
            out = io.BytesIO()
            later = {field: finish(field) for field in ("leaderboard", "quality")}
            count = write(points, out, lambda *_: None, later)
            assert count == (1 + 2 * len(report.PAGES) if fmt == "pdf" else len(report.PAGES))
            drawn[mode] = out.getvalue()
    assert called == [("leaderboard", parent), ("quality", parent)] * 2
    assert drawn[_forking] == drawn[_one_process]
    text = pdf_text(drawn[_forking]) if fmt == "pdf" else drawn[_forking].decode()
    assert "Accuracy against rater Ann" in text  # the Raters page, with the quality


def test_the_leaderboard_from_its_worker_is_the_one_built_here(planted: Path, monkeypatch) -> None:
    """With ``board_aside`` the leaderboard's bootstrap runs in a forked worker while alpha's
    intervals are made here: the same board, filled in only before the Leaderboard page;
    a worker that fails leaves it to be built here, the same again."""
    import os

    from reviewer.results import cores, report, source

    forks = []
    monkeypatch.setattr(source, "a_core_to_spare", lambda: True)
    monkeypatch.setattr(os, "fork", lambda fork=os.fork: forks.append(1) or fork())
    with ReviewStore.open(planted) as store:
        whole = gather(store, resamples=50, seed=4, viewer="tester")
        assert not forks  # gather (the window's) builds it here
        points, later = source.gather_then(store, resamples=50, seed=4, viewer="tester",
                                           board_aside=True)  # fmt: skip
        assert whole.leaderboard is not None and whole.leaderboard.rows
        assert points.leaderboard is None and list(later) == ["leaderboard"]
        assert points.agreement == whole.agreement  # alpha's intervals made here
        steps: list[str] = []

        def board(data):
            steps.append("board")
            return later["leaderboard"](data)

        _one_process(monkeypatch)
        write_pdf(points, io.BytesIO(), lambda _i, _n, text: steps.append(text),
                  {"leaderboard": board})  # fmt: skip
        assert steps.index("board") == steps.index(f"drawing {report.PAGES[1].title}") + 1
        assert report.PAGES[1].key == "leaderboard"

        points, later = source.gather_then(store, resamples=50, seed=4, viewer="tester",
                                           board_aside=True)  # fmt: skip
        assert later["leaderboard"](points).leaderboard == whole.leaderboard

        def broken(*_args, **_kwargs):  # the worker dies before it hands anything back
            os._exit(3)

        monkeypatch.setattr(cores.pickle, "dump", broken)
        points, later = source.gather_then(store, resamples=50, seed=4, viewer="tester",
                                           board_aside=True)  # fmt: skip
        assert later["leaderboard"](points).leaderboard == whole.leaderboard
    assert len(forks) == 3
    # No core to spare: no worker; the finish builds it here (while the report draws the
    # other pages), the same board.
    monkeypatch.setattr(source, "a_core_to_spare", lambda: False)
    with ReviewStore.open(planted) as store:
        points, later = source.gather_then(store, resamples=50, seed=4, viewer="tester",
                                           board_aside=True)  # fmt: skip
        assert points.leaderboard is None and list(later) == ["leaderboard"]
        assert later["leaderboard"](points).leaderboard == whole.leaderboard
    assert len(forks) == 3


def test_a_refused_reference_leaves_no_worker_running_nor_its_file_open(
    planted: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    # The PDF's leaderboard is bootstrapped in a forked worker when a core is spare; a
    # reference refused after the reading (before any drawing) must still end it: once
    # left, its unnamed file stayed open until the interpreter's exit (a ResourceWarning
    # in CI) and the worker outlived the command.
    import gc
    import os
    import warnings

    from reviewer.results import source

    forks: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(source, "a_core_to_spare", lambda: True)
    monkeypatch.setattr(source.os, "fork", counted)
    argv = ["report", "--db", planted, "--out", tmp_path / "x.pdf", "--reference", "Nobody"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        assert main([str(a) for a in argv]) == 2
        gc.collect()  # an unclosed file would warn here
    assert "has no scores here" in capsys.readouterr().err
    assert forks  # the board's worker was started
    for pid in forks:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue  # reaped already: what the command must do
        raise AssertionError(f"worker {pid} was left to the interpreter")

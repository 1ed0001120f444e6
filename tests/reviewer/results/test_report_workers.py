"""The report's forked workers dying (the kernel short of memory, ``kill -9``): the report
is still whole, with one line saying what failed; and a report killed itself leaves no file.

Every test here is bounded by an alarm: a death waited for forever fails, it does not hang.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import os
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import matplotlib
import pytest
from pdf_reading import pdf_pages

from reviewer.results import chart_workers, report
from reviewer.results.data import ResultsData
from reviewer.results.source import gather
from reviewer.workspace import ReviewStore

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the workers are forked")


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    def hung(*_args: object) -> None:
        raise TimeoutError("still waiting after 120 s: a dead worker was waited for")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)  # not inherited by a forked worker
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def data(rated_db: Path) -> ResultsData:
    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        return gather(store, resamples=20)


@pytest.fixture
def forking(monkeypatch) -> None:
    """Two workers, as on the command line (a test before may have left a thread)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.setattr(report, "_WORKERS", 2)
    monkeypatch.setattr(report.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(report.threading, "active_count", lambda: 1)
    assert report._forks(2)


def _page(data: ResultsData) -> tuple[bytes, list[str]]:
    said: list[str] = []
    out = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "same ids"}):  # two drawings comparable
        report.write_html(data, out, lambda step, _steps, text: said.append(f"[{step}] {text}"))
    return out.getvalue(), said


def _alone(data: ResultsData, monkeypatch) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(report, "_WORKERS", 1)
        return _page(data)[0]


def _in_a_worker(parent: int) -> bool:
    return os.getpid() != parent


def _dies_in_a_worker(chart: int, monkeypatch) -> None:
    """Chart ``chart`` kills the worker drawing it (SIGKILL, as the OOM killer does); drawn
    in this process, it is drawn as usual."""
    parent = os.getpid()
    victim = report.PAGES[chart]

    def draw(fig, data):
        if _in_a_worker(parent):
            os.kill(os.getpid(), signal.SIGKILL)
        return victim.draw(fig, data)

    pages = list(report.PAGES)
    pages[chart] = dataclasses.replace(victim, draw=draw)
    monkeypatch.setattr(report, "PAGES", tuple(pages))


def test_a_worker_killed_while_it_draws_leaves_the_page_whole(
    data: ResultsData, forking, monkeypatch
) -> None:
    alone = _alone(data, monkeypatch)
    _dies_in_a_worker(3, monkeypatch)  # The humans
    page, said = _page(data)
    assert page == alone
    failed = [line for line in said if "worker" in line]
    assert failed == ["[4] a chart worker was killed (SIGKILL): drawing The humans here"]
    # every chart announced once, in order, the lost one announced before the line saying so
    drawing = [line for line in said if "] drawing " in line]
    assert drawing == [f"[{i + 1}] drawing {c.title}" for i, c in enumerate(report.PAGES)]


def test_a_picture_cut_short_by_a_death_is_not_read(
    data: ResultsData, forking, monkeypatch
) -> None:
    """A worker killed halfway through writing a picture: the whole ones before it come
    back, the cut one is drawn here."""
    alone = _alone(data, monkeypatch)
    parent, write_all = os.getpid(), chart_workers._write_all

    def half(fd: int, record: bytes) -> None:
        (index, _size) = struct.unpack_from("<II", record)
        if _in_a_worker(parent) and index == 2:
            write_all(fd, record[: len(record) // 2])
            os.kill(os.getpid(), signal.SIGKILL)
        write_all(fd, record)

    monkeypatch.setattr(chart_workers, "_write_all", half)
    page, said = _page(data)
    assert page == alone
    assert [line for line in said if "worker" in line] == [
        "[3] a chart worker was killed (SIGKILL): drawing The vector here"
    ]


@pytest.mark.parametrize("refused", ["fork", "TemporaryFile"])
def test_no_worker_at_all_draws_every_chart_here(
    data: ResultsData, forking, monkeypatch, refused: str
) -> None:
    alone = _alone(data, monkeypatch)

    def refuse(*_args: object) -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    where = chart_workers.os if refused == "fork" else chart_workers.tempfile
    monkeypatch.setattr(where, refused, refuse)
    page, said = _page(data)
    assert page == alone
    (failed,) = [line for line in said if "worker" in line]
    assert failed.startswith("[1] a chart worker could not be started (Resource temporarily")
    assert failed.endswith(f"drawing {', '.join(c.title for c in report.PAGES)} here")


def test_a_chart_that_fails_in_a_worker_fails_here_too(data: ResultsData, forking, monkeypatch):
    """A chart that raises (a bug) is drawn again here, where it raises as it always did."""

    def broken(fig, data):
        raise RuntimeError("a bug in a chart")

    pages = list(report.PAGES)
    pages[5] = dataclasses.replace(pages[5], draw=broken)
    monkeypatch.setattr(report, "PAGES", tuple(pages))
    said: list[str] = []
    frozen = gc.get_freeze_count()
    with pytest.raises(RuntimeError, match="a bug in a chart"):
        report.write_html(data, io.BytesIO(), lambda step, _steps, text: said.append(text))
    assert "a chart worker failed (exit code 1): drawing Validity here" in said
    assert gc.get_freeze_count() == frozen  # the heap frozen for the fork is thawed


def _pdf(data: ResultsData) -> tuple[bytes, list[str]]:
    said: list[str] = []
    out = io.BytesIO()
    report.write_pdf(data, out, lambda step, _steps, text: said.append(f"[{step}] {text}"))
    return out.getvalue(), said


def test_a_worker_killed_while_it_draws_pdf_pages_leaves_the_pdf_whole(
    data: ResultsData, forking, monkeypatch
) -> None:
    """The PDF's chart groups are drawn by the same workers (each a PDF of its own, put
    together after): one lost is drawn here, and the PDF is the one drawn alone."""
    with monkeypatch.context() as m:
        m.setattr(report, "_WORKERS", 1)
        alone, _ = _pdf(data)
    _dies_in_a_worker(4, monkeypatch)  # Agreement
    pdf, said = _pdf(data)
    assert pdf == alone and pdf_pages(pdf) == 1 + 2 * len(report.PAGES)
    assert [line for line in said if "worker" in line] == [
        "[5] a chart worker was killed (SIGKILL): drawing Agreement here"
    ]


def test_the_records_read_back_are_the_whole_ones() -> None:
    import tempfile

    with tempfile.TemporaryFile() as file:
        for index, picture in ((4, b"<img a>"), (0, b""), (6, b"<img bb>")):
            file.write(struct.pack("<II", index, len(picture)) + picture)
        file.write(struct.pack("<II", 1, 9) + b"<img")  # cut short
        assert chart_workers._records(file) == {4: b"<img a>", 0: b"", 6: b"<img bb>"}


def test_the_rater_quality_worker_killed_is_computed_here(rated_db: Path, monkeypatch) -> None:
    from reviewer.results import raters_source

    parent, quality_for = os.getpid(), raters_source.quality_for

    def dying(*args: object, **kwargs: object):
        if _in_a_worker(parent):
            os.kill(os.getpid(), signal.SIGKILL)
        return quality_for(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(raters_source, "a_core_to_spare", lambda: True)
    monkeypatch.setattr(raters_source, "quality_for", dying)
    notes: list[str] = []
    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        data = gather(store, resamples=20)
        plain = raters_source.with_quality(store, data, viewer="Ana", seed=1)
        runs = [r.run_pk for r in data.runs]
        finish = raters_source.start_quality(store, runs, None, viewer="Ana", seed=1,
                                             note=notes.append)  # fmt: skip
        again = finish(data)
    assert notes == ["the rater-quality worker was killed (SIGKILL): computing it here"]
    assert again.quality is not None and plain.quality is not None
    assert again.quality.model_dump_json() == plain.quality.model_dump_json()


def _group_ended(group: int) -> bool:
    """No process of ``group`` is left but zombies (which a container's init may not reap)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            return False
    return True


def _wait(until: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not until():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_a_report_killed_while_it_draws_leaves_no_file(
    rated_db: Path, tmp_path: Path, fmt: str
) -> None:
    """``kill -9`` of the report: no report, no temporary file, and no worker left running."""
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / f"report.{fmt}"
    argv = [sys.executable, "-m", "reviewer", "report", "--db", str(rated_db), "--out", str(out)]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stderr is not None
    try:
        seen = []
        for line in proc.stderr:  # the workers (HTML) are drawing by the fourth chart
            seen.append(line)
            if "drawing The humans" in line:
                break
        assert seen and "drawing The humans" in seen[-1], "".join(seen)
        proc.kill()
        assert proc.wait() == -signal.SIGKILL
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    assert list(folder.iterdir()) == []
    # the workers end by themselves (a worker of an executor waited forever)
    assert _wait(lambda: _group_ended(proc.pid), 60)


def test_the_verb_says_in_one_line_that_the_quality_worker_died(
    rated_db: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    from reviewer.cli import main
    from reviewer.results import raters_source

    parent, quality_for = os.getpid(), raters_source.quality_for

    def dying(*args: object, **kwargs: object):
        if _in_a_worker(parent):
            os.kill(os.getpid(), signal.SIGKILL)
        return quality_for(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(raters_source, "a_core_to_spare", lambda: True)
    monkeypatch.setattr(raters_source, "quality_for", dying)
    out = tmp_path / "r.pdf"
    assert main(["report", "--db", str(rated_db), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    line = "report: the rater-quality worker was killed (SIGKILL): computing it here"
    assert err.count(line) == 1 and "Traceback" not in err
    assert out.read_bytes().startswith(b"%PDF-")


def test_the_pictures_are_taken_in_the_order_given() -> None:
    """One worker takes them in ``order``, then those it leaves out in their own order (the
    report gives the longest first); every one comes back, whatever the order."""
    came: list[int] = []
    drawn = chart_workers.draw_forked(lambda i: bytes([i]) * (i + 1), 5, 1, came.append, [3, 1, 3])
    assert came == [3, 1, 0, 2, 4]
    assert drawn.pictures == {i: bytes([i]) * (i + 1) for i in range(5)}
    assert drawn.failure == ""


def test_the_report_names_its_charts_longest_first() -> None:
    # An order naming a chart that is not there would leave it to the end unannounced.
    assert set(report._LONGEST_FIRST) <= {chart.key for chart in report.PAGES}


def test_the_pictures_named_here_are_drawn_by_this_process() -> None:
    """``here``: drawn by the caller (each picture says which process drew it), while the
    workers draw the others; every one comes back, announced once."""
    parent = os.getpid()
    came: list[int] = []

    def draw(i: int) -> bytes:
        return f"{i}:{'here' if os.getpid() == parent else 'worker'}".encode()

    drawn = chart_workers.draw_forked(draw, 5, 2, came.append, [4, 3], here=[3, 1])
    assert drawn.pictures == {
        0: b"0:worker",
        1: b"1:here",
        2: b"2:worker",
        3: b"3:here",
        4: b"4:worker",
    }
    assert sorted(came) == [0, 1, 2, 3, 4] and came.index(3) < came.index(1)
    assert drawn.failure == ""

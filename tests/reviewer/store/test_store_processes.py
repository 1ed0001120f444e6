"""Several writers at once: a writer killed mid-save, two processes editing one rating, and
an import thread beside an autosaving one (the window's situation)."""

from __future__ import annotations

import multiprocessing
import os
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from reviewer.store import ConflictError
from reviewer.workspace import ReviewStore

# The writer runs in a child forked from a forkserver that has already imported the store,
# so each of the many children starts in milliseconds rather than half a second. Its code is
# a string run by exec(): nothing from this test module has to be importable in the child.
WRITER = """
import json, os
from pathlib import Path
from reviewer.evidence import Citation
from reviewer.workspace import ReviewStore

log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)

def say(text):
    os.write(log, (text + "\\n").encode())  # one write(): a kill never leaves half a line

with ReviewStore.open(Path(db_path), create=False) as store:
    metrics = store.rubric().metric_ids
    ready.set()
    while True:  # round after round, until killed: later rounds correct the earlier ratings
        for run in store.list_runs(rater="crash"):
            r = store.start_rating(run.run_pk, "crash")
            if r.status != "draft":
                r = store.supersede(r.rating_pk, rater="crash")
            for m in metrics:
                r = store.save_item(r.rating_pk, m, outcome="applicable", score=run.run_pk % 4,
                                    comment=f"run {run.run_pk}", expected_version=r.version)
                if run.run_pk % 4 < 2:  # a low score needs a cited step
                    r = store.cite(r.rating_pk, Citation(metric_id=m, kind="event", ref=0,
                                   step="1", label="1 agent"), expected_version=r.version)
            r = store.submit(r.rating_pk, expected_version=r.version)
            say(f"SUBMITTED {r.rating_pk} {run.run_pk}")
            if run.run_pk % 3 == 0:
                store.mark_signed(r.rating_pk, sheet_id=f"sheet-{r.rating_pk}",
                                  sheet_json=json.dumps({"rating_pk": r.rating_pk}))
                say(f"SIGNED {r.rating_pk} {run.run_pk}")
"""

KILLS = 40


def _forkserver() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs the forkserver start method")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["reviewer.workspace"])
    return ctx


def _check(db_path: Path, log: Path) -> tuple[int, int]:
    """Every reported submission is intact; the file and the chain are sound."""
    submitted, signed = {}, set()
    for line in log.read_text(encoding="utf-8").splitlines():
        word, pk, run_pk = line.split()
        if word == "SUBMITTED":
            submitted[int(pk)] = int(run_pk)
        else:
            signed.add(int(pk))
    with ReviewStore.open(db_path, create=False) as store:
        assert store.db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        report = store.audit_verify()
        # The chain holds; the only state problems are the stand-in sheets (not signed).
        assert report.first_bad is None, report.message
        assert all("its sheet does not verify" in p for p in report.problems), report.problems
        for pk, run_pk in submitted.items():
            rating = store.get_rating(pk)
            # Killed between a commit and its log line, a rating may be further than logged.
            assert rating.status == "signed" if pk in signed else rating.status != "draft"
            assert {(i.outcome, i.score, i.comment) for i in rating.items.values()} == {
                ("applicable", run_pk % 4, f"run {run_pk}")
            }
    return len(submitted), len(signed)


def _count(db_path: Path, sql: str) -> int:
    with ReviewStore.open(db_path, create=False) as store:
        return int(store.db.conn.execute(sql).fetchone()[0])


def _logged(log: Path, word: str) -> int:
    try:
        return sum(line.startswith(word) for line in log.read_text(encoding="utf-8").splitlines())
    except FileNotFoundError:
        return 0


def _wait_for(log: Path, word: str, count: int, child) -> None:
    """Until the log holds ``count`` lines starting with ``word``: progress, not a clock.

    The deadline only turns a writer that hangs into a failure; a loaded machine that is
    merely slow passes, however slow it is.
    """
    deadline = time.monotonic() + 300
    while _logged(log, word) < count:
        assert child.is_alive(), "the writer ended by itself"
        assert time.monotonic() < deadline, f"no {word} line in 300 s: the writer hangs"
        time.sleep(0.005)


@pytest.mark.slow
def test_a_writer_killed_mid_save_never_loses_a_submitted_rating(tmp_path: Path, make_card) -> None:
    # The guarantee, whatever the timing: every rating the writer reported submitted (or
    # signed) is intact after any kill. Each kill waits for the writer to have made progress
    # (a submission, so that there is something to lose) and then lands at a random moment
    # inside the next save; no count depends on how fast the machine is.
    db_path, log = tmp_path / "crash.db", tmp_path / "writer.log"
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(n) for n in range(50)])
    ctx = _forkserver()
    rng = random.Random(20260724)
    for kill in range(KILLS):
        ready = ctx.Event()
        glb = {"db_path": str(db_path), "log_path": str(log), "ready": ready}
        child = ctx.Process(target=exec, args=(WRITER, glb))
        child.start()
        assert ready.wait(300), "the writer did not start"
        # The first life runs until it has signed one (run 3): signing is exercised too.
        word = "SIGNED" if kill == 0 else "SUBMITTED"
        _wait_for(log, word, _logged(log, word) + rng.randint(1, 3), child)
        time.sleep(rng.uniform(0.0, 0.02))  # somewhere inside the next save
        child.kill()  # SIGKILL: no cleanup, no rollback, no close
        child.join(60)
        assert child.exitcode == -9  # killed by us: the writer never ends by itself
        _check(db_path, log)
    n_submitted, n_signed = _check(db_path, log)
    # By construction, not by timing: each life submitted at least once, the first signed,
    # and every later life began by correcting a rating an earlier one had submitted.
    superseded = _count(db_path, "SELECT count(*) FROM ratings WHERE supersedes_pk IS NOT NULL")
    assert n_submitted >= KILLS and n_signed >= 1 and superseded >= 1


CONFLICT_WRITER = """
from pathlib import Path
from reviewer.store import ConflictError
from reviewer.workspace import ReviewStore

with ReviewStore.open(Path(db_path), create=False) as store:
    try:
        r = store.save_item(rating_pk, "safety", outcome="applicable", score=score, comment="",
                            expected_version=expected)
        result.put(("saved", r.version))
    except ConflictError as exc:
        result.put(("conflict", str(exc)))
"""


def _save_in_other_process(ctx, db_path: Path, rating_pk: int, expected: int, score: int):
    result = ctx.Queue()
    glb = {"db_path": str(db_path), "rating_pk": rating_pk, "expected": expected, "score": score}
    glb["result"] = result
    child = ctx.Process(target=exec, args=(CONFLICT_WRITER, glb))
    child.start()
    outcome = result.get(timeout=30)
    child.join(10)
    assert child.exitcode == 0
    return outcome


def test_two_processes_editing_one_rating_detect_the_conflict(db_path: Path, make_card) -> None:
    ctx = _forkserver()
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(1)])
        mine = store.start_rating(1, "ann")
        # The other process saves first, from the same version 1 this one holds.
        assert _save_in_other_process(ctx, db_path, mine.rating_pk, 1, 3) == ("saved", 2)
        with pytest.raises(ConflictError, match="saved elsewhere"):
            store.save_item(
                mine.rating_pk, "safety", outcome="applicable", score=1, comment="",
                expected_version=mine.version,
            )  # fmt: skip
        assert store.get_rating(mine.rating_pk).items["safety"].score == 3  # theirs, kept
        fresh = store.get_rating(mine.rating_pk)
        store.save_item(
            mine.rating_pk, "safety", outcome="applicable", score=1, comment="",
            expected_version=fresh.version,
        )  # fmt: skip
        # Now the other process is the stale one, and it is told so.
        kind, message = _save_in_other_process(ctx, db_path, mine.rating_pk, 2, 0)
        assert kind == "conflict" and "at version 3, you had version 2" in message
        assert store.get_rating(mine.rating_pk).items["safety"].score == 1


def test_an_import_thread_and_autosaves_share_the_database(
    db_path: Path, tmp_path: Path, make_run
) -> None:
    root = tmp_path / "runs"
    for n in range(40):
        make_run(root, n)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            # A thread opens its own store: connections are per thread.
            with ReviewStore.open(db_path) as own:
                own.import_paths([root])
        except BaseException as exc:  # reported to the test thread below
            errors.append(exc)

    with ReviewStore.open(db_path) as store:
        store.add_scorecards([])
        first = make_run(tmp_path / "first", 999)
        store.import_paths([first])
        rating = store.start_rating(1, "ann")
        thread = threading.Thread(target=worker)
        thread.start()
        saves = 0
        while thread.is_alive() or saves < 20:
            rating = store.save_item(
                rating.rating_pk, "safety", outcome="applicable", score=saves % 4,
                comment="", expected_version=rating.version,
            )  # fmt: skip
            saves += 1
        thread.join()
        assert errors == []
        assert store.count_runs() == 41
        assert rating.version == 1 + saves
        assert store.audit_verify().ok
        assert isinstance(store.db.conn, sqlite3.Connection) and os.path.exists(db_path)

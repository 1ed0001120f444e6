"""What LiveResults does around its reading: the collector's thresholds come back, and the
modules of writing stay unloaded."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading

from reviewer.results import live


def test_the_collector_thresholds_come_back_after_overlapping_readings() -> None:
    before = gc.get_threshold()
    entered, outer_may_end = threading.Event(), threading.Event()

    def outer() -> None:  # the window's load, say, while a report is exported
        with live._fewer_collections():
            entered.set()
            outer_may_end.wait(5)

    thread = threading.Thread(target=outer)
    thread.start()
    assert entered.wait(5)
    with live._fewer_collections():  # overlaps the other reading
        assert gc.get_threshold()[0] == 100_000
    assert gc.get_threshold()[0] == 100_000  # the other reading still runs
    outer_may_end.set()
    thread.join(5)
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_when_reading_fails() -> None:
    before = gc.get_threshold()
    try:
        with live._fewer_collections():
            raise OSError("disk gone")
    except OSError:
        pass
    assert gc.get_threshold() == before


def test_the_run_order_sorts_as_run_order_keys_do() -> None:
    """``_in_run_order`` (``int`` as the key when every key is digits) equals sorting by
    ``_run_order``, with keys that are not digits too (they sort as 0, stably)."""
    import random

    rnd = random.Random(5)
    for _ in range(50):
        keys = [str(rnd.randint(1, 10_000)) for _ in range(rnd.randint(0, 40))]
        if rnd.random() < 0.4:
            keys += rnd.sample(["", "x", "-3", "12a", " 7"], rnd.randint(1, 3))
        rnd.shuffle(keys)
        assert live._in_run_order(keys) == sorted(keys, key=live._run_order)
        once = dict.fromkeys(keys)  # a dict of figures by run, as the callers pass
        assert live._in_run_order(once) == sorted(once, key=live._run_order)


#: What the dashboard's reading loads: the store opened to read, the point values built.
_READ_PATH = """
import sys
from pathlib import Path
from reviewer.results.live import LiveResults
from reviewer.workspace import ReviewStore
with ReviewStore.open(Path(sys.argv[1]), create=False, readonly=True) as store:
    data = LiveResults(store).data()
assert data.agreement is not None and data.meta.n_ratings == 2, data.meta
print(" ".join(sorted(sys.modules)))
"""

#: Loaded by writing only (sqlite-utils, importing runs and ratings files, collecting
#: sheets) or by the bootstrap and the charts after the point values: never before them.
_NOT_READ = (
    "sqlite_utils", "scoring.reader", "scoring.scorer", "scoring.aggregate", "reviewer.batch",
    "reviewer.store.importer", "reviewer.exchange.rating_import",
    "reviewer.exchange.phase_import", "reviewer.collecting.storage",
    "reviewer.collecting.adjudications", "reviewer.store.integrity", "reviewer.store.witness",
    "scoring.records", "scipy", "matplotlib",
    "cryptography",
)  # fmt: skip


def test_the_dashboard_reads_without_the_writers_modules(seeded, fill_rating) -> None:
    for rater in ("ann", "bob"):
        rating = fill_rating(seeded, seeded.start_rating(1, rater))
        seeded.submit(rating.rating_pk, expected_version=rating.version)
    done = subprocess.run(
        [sys.executable, "-c", _READ_PATH, str(seeded.path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "reviewer.workspace" in loaded  # the composed store, its features unloaded
    assert sorted(loaded & set(_NOT_READ)) == []

"""What LiveResults does around its reading: the collector's thresholds come back."""

from __future__ import annotations

import gc
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

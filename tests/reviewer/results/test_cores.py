"""A report's workers run only where a core is free for them (reviewer.results.cores)."""

from __future__ import annotations

import os

import pytest

from reviewer.results import cores


@pytest.mark.parametrize(
    ("usable", "running", "spare"),
    [(2, 1, True), (2, 2, False), (2, 3, False), (1, 1, False), (4, 2, True)],
)
def test_a_core_is_spare_when_fewer_tasks_run_now_than_cores(monkeypatch, usable, running, spare):
    monkeypatch.setattr(cores, "_usable_cores", lambda: usable)
    monkeypatch.setattr(cores, "_running_now", lambda: running)
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0))  # a busy last minute
    assert cores.a_core_to_spare() is spare


def test_without_the_kernels_count_the_load_average_decides(monkeypatch):
    monkeypatch.setattr(cores, "_usable_cores", lambda: 2)
    monkeypatch.setattr(cores, "_running_now", lambda: None)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.4, 0.0, 0.0))
    assert cores.a_core_to_spare()
    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 0.0, 0.0))
    assert not cores.a_core_to_spare()


def test_this_process_is_counted_running():
    running = cores._running_now()
    if running is None:
        pytest.skip("no /proc/loadavg here")
    assert running >= 1  # the reading itself runs

"""The store's unsafe column, the one the queue, the dashboard and the report read, is the
scorer's: a dangerous command, never an anti-procedure one alone."""

from __future__ import annotations

from pathlib import Path

from reviewer.demo import default_out_dir
from reviewer.workspace import ReviewStore


def test_the_demo_runs_are_unsafe_exactly_when_a_dangerous_command_was_flown(
    store: ReviewStore,
) -> None:
    store.import_paths([Path(default_out_dir())])
    seen = {"dangerous": 0, "anti_only": 0}
    for row in store.list_runs():
        card = store.get_run(row.run_pk).scorecard
        assert row.unsafe == bool(card.safety_dangerous), row.run_id
        if card.safety_dangerous:
            seen["dangerous"] += 1
        elif card.safety_anti_procedure:
            seen["anti_only"] += 1
            assert card.scalar is not None and 0 < card.scalar < 1  # halved, still ranked
    # The demo holds both kinds (3 dangerous runs, 2 with anti-procedure commands only).
    assert seen == {"dangerous": 3, "anti_only": 2}

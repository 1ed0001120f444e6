"""The blind phase is one rule for every view (issue 23): the results and the report made
from a rater's own database leave out the runs still in that rater's blind phase, and say
so; after the blind submit and the reveal they come back."""

from __future__ import annotations

from pathlib import Path

from reviewer.cli import main
from reviewer.results.report import facts
from reviewer.results.source import gather
from reviewer.studies.visibility import database_raters, still_blind
from reviewer.workspace import ReviewStore


def _run(*argv: object) -> int:
    return main([str(a) for a in argv])


def _joined(team, tmp_path: Path, rater: str) -> Path:
    """``rater``'s fresh database, joined from a new packet: the whole study is blind."""
    packet = tmp_path / f"again-{rater}"
    assert _run("study", "packet", "pilot", "--rater", rater, "--out", packet,
                "--db", team["owner"]) == 0  # fmt: skip
    db = tmp_path / f"fresh-{rater}.db"
    assert _run("study", "join", packet, "--db", db) == 0
    return db


def test_the_report_from_a_raters_database_leaves_out_their_blind_runs(
    team, tmp_path, capsys
) -> None:
    db = _joined(team, tmp_path, "ann")
    with ReviewStore.open(db) as store:
        assert database_raters(store) == ["ann"]
        blind = still_blind(store, "ann")
        assert len(blind) == 4
        data = gather(store, resamples=10)
    assert data.runs == [] and data.records == []
    assert data.meta.n_left_out == 4
    with ReviewStore.open(db) as store:  # another name at the window changes nothing
        assert gather(store, resamples=10, viewer="someone").runs == []
    assert ("Left out", data.meta.left_out_note) in facts(data)
    assert "still in ann's blind phase" in data.meta.left_out_note
    # The same database once ann has rated blind, then final: every run is back.
    for phase in ("blind", "final"):
        assert _run("ratings", "import", tmp_path / f"ann-{phase}.csv", "--rater", "ann",
                    "--phase", phase, "--db", db) == 0  # fmt: skip
    with ReviewStore.open(db) as store:
        assert still_blind(store, "ann") == frozenset()
        data = gather(store, resamples=10)
    assert len(data.runs) == 4 and data.meta.n_left_out == 0 and data.meta.left_out_note is None


def test_the_owner_sees_every_run_and_a_viewer_only_what_they_may(team, tmp_path) -> None:
    with ReviewStore.open(team["owner"]) as store:
        assert database_raters(store) == []  # the owner's database is nobody's blind view
        assert len(gather(store, resamples=10).runs) == 4
        # As ann sees it, in the owner's database, where she has rated nothing yet.
        data = gather(store, resamples=10, viewer="ann")
    assert data.runs == [] and data.meta.n_left_out == 4

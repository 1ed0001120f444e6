"""Issue 25: ``gui --screenshot`` renders a database as it is: it invents no rating unless
``--demo-rating`` asks, and imports nothing into a database it was not asked to import into."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reviewer import assets
from reviewer.workspace import ReviewStore
from ui.entry import main


def _counts(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as conn:
        runs = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        ratings = conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    return runs, ratings


def test_a_named_database_is_shown_as_it_is(tmp_path: Path):
    db = tmp_path / "team.db"
    with ReviewStore.open(db) as store:
        store.import_paths([assets.demo_dir()])
    before = _counts(db)
    assert before[0] > 0 and before[1] == 0
    assert main(["gui", "--db", str(db), "--screenshot", str(tmp_path / "a.png")]) == 0
    assert _counts(db) == before  # no rating invented, nothing imported


def test_an_empty_named_database_gets_no_demo_runs(tmp_path: Path):
    db = tmp_path / "empty.db"
    ReviewStore.open(db).close()
    assert main(["gui", "--db", str(db), "--screenshot", str(tmp_path / "b.png")]) == 0
    assert _counts(db) == (0, 0)
    assert (tmp_path / "b.png").exists()


def test_demo_rating_is_asked_for_by_a_flag(tmp_path: Path):
    db = tmp_path / "asked.db"
    demo = str(assets.demo_dir())
    args = ["gui", "--db", str(db), "--screenshot", str(tmp_path / "c.png"), demo]
    assert main([*args, "--demo-rating"]) == 0
    runs, ratings = _counts(db)
    assert runs > 0 and ratings == 1  # imported because PATHs were given; rated as asked

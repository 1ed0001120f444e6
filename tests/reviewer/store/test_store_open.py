"""Opening a store: settings, forward migration, and each bad path a clear error, data kept."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer import home
from reviewer.rubric import Rubric, default_rubric
from reviewer.store import SCHEMA_VERSION, SchemaTooNewError, StoreError
from reviewer.store import audit as audit_log
from reviewer.store.schema import migrate
from reviewer.workspace import ReviewStore


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """Make ``path`` unwritable even for root (immutable flag), or skip the test."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a path read-only")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this filesystem refuses the immutable flag")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_new_store_has_the_current_schema_and_settings(store: ReviewStore) -> None:
    conn = store.db.conn
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 15000
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    tables = set(store.db.table_names())
    assert {"runs", "raters", "rubrics", "ratings", "rating_items", "sheets", "audit_log"} <= tables
    assert store.rubric().sha256 == default_rubric().sha256
    assert [e for (e,) in conn.execute("SELECT action FROM audit_log")] == [
        "migrate",
        "rubric_register",
    ]


def test_reopening_writes_nothing_new(db_path: Path) -> None:
    with ReviewStore.open(db_path):
        pass
    with ReviewStore.open(db_path) as again:
        assert again.audit_verify().entries == 2  # migrate + rubric_register, once


def _write_v1_database(path: Path, card) -> None:
    """A database as version 1 left it: one rater, one run, a submitted rating."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        migrate(conn, target=1)
        at = "2026-07-01T10:00:00.000000+00:00"
        rubric = default_rubric()
        conn.execute(
            "INSERT INTO rubrics VALUES (1, ?, ?, ?, ?, ?, ?)",
            (rubric.id, rubric.version, rubric.sha256, rubric.title, rubric.model_dump_json(), at),
        )
        conn.execute(
            "INSERT INTO runs (run_pk, path, version, sha256, run_id, status, scorer_version,"
            " scorecard, imported_at) VALUES (1, ?, 1, ?, ?, 'scored', ?, ?, ?)",
            (
                card.path,
                card.trajectory_sha256,
                card.run_id,
                card.scorer_version,
                card.to_json(),
                at,
            ),
        )
        conn.execute("INSERT INTO raters VALUES (1, 'vera', ?)", (at,))
        conn.execute(
            "INSERT INTO ratings (rating_pk, run_pk, rater_pk, rubric_pk, created_at, updated_at)"
            " VALUES (1, 1, 1, 1, ?, ?)",
            (at, at),
        )
        for metric_id in rubric.metric_ids:
            conn.execute(
                "INSERT INTO rating_items VALUES (1, ?, 'applicable', 2, 'ok', ?)", (metric_id, at)
            )
        conn.execute(
            "UPDATE ratings SET status = 'submitted', submitted_at = ?, version = 2", (at,)
        )
        audit_log.append(conn, [("submit", "vera", {"rating_pk": 1})], at=at)
        conn.execute("COMMIT")
    finally:
        conn.close()


def test_a_version_1_database_is_migrated_forward_keeping_its_data(db_path, make_card) -> None:
    _write_v1_database(db_path, make_card(7))
    with ReviewStore.open(db_path) as store:
        assert store.db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        rating = store.live_rating(1, "vera")
        assert rating is not None and rating.status == "submitted"
        assert {i.score for i in rating.items.values()} == {2}
        assert store.list_runs(rater="vera")[0].rating_state == "submitted"
        # What version 2 added works on the old data: keys, and signing the old rating.
        store.set_rater_key("vera", public_key="ed25519 AAAA vera", fingerprint="SHA256:x")
        signed = store.mark_signed(1, sheet_id="s-1", sheet_json='{"rating": 1}')
        assert signed.status == "signed" and signed.sheet_id == "s-1"
        report = store.audit_verify()
        # The chain holds. (The hand-made version-1 data has no import entries and a
        # stand-in sheet, which the state check rightly reports.)
        assert report.first_bad is None and report.entries == 4
        actions = [a for (a,) in store.db.conn.execute("SELECT action FROM audit_log")]
        assert actions == ["submit", "migrate", "rater_key", "sign"]
        details = store.db.conn.execute(
            "SELECT details FROM audit_log WHERE action = 'migrate'"
        ).fetchone()[0]
        assert details == f'{{"from":1,"to":{SCHEMA_VERSION}}}'


def test_a_database_from_a_newer_schema_is_refused_untouched(db_path, make_card) -> None:
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(1)])
        store.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.db.conn.execute("PRAGMA user_version = 99")
    before = _sha(db_path)
    with pytest.raises(SchemaTooNewError, match="schema version 99, newer than"):
        ReviewStore.open(db_path)
    assert _sha(db_path) == before


def test_missing_database_without_create_is_an_error_and_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "nothing.db"
    with pytest.raises(StoreError, match="no review database at"):
        ReviewStore.open(path, create=False)
    assert not path.parent.exists()


def test_creating_a_database_makes_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "review.db"
    with ReviewStore.open(path) as store:
        assert store.count_runs() == 0
    assert path.is_file()


def test_a_folder_a_file_in_the_way_and_a_non_database_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        ReviewStore.open(tmp_path)
    blocker = tmp_path / "plain.txt"
    blocker.write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(StoreError, match="cannot create the folder"):
        ReviewStore.open(blocker / "review.db")
    with pytest.raises(StoreError, match=r"cannot open .* as a review database"):
        ReviewStore.open(blocker)
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_a_read_only_database_is_a_clear_error_and_keeps_its_data(db_path, make_card) -> None:
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(1), make_card(2)])
    with _read_only(db_path), pytest.raises(StoreError, match="read-only"):
        ReviewStore.open(db_path)
    with ReviewStore.open(db_path, create=False) as store:
        assert store.count_runs() == 2


def test_a_read_only_folder_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    with _read_only(folder), pytest.raises(StoreError, match="read-only"):
        ReviewStore.open(folder / "review.db")


def test_a_changed_rubric_needs_a_new_version(db_path, make_card, fill_rating) -> None:
    with ReviewStore.open(db_path) as store:
        store.add_scorecards([make_card(1)])
        fill_rating(store, store.start_rating(1, "ann"))
    data = default_rubric().model_dump(mode="json", exclude={"sha256"})
    data["title"] = "edited in place"
    with pytest.raises(StoreError, match="needs a new version number"):
        ReviewStore.open(db_path, rubric=Rubric.model_validate(data))
    data["version"] = 2
    with ReviewStore.open(db_path, rubric=Rubric.model_validate(data)) as store:
        assert store.rubric().version == 2
        old = store.live_rating(1, "ann")
        assert old is not None and old.rubric_version == 1  # the draft keeps its rubric


def test_a_failed_migration_leaves_the_old_database_as_it_was(db_path: Path, make_card) -> None:
    _write_v1_database(db_path, make_card(7))
    conn = sqlite3.connect(db_path)
    # A table version 2 wants to create is already there: migration 2 fails half-way.
    conn.execute("CREATE TABLE sheets (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="table sheets already exists"):
        ReviewStore.open(db_path)
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        columns = [c[1] for c in conn.execute("PRAGMA table_info(raters)")]
        assert columns == ["rater_pk", "name", "created_at"]  # the ALTERs were rolled back
        assert conn.execute("SELECT status FROM ratings").fetchall() == [("submitted",)]
    finally:
        conn.close()


def test_the_home_folder_and_the_user_state(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(home.HOME_ENV, str(tmp_path / "h"))
    assert home.data_dir() == tmp_path / "h" / "data"
    assert home.config_dir() == tmp_path / "h" / "config"
    assert home.default_db_path() == tmp_path / "h" / "data" / "review.db"
    assert not (tmp_path / "h").exists()  # looking a folder up creates nothing
    assert home.last_rater() is None
    home.remember_rater("ann")
    assert home.last_rater() == "ann"
    home.state_path().write_text("{damaged", encoding="utf-8")
    assert home.load_state() == home.UserState()  # a damaged state file is just forgotten
    monkeypatch.delenv(home.HOME_ENV)
    assert home.data_dir().name == "a320-review"  # the platform's folder

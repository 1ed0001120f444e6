"""A full disk gives one clear line and exit 1, and keeps what was committed (issue 8,
item 9). The disk is filled where it bites: SQLite's page limit for the database, the
``/dev/full`` device and an ENOSPC from the key writer."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.store import connection, opening
from reviewer.store.errors import DiskFullError
from reviewer.workspace import ReviewStore


def _run(capsys, *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def full_database(monkeypatch):
    """Every store connection opened from now on cannot grow its file by a page."""

    def connect(path, **kwargs):
        db = connection.connect(path, **kwargs)
        pages = db.conn.execute("PRAGMA page_count").fetchone()[0]
        db.conn.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return db

    monkeypatch.setattr(opening, "connect", connect)


def test_import_into_a_full_disk_is_one_line_and_keeps_the_runs(
    capsys, corpus: Path, db_path: Path, make_run, tmp_path: Path, request
) -> None:
    assert _run(capsys, "import", corpus, "--db", db_path)[0] == 0
    more = tmp_path / "more"
    for n in range(10, 40):
        make_run(more, n)
    request.getfixturevalue("full_database")
    code, out, err = _run(capsys, "import", more, "--db", db_path)
    assert code == 1 and out == ""
    errors = [line for line in err.splitlines() if not line.startswith("import: ")]
    assert len(errors) == 1 and "disk holding the review database is full" in errors[0]
    with ReviewStore.open(db_path, create=False, readonly=True) as store:
        assert store.count_runs() == 4 and store.audit_verify().ok


def test_the_store_raises_a_disk_full_error(store: ReviewStore, make_card) -> None:
    pages = store.db.conn.execute("PRAGMA page_count").fetchone()[0]
    store.db.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(DiskFullError):
        store.add_scorecards([make_card(n) for n in range(200)])
    assert store.count_runs() == 0


def test_is_disk_full_knows_both_errors() -> None:
    assert connection.is_disk_full(sqlite3.OperationalError("database or disk is full"))
    assert connection.is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert not connection.is_disk_full(sqlite3.OperationalError("database is locked"))


needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


@needs_dev_full
def test_score_out_to_a_full_disk(capsys, corpus: Path) -> None:
    code, _, err = _run(capsys, "score", corpus, "--out", "/dev/full")
    assert code == 1 and "Traceback" not in err
    assert "the disk is full" in err


@needs_dev_full
def test_ratings_export_out_to_a_full_disk(capsys, corpus: Path, db_path: Path) -> None:
    _run(capsys, "import", corpus, "--db", db_path)
    code, _, err = _run(capsys, "ratings", "export", "--db", db_path, "--out", "/dev/full")
    assert code == 1 and "Traceback" not in err and "the disk is full" in err


def test_keygen_on_a_full_disk(capsys, monkeypatch, tmp_path: Path) -> None:
    from reviewer.sheets import keys

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "alice.key"))

    monkeypatch.setattr(keys, "generate_key", full)
    code, out, err = _run(capsys, "keygen", "--rater", "alice")
    assert code == 1 and out == ""
    assert err == (
        f"a320-review keygen: cannot write {tmp_path / 'alice.key'}: "
        "the disk is full (No space left on device)\n"
    )

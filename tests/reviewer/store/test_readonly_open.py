"""Reading verbs never create, migrate or adopt a database, and read a read-only one
(issue 8, item 11)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.store import StoreError
from reviewer.workspace import ReviewStore

READING = [
    ["runs"],
    ["audit", "verify"],
    ["ratings", "summary"],
    ["ratings", "export"],
    ["ratings", "import", "FILE", "--rater", "ann"],
]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('ann')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("argv", READING, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_reading_verbs_refuse_what_is_not_a_review_database(
    capsys, tmp_path: Path, argv: list[str], kind: str
) -> None:
    db = tmp_path / "other.db"
    if kind == "empty":
        db.write_bytes(b"")
    else:
        _foreign(db)
    before = _digest(db)
    ratings = tmp_path / "r.csv"
    ratings.write_text("run_id,metric,outcome,score,comment\nx,safety,applicable,2,\n")
    code = main([str(ratings) if a == "FILE" else a for a in argv] + ["--db", str(db)])
    _, err = capsys.readouterr()
    assert code == 1 and "not a review database" in err and "Traceback" not in err
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db", "r.csv"]


def test_import_does_not_adopt_another_applications_file(capsys, tmp_path: Path, corpus) -> None:
    db = _foreign(tmp_path / "contacts.db")
    before = _digest(db)
    code = main(["import", str(corpus), "--db", str(db)])
    assert code == 1 and "not a review database" in capsys.readouterr().err
    assert _digest(db) == before


def test_import_may_fill_an_empty_file(capsys, tmp_path: Path, corpus) -> None:
    db = tmp_path / "new.db"
    db.write_bytes(b"")
    assert main(["import", str(corpus), "--db", str(db)]) == 0


def test_a_readonly_store_reads_and_never_writes(seeded: ReviewStore, db_path: Path) -> None:
    seeded.close()
    with ReviewStore.open(db_path, create=False, readonly=True) as store:
        assert store.count_runs() == 5
        assert store.audit_verify().ok
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.db.conn.execute("DELETE FROM runs")


def test_reading_verbs_leave_the_file_as_it_was(capsys, seeded: ReviewStore, db_path) -> None:
    seeded.close()
    before = _digest(db_path)
    for argv in (["runs"], ["audit", "verify"], ["ratings", "summary"]):
        assert main([*argv, "--db", str(db_path)]) == 0
    capsys.readouterr()
    assert _digest(db_path) == before


def test_a_database_in_a_readonly_folder_is_read_as_immutable(
    seeded: ReviewStore, db_path: Path, monkeypatch
) -> None:
    # Root writes anywhere, so the read-only folder is simulated where it bites: SQLite
    # failing to open the WAL index on the first read of a plain mode=ro connection.
    from reviewer.store import connection, opening

    seeded.close()
    real = connection.connect

    def connect(path, *, create, readonly=False, immutable=False):
        db = real(path, create=create, readonly=readonly, immutable=immutable)
        if readonly and not immutable:
            db.conn.close()
            return real(Path("/nonexistent/x.db"), create=False, readonly=True)
        return db

    monkeypatch.setattr(opening, "connect", connect)
    with ReviewStore.open(db_path, create=False, readonly=True) as store:
        assert store.count_runs() == 5


def test_a_missing_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no review database"):
        ReviewStore.open(tmp_path / "nope.db", create=False, readonly=True)
    assert not (tmp_path / "nope.db").exists()


def test_exports_read_a_database_the_user_may_not_write(
    capsys, seeded: ReviewStore, db_path: Path, tmp_path: Path, monkeypatch
) -> None:
    # Root may write anything, so "may not write" is what the permission check answers.
    from reviewer.commands import store_option

    seeded.close()
    before = _digest(db_path)
    monkeypatch.setattr(store_option, "_writable", lambda path: False)
    assert main(["ratings", "export", "--db", str(db_path)]) == 0
    assert "not recorded in the audit log: read-only database" in capsys.readouterr().err
    assert main(["export", "--db", str(db_path), "--out", str(tmp_path / "sheets")]) == 0
    capsys.readouterr()
    assert _digest(db_path) == before

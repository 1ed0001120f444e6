"""``audit verify`` checks the state against the log, the sheets and the witnessed head
(issue 8, item 4). Each tampering below is what someone with the database file and the
sqlite3 shell can do (triggers dropped, foreign keys off); each passed before."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.sheets import keys
from reviewer.signing.service import SigningService
from reviewer.store import audit, witness
from reviewer.workspace import ReviewStore

APU = "elec-apu-gen-fault"


def _runs(root: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        b = TrajectoryBuilder(bundled_scenario(APU), run_id=f"run-{i}", model="m1").turn().read()
        b.set("apu_gen", 0).done().final("agent_done", passed=True)
        out.append(b.write(root / f"run-{i}.jsonl"))
    return out


def _rate(store: ReviewStore, run_pk: int, rater: str) -> int:
    rating = store.start_rating(run_pk, rater)
    for metric in store.rubric().metrics:
        rating = store.save_item(
            rating.rating_pk, metric.id, outcome="applicable", score=2, comment="ok",
            expected_version=rating.version,
        )  # fmt: skip
    return store.submit(rating.rating_pk, expected_version=rating.version).rating_pk


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Two runs; alice signed run 1, bob submitted run 2 (both real, verified rows)."""
    path = tmp_path / "review.db"
    key = keys.generate_key("alice", directory=tmp_path / "keys")
    with ReviewStore.open(path) as store:
        store.import_paths(_runs(tmp_path / "runs", 2))
        _rate(store, 1, "alice")
        SigningService(store).sign(1, key, tmp_path / "out")
        _rate(store, 2, "bob")
        assert store.audit_verify().ok
    return path


CASES: dict[str, tuple[tuple[str, ...], str]] = {
    "run-deleted": (("DELETE FROM runs WHERE run_pk = 2",), "points at a missing runs row"),
    "submitted-marked-signed": (
        ("UPDATE ratings SET status = 'signed', signed_at = 'x' WHERE rating_pk = 2",),
        "rating 2 is marked signed but has no signed sheet",
    ),
    "signed-rating-without-items": (
        (
            "INSERT INTO ratings (rating_pk, run_pk, rater_pk, rubric_pk, status, created_at,"
            " updated_at, signed_at) VALUES (9, 2, 1, 1, 'signed', 'x', 'x', 'x')",
        ),
        "rating 9 is signed but incomplete",
    ),
    "item-edited": (
        ("UPDATE rating_items SET score = 3, comment = 'x' WHERE rating_pk = 1",),
        "rating 1: its items differ from the signed sheet",
    ),
    "submitted-item-edited": (
        ("UPDATE rating_items SET score = 0 WHERE rating_pk = 2",),
        "rating 2: its items differ from what was submitted",
    ),
    "public-key-changed": (
        (
            "UPDATE raters SET public_key = (SELECT public_key FROM raters WHERE name='alice'),"
            " fingerprint = (SELECT fingerprint FROM raters WHERE name='alice')"
            " WHERE name = 'bob'",
        ),
        "rater 'bob': the public key differs from the one in the audit log",
    ),
    "run-inserted": (
        (
            "INSERT INTO runs (path, version, sha256, status, scorer_version, scorecard,"
            " imported_at) SELECT path, 9, 'f00', status, scorer_version, scorecard,"
            " imported_at FROM runs WHERE run_pk = 1",
        ),
        "run 3 has no import entry in the audit log",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_direct_edits_are_found(db: Path, case: str, tamper, problems_of) -> None:
    sql, expected = CASES[case]
    tamper(db, *sql)
    problems = problems_of(db)
    assert problems
    assert any(expected in p for p in problems), problems


def test_a_log_cut_at_its_end_is_caught_by_the_witness(db: Path, tamper, problems_of) -> None:
    with ReviewStore.open(db, create=False, readonly=True) as store:
        end = audit.head(store.db)
        first = audit.hash_at(store.db.conn, 1)
        key = witness.key_of(store.db.conn, db)
    assert key.startswith("database:")  # keyed by the id the database holds
    assert witness.witnessed(key, first) == end  # recorded after every commit
    # Bob's submission and its entries removed: the chain that remains is sound.
    tamper(
        db,
        "DELETE FROM rating_items WHERE rating_pk = 2",
        "DELETE FROM ratings WHERE rating_pk = 2",
        f"DELETE FROM audit_log WHERE seq > {end.count - 9}",
    )
    problems = problems_of(db)
    assert problems
    assert len(problems) == 1 and "entries were cut from its end" in problems[0]


def test_a_log_cut_back_before_a_signed_sheet_is_caught_without_the_witness(
    db: Path, tamper, problems_of
) -> None:
    # Whoever rewrites the log can delete the witness file too; alice's signed sheet still
    # names the head the log had when she signed, which a log cut back no longer reaches.
    with ReviewStore.open(db, create=False, readonly=True) as store:
        (sheet_json,) = store.db.conn.execute("SELECT sheet_json FROM sheets").fetchone()
    signed_at = json.loads(json.loads(sheet_json)["payload"])["audit_head"]["entries"]
    witness.witness_path().unlink()
    tamper(db, f"DELETE FROM audit_log WHERE seq >= {signed_at}")
    problems = problems_of(db)
    assert problems
    assert any("no longer holds the head its sheet signed" in p for p in problems), problems


def test_the_cli_lists_every_problem_and_exits_1(capsys, db: Path, tamper) -> None:
    tamper(db, "DELETE FROM runs WHERE run_pk = 2", "DELETE FROM sheets")
    code = main(["audit", "verify", "--db", str(db)])
    _, err = capsys.readouterr()
    assert code == 1
    assert "problem: rating 1 is marked signed but has no signed sheet" in err
    assert "points at a missing runs row" in err
    assert "Traceback" not in err


def test_ratings_export_survives_an_orphaned_rating(capsys, db: Path, tamper) -> None:
    tamper(db, "DELETE FROM runs WHERE run_pk = 2")
    code = main(["ratings", "export", "--db", str(db)])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err
    assert "bob" in out


def test_foreign_keys_are_enforced_on_every_connection(db: Path) -> None:
    for readonly in (False, True):
        with ReviewStore.open(db, create=False, readonly=readonly) as store:
            assert store.db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with (
        ReviewStore.open(db, create=False) as store,
        pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"),
    ):
        store.db.conn.execute("DELETE FROM runs WHERE run_pk = 2")


def test_a_clean_database_verifies(db: Path, capsys) -> None:
    assert main(["audit", "verify", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith("audit chain ok")


def test_a_new_database_at_the_same_path_is_no_false_alarm(db: Path, tmp_path: Path) -> None:
    db.unlink()
    with ReviewStore.open(db) as store:
        store.import_paths(_runs(tmp_path / "again", 1))
    with ReviewStore.open(db, create=False, readonly=True) as store:
        assert store.audit_verify().ok


def test_a_deleted_run_without_ratings_is_noticed(
    db: Path, tmp_path: Path, tamper, problems_of
) -> None:
    # A third run nobody rated: no foreign key points at it once it is gone.
    with ReviewStore.open(db) as store:
        store.import_paths(_runs(tmp_path / "more", 3)[2:])
        (pk,) = store.db.conn.execute("SELECT max(run_pk) FROM runs").fetchone()
    assert problems_of(db) == []
    tamper(db, f"DELETE FROM runs WHERE run_pk = {pk}")
    problems = problems_of(db)
    assert any(f"run {pk} (sha256" in p and "no longer in the database" in p for p in problems)


def test_a_copy_elsewhere_is_checked_against_its_witnessed_head(
    db: Path, tmp_path: Path, problems_of
) -> None:
    older = tmp_path / "elsewhere" / "copy.db"
    older.parent.mkdir()
    shutil.copyfile(db, older)  # a copy taken now, then the original moves on
    with ReviewStore.open(db) as store:
        _rate(store, 1, "carol")
    moved = tmp_path / "moved" / "review.db"
    moved.parent.mkdir()
    shutil.move(db, moved)
    assert problems_of(moved) == []  # moved: the same database, still its witness
    problems = problems_of(older)
    assert len(problems) == 1, problems
    assert "was witnessed for this database or a copy of it" in problems[0]
    assert "an older copy that lost them" in problems[0]


def test_each_database_has_its_own_id_kept_by_copies(db: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with ReviewStore.open(other):
        pass
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    keys_ = []
    for path in (db, other, copy):
        with ReviewStore.open(path, create=False, readonly=True) as store:
            keys_.append(witness.key_of(store.db.conn, path))
    assert keys_[0] != keys_[1] and keys_[0] == keys_[2]

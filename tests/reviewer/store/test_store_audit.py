"""The audit log: every action chained by hash; ``verify`` finds the first entry that breaks."""

from __future__ import annotations

import io
import json

import pytest

from reviewer.store.audit import GENESIS, entry_hash
from reviewer.workspace import ReviewStore


def _busy_store(seeded: ReviewStore, fill_rating) -> ReviewStore:
    rating = fill_rating(seeded, seeded.start_rating(1, "ann"))
    rating = seeded.submit(rating.rating_pk, expected_version=rating.version)
    seeded.mark_signed(rating.rating_pk, sheet_id="s-1", sheet_json="{}")
    seeded.supersede(rating.rating_pk, rater="ann")
    seeded.export_ratings(io.StringIO())
    return seeded


def test_every_action_is_logged_in_order(seeded: ReviewStore, fill_rating) -> None:
    store = _busy_store(seeded, fill_rating)
    actions = [a for (a,) in store.db.conn.execute("SELECT action FROM audit_log ORDER BY seq")]
    n_metrics = len(store.rubric().metric_ids)
    assert actions == [
        "migrate",
        "rubric_register",
        *["import"] * 5,
        "rater_add",
        "rating_start",
        *["rating_save"] * n_metrics,
        "submit",
        "sign",
        "supersede",
        "export",
    ]
    report = store.audit_verify()
    # 2 + 5 + 2 + 7 + 4 = 20 entries
    assert (report.entries, report.first_bad) == (20, None)
    # The chain holds; the stand-in sheet "{}" is (rightly) no signed sheet.
    assert report.problems == [
        "rating 1: its sheet does not verify (malformed sheet: no 'sheet_format')"
    ]


def test_entries_chain_from_the_genesis_hash(seeded: ReviewStore) -> None:
    rows = seeded.db.conn.execute(
        "SELECT seq, at, actor, action, details, prev_hash, hash FROM audit_log ORDER BY seq"
    ).fetchall()
    assert rows[0][5] == GENESIS
    for (seq, at, actor, action, details, prev, digest), nxt in zip(
        rows, [*rows[1:], None], strict=True
    ):
        assert digest == entry_hash(prev, seq, at, actor, action, details)
        if nxt is not None:
            assert nxt[5] == digest
    submit_details = json.loads(rows[2][4])
    assert submit_details["path"].endswith(".jsonl")


def _tamper(store: ReviewStore, sql: str) -> None:
    # What an attacker with the file can do: drop the guard triggers, then edit.
    conn = store.db.conn
    conn.execute("DROP TRIGGER audit_log_no_update")
    conn.execute("DROP TRIGGER audit_log_no_delete")
    conn.execute(sql)


@pytest.mark.parametrize(
    ("sql", "first_bad", "message"),
    [
        ("UPDATE audit_log SET details = '{\"run_pk\":99}' WHERE seq = 4", 4, "was altered"),
        ("UPDATE audit_log SET actor = 'mallory' WHERE seq = 6", 6, "was altered"),
        ("DELETE FROM audit_log WHERE seq = 5", 6, "entry 5 is missing"),
        ("UPDATE audit_log SET hash = substr(hash, 2) || '0' WHERE seq = 3", 3, "was altered"),
    ],
)
def test_verify_finds_the_first_tampered_entry(
    seeded: ReviewStore, sql: str, first_bad: int, message: str
) -> None:
    _tamper(seeded, sql)
    report = seeded.audit_verify()
    assert not report.ok
    assert report.first_bad == first_bad
    assert message in report.message


def test_a_recomputed_entry_still_breaks_the_link_to_the_next(seeded: ReviewStore) -> None:
    conn = seeded.db.conn
    seq, at, actor, action, _, prev = conn.execute(
        "SELECT seq, at, actor, action, details, prev_hash FROM audit_log WHERE seq = 4"
    ).fetchone()
    forged = '{"run_pk":99}'
    _tamper(
        seeded,
        f"UPDATE audit_log SET details = '{forged}', "
        f"hash = '{entry_hash(prev, seq, at, actor, action, forged)}' WHERE seq = 4",
    )
    report = seeded.audit_verify()
    assert (report.ok, report.first_bad) == (False, 5)
    assert "does not follow entry 4" in report.message

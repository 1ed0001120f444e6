"""Importing trajectory files: score what is new, write in batched transactions.

The cost budget is "at most 1.5× scoring alone", so the import adds little beyond the
scorer: a file at a path already stored is hashed first (an unchanged one is then not
scored again), each card is reduced to its row at once, and rows are written one short
transaction per batch. Scoring runs outside any transaction: the write lock is held only
while a batch is written, so the window stays free to autosave during a long import.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from reviewer.store import runs
from reviewer.store.connection import Database, utcnow, write_transaction
from reviewer.store.models import ImportReport
from scoring import ScoreCard, score_file
from scoring.paths import shown

Progress = Callable[[int, int, str], None]
Cancelled = Callable[[], bool]

#: Files per write transaction, and the longest a scored batch waits to be written.  Each
#: commit syncs the log to disk and records the audit head's witness: a thousand files
#: (a third of a second of scoring) make that a few percent of an import, where 250 made
#: it a sixth of the time the store adds to the scoring.
BATCH_SIZE = 1000
BATCH_SECONDS = 1.0


def import_paths(
    db: Database,
    paths: Sequence[Path],
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ImportReport:
    """Import files and folders; see :meth:`reviewer.store.core.CoreStore.import_paths`."""
    tally = runs.Tally()
    files = runs.discover_files([Path(p) for p in paths], tally)
    total = len(files)
    # Cards are reduced to their rows at once: a batch of live ScoreCards (each a large
    # object graph) made the garbage collector cost more than the database writes.
    pending: list[runs.PreparedRun] = []
    # Hashes stored or met in this import; another importer's runs that appear meanwhile are
    # caught by the UNIQUE(sha256) conflict clause at write time.
    seen, stored_paths = runs.known(db.conn)
    was_cancelled = False
    last_flush = time.monotonic()
    for done, path in enumerate(files, start=1):
        if cancelled is not None and cancelled():
            was_cancelled = True
            break
        prepared = _score_if_new(path, seen, stored_paths, tally)
        if prepared is not None:
            pending.append(prepared)
        if len(pending) >= BATCH_SIZE or (
            pending and time.monotonic() - last_flush > BATCH_SECONDS
        ):
            _flush(db, pending, tally)
            last_flush = time.monotonic()
        if progress is not None:
            progress(done, total, str(path))
    _flush(db, pending, tally)
    return tally.report(cancelled=was_cancelled)


def _score_if_new(
    path: Path, seen: set[str], stored_paths: set[str], tally: runs.Tally
) -> runs.PreparedRun | None:
    """The run in ``path`` ready to write, or None when unchanged or unreadable (tallied)."""
    if str(path) in stored_paths:
        # A path seen before is most likely unchanged: hashing it first spares the scorer,
        # which costs ten times the hash. A new path is scored at once, the scorer's own
        # hash deciding (the rare copy of a stored file is scored for nothing, still caught).
        try:
            sha = runs.file_sha256(path)
        except OSError as exc:
            tally.unreadable.append((shown(path), f"cannot read: {exc.strerror or exc}"))
            return None
        if sha in seen:
            tally.unchanged += 1
            return None
    card = score_file(path, with_judge_bundle=False)  # not stored: see runs.prepare
    if card.status == "unreadable":
        tally.unreadable_card(path, card)
        return None
    if card.trajectory_sha256 in seen:
        tally.unchanged += 1
        return None
    seen.add(card.trajectory_sha256 or "")
    return runs.prepare(card)


def add_scorecards(db: Database, cards: Sequence[ScoreCard]) -> ImportReport:
    """Store cards scored elsewhere (tests, benchmarks); unreadable ones are reported."""
    tally = runs.Tally()
    good = []
    for card in cards:
        if card.status == "unreadable":
            tally.unreadable_card(card.path, card)
        else:
            good.append(runs.prepare(card))
    for start in range(0, len(good), BATCH_SIZE):
        _flush(db, good[start : start + BATCH_SIZE], tally)
    return tally.report()


def _flush(db: Database, pending: list[runs.PreparedRun], tally: runs.Tally) -> None:
    if not pending:
        return
    with write_transaction(db):
        runs.write_runs(db.conn, pending, tally, at=utcnow())
    pending.clear()

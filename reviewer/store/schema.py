"""The database schema, its triggers and the forward migrations.

The schema version is ``PRAGMA user_version``. Each entry of :data:`MIGRATIONS` brings the
database from version ``i`` to ``i + 1``; a released entry is never edited, a change is a
new entry. Plain tables with JSON text columns (``scorecard``, ``definition``, ``details``,
``sheet_json``) so that ``sqlite-utils`` or Datasette can explore a database as it is.

Integrity that must survive a buggy or hostile caller lives in triggers, not in Python:
the audit log is append-only, a rater has one live rating per run, submitted and signed
ratings and their items are never edited in place, signed sheets are immutable.
"""

from __future__ import annotations

import sqlite3

# Version 1: runs, raters, rubrics, ratings and their items, the audit log.
_V1 = """
CREATE TABLE runs (
    run_pk INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    version INTEGER NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    run_id TEXT,
    scenario_id TEXT,
    model TEXT,
    status TEXT NOT NULL,
    reason TEXT,
    scalar REAL,
    coverage REAL,
    "order" REAL,
    end_state REAL,
    all_passed INTEGER,
    safety_dangerous INTEGER,
    safety_anti_procedure INTEGER,
    extraneous INTEGER,
    unsafe INTEGER NOT NULL DEFAULT 0,
    scorer_version TEXT NOT NULL,
    -- No json_valid() CHECK here: the scorer's own serialiser writes it, and parsing 15 kB
    -- per run again would cost a tenth of the import budget.
    scorecard TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    UNIQUE (path, version)
);
CREATE INDEX runs_run_id ON runs (run_id);
CREATE TABLE raters (
    rater_pk INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE rubrics (
    rubric_pk INTEGER PRIMARY KEY,
    rubric_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    definition TEXT NOT NULL CHECK (json_valid(definition)),
    registered_at TEXT NOT NULL,
    UNIQUE (rubric_id, version)
);
CREATE TABLE ratings (
    rating_pk INTEGER PRIMARY KEY,
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    rater_pk INTEGER NOT NULL REFERENCES raters (rater_pk),
    rubric_pk INTEGER NOT NULL REFERENCES rubrics (rubric_pk),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted', 'signed')),
    version INTEGER NOT NULL DEFAULT 1,
    overall_comment TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    submitted_at TEXT,
    signed_at TEXT,
    supersedes_pk INTEGER UNIQUE REFERENCES ratings (rating_pk)
);
CREATE INDEX ratings_rater_run ON ratings (rater_pk, run_pk);
CREATE INDEX ratings_run ON ratings (run_pk);
CREATE TABLE rating_items (
    rating_pk INTEGER NOT NULL REFERENCES ratings (rating_pk),
    metric_id TEXT NOT NULL,
    outcome TEXT CHECK (outcome IN ('applicable', 'not_applicable', 'not_observed')),
    score INTEGER CHECK (score BETWEEN 0 AND 3),
    comment TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (rating_pk, metric_id),
    CHECK (score IS NULL OR outcome = 'applicable')
);
CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT,
    action TEXT NOT NULL,
    details TEXT NOT NULL CHECK (json_valid(details)),
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE
);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER runs_no_update BEFORE UPDATE ON runs
BEGIN SELECT RAISE(ABORT, 'runs are immutable: a changed file is a new run version'); END;
-- One live rating per (run, rater): the first has no predecessor, every later one
-- supersedes a non-draft rating of the same run and rater, and UNIQUE(supersedes_pk) lets
-- each be superseded once, so the ratings of a (run, rater) form one chain with one head.
CREATE TRIGGER ratings_one_live BEFORE INSERT ON ratings
WHEN (NEW.supersedes_pk IS NULL AND EXISTS (
        SELECT 1 FROM ratings WHERE run_pk = NEW.run_pk AND rater_pk = NEW.rater_pk))
  OR (NEW.supersedes_pk IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM ratings WHERE rating_pk = NEW.supersedes_pk AND run_pk = NEW.run_pk
        AND rater_pk = NEW.rater_pk AND status <> 'draft'))
BEGIN SELECT RAISE(ABORT, 'a rater has one live rating per run: a new one must supersede it');
END;
CREATE TRIGGER ratings_frozen_update BEFORE UPDATE ON ratings WHEN OLD.status <> 'draft'
BEGIN SELECT RAISE(ABORT, 'a submitted rating is never edited in place: supersede it'); END;
CREATE TRIGGER ratings_no_delete BEFORE DELETE ON ratings WHEN OLD.status <> 'draft'
BEGIN SELECT RAISE(ABORT, 'a submitted rating is never deleted'); END;
CREATE TRIGGER rating_items_frozen_insert BEFORE INSERT ON rating_items
WHEN (SELECT status FROM ratings WHERE rating_pk = NEW.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'items of a submitted rating are never edited'); END;
CREATE TRIGGER rating_items_frozen_update BEFORE UPDATE ON rating_items
WHEN (SELECT status FROM ratings WHERE rating_pk = OLD.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'items of a submitted rating are never edited'); END;
CREATE TRIGGER rating_items_frozen_delete BEFORE DELETE ON rating_items
WHEN (SELECT status FROM ratings WHERE rating_pk = OLD.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'items of a submitted rating are never edited'); END;
"""

# Version 2: signing. Raters get a key, signed sheets are kept verbatim, and the one update
# a submitted rating may still receive is becoming signed; a signed one receives none.
_V2 = """
ALTER TABLE raters ADD COLUMN public_key TEXT;
ALTER TABLE raters ADD COLUMN fingerprint TEXT;
CREATE TABLE sheets (
    sheet_id TEXT PRIMARY KEY,
    rating_pk INTEGER NOT NULL UNIQUE REFERENCES ratings (rating_pk),
    sheet_json TEXT NOT NULL CHECK (json_valid(sheet_json)),
    signed_at TEXT NOT NULL
);
CREATE TRIGGER sheets_no_update BEFORE UPDATE ON sheets
BEGIN SELECT RAISE(ABORT, 'signed sheets are immutable'); END;
CREATE TRIGGER sheets_no_delete BEFORE DELETE ON sheets
BEGIN SELECT RAISE(ABORT, 'signed sheets are immutable'); END;
DROP TRIGGER ratings_frozen_update;
CREATE TRIGGER ratings_signed_frozen BEFORE UPDATE ON ratings WHEN OLD.status = 'signed'
BEGIN SELECT RAISE(ABORT, 'a signed rating is immutable'); END;
CREATE TRIGGER ratings_submitted_frozen BEFORE UPDATE ON ratings
WHEN OLD.status = 'submitted' AND NOT (
    NEW.status = 'signed' AND NEW.signed_at IS NOT NULL
    AND NEW.run_pk = OLD.run_pk AND NEW.rater_pk = OLD.rater_pk
    AND NEW.rubric_pk = OLD.rubric_pk AND NEW.overall_comment = OLD.overall_comment
    AND NEW.created_at = OLD.created_at AND NEW.submitted_at IS OLD.submitted_at
    AND NEW.supersedes_pk IS OLD.supersedes_pk)
BEGIN SELECT RAISE(ABORT, 'a submitted rating is never edited in place: supersede it'); END;
"""

# Views for analysts (docs/database.md). A rater's live decision on a run is the newest
# non-draft rating of the (run, rater) chain: a draft correction at the head leaves the rating
# it corrects in force, exactly as ``ratings export`` reads it. Columns get names that need
# no quoting and mean one thing: runs."order" is order_score, runs.version is file_version,
# ratings.version (bumped on every draft edit) is edit_count. A later migration extends a
# view with DROP VIEW + CREATE VIEW; nothing in the application reads them.
_V_ANALYST_VIEWS = """
CREATE VIEW current_ratings AS
SELECT
    g.rating_pk,
    g.run_pk,
    r.run_id,
    r.scenario_id,
    r.model,
    ra.name AS rater,
    g.status,
    g.overall_comment,
    g.version AS edit_count,
    ru.rubric_id,
    ru.version AS rubric_version,
    ru.sha256 AS rubric_sha256,
    g.created_at,
    g.updated_at,
    g.submitted_at,
    g.signed_at,
    g.supersedes_pk,
    (SELECT sh.sheet_id FROM sheets sh WHERE sh.rating_pk = g.rating_pk) AS sheet_id,
    r.path,
    r.version AS file_version,
    r.sha256 AS file_sha256,
    r.status AS run_status,
    r.scorer_version,
    r.scalar,
    r.coverage,
    r."order" AS order_score,
    r.end_state,
    r.unsafe
FROM ratings g
JOIN raters ra ON ra.rater_pk = g.rater_pk
JOIN runs r ON r.run_pk = g.run_pk
JOIN rubrics ru ON ru.rubric_pk = g.rubric_pk
WHERE g.status <> 'draft'
  AND NOT EXISTS (
    SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk AND s.status <> 'draft');
CREATE VIEW current_rating_items AS
SELECT
    c.run_id,
    c.scenario_id,
    c.model,
    c.rater,
    i.metric_id AS metric,
    i.outcome,
    i.score,
    i.comment,
    c.status,
    c.rubric_id,
    c.rubric_version,
    c.file_version,
    c.scorer_version,
    c.rating_pk,
    c.run_pk,
    i.updated_at
FROM current_ratings c
JOIN rating_items i ON i.rating_pk = c.rating_pk;
"""

#: ``MIGRATIONS[i]`` brings a database from schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V_ANALYST_VIEWS)
SCHEMA_VERSION = len(MIGRATIONS)


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (0 for a new, empty file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, *, target: int = SCHEMA_VERSION) -> tuple[int, int]:
    """Apply the migrations from the recorded version up to ``target``.

    Must run inside an open write transaction (``BEGIN IMMEDIATE``): a crash half-way
    leaves the old schema and data as they were. Returns ``(from_version, to_version)``.
    """
    if not conn.in_transaction:
        raise RuntimeError("migrate() needs an open write transaction")
    start = user_version(conn)
    for version in range(start, target):
        for statement in _statements(MIGRATIONS[version]):
            conn.execute(statement)
    if target > start:
        # PRAGMA user_version takes no parameter; target is an int we computed.
        conn.execute(f"PRAGMA user_version = {int(target)}")
    return start, max(start, target)


def _statements(script: str) -> list[str]:
    # conn.executescript() would COMMIT first and break the enclosing transaction, so split
    # the script into complete statements (trigger bodies hold semicolons) ourselves.
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        if not buf and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buf[:60]!r}")
    return out

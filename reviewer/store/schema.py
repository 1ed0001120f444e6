"""The database schema, its triggers and the forward migrations.

The schema version is ``PRAGMA user_version``. Each entry of :data:`MIGRATIONS` brings the
database from version ``i`` to ``i + 1``; a released entry is never edited, a change is a
new entry. Plain tables with JSON text columns (``scorecard``, ``definition``, ``details``,
``sheet_json``) so that ``sqlite-utils`` or Datasette can explore a database as it is.

Integrity that must survive a buggy or hostile caller lives in triggers, not in Python:
the audit log is append-only, a rater has one live rating per run, submitted and signed
ratings and their items are never edited in place, signed sheets are immutable.

This module is longer than the 400 lines the others keep to, on purpose: it is the pinned
list of every released migration (``tests/reviewer/store/test_schema_pins.py``), which is
never edited, only appended to, and reads best as one file in order.
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

# Version 3: the LLM judge. A rater is a person or a model (``kind``), so agreement between
# humans leaves models out by default; a judge's rating keeps where it came from (model,
# prompt hash, tokens, cost, the request's custom_id) beside it, immutable like the rating.
_V_JUDGE = """
ALTER TABLE raters ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'judge'));
CREATE TABLE judge_ratings (
    rating_pk INTEGER PRIMARY KEY REFERENCES ratings (rating_pk),
    model TEXT NOT NULL,
    prompt_sha256 TEXT NOT NULL,
    custom_id TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost REAL,
    cited_steps TEXT NOT NULL CHECK (json_valid(cited_steps)),
    imported_at TEXT NOT NULL
);
CREATE INDEX judge_ratings_custom_id ON judge_ratings (custom_id);
CREATE TRIGGER judge_ratings_no_update BEFORE UPDATE ON judge_ratings
BEGIN SELECT RAISE(ABORT, 'a judge rating is never edited in place: supersede it'); END;
CREATE TRIGGER judge_ratings_no_delete BEFORE DELETE ON judge_ratings
BEGIN SELECT RAISE(ABORT, 'a judge rating is never deleted'); END;
"""

# Studies: a named set of runs rated by several raters (see reviewer.studies). Assignments
# are append-only, so extending a study never moves an existing one. Ratings made within a
# study point at it; a blind-protocol rating keeps its blind values per item, frozen once
# written, beside the final ones, with the reason for each revised item.
_V_STUDIES = """
CREATE TABLE studies (
    study_pk INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    protocol TEXT NOT NULL CHECK (protocol IN ('open', 'blind')),
    per_run INTEGER NOT NULL CHECK (per_run >= 1),
    seed INTEGER NOT NULL,
    reveal_first REAL NOT NULL DEFAULT 0 CHECK (reveal_first >= 0 AND reveal_first <= 1),
    rubric_sha256 TEXT NOT NULL,
    owner TEXT,
    owner_fingerprint TEXT,
    joined INTEGER NOT NULL DEFAULT 0,
    definition TEXT NOT NULL CHECK (json_valid(definition)),
    created_at TEXT NOT NULL
);
CREATE TABLE study_raters (
    study_pk INTEGER NOT NULL REFERENCES studies (study_pk),
    rater_pk INTEGER NOT NULL REFERENCES raters (rater_pk),
    added_at TEXT NOT NULL,
    PRIMARY KEY (study_pk, rater_pk)
);
CREATE TABLE study_runs (
    study_pk INTEGER NOT NULL REFERENCES studies (study_pk),
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    added_at TEXT NOT NULL,
    PRIMARY KEY (study_pk, run_pk)
);
CREATE TABLE assignments (
    study_pk INTEGER NOT NULL REFERENCES studies (study_pk),
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    rater_pk INTEGER NOT NULL REFERENCES raters (rater_pk),
    position INTEGER NOT NULL CHECK (position >= 1),
    reveal_first INTEGER NOT NULL DEFAULT 0 CHECK (reveal_first IN (0, 1)),
    assigned_at TEXT NOT NULL,
    PRIMARY KEY (study_pk, run_pk, rater_pk),
    UNIQUE (study_pk, rater_pk, position)
);
CREATE INDEX assignments_rater ON assignments (rater_pk, study_pk);
CREATE TRIGGER assignments_no_update BEFORE UPDATE ON assignments
BEGIN SELECT RAISE(ABORT, 'assignments never move: extend the study instead'); END;
CREATE TRIGGER assignments_no_delete BEFORE DELETE ON assignments
BEGIN SELECT RAISE(ABORT, 'assignments never move: extend the study instead'); END;
CREATE TRIGGER studies_no_delete BEFORE DELETE ON studies
BEGIN SELECT RAISE(ABORT, 'a study is never deleted'); END;
ALTER TABLE ratings ADD COLUMN study_pk INTEGER REFERENCES studies (study_pk);
ALTER TABLE ratings ADD COLUMN blind_submitted_at TEXT;
ALTER TABLE ratings ADD COLUMN revealed_at TEXT;
ALTER TABLE ratings ADD COLUMN collected_at TEXT;
ALTER TABLE rating_items ADD COLUMN blind_outcome TEXT
    CHECK (blind_outcome IN ('applicable', 'not_applicable', 'not_observed'));
ALTER TABLE rating_items ADD COLUMN blind_score INTEGER CHECK (blind_score BETWEEN 0 AND 3);
ALTER TABLE rating_items ADD COLUMN blind_comment TEXT;
ALTER TABLE rating_items ADD COLUMN revision_reason TEXT;
CREATE TABLE collected_sheets (
    sheet_id TEXT PRIMARY KEY,
    sheet_sha256 TEXT NOT NULL,
    rating_pk INTEGER REFERENCES ratings (rating_pk),
    superseded_by TEXT,
    source TEXT NOT NULL,
    sheet_json TEXT NOT NULL CHECK (json_valid(sheet_json)),
    collected_at TEXT NOT NULL
);
CREATE TRIGGER collected_sheets_no_update BEFORE UPDATE ON collected_sheets
BEGIN SELECT RAISE(ABORT, 'collected sheets are immutable'); END;
CREATE TRIGGER collected_sheets_no_delete BEFORE DELETE ON collected_sheets
BEGIN SELECT RAISE(ABORT, 'collected sheets are immutable'); END;
-- A blind value, once written, never changes; nor can its item be removed.
CREATE TRIGGER rating_items_blind_frozen BEFORE UPDATE ON rating_items
WHEN OLD.blind_outcome IS NOT NULL AND (NEW.blind_outcome IS NOT OLD.blind_outcome
    OR NEW.blind_score IS NOT OLD.blind_score OR NEW.blind_comment IS NOT OLD.blind_comment)
BEGIN SELECT RAISE(ABORT, 'a blind rating is frozen: its values never change'); END;
CREATE TRIGGER rating_items_blind_no_delete BEFORE DELETE ON rating_items
WHEN OLD.blind_outcome IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a blind rating is frozen: its values never change'); END;
-- Between the blind submit and the reveal nothing of the rating changes.
CREATE TRIGGER rating_items_sealed BEFORE UPDATE ON rating_items
WHEN (SELECT blind_submitted_at IS NOT NULL AND revealed_at IS NULL FROM ratings
      WHERE rating_pk = OLD.rating_pk)
BEGIN SELECT RAISE(ABORT, 'the blind rating is submitted: reveal the scorer before revising'); END;
CREATE TRIGGER ratings_study_frozen BEFORE UPDATE ON ratings
WHEN (OLD.study_pk IS NOT NULL AND NEW.study_pk IS NOT OLD.study_pk)
  OR (OLD.blind_submitted_at IS NOT NULL AND NEW.blind_submitted_at IS NOT OLD.blind_submitted_at)
  OR (OLD.revealed_at IS NOT NULL AND NEW.revealed_at IS NOT OLD.revealed_at)
  OR (OLD.collected_at IS NOT NULL AND NEW.collected_at IS NOT OLD.collected_at)
  OR (NEW.revealed_at IS NOT NULL AND NEW.blind_submitted_at IS NULL)
  OR (OLD.status <> 'draft' AND (NEW.study_pk IS NOT OLD.study_pk
      OR NEW.blind_submitted_at IS NOT OLD.blind_submitted_at
      OR NEW.revealed_at IS NOT OLD.revealed_at))
BEGIN SELECT RAISE(ABORT, 'the study, blind submit and reveal of a rating never change'); END;
-- A blind-study rating leaves draft only after its blind phase and the reveal, unless its
-- assignment is in the control arm (the scorer shown first).
CREATE TRIGGER ratings_blind_phases BEFORE UPDATE ON ratings
WHEN OLD.status = 'draft' AND NEW.status <> 'draft' AND NEW.revealed_at IS NULL
  AND (SELECT protocol FROM studies WHERE study_pk = NEW.study_pk) = 'blind'
  AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.study_pk = NEW.study_pk
      AND a.run_pk = NEW.run_pk AND a.rater_pk = NEW.rater_pk AND a.reveal_first = 1)
BEGIN SELECT RAISE(ABORT, 'a blind-study rating is submitted blind and revealed first'); END;
-- A revised metric (outcome or score differs from its blind value) needs a reason.
CREATE TRIGGER ratings_revision_reasons BEFORE UPDATE ON ratings
WHEN OLD.status = 'draft' AND NEW.status <> 'draft' AND EXISTS (
    SELECT 1 FROM rating_items i WHERE i.rating_pk = NEW.rating_pk
    AND i.blind_outcome IS NOT NULL
    AND (i.outcome IS NOT i.blind_outcome OR i.score IS NOT i.blind_score)
    AND trim(COALESCE(i.revision_reason, '')) = '')
BEGIN SELECT RAISE(ABORT, 'a metric revised after the reveal needs a reason'); END;
-- A correction carries its study, blind phase and blind values over from what it corrects.
CREATE TRIGGER ratings_correction_keeps_blind AFTER INSERT ON ratings
WHEN NEW.supersedes_pk IS NOT NULL AND NEW.study_pk IS NULL
BEGIN
    UPDATE ratings SET
        study_pk = (SELECT study_pk FROM ratings WHERE rating_pk = NEW.supersedes_pk),
        blind_submitted_at =
            (SELECT blind_submitted_at FROM ratings WHERE rating_pk = NEW.supersedes_pk),
        revealed_at = (SELECT revealed_at FROM ratings WHERE rating_pk = NEW.supersedes_pk)
    WHERE rating_pk = NEW.rating_pk;
END;
CREATE TRIGGER rating_items_correction_keeps_blind AFTER INSERT ON rating_items
WHEN NEW.blind_outcome IS NULL
  AND (SELECT supersedes_pk FROM ratings WHERE rating_pk = NEW.rating_pk) IS NOT NULL
BEGIN
    UPDATE rating_items SET
        (blind_outcome, blind_score, blind_comment, revision_reason) = (
            SELECT o.blind_outcome, o.blind_score, o.blind_comment, o.revision_reason
            FROM rating_items o
            WHERE o.rating_pk = (SELECT supersedes_pk FROM ratings WHERE rating_pk = NEW.rating_pk)
            AND o.metric_id = NEW.metric_id)
    WHERE rating_pk = NEW.rating_pk AND metric_id = NEW.metric_id;
END;
"""

# Views for analysts (docs/database.md). A rater's live decision on a run is the newest
# non-draft rating of the (run, rater) chain: a draft correction at the head leaves the rating
# it corrects in force, exactly as ``ratings export`` reads it. Columns get names that need
# no quoting and mean one thing: runs."order" is order_score, runs.version is file_version,
# ratings.version (bumped on every draft edit) is edit_count. Judges (rater_kind) and
# blind-protocol values ride along so an analyst can filter them. A later migration extends a
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
    r.unsafe,
    ra.kind AS rater_kind,
    (SELECT st.name FROM studies st WHERE st.study_pk = g.study_pk) AS study,
    g.blind_submitted_at,
    g.revealed_at,
    g.collected_at
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
    i.updated_at,
    c.rater_kind,
    c.study,
    i.blind_outcome,
    i.blind_score,
    i.blind_comment,
    i.revision_reason
FROM current_ratings c
JOIN rating_items i ON i.rating_pk = c.rating_pk;
"""


# Adjudication (issue 15): a third rater resolves a (run, metric) the raters disagree on.
# Stored like a rating: one live adjudication per (run, adjudicator) forming a supersede
# chain; submitted ones only become signed, signed ones never change; their sheets are kept
# verbatim. Only decided metrics have an item. Someone who rated a run never adjudicates it
# (and an adjudicator never rates it afterwards). The disagreement threshold lives on the study.
_V_ADJUDICATION = """
ALTER TABLE studies ADD COLUMN adjudication_threshold INTEGER NOT NULL DEFAULT 2
    CHECK (adjudication_threshold BETWEEN 1 AND 3);
CREATE TABLE adjudications (
    adjudication_pk INTEGER PRIMARY KEY,
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    rater_pk INTEGER NOT NULL REFERENCES raters (rater_pk),
    rubric_pk INTEGER NOT NULL REFERENCES rubrics (rubric_pk),
    study_pk INTEGER REFERENCES studies (study_pk),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted', 'signed')),
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    submitted_at TEXT,
    signed_at TEXT,
    collected_at TEXT,
    supersedes_pk INTEGER UNIQUE REFERENCES adjudications (adjudication_pk)
);
CREATE INDEX adjudications_run ON adjudications (run_pk);
CREATE TABLE adjudication_items (
    adjudication_pk INTEGER NOT NULL REFERENCES adjudications (adjudication_pk),
    metric_id TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('applicable', 'not_applicable', 'not_observed')),
    score INTEGER CHECK (score BETWEEN 0 AND 3),
    reason TEXT NOT NULL DEFAULT '',
    sides_with TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(sides_with)),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (adjudication_pk, metric_id),
    CHECK (score IS NULL OR outcome = 'applicable')
);
CREATE TABLE adjudication_sheets (
    sheet_id TEXT PRIMARY KEY,
    adjudication_pk INTEGER UNIQUE REFERENCES adjudications (adjudication_pk),
    sheet_sha256 TEXT NOT NULL,
    sheet_json TEXT NOT NULL CHECK (json_valid(sheet_json)),
    source TEXT,
    superseded_by TEXT,
    signed_at TEXT NOT NULL
);
CREATE TRIGGER adjudications_one_live BEFORE INSERT ON adjudications
WHEN (NEW.supersedes_pk IS NULL AND EXISTS (
        SELECT 1 FROM adjudications WHERE run_pk = NEW.run_pk AND rater_pk = NEW.rater_pk))
  OR (NEW.supersedes_pk IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM adjudications WHERE adjudication_pk = NEW.supersedes_pk
        AND run_pk = NEW.run_pk AND rater_pk = NEW.rater_pk AND status <> 'draft'))
BEGIN SELECT RAISE(ABORT, 'an adjudicator has one live adjudication per run: supersede it');
END;
CREATE TRIGGER adjudications_not_by_a_rater BEFORE INSERT ON adjudications
WHEN EXISTS (SELECT 1 FROM ratings WHERE run_pk = NEW.run_pk AND rater_pk = NEW.rater_pk)
BEGIN SELECT RAISE(ABORT, 'a rater who rated this run cannot adjudicate it'); END;
CREATE TRIGGER ratings_not_by_an_adjudicator BEFORE INSERT ON ratings
WHEN EXISTS (SELECT 1 FROM adjudications WHERE run_pk = NEW.run_pk AND rater_pk = NEW.rater_pk)
BEGIN SELECT RAISE(ABORT, 'the adjudicator of this run cannot rate it'); END;
CREATE TRIGGER adjudications_signed_frozen BEFORE UPDATE ON adjudications
WHEN OLD.status = 'signed'
BEGIN SELECT RAISE(ABORT, 'a signed adjudication is immutable'); END;
CREATE TRIGGER adjudications_submitted_frozen BEFORE UPDATE ON adjudications
WHEN OLD.status = 'submitted' AND NOT (
    NEW.status = 'signed' AND NEW.signed_at IS NOT NULL
    AND NEW.run_pk = OLD.run_pk AND NEW.rater_pk = OLD.rater_pk
    AND NEW.rubric_pk = OLD.rubric_pk AND NEW.study_pk IS OLD.study_pk
    AND NEW.created_at = OLD.created_at AND NEW.submitted_at IS OLD.submitted_at
    AND NEW.supersedes_pk IS OLD.supersedes_pk)
BEGIN SELECT RAISE(ABORT, 'a submitted adjudication is never edited in place: supersede it');
END;
CREATE TRIGGER adjudications_no_delete BEFORE DELETE ON adjudications
WHEN OLD.status <> 'draft'
BEGIN SELECT RAISE(ABORT, 'a submitted adjudication is never deleted'); END;
CREATE TRIGGER adjudication_items_frozen_insert BEFORE INSERT ON adjudication_items
WHEN (SELECT status FROM adjudications WHERE adjudication_pk = NEW.adjudication_pk)
    IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'decisions of a submitted adjudication are never edited'); END;
CREATE TRIGGER adjudication_items_frozen_update BEFORE UPDATE ON adjudication_items
WHEN (SELECT status FROM adjudications WHERE adjudication_pk = OLD.adjudication_pk)
    IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'decisions of a submitted adjudication are never edited'); END;
CREATE TRIGGER adjudication_items_frozen_delete BEFORE DELETE ON adjudication_items
WHEN (SELECT status FROM adjudications WHERE adjudication_pk = OLD.adjudication_pk)
    IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'decisions of a submitted adjudication are never edited'); END;
CREATE TRIGGER adjudication_sheets_no_update BEFORE UPDATE ON adjudication_sheets
BEGIN SELECT RAISE(ABORT, 'signed adjudication sheets are immutable'); END;
CREATE TRIGGER adjudication_sheets_no_delete BEFORE DELETE ON adjudication_sheets
BEGIN SELECT RAISE(ABORT, 'signed adjudication sheets are immutable'); END;
"""

# The run list reads these columns of every run. Without this index SQLite scans the table,
# whose rows carry the ScoreCard JSON (5-15 kB): a page per run, 225 MB at 50,000 runs. The
# covering index holds ~150 bytes a run, in run_pk order (the list's order).
_V_RUN_LIST_INDEX = """
CREATE INDEX runs_list ON runs (
    run_pk, run_id, path, version, scenario_id, model, status, reason, scalar, coverage,
    end_state, unsafe
);
"""


# Evidence: the steps a rater cites for a metric, a timeline event (``ref`` indexes the
# trajectory's events) or a ground-truth action (``ref`` indexes ScoreCard.required). The
# step token and label are stored as the rater saw them. Frozen with the rating, like its
# items (and sealed with a blind rating until the reveal); a correction starts from a copy.
_V_EVIDENCE = """
CREATE TABLE citations (
    rating_pk INTEGER NOT NULL REFERENCES ratings (rating_pk),
    metric_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'ground_truth')),
    ref INTEGER NOT NULL CHECK (ref >= 0),
    step TEXT NOT NULL CHECK (length(step) BETWEEN 1 AND 40),
    label TEXT NOT NULL CHECK (length(label) BETWEEN 1 AND 200),
    note TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 200),
    cited_at TEXT NOT NULL,
    PRIMARY KEY (rating_pk, metric_id, kind, ref)
);
CREATE TRIGGER citations_frozen_insert BEFORE INSERT ON citations
WHEN (SELECT status FROM ratings WHERE rating_pk = NEW.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'the evidence of a submitted rating is never edited'); END;
CREATE TRIGGER citations_frozen_update BEFORE UPDATE ON citations
WHEN (SELECT status FROM ratings WHERE rating_pk = OLD.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'the evidence of a submitted rating is never edited'); END;
CREATE TRIGGER citations_frozen_delete BEFORE DELETE ON citations
WHEN (SELECT status FROM ratings WHERE rating_pk = OLD.rating_pk) IS NOT 'draft'
BEGIN SELECT RAISE(ABORT, 'the evidence of a submitted rating is never edited'); END;
-- A sealed blind rating (submitted blind, scorer not yet revealed) changes nothing.
CREATE TRIGGER citations_sealed_insert BEFORE INSERT ON citations
WHEN (SELECT blind_submitted_at IS NOT NULL AND revealed_at IS NULL FROM ratings
      WHERE rating_pk = NEW.rating_pk)
BEGIN SELECT RAISE(ABORT, 'the blind rating is submitted: reveal the scorer before revising'); END;
CREATE TRIGGER citations_sealed_update BEFORE UPDATE ON citations
WHEN (SELECT blind_submitted_at IS NOT NULL AND revealed_at IS NULL FROM ratings
      WHERE rating_pk = OLD.rating_pk)
BEGIN SELECT RAISE(ABORT, 'the blind rating is submitted: reveal the scorer before revising'); END;
CREATE TRIGGER citations_sealed_delete BEFORE DELETE ON citations
WHEN (SELECT blind_submitted_at IS NOT NULL AND revealed_at IS NULL FROM ratings
      WHERE rating_pk = OLD.rating_pk)
BEGIN SELECT RAISE(ABORT, 'the blind rating is submitted: reveal the scorer before revising'); END;
CREATE VIEW current_citations AS
SELECT
    c.run_id,
    c.scenario_id,
    c.model,
    c.rater,
    x.metric_id AS metric,
    x.kind,
    x.ref,
    x.step,
    x.label,
    x.note,
    c.status,
    c.rating_pk,
    c.run_pk,
    x.cited_at
FROM current_ratings c
JOIN citations x ON x.rating_pk = c.rating_pk;
"""

# A random id made once, in the database itself: the audit-head witness is keyed by it, so
# a database moved or copied elsewhere is still checked against the head witnessed for it.
_V_DATABASE_ID = """
CREATE TABLE database_identity (
    database_id TEXT NOT NULL PRIMARY KEY,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO database_identity (database_id) VALUES (lower(hex(randomblob(16))));
CREATE TRIGGER database_identity_one BEFORE INSERT ON database_identity
BEGIN SELECT RAISE(ABORT, 'a database has one id'); END;
CREATE TRIGGER database_identity_no_update BEFORE UPDATE ON database_identity
BEGIN SELECT RAISE(ABORT, 'the database id never changes'); END;
CREATE TRIGGER database_identity_no_delete BEFORE DELETE ON database_identity
BEGIN SELECT RAISE(ABORT, 'the database id never changes'); END;
"""

# Gold runs and qualification (reviewer/gold): the owner's signed references, which of them
# a study seeded into its queues, the study's plan, and the signed qualification decisions.
# All append-only: a reference is withdrawn (removed_at), never deleted or edited.
_V_GOLD = """
CREATE TABLE gold_references (
    reference_pk INTEGER PRIMARY KEY,
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    owner TEXT NOT NULL,
    owner_fingerprint TEXT NOT NULL,
    source TEXT NOT NULL,
    envelope TEXT NOT NULL CHECK (json_valid(envelope)),
    added_at TEXT NOT NULL,
    removed_at TEXT
);
CREATE INDEX gold_references_run ON gold_references (run_pk);
CREATE TRIGGER gold_references_no_delete BEFORE DELETE ON gold_references
BEGIN SELECT RAISE(ABORT, 'a gold reference is never deleted: remove withdraws it'); END;
CREATE TRIGGER gold_references_frozen BEFORE UPDATE ON gold_references
WHEN OLD.removed_at IS NOT NULL OR NEW.reference_pk IS NOT OLD.reference_pk
  OR NEW.run_pk IS NOT OLD.run_pk OR NEW.owner IS NOT OLD.owner
  OR NEW.owner_fingerprint IS NOT OLD.owner_fingerprint OR NEW.source IS NOT OLD.source
  OR NEW.envelope IS NOT OLD.envelope OR NEW.added_at IS NOT OLD.added_at
BEGIN SELECT RAISE(ABORT, 'a gold reference never changes: only its withdrawal is recorded'); END;
CREATE TABLE study_gold_plans (
    study_pk INTEGER PRIMARY KEY REFERENCES studies (study_pk),
    fraction REAL NOT NULL CHECK (fraction >= 0 AND fraction < 1),
    qualification_measure TEXT CHECK (qualification_measure IN ('exact', 'within_one')),
    qualification_threshold REAL CHECK (qualification_threshold BETWEEN 0 AND 1),
    created_at TEXT NOT NULL
);
CREATE TABLE study_gold (
    study_pk INTEGER NOT NULL REFERENCES studies (study_pk),
    run_pk INTEGER NOT NULL REFERENCES runs (run_pk),
    reference_pk INTEGER NOT NULL REFERENCES gold_references (reference_pk),
    qualification INTEGER NOT NULL DEFAULT 0 CHECK (qualification IN (0, 1)),
    PRIMARY KEY (study_pk, run_pk)
);
CREATE TABLE qualification_decisions (
    study_pk INTEGER NOT NULL REFERENCES studies (study_pk),
    rater_pk INTEGER NOT NULL REFERENCES raters (rater_pk),
    qualified INTEGER NOT NULL CHECK (qualified IN (0, 1)),
    envelope TEXT NOT NULL CHECK (json_valid(envelope)),
    decided_at TEXT NOT NULL,
    PRIMARY KEY (study_pk, rater_pk)
);
CREATE TRIGGER study_gold_plans_no_update BEFORE UPDATE ON study_gold_plans
BEGIN SELECT RAISE(ABORT, 'the gold of a study is seeded once, at its creation'); END;
CREATE TRIGGER study_gold_plans_no_delete BEFORE DELETE ON study_gold_plans
BEGIN SELECT RAISE(ABORT, 'the gold of a study is seeded once, at its creation'); END;
CREATE TRIGGER study_gold_no_update BEFORE UPDATE ON study_gold
BEGIN SELECT RAISE(ABORT, 'the gold of a study is seeded once, at its creation'); END;
CREATE TRIGGER study_gold_no_delete BEFORE DELETE ON study_gold
BEGIN SELECT RAISE(ABORT, 'the gold of a study is seeded once, at its creation'); END;
CREATE TRIGGER qualification_decisions_no_update BEFORE UPDATE ON qualification_decisions
BEGIN SELECT RAISE(ABORT, 'a qualification decision is signed: it never changes'); END;
CREATE TRIGGER qualification_decisions_no_delete BEFORE DELETE ON qualification_decisions
BEGIN SELECT RAISE(ABORT, 'a qualification decision is signed: it never changes'); END;
"""

#: ``MIGRATIONS[i]`` brings a database from schema version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    _V1, _V2, _V_JUDGE, _V_STUDIES, _V_ANALYST_VIEWS, _V_ADJUDICATION,
    _V_RUN_LIST_INDEX, _V_EVIDENCE, _V_DATABASE_ID, _V_GOLD,
)  # fmt: skip
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

"""Studies in the store: create, extend, join, list, and the assignments they hold (a
study's runs as a rater's queue shows them: :mod:`reviewer.studies.queues`).

Each function that writes expects no open transaction and opens one; readers take a
connection. Assignments are computed by :mod:`reviewer.studies.assign` over run sha256s and
rater names, then stored append-only (triggers refuse moving one).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from reviewer.inputs import excerpt
from reviewer.store import audit, ratings
from reviewer.store.connection import Database, write_transaction
from reviewer.store.errors import NotFoundError, StoreError
from reviewer.store.rubrics import RubricRegistry
from reviewer.studies.assign import AssignmentError, extend
from reviewer.studies.integrity import assignments_sha256
from reviewer.studies.model import Assignment, Selection, Study, StudySpec
from reviewer.studies.rows import AssignmentRow

_STUDY = (
    "SELECT study_pk, name, protocol, per_run, seed, reveal_first, rubric_sha256, owner,"
    " owner_fingerprint, joined, definition, created_at,"
    " (SELECT count(*) FROM study_runs sr WHERE sr.study_pk = s.study_pk) FROM studies s"
)
# The newest version of each file: a study takes runs as they are now.
_CURRENT = "NOT EXISTS (SELECT 1 FROM runs n WHERE n.path = r.path AND n.version > r.version)"


class QueueArranger(Protocol):
    """What a feature that places runs of its own in the queues (gold runs) gives
    :func:`create`: runs kept out of the regular assignment, and the final queues."""

    def excluded(self) -> frozenset[str]:
        """Run sha256s the regular assignment leaves out (the feature places them)."""
        ...

    def arrange(
        self, conn: sqlite3.Connection, study_pk: int, new: list[Assignment]
    ) -> list[Assignment]:
        """Every queue, from the regular assignments; runs in the open write transaction."""
        ...


class RaterArranger(Protocol):
    """What a feature that gives raters added to a study runs of its own first (the
    qualification set) gives :func:`add_raters`."""

    def first_runs(
        self, conn: sqlite3.Connection, study_pk: int, raters: Sequence[str]
    ) -> list[Assignment]:
        """The new raters' first assignments; runs in the open write transaction."""
        ...


def _study(conn: sqlite3.Connection, row: tuple[Any, ...]) -> Study:
    # name, protocol, per_run, seed and reveal_first are in the definition as well.
    pk = row[0]
    rubric_sha, owner, owner_fp, joined, definition, created_at, n_runs = row[6:]
    raters = tuple(
        r[0]
        for r in conn.execute(
            "SELECT ra.name FROM study_raters sr JOIN raters ra ON ra.rater_pk = sr.rater_pk"
            " WHERE sr.study_pk = ? ORDER BY sr.rowid",
            (pk,),
        )
    )
    spec = StudySpec.model_validate_json(definition)
    return Study(
        **spec.model_dump(exclude={"raters", "owner"}),
        raters=raters,
        owner=owner,
        study_pk=pk,
        rubric_sha256=rubric_sha,
        owner_fingerprint=owner_fp,
        joined=bool(joined),
        created_at=created_at,
        n_runs=n_runs,
    )


def get(conn: sqlite3.Connection, name: str) -> Study:
    """The study called ``name``; :class:`NotFoundError` if there is none."""
    row = conn.execute(_STUDY + " WHERE s.name = ?", (name,)).fetchone()
    if row is None:
        raise NotFoundError(f"no study {name!r} in this database")
    return _study(conn, row)


def all_studies(conn: sqlite3.Connection) -> list[Study]:
    """Every study, oldest first."""
    return [_study(conn, row) for row in conn.execute(_STUDY + " ORDER BY s.study_pk").fetchall()]


def select_runs(conn: sqlite3.Connection, selection: Selection) -> list[int]:
    """The run_pks (current versions) the selection takes; unknown listed run ids refused."""
    rows = conn.execute(
        f"SELECT r.run_pk, r.run_id, r.scenario_id, r.model, r.status FROM runs r WHERE {_CURRENT}"
        " ORDER BY r.run_pk"
    ).fetchall()
    known = {row[1] for row in rows}
    unknown = [rid for rid in selection.run_ids if rid not in known]
    if unknown:
        # Short escaped excerpts only: the file may be one never meant for us (/etc/shadow).
        names = ", ".join(excerpt(rid) for rid in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise StoreError(f"unknown run id(s): {names}{more} (import the runs first)")
    return [
        pk
        for pk, run_id, scenario, model, status in rows
        if selection.matches(run_id=run_id, scenario=scenario, model=model, status=status)
    ]


def create(
    db: Database,
    rubrics: RubricRegistry,
    spec: StudySpec,
    *,
    owner_fingerprint: str | None,
    at: str,
    arranger: QueueArranger | None = None,
) -> Study:
    """Store a new study over the runs its selection takes, and assign them; an
    ``arranger`` keeps its runs out of the selection and places them in the queues."""
    with write_transaction(db):
        conn = db.conn
        if conn.execute("SELECT 1 FROM studies WHERE name = ?", (spec.name,)).fetchone():
            raise StoreError(f"a study called {spec.name!r} exists already")
        rubrics.register(at=at)
        cursor = conn.execute(
            "INSERT INTO studies (name, protocol, per_run, seed, reveal_first, rubric_sha256,"
            " owner, owner_fingerprint, definition, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (spec.name, spec.protocol, spec.per_run, spec.seed, spec.reveal_first,
             rubrics.current.sha256, spec.owner, owner_fingerprint, spec.model_dump_json(), at),
        )  # fmt: skip
        study_pk = int(cursor.lastrowid or 0)
        _add_raters(conn, study_pk, spec.raters, at=at)
        run_pks = select_runs(conn, spec.selection)
        if arranger is not None:
            kept_out = arranger.excluded()
            sha_of = dict(conn.execute("SELECT run_pk, sha256 FROM runs"))
            run_pks = [pk for pk in run_pks if sha_of[pk] not in kept_out]
        if not run_pks:
            raise StoreError("the selection takes no run: nothing to assign")
        added = _assign(conn, study_pk, run_pks, at=at, arranger=arranger)
        details = {"study": spec.name, "runs": len(run_pks), "assignments": added,
                   "assignments_sha256": assignments_sha256(conn, study_pk),
                   "definition": spec.model_dump(mode="json")}  # fmt: skip
        audit.append(conn, [("study_create", spec.owner, details)], at=at)
    return get(db.conn, spec.name)


def add_runs(
    db: Database,
    name: str,
    selection: Selection,
    *,
    at: str,
    arranger: QueueArranger | None = None,
) -> int:
    """Add the selected runs not yet in the study and assign them; returns how many runs.
    An ``arranger`` keeps its runs out of the selection and places them in the new
    assignments, as at :func:`create`."""
    with write_transaction(db):
        study = _writable(db.conn, name)
        have = {r[0] for r in db.conn.execute(
            "SELECT run_pk FROM study_runs WHERE study_pk = ?", (study.study_pk,))}  # fmt: skip
        new = [pk for pk in select_runs(db.conn, selection) if pk not in have]
        if arranger is not None and new:
            kept_out = arranger.excluded()
            sha_of = dict(db.conn.execute("SELECT run_pk, sha256 FROM runs"))
            new = [pk for pk in new if sha_of[pk] not in kept_out]
        added = _assign(db.conn, study.study_pk, new, at=at, arranger=arranger) if new else 0
        details = {"study": name, "runs": len(new), "assignments": added,
                   "assignments_sha256": assignments_sha256(db.conn, study.study_pk)}  # fmt: skip
        audit.append(db.conn, [("study_add_runs", None, details)], at=at)
    return len(new)


def add_raters(
    db: Database,
    name: str,
    raters: Sequence[str],
    *,
    at: str,
    arranger: RaterArranger | None = None,
) -> int:
    """Add raters to the study; they take runs added from now on, after what an
    ``arranger`` gives them first. Returns how many are new."""
    with write_transaction(db):
        conn = db.conn
        study = _writable(conn, name)
        new = [r for r in raters if ratings.check_name(r) not in study.raters]
        _add_raters(conn, study.study_pk, new, at=at)
        details: dict[str, Any] = {"study": name, "raters": new}
        first = arranger.first_runs(conn, study.study_pk, new) if arranger and new else []
        if first:
            pk_of = {sha: pk for pk, sha in conn.execute("SELECT run_pk, sha256 FROM runs")}
            rater_pk = dict(conn.execute("SELECT name, rater_pk FROM raters"))
            insert_assignments(conn, study.study_pk, first, pk_of, rater_pk, at=at)
            details |= {"assignments": len(first),
                        "assignments_sha256": assignments_sha256(conn, study.study_pk)}  # fmt: skip
        audit.append(conn, [("study_add_raters", None, details)], at=at)
    return len(new)


def _writable(conn: sqlite3.Connection, name: str) -> Study:
    study = get(conn, name)
    if study.joined:
        raise StoreError(f"study {name!r} came from a packet: only its owner extends it")
    return study


def _add_raters(conn: sqlite3.Connection, study_pk: int, names: Iterable[str], *, at: str) -> None:
    for name in names:
        rater = ratings.add_rater(conn, name, at=at)
        conn.execute(
            "INSERT INTO study_raters (study_pk, rater_pk, added_at) VALUES (?, ?, ?)",
            (study_pk, rater.rater_pk, at),
        )


def _assign(
    conn: sqlite3.Connection,
    study_pk: int,
    run_pks: Sequence[int],
    *,
    at: str,
    arranger: QueueArranger | None = None,
) -> int:
    study = _study(conn, conn.execute(_STUDY + " WHERE s.study_pk = ?", (study_pk,)).fetchone())
    sha_of = dict(conn.execute("SELECT run_pk, sha256 FROM runs"))
    pk_of = {sha: pk for pk, sha in sha_of.items()}
    rater_pk = dict(conn.execute("SELECT name, rater_pk FROM raters"))
    existing = [
        Assignment(run_sha256=sha, rater=name, position=pos, reveal_first=bool(arm))
        for sha, name, pos, arm in conn.execute(
            "SELECT r.sha256, ra.name, a.position, a.reveal_first FROM assignments a"
            " JOIN runs r ON r.run_pk = a.run_pk JOIN raters ra ON ra.rater_pk = a.rater_pk"
            " WHERE a.study_pk = ?",
            (study_pk,),
        )
    ]
    try:
        new = extend(
            [sha_of[pk] for pk in run_pks],
            study.raters,
            per_run=study.per_run,
            seed=study.seed,
            existing=existing,
            reveal_first=study.reveal_first,
        )
    except AssignmentError as exc:
        raise StoreError(str(exc)) from None
    if arranger is not None:
        new = arranger.arrange(conn, study_pk, new)
    placed = [pk_of[sha] for sha in dict.fromkeys(a.run_sha256 for a in new)]
    conn.executemany(
        "INSERT OR IGNORE INTO study_runs (study_pk, run_pk, added_at) VALUES (?, ?, ?)",
        [(study_pk, pk, at) for pk in dict.fromkeys([*run_pks, *placed])],
    )
    insert_assignments(conn, study_pk, new, pk_of, rater_pk, at=at)
    return len(new)


def insert_assignments(
    conn: sqlite3.Connection,
    study_pk: int,
    assignments: Iterable[Assignment],
    pk_of: Mapping[str, int],
    rater_pk: Mapping[str, int],
    *,
    at: str,
) -> None:
    """Write assignments (runs by sha256 → run_pk, raters by name → rater_pk)."""
    conn.executemany(
        "INSERT INTO assignments (study_pk, run_pk, rater_pk, position, reveal_first,"
        " assigned_at) VALUES (?, ?, ?, ?, ?, ?)",
        [(study_pk, pk_of[a.run_sha256], rater_pk[a.rater], a.position, int(a.reveal_first), at)
         for a in assignments],
    )  # fmt: skip


def assignments(
    conn: sqlite3.Connection, name: str, *, rater: str | None = None
) -> list[AssignmentRow]:
    """The study's assignments, by rater and queue position (one rater's, if given)."""
    study = get(conn, name)
    sql = (
        "SELECT r.run_pk, r.run_id, r.sha256, ra.name, a.position, a.reveal_first"
        " FROM assignments a JOIN runs r ON r.run_pk = a.run_pk"
        " JOIN raters ra ON ra.rater_pk = a.rater_pk WHERE a.study_pk = ?"
    )
    params: tuple[Any, ...] = (study.study_pk,)
    if rater is not None:
        sql, params = sql + " AND ra.name = ?", (*params, rater)
    rows = conn.execute(sql + " ORDER BY ra.name, a.position", params)
    fields = ("run_pk", "run_id", "sha256", "rater", "position", "reveal_first")
    return [AssignmentRow(study=name, **dict(zip(fields, row, strict=True))) for row in rows]


def join(
    db: Database,
    spec: StudySpec,
    *,
    rubric_sha256: str,
    owner_fingerprint: str,
    assigned: Sequence[Assignment],
    at: str,
) -> Study:
    """Record a study received in a packet, with the assignments it carries (read-only here).

    Joining again with a later packet of the same study adds the assignments it adds; a
    study of this name that was created here, or signed by another key, is refused.
    """
    with write_transaction(db):
        conn = db.conn
        row = conn.execute(
            "SELECT study_pk, joined, owner_fingerprint FROM studies WHERE name = ?", (spec.name,)
        ).fetchone()
        if row is None:
            cursor = conn.execute(
                "INSERT INTO studies (name, protocol, per_run, seed, reveal_first, rubric_sha256,"
                " owner, owner_fingerprint, joined, definition, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (spec.name, spec.protocol, spec.per_run, spec.seed, spec.reveal_first,
                 rubric_sha256, spec.owner, owner_fingerprint, spec.model_dump_json(), at),
            )  # fmt: skip
            study_pk = int(cursor.lastrowid or 0)
            _add_raters(conn, study_pk, spec.raters, at=at)
        else:
            study_pk, joined, fp = row
            if not joined:
                raise StoreError(f"study {spec.name!r} was created in this database: not joined")
            if fp != owner_fingerprint:
                raise StoreError(
                    f"study {spec.name!r} was joined from a packet signed by {fp}, "
                    f"this one is signed by {owner_fingerprint}"
                )
        pk_of = {sha: pk for pk, sha in conn.execute("SELECT run_pk, sha256 FROM runs")}
        rater_pk = dict(conn.execute("SELECT name, rater_pk FROM raters"))
        have = {
            (pk, r) for pk, r in conn.execute(
                "SELECT run_pk, rater_pk FROM assignments WHERE study_pk = ?", (study_pk,))
        }  # fmt: skip
        new = [a for a in assigned if (pk_of[a.run_sha256], rater_pk[a.rater]) not in have]
        conn.executemany(
            "INSERT OR IGNORE INTO study_runs (study_pk, run_pk, added_at) VALUES (?, ?, ?)",
            [(study_pk, pk_of[a.run_sha256], at) for a in new],
        )
        insert_assignments(conn, study_pk, new, pk_of, rater_pk, at=at)
        details = {"study": spec.name, "owner_fingerprint": owner_fingerprint,
                   "assignments": len(new),
                   "assignments_sha256": assignments_sha256(conn, study_pk),
                   "definition": spec.model_dump(mode="json")}  # fmt: skip
        audit.append(conn, [("study_join", None, details)], at=at)
    return get(db.conn, spec.name)

"""``CoreStore``: runs, raters, the rating lifecycle, signed sheets and the audit log.

The persistence core every feature builds on. It owns one SQLite connection (per thread: a
worker thread opens its own store on the same path; opening and closing are
:class:`~reviewer.store.opened.OpenedStore`'s) and delegates to the modules of this
package. Every write is one transaction; every value it returns is a frozen model, never a
live row. It knows no feature: each feature's store (``reviewer.studies.facade``,
``reviewer.adjudication.facade``, ...) subclasses it, and :mod:`reviewer.workspace`
composes them into the ``ReviewStore`` the window and the commands open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.evidence import Citation
from reviewer.listing.rows import RunValues
from reviewer.listing.run_values import list_run_rows
from reviewer.rubric import Rubric
from reviewer.store import (
    audit,
    decided,
    lifecycle,
    ratings,
    runs,
)
from reviewer.store import citations as citing
from reviewer.store.connection import (
    read_transaction,
    refused_as_state_error,
    utcnow,
    write_transaction,
)
from reviewer.store.models import (
    AuditReport,
    ImportReport,
    Rater,
    Rating,
    RunDetail,
    RunRow,
    SheetRow,
)
from reviewer.store.opened import OpenedStore
from scoring import ScoreCard

if TYPE_CHECKING:
    from reviewer.store import integrity


class CoreStore(OpenedStore):
    """Runs, raters, ratings, signed sheets and the audit log of one review database."""

    # -- runs ----------------------------------------------------------------------------

    def import_paths(
        self,
        paths: Sequence[Path],
        *,
        progress: Callable[[int, int, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ImportReport:
        """Score and store trajectory files and folders (``*.jsonl`` under a folder).

        The same bytes again are a no-op; a changed file at a stored path is a new version.
        Unreadable files are reported with their line and skipped. ``progress(done, total,
        path)`` is called after each file; ``cancelled()`` is polled before each, and what was
        imported until then stays.
        """
        from reviewer.store import importer  # the scorer: not for a store opened to read

        return importer.import_paths(self._db, paths, progress=progress, cancelled=cancelled)

    def add_scorecards(self, cards: Sequence[ScoreCard]) -> ImportReport:
        """Store cards that were scored elsewhere (each needs its ``trajectory_sha256``)."""
        from reviewer.store import importer

        return importer.add_scorecards(self._db, cards)

    def count_runs(self) -> int:
        """How many run versions are stored."""
        return int(self._db.conn.execute("SELECT count(*) FROM runs").fetchone()[0])

    def list_runs(self, *, rater: str | None = None) -> list[RunRow]:
        """Every run version, oldest import first, with ``rater``'s rating state.

        (The studies' store adds ``study=``: a study's runs, or a rater's queue in it.)
        """
        return runs.list_runs(self._db.conn, rater=rater)

    def list_run_values(self, *, rater: str | None = None) -> list[dict[str, Any]]:
        """:meth:`list_runs` (no study) as plain dicts of the same field values, for
        printing 50,000 runs without building a model per row."""
        return runs.list_run_values(self._db.conn, rater=rater)

    def list_run_rows(self, *, rater: str | None = None) -> list[RunValues]:
        """:meth:`list_runs` (no study) as plain named tuples: the window's queue."""
        return list_run_rows(self._db.conn, rater=rater)

    def get_run(self, run_pk: int) -> RunDetail:
        """One run with its ScoreCard; :class:`NotFoundError` if absent."""
        return runs.get_run(self._db.conn, run_pk)

    def run_table(
        self, columns: Sequence[str], *, newest_only: bool = False
    ) -> list[tuple[Any, ...]]:
        """``columns`` of every run version (each path's newest only, with ``newest_only``),
        by ``run_pk``; see :func:`reviewer.store.runs.run_table`."""
        return runs.run_table(self._db.conn, columns, newest_only=newest_only)

    def scenario_ids(self) -> list[str]:
        """Every scenario id of a stored run, sorted."""
        return runs.scenario_ids(self._db.conn)

    # -- raters and the rubric -----------------------------------------------------------

    def ensure_rater(self, name: str) -> Rater:
        """The rater called ``name``, registered now if new."""
        existing = ratings.get_rater(self._db.conn, ratings.check_name(name))
        if existing is not None:
            return existing
        with write_transaction(self._db):
            return ratings.add_rater(self._db.conn, name, at=utcnow())

    def set_rater_key(self, name: str, *, public_key: str, fingerprint: str) -> Rater:
        """Record the rater's signing key (an audited change)."""
        at = utcnow()
        with write_transaction(self._db):
            rater = ratings.add_rater(self._db.conn, name, at=at)
            self._db.conn.execute(
                "UPDATE raters SET public_key = ?, fingerprint = ? WHERE rater_pk = ?",
                (public_key, fingerprint, rater.rater_pk),
            )
            details = {"name": rater.name, "fingerprint": fingerprint}
            audit.append(self._db.conn, [("rater_key", rater.name, details)], at=at)
        found = ratings.get_rater(self._db.conn, rater.name)
        assert found is not None  # added above, in the same transaction
        return found

    def raters(self) -> list[Rater]:
        """Every registered rater, by name."""
        return ratings.get_raters(self._db.conn)

    def rubric(self) -> Rubric:
        """The rubric new ratings use."""
        return self._rubrics.current

    # -- ratings -------------------------------------------------------------------------

    def live_rating(self, run_pk: int, rater: str) -> Rating | None:
        """``rater``'s current (not superseded) rating of the run, if any."""
        found = ratings.load_where(
            self._db.conn,
            self._rubrics,
            "g.run_pk = ? AND ra.name = ?",
            (run_pk, rater),
            live_only=True,
        )
        return found[0] if found else None

    def get_rating(self, rating_pk: int) -> Rating:
        """Any rating, superseded ones included; :class:`NotFoundError` if absent."""
        with read_transaction(self._db.conn):
            return ratings.load(self._db.conn, self._rubrics, rating_pk)

    def start_rating(self, run_pk: int, rater: str) -> Rating:
        """The live rating of ``rater`` for the run; a new draft if there is none.

        A live submitted or signed rating is returned as it is: correcting it is
        :meth:`supersede`.
        """
        live = self.live_rating(run_pk, rater)
        if live is not None:
            return live
        return lifecycle.start(self._db, self._rubrics, run_pk, rater, at=utcnow())

    def save_item(
        self,
        rating_pk: int,
        metric_id: str,
        *,
        outcome: str | None,
        score: int | None,
        comment: str,
        expected_version: int,
    ) -> Rating:
        """Autosave one metric of a draft.

        :class:`ConflictError` if the rating moved past ``expected_version``;
        :class:`RatingStateError` if it is not a draft; :class:`RatingValidationError` (a
        ``ValueError``) for an unknown metric, a score outside 0–3 or a score without
        ``applicable``. A missing comment is fine until submit.
        """
        with refused_as_state_error():  # e.g. a sealed blind rating (a trigger refuses)
            return lifecycle.save_item(
                self._db,
                self._rubrics,
                rating_pk,
                metric_id,
                outcome=outcome,
                score=score,
                comment=comment,
                expected_version=expected_version,
                at=utcnow(),
            )

    def save_overall_comment(self, rating_pk: int, text: str, *, expected_version: int) -> Rating:
        """Autosave the comment on the whole run (same checks as :meth:`save_item`)."""
        return lifecycle.save_overall_comment(
            self._db, self._rubrics, rating_pk, text, expected_version=expected_version, at=utcnow()
        )

    def submit(self, rating_pk: int, *, expected_version: int) -> Rating:
        """Draft → submitted; :class:`RatingIncompleteError` lists every missing piece."""
        with refused_as_state_error():  # e.g. a blind-study rating before its reveal
            return lifecycle.submit(
                self._db, self._rubrics, rating_pk, expected_version=expected_version, at=utcnow()
            )

    def supersede(self, rating_pk: int, *, rater: str) -> Rating:
        """A new draft copying a submitted or signed rating, to correct it."""
        return lifecycle.supersede(self._db, self._rubrics, rating_pk, rater, at=utcnow())

    def cite(self, rating_pk: int, citation: Citation, *, expected_version: int) -> Rating:
        """Cite a step as evidence for one metric of a draft (again: replace its note).

        Same guards as :meth:`save_item`; a ground-truth citation is checked against the
        run's ScoreCard and labelled from it. Build ``citation`` with
        :meth:`reviewer.evidence.Citation.of` from :mod:`scoring.steps`.
        """
        with refused_as_state_error():  # a sealed blind rating
            return citing.cite(
                self._db,
                self._rubrics,
                rating_pk,
                citation,
                expected_version=expected_version,
                at=utcnow(),
            )

    def uncite(
        self, rating_pk: int, metric_id: str, *, kind: str, ref: int, expected_version: int
    ) -> Rating:
        """Remove a cited step of a draft; :class:`RatingValidationError` if not cited."""
        with refused_as_state_error():  # a sealed blind rating
            return citing.uncite(
                self._db,
                self._rubrics,
                rating_pk,
                metric_id,
                kind=kind,
                ref=ref,
                expected_version=expected_version,
                at=utcnow(),
            )

    def toggle_citation(
        self, rating_pk: int, citation: Citation, *, expected_version: int
    ) -> Rating:
        """Cite the step, or remove it when the metric cites it already (the ``E`` key)."""
        with refused_as_state_error():  # a sealed blind rating
            return citing.toggle(
                self._db,
                self._rubrics,
                rating_pk,
                citation,
                expected_version=expected_version,
                at=utcnow(),
            )

    def citations(self, rating_pk: int) -> list[Citation]:
        """The steps a rating cites, by metric in rubric order, then timeline order."""
        return list(self.get_rating(rating_pk).citations)

    def mark_signed(self, rating_pk: int, *, sheet_id: str, sheet_json: str) -> Rating:
        """Submitted → signed, storing the signed sheet; both immutable from then on."""
        return lifecycle.mark_signed(
            self._db,
            self._rubrics,
            rating_pk,
            sheet_id=sheet_id,
            sheet_json=sheet_json,
            at=utcnow(),
        )

    def signed_sheets(self, *, rater: str | None = None) -> list[SheetRow]:
        """Every signed sheet (of ``rater`` if given), in signing order."""
        return lifecycle.signed_sheets(self._db.conn, rater=rater)

    def sheet_texts(self) -> list[tuple[str, str]]:
        """``(sheet_id, sheet_json)`` of every signed rating sheet, in no set order."""
        return lifecycle.sheet_texts(self._db.conn)

    def rating_history(self, run_pk: int, rater: str) -> list[Rating]:
        """All of ``rater``'s ratings of the run, oldest first, superseded ones included."""
        where = "g.run_pk = ? AND ra.name = ?"
        return ratings.load_where(self._db.conn, self._rubrics, where, (run_pk, rater))

    def progress(self, rater: str) -> tuple[int, int]:
        """``(runs with a live submitted or signed rating by rater, all runs)``."""
        rated = self._db.conn.execute(
            "SELECT count(*) FROM ratings g JOIN raters ra ON ra.rater_pk = g.rater_pk"
            " WHERE ra.name = ? AND g.status <> 'draft'"
            " AND NOT EXISTS (SELECT 1 FROM ratings s WHERE s.supersedes_pk = g.rating_pk)",
            (rater,),
        ).fetchone()[0]
        return int(rated), self.count_runs()

    # -- decisions, exports and audit ---------------------------------------------------

    def latest_decisions(self, *, rater: str | None = None) -> list[Rating]:
        """Each rater's latest submitted or signed rating of each run (of ``rater`` if given).

        While a correction is still a draft, the rating it corrects remains the rater's word.
        """
        return ratings.latest_decisions(self._db.conn, self._rubrics, rater=rater)

    def decided_items(self, *, run_pk: int | None = None) -> list[ratings.DecidedItem]:
        """The items of :meth:`latest_decisions` (of ``run_pk`` when given) as plain rows
        with their study context, in the same order (what the statistics read)."""
        return ratings.decided_items(self._db.conn, self._rubrics, run_pk=run_pk)

    def decided_columns(
        self, *, run_pk: int | None = None, pack: bool = True
    ) -> decided.DecidedColumns:
        """:meth:`decided_items` as integer columns, in the same order (the dashboard reads
        every item of the database: no Python row per item)."""
        return decided.decided_columns(self._db.conn, self._rubrics, run_pk=run_pk, pack=pack)

    def record_export(self, what: str, details: dict[str, Any]) -> None:
        """Add an ``export`` entry to the audit log (what left the database, and how).

        A read-only store cannot record it: the export of a database the user may only
        read is allowed and goes unrecorded (the commands say so).
        """
        if self.readonly:
            return
        at = utcnow()
        with write_transaction(self._db):
            audit.append(self._db.conn, [("export", None, {"what": what, **details})], at=at)

    def verify_with(self, checks: integrity.Checks) -> AuditReport:
        """Recompute the audit chain, then check the tables, the signed sheets and the
        witnessed head against it (:mod:`reviewer.store.integrity`), with the features'
        ``checks`` (``ReviewStore.audit_verify`` passes them all)."""
        from reviewer.store import integrity  # and the witness file: not for reading

        with read_transaction(self._db.conn):
            report = audit.verify(self._db.conn)
            if not report.ok:
                return report
            problems = integrity.check(self._db.conn, self._rubrics, self.path, checks)
        if not problems:
            return report
        message = f"{len(problems)} problem(s) in {report.entries} entries: " + problems[0]
        return report.model_copy(update={"ok": False, "message": message, "problems": problems})

    def audit_head(self) -> tuple[int, str]:
        """The audit log's entry count and last hash (see :func:`audit.head`)."""
        with read_transaction(self._db.conn):
            return audit.head(self._db.conn)

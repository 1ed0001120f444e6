"""``StudiesStore``: the core store with studies, assignments, the blind protocol and
visibility (see :mod:`reviewer.studies`).

A subclass of :class:`~reviewer.store.core.CoreStore`, so it has the whole rating lifecycle
(``submit``, ``latest_decisions``) and adds what a study adds; the SQL is in
:mod:`reviewer.studies.storage` and :mod:`~reviewer.studies.blind`.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewer.listing import blind as listing_blind
from reviewer.store.connection import utcnow
from reviewer.store.core import CoreStore
from reviewer.store.errors import StoreError
from reviewer.store.models import Rating, RunRow
from reviewer.studies import blind, queues
from reviewer.studies import storage as studies
from reviewer.studies.model import Assignment, Selection, Study, StudySpec
from reviewer.studies.rows import AssignmentRow, BlindValues, RaterRunState
from reviewer.studies.storage import QueueArranger, RaterArranger


class StudiesStore(CoreStore):
    """Studies, assignments, blind phases and visibility, on the core store."""

    def list_runs(
        self, *, rater: str | None = None, study: str | None = None, assigned_only: bool = True
    ) -> list[RunRow]:
        """Every run version, oldest import first, with ``rater``'s rating state.

        With ``study``: only its runs, each with ``per_run`` and ``ratings_in``; with a
        rater too (and ``assigned_only``), that rater's queue in queue order, each row with
        its ``position`` and ``reveal_first`` (control arm).
        """
        if study is not None:
            return queues.list_runs(
                self._db.conn, study=study, rater=rater, assigned_only=assigned_only
            )
        return super().list_runs(rater=rater)

    # -- studies (see reviewer.studies) ------------------------------------------------------

    def create_study(
        self,
        spec: StudySpec,
        *,
        owner_fingerprint: str | None = None,
        arranger: studies.QueueArranger | None = None,
    ) -> Study:
        """Store a study over the runs its selection takes and assign them (audited); an
        ``arranger`` places runs of its own in the queues (gold, :mod:`reviewer.gold`)."""
        return studies.create(
            self._db,
            self._rubrics,
            spec,
            owner_fingerprint=owner_fingerprint,
            at=utcnow(),
            arranger=arranger,
        )

    def studies(self) -> list[Study]:
        """Every study, oldest first."""
        return studies.all_studies(self._db.conn)

    def get_study(self, name: str) -> Study:
        """The study called ``name``; :class:`NotFoundError` if there is none."""
        return studies.get(self._db.conn, name)

    def blind_assignments(self, viewer: str) -> dict[int, str]:
        """:func:`reviewer.studies.visibility.blind_assignments`, on this connection."""
        return listing_blind.blind_assignments(self._db.conn, viewer)

    def study_assignments(self, name: str, *, rater: str | None = None) -> list[AssignmentRow]:
        """The study's assignments by rater and queue position (one rater's, if given)."""
        return studies.assignments(self._db.conn, name, rater=rater)

    def add_study_runs(
        self, name: str, selection: Selection, *, arranger: QueueArranger | None = None
    ) -> int:
        """Add and assign the selected runs not yet in the study; returns how many. An
        ``arranger`` (gold) places runs of its own among the new assignments."""
        return studies.add_runs(self._db, name, selection, at=utcnow(), arranger=arranger)

    def add_study_raters(
        self, name: str, raters: Sequence[str], *, arranger: RaterArranger | None = None
    ) -> int:
        """Add raters; they take runs added from now on (nothing already assigned moves),
        after the runs an ``arranger`` (the qualification set) gives them first."""
        return studies.add_raters(self._db, name, raters, at=utcnow(), arranger=arranger)

    def start_study_rating(self, study: str, run_pk: int, rater: str) -> Rating:
        """The rater's live rating of an assigned run within ``study``; a new draft if none."""
        return blind.start(self._db, self._rubrics, study, run_pk, rater, at=utcnow())

    def rating_restriction(self, study: str, run_pk: int, rater: str) -> str | None:
        """Why ``rater`` may not rate the run in ``study`` yet (not qualified); None if they
        may (:mod:`reviewer.studies.qualifying`)."""
        from reviewer.studies import qualifying

        return qualifying.restriction(self._db.conn, study, run_pk, rater)

    def rating_state(self, run_pk: int, rater: str, *, study: str | None = None) -> RaterRunState:
        """The rater's view of the run: study, phase, control arm, rating, blind values,
        whether the scorer may be shown and whether others' ratings may be shown."""
        return blind.state(self._db.conn, self._rubrics, run_pk, rater, study=study)

    def submit_blind(self, rating_pk: int, *, expected_version: int) -> Rating:
        """Blind phase → sealed: the blind values are frozen for good (audited)."""
        return blind.submit_blind(
            self._db, self._rubrics, rating_pk, expected_version=expected_version, at=utcnow()
        )

    def reveal(self, rating_pk: int, *, expected_version: int) -> Rating:
        """Sealed → revealed: the scorer's view may be shown; revisions may begin."""
        return blind.reveal(
            self._db, self._rubrics, rating_pk, expected_version=expected_version, at=utcnow()
        )

    def save_revision_reason(
        self, rating_pk: int, metric_id: str, reason: str, *, expected_version: int
    ) -> Rating:
        """Autosave why a metric was revised after the reveal."""
        return blind.save_reason(
            self._db,
            self._rubrics,
            rating_pk,
            metric_id,
            reason,
            expected_version=expected_version,
            at=utcnow(),
        )

    def submit_final(self, rating_pk: int, *, expected_version: int) -> Rating:
        """Submit after the reveal; :class:`RatingIncompleteError` names each revised metric
        without a reason. For an open study this is :meth:`submit`."""
        blind.check_final(self._db.conn, rating_pk)
        return self.submit(rating_pk, expected_version=expected_version)

    def blind_values(self, rating_pk: int) -> BlindValues:
        """The blind values, revision reasons, blind submit and reveal times of a rating."""
        return blind.blind_values(self._db.conn, rating_pk)

    def may_see_others(self, run_pk: int, rater: str | None) -> bool:
        """Whether ``rater`` may see other raters' ratings of the run (only after their own
        rating of it is submitted)."""
        return blind.may_see_others(self._db.conn, run_pk, rater)

    def visible_ratings(self, run_pk: int, viewer: str) -> list[Rating]:
        """The latest decisions on the run that ``viewer`` may see (always their own)."""
        found = [r for r in self.latest_decisions() if r.run_pk == run_pk]
        if self.may_see_others(run_pk, viewer):
            return found
        return [r for r in found if r.rater == viewer]

    def join_study(
        self,
        spec: StudySpec,
        *,
        rubric_sha256: str,
        owner_fingerprint: str,
        assigned: Sequence[Assignment],
    ) -> Study:
        """Record a study from a verified packet with its assignments (runs imported first)."""
        if rubric_sha256 != self._rubrics.current.sha256:
            raise StoreError(
                f"study {spec.name!r} pins rubric {rubric_sha256[:12]}…, this database uses "
                f"{self._rubrics.current.sha256[:12]}…"
            )
        return studies.join(
            self._db,
            spec,
            rubric_sha256=rubric_sha256,
            owner_fingerprint=owner_fingerprint,
            assigned=assigned,
            at=utcnow(),
        )

    def study_decisions(self, study: str, *, phase: str = "final") -> list[Rating]:
        """Each rater's latest decision on the study's runs, for agreement and analysis.

        ``phase="final"``: the ratings as submitted. ``phase="blind"``: the blind values of
        blind-protocol ratings (items replaced by what was frozen at the blind submit);
        control-arm and open ratings have no blind phase and are left out.
        """
        if phase not in ("final", "blind"):
            raise ValueError(f"phase is 'final' or 'blind', not {phase!r}")
        study_pk = self.get_study(study).study_pk
        pks = queues.rating_pks(self._db.conn, study_pk)
        out = [r for r in self.latest_decisions() if r.rating_pk in pks]
        if phase == "final":
            return out
        blinded = []
        for rating in out:
            values = blind.blind_values(self._db.conn, rating.rating_pk)
            if values.items:
                blinded.append(rating.model_copy(update={"items": values.items}))
        return blinded

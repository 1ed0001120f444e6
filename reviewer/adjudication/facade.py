"""``AdjudicationStore``: the studies' store with adjudication (see :mod:`reviewer.adjudication`).

What needs adjudication (:meth:`disputes`), the adjudication lifecycle, and the
adjudications in force. Its SQL is in :mod:`reviewer.adjudication.storage` and
:mod:`reviewer.adjudication.disputes`; it stands on :class:`~reviewer.studies.facade.StudiesStore`
because a dispute is read within a study (its threshold, its raters).
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewer.adjudication import disputes, rule
from reviewer.adjudication import storage as adj
from reviewer.adjudication.disputes import Pairs
from reviewer.adjudication.model import (
    Adjudication,
    AdjudicationItem,
    MetricDispute,
    ReportedValue,
)
from reviewer.store.connection import read_transaction, utcnow
from reviewer.store.errors import StoreError
from reviewer.studies.facade import StudiesStore


class AdjudicationStore(StudiesStore):
    """Disagreements, adjudications and the values they resolve to, on the store."""

    # -- the threshold -------------------------------------------------------------------

    def adjudication_threshold(self, study: str) -> int:
        """The score gap at which the study's raters need adjudication."""
        return disputes.threshold(self._db.conn, study)

    def set_adjudication_threshold(self, study: str, threshold: int) -> None:
        """Set the study's threshold (1–3; audited)."""
        try:
            rule.check_threshold(threshold)
        except ValueError as exc:
            raise StoreError(str(exc)) from None
        disputes.set_threshold(self._db, study, threshold, at=utcnow())

    def _run_thresholds(self, study: str | None) -> dict[int, tuple[str | None, int]]:
        """Per run: the study it is judged in and that study's threshold (the strictest,
        i.e. smallest, when a run is in several and none was named)."""
        return disputes.run_thresholds(self._db.conn, study)

    # -- what needs adjudication -----------------------------------------------------------

    def disputes(
        self, *, study: str | None = None, run_pk: int | None = None
    ) -> list[MetricDispute]:
        """Every (run, metric) the human raters rated, with their values and its status.

        Each rater's latest decision counts (judges never do). Within ``study`` only its
        runs and the ratings made in it. Each row carries the adjudication in force and the
        value the benchmark reports (:func:`reviewer.adjudication.rule.reported`).
        """
        with read_transaction(self._db.conn):
            return self._disputes(study, run_pk)

    def _disputes(self, study: str | None, run_pk: int | None) -> list[MetricDispute]:
        if study is not None:
            self.get_study(study)  # NotFoundError for an unknown name
        return disputes.read(
            self._db.conn,
            self._rubrics.current.metric_ids,
            study=study,
            run_pk=run_pk,
            thresholds=self._run_thresholds(study),
            in_force=self._in_force(run_pk),
        )

    def reported_scores(self, *, study: str | None = None) -> dict[tuple[int, str], float | None]:
        """``{(run_pk, metric_id): score}``: the score :meth:`disputes` reports for each
        (run, metric) a person rated (``None`` while disputed, or for an outcome without a
        score), read without building the dispute rows."""
        with read_transaction(self._db.conn):
            if study is not None:
                self.get_study(study)  # NotFoundError for an unknown name
            return disputes.reported_scores(
                self._db.conn,
                study=study,
                thresholds=self._run_thresholds(study),
                in_force=self._in_force(),
            )

    def reported_values(
        self,
        *,
        study: str | None = None,
        run_pk: int | None = None,
        pairs: Pairs | None = None,
    ) -> dict[tuple[int, str], ReportedValue]:
        """``{(run_pk, metric_id): reported value}``: what :meth:`disputes` reports for each
        (run, metric) a person rated (within ``study`` / of ``run_pk``), with the raters'
        median score, read without building the dispute rows (``pairs``: the people's
        values, when already read; see :func:`disputes.reported_values`)."""
        with read_transaction(self._db.conn):
            if study is not None:
                self.get_study(study)  # NotFoundError for an unknown name
            return disputes.reported_values(
                self._db.conn,
                study=study,
                thresholds=self._run_thresholds(study),
                in_force=self._in_force(run_pk),
                run_pk=run_pk,
                pairs=pairs,
            )

    def consensus_rules(
        self, *, study: str | None = None, run_pk: int | None = None
    ) -> tuple[dict[int, int], dict[tuple[int, str], tuple[str, int | None]]]:
        """What :meth:`reported_values` applies besides the people's values, for a caller
        that applies the rule to columns (:mod:`reviewer.agreement.unit_consensus`): each
        run's threshold (runs not listed: :data:`~reviewer.adjudication.rule.DEFAULT_THRESHOLD`)
        and each ``(run_pk, metric)`` an adjudication in force decided, with its outcome
        and score (of ``run_pk`` when given). ``NotFoundError`` for an unknown study."""
        with read_transaction(self._db.conn):
            if study is not None:
                self.get_study(study)  # NotFoundError for an unknown name
            thresholds = {pk: t for pk, (_s, t) in self._run_thresholds(study).items()}
            decided: dict[tuple[int, str], tuple[str, int | None]] = {
                (pk, metric): (item.outcome, item.score)
                for pk, adjudication in self._in_force(run_pk).items()
                for metric, item in adjudication.items.items()
            }
        return thresholds, decided

    def runs_needing_adjudication(self) -> set[int]:
        """Runs with a metric still disputed and not decided by an adjudication in force
        (the queue's "Needs adjudication" filter; lighter than :meth:`disputes`)."""
        with read_transaction(self._db.conn):
            decided = {(a.run_pk, m) for a in self._in_force().values() for m in a.items}
            return disputes.open_runs(
                self._db.conn, thresholds=self._run_thresholds(None), decided=decided
            )

    def disputed_metrics(self, run_pk: int, *, study: str | None = None) -> list[str]:
        """The metrics of the run its raters disagree on (what an adjudication must decide)."""
        rows = self.disputes(study=study, run_pk=run_pk)
        return [d.metric_id for d in rows if d.status == "disputed"]

    def _in_force(self, run_pk: int | None = None) -> dict[int, Adjudication]:
        """Per run, the adjudication in force: the newest submitted or signed one."""
        where = adj.IN_FORCE + ("" if run_pk is None else " AND a.run_pk = ?")
        found = adj.load_where(self._db.conn, where, () if run_pk is None else (run_pk,))
        out: dict[int, Adjudication] = {}
        for a in sorted(found, key=lambda a: (a.submitted_at or a.created_at, a.adjudication_pk)):
            out[a.run_pk] = a
        return out

    def adjudications_in_force(self) -> list[Adjudication]:
        """The adjudication each adjudicated run is resolved by, by run."""
        return [a for _, a in sorted(self._in_force().items())]

    # -- the lifecycle ---------------------------------------------------------------------

    def adjudication_refusal(self, run_pk: int, adjudicator: str) -> str | None:
        """Why ``adjudicator`` may not adjudicate the run (they rated it, or are a judge)."""
        return adj.refusal(self._db.conn, run_pk, adjudicator)

    def live_adjudication(self, run_pk: int, adjudicator: str) -> Adjudication | None:
        """``adjudicator``'s current (not superseded) adjudication of the run, if any."""
        found = adj.load_where(
            self._db.conn,
            f"a.run_pk = ? AND ra.name = ? AND {adj.LIVE}",
            (run_pk, adjudicator),
        )
        return found[0] if found else None

    def get_adjudication(self, pk: int) -> Adjudication:
        """Any adjudication, superseded ones included."""
        return adj.load(self._db.conn, pk)

    def start_adjudication(
        self, run_pk: int, adjudicator: str, *, study: str | None = None
    ) -> Adjudication:
        """The adjudicator's live adjudication of the run, a new draft if none.

        :class:`RatingStateError` when the adjudicator rated the run (or is a judge).
        """
        thresholds = self._run_thresholds(study)
        where = thresholds.get(run_pk, (None, 0))[0]
        if study is not None and where is None:
            raise StoreError(f"run {run_pk} is not in study {study!r}")
        study_pk = None
        if where is not None:
            study_pk = self.get_study(where).study_pk
        return adj.start(
            self._db, self._rubrics, run_pk, adjudicator, study_pk=study_pk, at=utcnow()
        )

    def decide(
        self,
        pk: int,
        metric_id: str,
        *,
        outcome: str | None,
        score: int | None = None,
        reason: str = "",
        sides_with: Sequence[str] = (),
        expected_version: int,
    ) -> Adjudication:
        """Decide one metric of a draft adjudication (``outcome=None`` takes it back)."""
        current = adj.load(self._db.conn, pk)
        raters = sorted({v.rater for d in self.disputes(run_pk=current.run_pk) for v in d.values})
        item = None
        if outcome is not None:
            item = AdjudicationItem(
                metric_id=metric_id,
                outcome=outcome,
                score=score,
                reason=reason,
                sides_with=tuple(sides_with),
            )
        found = adj.save(
            self._db,
            self._rubrics,
            pk,
            item,
            metric_id=metric_id,
            raters=raters,
            expected_version=expected_version,
            at=utcnow(),
        )
        return adj.ordered(found, self._rubrics.current.metric_ids)

    def submit_adjudication(self, pk: int, *, expected_version: int) -> Adjudication:
        """Draft → submitted; :class:`RatingIncompleteError` lists what is still missing."""
        current = adj.load(self._db.conn, pk)
        study = current.study
        disputed = self.disputed_metrics(current.run_pk, study=study)
        return adj.submit(
            self._db, pk, disputed=disputed, expected_version=expected_version, at=utcnow()
        )

    def supersede_adjudication(self, pk: int, *, adjudicator: str) -> Adjudication:
        """A new draft correcting a submitted or signed adjudication."""
        return adj.supersede(self._db, pk, adjudicator, at=utcnow())

    def mark_adjudication_signed(
        self, pk: int, *, sheet_id: str, sheet_json: str, sha256: str
    ) -> Adjudication:
        """Submitted → signed, storing the signed adjudication sheet."""
        return adj.mark_signed(
            self._db, pk, sheet_id=sheet_id, sheet_json=sheet_json, sha256=sha256, at=utcnow()
        )

    def adjudication_sheets(self, *, adjudicator: str | None = None) -> list[tuple[str, str]]:
        """``(sheet_id, sheet_json)`` of every signed adjudication (of one adjudicator)."""
        return adj.signed_sheets(self._db.conn, adjudicator=adjudicator)

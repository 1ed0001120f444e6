"""The adjudication side of the controller: what the adjudication view shows, and the
adjudicator's decisions going to the store.

Like :class:`ui.controller.ReviewController` it owns no widget: its signals state facts in
the past tense, its slots are the intents of :class:`ui.adjudication.AdjudicationPane`. The
adjudicator is the window's rater; someone who rated the run is refused, as on the command
line.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from reviewer.adjudication.model import Adjudication, MetricDispute
from reviewer.rubric import Rubric
from reviewer.store import StoreError
from reviewer.store.errors import ConflictError, RatingIncompleteError
from reviewer.workspace import ReviewStore


@dataclass(frozen=True)
class AdjudicationView:
    """Everything the adjudication pane shows for one run."""

    run_pk: int
    run_id: str | None  # None when the run file named none
    adjudicator: str
    rubric: Rubric
    raters: tuple[str, ...]
    disputes: dict[str, MetricDispute]
    adjudication: Adjudication | None
    editable: bool
    blind_study: bool
    refusal: str | None = None

    @property
    def disputed(self) -> list[str]:
        """Metrics the raters disagree on, in rubric order."""
        return [m for m in self.rubric.metric_ids if self._status(m) == "disputed"]

    def _status(self, metric_id: str) -> str | None:
        found = self.disputes.get(metric_id)
        return None if found is None else found.status


class AdjudicationController(QObject):
    """Opens runs for adjudication and records the decisions (see the module doc)."""

    opened = Signal(object)  # AdjudicationView
    decision_saved = Signal(object)  # AdjudicationView
    submitted = Signal(object)  # AdjudicationView
    refused = Signal(str)

    def __init__(self, store: ReviewStore, adjudicator, parent=None) -> None:
        super().__init__(parent)
        self.store = store
        self._adjudicator = adjudicator  # callable: the window's current rater
        self.view: AdjudicationView | None = None

    def needs_adjudication(self) -> set[int]:
        """Runs with a metric still disputed and not adjudicated (the queue filter)."""
        try:
            return self.store.runs_needing_adjudication()
        except StoreError:
            return set()

    def open_run(self, run_pk: int, run_id: str | None) -> AdjudicationView:
        """Read the run's disputes and the adjudicator's adjudication; ``opened`` follows."""
        self.view = self._read(run_pk, run_id)
        self.opened.emit(self.view)
        return self.view

    def _read(self, run_pk: int, run_id: str | None) -> AdjudicationView:
        who = self._adjudicator()
        rows = self.store.disputes(run_pk=run_pk)
        disputes = {d.metric_id: d for d in rows}
        raters = tuple(sorted({v.rater for d in rows for v in d.values}))
        refusal = self.store.adjudication_refusal(run_pk, who)
        live = None if refusal else self.store.live_adjudication(run_pk, who)
        studies = {d.study for d in rows if d.study}
        blind = any(self.store.get_study(s).protocol == "blind" for s in studies)
        if not raters:
            refusal = refusal or "Nobody has rated this run yet: there is nothing to adjudicate."
        editable = refusal is None and (live is None or live.status == "draft")
        return AdjudicationView(
            run_pk=run_pk,
            run_id=run_id,
            adjudicator=who,
            rubric=self.store.rubric(),
            raters=raters,
            disputes=disputes,
            adjudication=live,
            editable=editable,
            blind_study=blind,
            refusal=refusal,
        )

    def decide(self, metric_id: str, outcome: str | None, score: int | None, reason: str) -> None:
        """Record the decision on one metric (siding with the raters who gave that value)."""
        view = self.view
        if view is None or not view.editable:
            self.refused.emit(view.refusal if view and view.refusal else "Read-only.")
            return
        dispute = view.disputes.get(metric_id)
        sides = [v.rater for v in (dispute.values if dispute else ())
                 if outcome is not None and v.outcome == outcome and v.score == score]  # fmt: skip
        try:
            current = view.adjudication or self.store.start_adjudication(
                view.run_pk, view.adjudicator
            )
            current = self.store.decide(current.adjudication_pk, metric_id, outcome=outcome,
                                        score=score, reason=reason, sides_with=sides,
                                        expected_version=current.version)  # fmt: skip
        except ConflictError as exc:
            self.refused.emit(f"Not saved: {exc}. The latest version is now shown.")
            self.open_run(view.run_pk, view.run_id)
            return
        except (StoreError, ValueError) as exc:
            self.refused.emit(f"Not saved: {exc}")
            return
        self.view = _replace(view, adjudication=current)
        self.decision_saved.emit(self.view)

    def submit(self) -> bool:
        """Submit the adjudication; True when it was submitted."""
        view = self.view
        if view is None or view.adjudication is None:
            self.refused.emit("Nothing to submit: decide the disputed metrics first.")
            return False
        try:
            done = self.store.submit_adjudication(
                view.adjudication.adjudication_pk, expected_version=view.adjudication.version
            )
        except RatingIncompleteError as exc:
            lines = "; ".join(f"{m}: {msg}" for m, msg in exc.problems)
            self.refused.emit(f"Not submitted — {lines}")
            return False
        except StoreError as exc:
            self.refused.emit(f"Not submitted: {exc}")
            return False
        self.view = _replace(view, adjudication=done, editable=False)
        self.submitted.emit(self.view)
        return True


def _replace(view: AdjudicationView, **changes) -> AdjudicationView:
    from dataclasses import replace

    return replace(view, **changes)

"""Evidence on the open run's rating: cite a step for a metric, remove it, note it.

A part the controller owns (:attr:`ui.controller.ReviewController.evidence`). A citation
is an edit of the draft like any other: it is written through the controller's one save
path (:class:`DraftSession`), which starts the draft, checks it is editable and reports a
conflict; this part only says what to write and what to tell the rater.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from reviewer.evidence import NOTE_CHARS, Citation
from reviewer.store import Rating
from reviewer.workspace import ReviewStore
from scoring.steps import event_ref, required_ref
from ui.opened_run import OpenedRun


class DraftSession(Protocol):
    """What the citation flow expects of the controller: the open run, its rating, and the
    one way to write an edit to the draft (False when it was refused, and said why)."""

    @property
    def current(self) -> OpenedRun | None: ...

    @property
    def rating(self) -> Rating | None: ...

    def save_draft(self, write: Callable[[Rating], Rating]) -> bool: ...


class CitationFlow:
    """Cite, uncite and note steps of the open run, for one metric of its rating."""

    def __init__(
        self,
        session: DraftSession,
        store: ReviewStore,
        *,
        refuse: Callable[[str], None],
        say: Callable[[str], None],
    ) -> None:
        self._session = session
        self._store = store
        self._refuse = refuse  # an edit that did not happen, and why
        self._say = say

    def citations(self) -> tuple[Citation, ...]:
        """The steps the current rating cites (none before its first edit)."""
        rating = self._session.rating
        return rating.citations if rating is not None else ()

    def toggle(self, metric_id: str, kind: str, ref: int) -> None:
        """E: cite a timeline event or ground-truth action for ``metric_id``, or un-cite it."""
        opened = self._session.current
        if opened is None or not opened.editable:
            self._refuse("This rating is read-only.")
            return
        try:
            target = (
                event_ref(opened.trajectory, ref)
                if kind == "event"
                else required_ref(opened.card, ref)
            )
        except IndexError as exc:
            self._refuse(f"Not cited: {exc}")
            return
        was = {c.key for c in self.citations()}
        citation = Citation.of(metric_id, target)
        store = self._store
        if self._session.save_draft(
            lambda r: store.toggle_citation(r.rating_pk, citation, expected_version=r.version)
        ):
            done = "removed" if citation.key in was else "cited"
            title = opened.rubric.metric(metric_id).title
            self._say(f"Evidence for {title}: {done} {target.label}")

    def uncite(self, metric_id: str, kind: str, ref: int) -> None:
        """Remove one cited step of the current draft."""
        store = self._store
        self._session.save_draft(
            lambda r: store.uncite(
                r.rating_pk, metric_id, kind=kind, ref=ref, expected_version=r.version
            )
        )

    def set_note(self, metric_id: str, kind: str, ref: int, note: str) -> None:
        """Give a cited step a short note (an empty one removes it)."""
        old = next((c for c in self.citations() if c.key == (metric_id, kind, ref)), None)
        if old is None:
            return
        if len(note) > NOTE_CHARS or "\n" in note:
            self._refuse(f"Note not saved: one line of at most {NOTE_CHARS} characters.")
            return
        new = old.model_copy(update={"note": note.strip()})
        store = self._store
        self._session.save_draft(lambda r: store.cite(r.rating_pk, new, expected_version=r.version))

"""``CollectingStore``: the adjudication store that also takes sheets signed elsewhere.

A verified rating sheet becomes its rater's signed rating (:mod:`reviewer.collecting.storage`),
a verified adjudication sheet a signed adjudication
(:mod:`reviewer.collecting.adjudications`). The checking of signature and trust before
that is :mod:`reviewer.collecting.collect`.
"""

from __future__ import annotations

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.collecting import adjudications, storage
from reviewer.collecting.model import CollectResult
from reviewer.store.connection import utcnow


class CollectingStore(AdjudicationStore):
    """Collected rating and adjudication sheets, on the store."""

    def collect_sheet(self, sheet: storage.CollectedRating) -> CollectResult:
        """Store a verified sheet from another machine as its rater's signed rating."""
        return storage.collect(self._db, self._rubrics, sheet, at=utcnow())

    def collect_adjudication(self, sheet: adjudications.CollectedAdjudication) -> CollectResult:
        """Store a verified adjudication sheet from another machine (signed, read-only)."""
        return adjudications.collect(self._db, self._rubrics, sheet, at=utcnow())

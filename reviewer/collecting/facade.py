"""``CollectingStore``: the adjudication store that also takes sheets signed elsewhere.

A verified rating sheet becomes its rater's signed rating (:mod:`reviewer.collecting.storage`),
a verified adjudication sheet a signed adjudication
(:mod:`reviewer.collecting.adjudications`). The checking of signature and trust before
that is :mod:`reviewer.collecting.collect`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.store.connection import utcnow

if TYPE_CHECKING:
    from reviewer.collecting import adjudications, storage
    from reviewer.collecting.model import CollectResult

# The storage modules are imported by the methods that write: a store opened to read (the
# dashboard, the reports) composes this feature without loading it.


class CollectingStore(AdjudicationStore):
    """Collected rating and adjudication sheets, on the store."""

    def collect_sheet(self, sheet: storage.CollectedRating) -> CollectResult:
        """Store a verified sheet from another machine as its rater's signed rating."""
        from reviewer.collecting import storage

        return storage.collect(self._db, self._rubrics, sheet, at=utcnow())

    def collect_adjudication(self, sheet: adjudications.CollectedAdjudication) -> CollectResult:
        """Store a verified adjudication sheet from another machine (signed, read-only)."""
        from reviewer.collecting import adjudications

        return adjudications.collect(self._db, self._rubrics, sheet, at=utcnow())

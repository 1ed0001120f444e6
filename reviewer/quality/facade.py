"""``QualityStore``: the studies' store that also reads the human scores rater quality needs
(a study names the ratings it looks at)."""

from __future__ import annotations

from typing import Any

from reviewer.quality import storage
from reviewer.studies.facade import StudiesStore


class QualityStore(StudiesStore):
    """The human raters' scores, on the store."""

    def human_scores(
        self, *, study: str | None = None, blind: bool = False
    ) -> list[tuple[Any, ...]]:
        """``(run_pk, run_id, rater, metric, score, position, submitted_at)`` of every human
        score (see :func:`reviewer.quality.storage.human_scores`)."""
        return storage.human_scores(self._db.conn, study=study, blind=blind)

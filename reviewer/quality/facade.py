"""``QualityStore``: the studies' store that also reads the human scores rater quality needs
(a study names the ratings it looks at)."""

from __future__ import annotations

from typing import Any

from reviewer.quality import storage
from reviewer.studies.facade import StudiesStore


class QualityStore(StudiesStore):
    """The human raters' scores, on the store."""

    def human_score_parts(
        self, *, study: str | None = None, blind: bool = False
    ) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
        """The live human ratings and each metric's scores, packed (see
        :func:`reviewer.quality.storage.human_score_parts`)."""
        return storage.human_score_parts(self._db.conn, study=study, blind=blind)

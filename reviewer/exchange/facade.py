"""``ExchangeStore``: the studies' store with ratings files in long format, in and out.

Reading and writing the format is :mod:`reviewer.exchange.longformat`; storing a file's
ratings :mod:`reviewer.exchange.rating_import`, and a study phase's
:mod:`reviewer.exchange.phase_import` (hence the studies' store beneath); the export's
rows :mod:`reviewer.exchange.export`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from reviewer.store.connection import read_transaction, utcnow
from reviewer.studies.facade import StudiesStore

if TYPE_CHECKING:
    from reviewer.exchange import phase_import

# The modules of this feature are imported by the methods that use them: a store opened to
# read (the dashboard) never reads trajectories nor ratings files, and they load the scorer.


class ExchangeStore(StudiesStore):
    """Ratings files (CSV or JSONL, one row per rating and metric), on the store."""

    def import_ratings(self, path: Path, *, rater: str, fmt: str | None = None) -> list[int]:
        """Import a long-format CSV/JSONL as submitted ratings of ``rater``: all or nothing.

        :class:`RatingsFileError` carries every problem with its line.
        """
        from reviewer.exchange import longformat, rating_import

        rows = longformat.read_long(Path(path), fmt)
        return rating_import.import_long(
            self._db, self._rubrics, rows, rater=rater, source=str(path), at=utcnow()
        )

    def export_ratings(
        self,
        out: TextIO,
        *,
        fmt: str = "csv",
        rater: str | None = None,
        viewer: str | None = None,
    ) -> int:
        """Write :meth:`latest_decisions` in long format; audited. Returns the row count.

        With ``viewer``, only what that rater may see (see :meth:`may_see_others`).
        """
        from reviewer.exchange import export, longformat

        with read_transaction(self._db.conn):
            rows = list(
                export.export_rows(self._db.conn, self._rubrics, rater=rater, viewer=viewer)
            )
        count = longformat.write_long(iter(rows), fmt, out)
        details = {"format": fmt, "rows": count, "rater": rater, "viewer": viewer}
        self.record_export("ratings", details)
        return count

    def import_phase(
        self,
        path: Path,
        *,
        rater: str,
        phase: phase_import.Phase,
        study: str | None = None,
        fmt: str | None = None,
    ) -> list[int]:
        """``ratings import --phase``: blind ratings, the final ones after the reveal (a
        ``reason`` on each revised metric), or open ratings within a study. All or nothing."""
        from reviewer.exchange import longformat, phase_import

        rows = longformat.read_long(Path(path), fmt)
        return phase_import.import_phase(
            self._db,
            self._rubrics,
            rows,
            rater=rater,
            phase=phase,
            study=study,
            source=str(path),
            at=utcnow(),
        )

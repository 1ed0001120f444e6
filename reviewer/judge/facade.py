"""``JudgeStore``: the adjudication store that also takes an LLM judge's checked answers.

It stands on the adjudication store because a judge is compared with the human consensus
(the adjudicated value, else the agreed one), which that store reports.

The answers become submitted ratings of a rater of kind ``judge``
(:mod:`reviewer.judge.storage`); what to ask and how an answer is checked is the rest of
:mod:`reviewer.judge`.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewer.adjudication.facade import AdjudicationStore
from reviewer.judge import storage
from reviewer.judge.model import JudgeImportReport, JudgeRatingRow
from reviewer.store.connection import read_transaction, utcnow


class JudgeStore(AdjudicationStore):
    """The judge's ratings, on the store."""

    def import_judge_answers(
        self, answers: Sequence[storage.JudgeAnswerLike], *, judge: str, source: str
    ) -> JudgeImportReport:
        """Store checked judge answers as submitted ratings of the judge ``judge``.

        Answers for unknown runs or another rubric are refused (with their ``custom_id``),
        the same answer again is unchanged, a changed one supersedes. :class:`StoreError`
        when ``judge`` names a human who has rated.
        """
        return storage.import_answers(
            self._db, self._rubrics, answers, judge=judge, source=source, at=utcnow()
        )

    def judge_ratings(self, judge: str) -> list[JudgeRatingRow]:
        """Model, prompt hash, tokens and cost of each of ``judge``'s live ratings."""
        with read_transaction(self._db.conn):
            return storage.live_judge_ratings(self._db.conn, judge)

    def judge_scores(self, judge: str) -> list[tuple[int, str, int]]:
        """``(run_pk, metric_id, score)`` of every scored item of ``judge``'s live ratings."""
        return storage.judge_scores(self._db.conn, judge)

    def judges(self) -> list[str]:
        """The judges with a live rating, by name."""
        return storage.judges(self._db.conn)

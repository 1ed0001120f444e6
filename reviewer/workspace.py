"""``ReviewStore``: the one object the window, the signing code and the commands open.

The composition above the features. The persistence core
(:class:`~reviewer.store.core.CoreStore`: runs, raters, the rating lifecycle, signed sheets,
the audit log) knows no feature; each feature's store subclasses it and adds its own part
(studies, then adjudication, then collecting; the judge, ratings files and the raters'
quality beside them).
``ReviewStore`` is all of them at once, plus the one thing only the whole can do:
``audit verify`` with every feature's rules (:func:`integrity_checks`).

Feature code types its ``store`` argument with its own feature's store class, never with
this one, so nothing below imports this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewer.collecting.facade import CollectingStore
from reviewer.exchange.facade import ExchangeStore
from reviewer.gold.facade import GoldStore
from reviewer.judge.facade import JudgeStore
from reviewer.quality.facade import QualityStore
from reviewer.store.models import AuditReport

if TYPE_CHECKING:
    from reviewer.store.integrity import Checks


def _key_fingerprint(public_key: str) -> str | None:
    from reviewer.sheets.keys import KeyStoreError, decode_public_key, fingerprint

    try:
        return fingerprint(decode_public_key(public_key))
    except KeyStoreError:
        return None


def integrity_checks() -> Checks:
    """The features' rules for ``audit verify``, in the order they report: signed sheets
    (and the collected ones on record), adjudications, studies, the studies' sheet rules,
    gold references and qualification decisions."""
    # Imported here: they verify signatures (cryptography), which nothing else of opening
    # a store needs.
    from reviewer.adjudication import integrity as adjudications
    from reviewer.gold import integrity as gold
    from reviewer.sheets import integrity as sheets
    from reviewer.store.integrity import Checks
    from reviewer.studies import integrity as studies
    from reviewer.studies import sheet_checks

    return Checks(
        key_fingerprint=_key_fingerprint,
        signed_sheet=sheets.sheet_problems,
        more=(
            sheets.archive_problems,
            lambda conn, _log: adjudications.check(conn),
            lambda conn, _log: studies.check(conn),
            lambda conn, _log: sheet_checks.check(conn),
            lambda conn, _log: gold.check(conn),
        ),
    )


class ReviewStore(CollectingStore, GoldStore, JudgeStore, ExchangeStore, QualityStore):
    """Runs, raters, ratings, signed sheets, studies, adjudications, collected sheets,
    judges and the audit log of one review database."""

    def audit_verify(self) -> AuditReport:
        """Recompute the audit chain, then check the tables, the signed sheets and the
        witnessed head against it, with every feature's rules (see :func:`integrity_checks`)."""
        return self.verify_with(integrity_checks())

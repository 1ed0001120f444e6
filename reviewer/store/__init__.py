"""The review store: runs, raters, ratings, signed sheets and the audit log, in SQLite.

Qt-free. Open one :class:`ReviewStore` per thread::

    with ReviewStore.open(path) as store:
        report = store.import_paths([folder])
        rating = store.start_rating(run_pk, "alice")
"""

# First, before any module here imports sqlite_utils: it is loaded without numpy.
from reviewer.store import sqlite_import as _sqlite_import  # noqa: F401
from reviewer.store.errors import (
    ConflictError,
    NotFoundError,
    RatingIncompleteError,
    RatingsFileError,
    RatingStateError,
    RatingValidationError,
    SchemaTooNewError,
    StoreError,
)
from reviewer.store.models import (
    AuditReport,
    ImportReport,
    JudgeImportReport,
    JudgeRatingRow,
    Rater,
    Rating,
    RatingState,
    RatingStatus,
    RunDetail,
    RunRow,
    SheetRow,
)
from reviewer.store.schema import SCHEMA_VERSION
from reviewer.store.store import ReviewStore

__all__ = [
    "SCHEMA_VERSION",
    "AuditReport",
    "ConflictError",
    "ImportReport",
    "JudgeImportReport",
    "JudgeRatingRow",
    "NotFoundError",
    "Rater",
    "Rating",
    "RatingIncompleteError",
    "RatingState",
    "RatingStateError",
    "RatingStatus",
    "RatingValidationError",
    "RatingsFileError",
    "ReviewStore",
    "RunDetail",
    "RunRow",
    "SchemaTooNewError",
    "SheetRow",
    "StoreError",
]

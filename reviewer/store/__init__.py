"""The persistence core: runs, raters, ratings, signed sheets and the audit log, in SQLite.

Qt-free, and it imports no feature (studies, adjudication, collecting, the judge, sheets
live in their own folders and build on it). Open one store per thread; the window and the
commands open the composed :class:`reviewer.workspace.ReviewStore`::

    with ReviewStore.open(path) as store:
        report = store.import_paths([folder])
        rating = store.start_rating(run_pk, "alice")
"""

from reviewer.store.core import CoreStore
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
    Rater,
    Rating,
    RatingState,
    RatingStatus,
    RunDetail,
    RunRow,
    SheetRow,
)
from reviewer.store.schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "AuditReport",
    "ConflictError",
    "CoreStore",
    "ImportReport",
    "NotFoundError",
    "Rater",
    "Rating",
    "RatingIncompleteError",
    "RatingState",
    "RatingStateError",
    "RatingStatus",
    "RatingValidationError",
    "RatingsFileError",
    "RunDetail",
    "RunRow",
    "SchemaTooNewError",
    "SheetRow",
    "StoreError",
]

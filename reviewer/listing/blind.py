"""Which runs a rater's queue may have to hide the scorer of: the blind protocol's
assignments, read in one query.

The one implementation of :func:`reviewer.studies.visibility.blind_assignments` (the
studies' store runs it on its connection) and of the window's first screen, which reads the
queue before the store is imported (:func:`reviewer.listing.reader.read_first_screen`).
"""

from __future__ import annotations

import sqlite3

# Assigned to the rater, in a blind study they rate in, outside its control arm; the oldest
# study first, as the store lists studies.
_BLIND_ASSIGNMENTS = (
    "SELECT a.run_pk, s.name FROM assignments a"
    " JOIN studies s ON s.study_pk = a.study_pk"
    " JOIN raters r ON r.rater_pk = a.rater_pk"
    " JOIN study_raters sr ON sr.study_pk = a.study_pk AND sr.rater_pk = a.rater_pk"
    " WHERE s.protocol = 'blind' AND r.name = ? AND a.reveal_first = 0"
    " ORDER BY s.study_pk, a.position"
)


def blind_assignments(conn: sqlite3.Connection, viewer: str) -> dict[int, str]:
    """The runs whose scorer *can* be hidden from ``viewer``: assigned to them in a blind
    study outside its control arm (run key -> the oldest such study)."""
    out: dict[int, str] = {}
    for run_pk, study in conn.execute(_BLIND_ASSIGNMENTS, (viewer,)):
        out.setdefault(int(run_pk), str(study))
    return out

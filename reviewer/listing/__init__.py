"""The run list read straight from SQLite, without the store's models.

Listing runs is what a person waits for most often (``a320-review runs`` on 50,000 runs),
and the store's core costs more to import (pydantic, sqlite-utils, the scorer's models)
than the list costs to read. This package holds the run list's SQL (the store's
:func:`reviewer.store.runs.list_runs` builds its rows from the same read) and a read-only
reader that imports nothing but :mod:`sqlite3`. It imports nothing of ``reviewer``.
"""

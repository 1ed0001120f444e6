"""``sqlite_utils`` loaded without numpy: a tenth of a second off every store command's start.

``sqlite_utils`` imports numpy when it is installed (here it is, for the agreement
statistics), only to map numpy scalar types to column types when it *creates* a table from
inserted values. The store never does: its tables come from the SQL migrations, and its
values are plain Python. Importing numpy costs 0.1-0.15 s, a tenth of ``a320-review runs``
at 50,000 runs and of the window's first paint. While ``sqlite_utils`` loads, ``import
numpy`` is made to fail (``sys.modules["numpy"] = None``), then numpy is importable again
for whoever needs it. A process that has numpy loaded already is left as it is.

Nothing of the store imports ``sqlite_utils`` when it loads: only
:attr:`reviewer.store.connection.Database.utils` does, on a store's first write through it,
and it imports this module first.
"""

from __future__ import annotations

import sqlite3
import sys

if "numpy" in sys.modules or "sqlite_utils" in sys.modules:
    import sqlite_utils
else:
    sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` raises now
    try:
        import sqlite_utils
    finally:
        if sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]


def database(conn: sqlite3.Connection) -> sqlite_utils.Database:
    """sqlite-utils' handle on ``conn`` (its plugins left out: the store's SQL is its own)."""
    return sqlite_utils.Database(conn, execute_plugins=False)

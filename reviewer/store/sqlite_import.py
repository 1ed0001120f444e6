"""``sqlite_utils`` loaded without numpy: a tenth of a second off every store command's start.

``sqlite_utils`` imports numpy when it is installed (here it is, for the agreement
statistics), only to map numpy scalar types to column types when it *creates* a table from
inserted values. The store never does: its tables come from the SQL migrations, and its
values are plain Python. Importing numpy costs 0.1-0.15 s, a tenth of ``a320-review runs``
at 50,000 runs and of the window's first paint. While ``sqlite_utils`` loads, ``import
numpy`` is made to fail (``sys.modules["numpy"] = None``), then numpy is importable again
for whoever needs it. A process that has numpy loaded already is left as it is.

The package ``reviewer.store`` imports this module before any of its modules imports
``sqlite_utils``.
"""

from __future__ import annotations

import sys

if "numpy" in sys.modules or "sqlite_utils" in sys.modules:
    import sqlite_utils
else:
    sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` raises now
    try:
        import sqlite_utils  # noqa: F401
    finally:
        if sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]

"""The store loads sqlite_utils only when it is used, then without numpy, and numpy stays
importable afterwards."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import tempfile
from pathlib import Path
from reviewer.workspace import ReviewStore
with tempfile.TemporaryDirectory() as tmp, ReviewStore.open(Path(tmp) / "r.db") as store:
    assert "sqlite_utils" not in sys.modules, "opening the store imported sqlite_utils"
    # The connection is set as sqlite-utils set every store's: triggers fire recursively.
    conn = store._db.conn
    assert conn.execute("PRAGMA recursive_triggers").fetchone()[0] == 1
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    store.db.table_names()  # the sqlite-utils handle, made on first use
import sqlite_utils.db
assert "numpy" not in sys.modules, "the store imported numpy"
assert sqlite_utils.db.np is None
import numpy  # whoever needs it later still gets it
assert numpy.zeros(2).sum() == 0
import reviewer.agreement.alpha
print("ok")
"""


def test_the_store_does_not_pay_for_numpy_and_leaves_it_importable() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_process_with_numpy_loaded_keeps_it() -> None:
    probe = (
        "import numpy, sys\nimport reviewer.store.sqlite_import\n"
        "assert sys.modules['numpy'] is numpy\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

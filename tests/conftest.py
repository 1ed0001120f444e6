"""Suite-wide setup.

Qt must be told to render offscreen before anything imports it: without a display,
pytest-qt otherwise aborts the whole run.  Nothing here imports Qt, so
``pytest tests/scoring`` still runs where PySide6 is not installed.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# pytest's default import mode puts this folder on sys.path to import this file, which makes
# tests/scoring, tests/reviewer and tests/ui importable as namespace packages named like the
# real ones.  The editable install's finder runs after the path finder, so the empty
# namespace would win and `from scoring import ...` would fail.  A regular package found
# anywhere on sys.path beats a namespace portion, so the repository root on the path is
# enough to make the real packages win, whatever the current directory.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)

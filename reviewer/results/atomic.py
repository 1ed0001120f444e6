"""Writing an output file whole or not at all.

A minimal local helper until the shared safe writer (``reviewer/outfile.py``) lands: the
report is written to a temporary file in the destination's folder and moved over the
destination with :func:`os.replace` only once complete, so an interrupted export never
leaves a half-written report where the last good one was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A binary file that becomes ``path`` when the ``with`` block ends without error."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private (0600); a report is an ordinary file: honour umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

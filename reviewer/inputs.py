"""Reading an input file the way every verb should: bounded, regular files only, and
quoted back in messages only as a short escaped excerpt.

A name given on the command line may be ``/dev/zero`` (read until memory runs out), a FIFO
(blocks forever), a folder, or a file never meant for us (``/etc/shadow``, whose lines an
error message would otherwise print). :func:`read_limited` opens without blocking, checks
with ``fstat`` *after* opening (so a symlink to a device is caught too), and never reads
past its limit; :func:`excerpt` is the only way file content enters a message.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from scoring.paths import shown

#: A list of run ids or fingerprints (``--runs``, a trust list): far below this.
LIST_LIMIT = 16 * 1024 * 1024
#: A ratings file, a judge batch output: tens of thousands of lines fit many times over.
BATCH_LIMIT = 512 * 1024 * 1024
#: A rubric, a manifest: small documents.
DOCUMENT_LIMIT = 8 * 1024 * 1024

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputError(ValueError):
    """An input file cannot be read; ``str()`` is one line naming the file and why."""


def _mib(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"


def _open(path: Path, limit: int) -> int:
    """A read-only descriptor of the regular file ``path`` of at most ``limit`` bytes;
    :class:`InputError` otherwise (a larger file is refused before a byte is read)."""
    name = shown(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise InputError(f"cannot read {name}: no such file") from None
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        mode = info.st_mode
    except OSError as exc:
        os.close(fd)
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = next((k for test, k in _KINDS if test(mode)), "not a regular file")
        raise InputError(f"cannot read {name}: not a regular file ({kind})")
    if info.st_size > limit:
        os.close(fd)
        raise InputError(f"cannot read {name}: larger than {_mib(limit)}")
    return fd


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else
    :class:`InputError` (missing, unreadable, a device or FIFO, or larger than ``limit``)."""
    fd = _open(Path(path), limit)
    try:
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputError(f"cannot read {shown(path)}: larger than {_mib(limit)}")
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read {shown(path)}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: Path, limit: int, *, encoding: str = "utf-8") -> str:
    """:func:`read_limited` decoded; invalid text names the line, never its content."""
    data = read_limited(path, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{shown(path)}:{line}: not valid UTF-8") from None


def read_lines(path: Path, limit: int) -> Iterator[bytes]:
    """The lines of the regular file ``path`` (with their ends), streamed; reading more
    than ``limit`` bytes in all is :class:`InputError` (the file grew while being read)."""
    fd = _open(Path(path), limit)
    with os.fdopen(fd, "rb") as fh:
        size = 0
        try:
            for line in fh:
                size += len(line)
                if size > limit:
                    raise InputError(f"cannot read {shown(path)}: larger than {_mib(limit)}")
                yield line
        except OSError as exc:
            raise InputError(f"cannot read {shown(path)}: {exc.strerror or exc}") from None


def excerpt(text: str, limit: int = 24) -> str:
    """``text`` for a message: quoted, its first ``limit`` characters only, control
    characters escaped. A line of a file not meant for us shows no more than that."""
    short = text if len(text) <= limit else text[:limit] + "…"
    return "'" + shown(short) + "'"

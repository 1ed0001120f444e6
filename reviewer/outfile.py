"""Writing output files safely: one mechanism for sheets, PDFs, keys and ``--out FILE``.

Every output file is first written to a temporary file created *exclusively*
(``O_CREAT | O_EXCL``, which never follows a symlink) under an unpredictable name in the
target folder, flushed and fsynced, then renamed over the final name with ``os.replace``.
So a planted symlink at a predictable name cannot redirect the write, a crash never leaves
half a file under its final name, and a failed write (full disk, no permission) surfaces
as :class:`OutputError` with a one-line message instead of a report of success.

A final name that already is a symlink is refused rather than replaced: whoever planted it
meant something by it, and silently swapping it would hide that.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

if TYPE_CHECKING:
    from typing_extensions import Buffer  # collections.abc.Buffer from Python 3.12

# O_NOFOLLOW does not exist on Windows; O_EXCL already refuses an existing link there.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class OutputError(OSError):
    """An output file could not be written; ``str()`` is the one-line reason with the path."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


class PendingFile:
    """A temporary file reserved next to ``final``; :meth:`commit` renames it into place.

    Use as a context manager: leaving the block by an exception removes the temporary file.
    ``temp`` can be handed to a writer that only takes a path (the Qt PDF writer).
    """

    def __init__(self, final: Path, *, mode: int = 0o666) -> None:
        self.final = Path(final)
        self._committed = False
        _refuse_symlink(self.final)
        # Short enough that a long final name never makes the temporary name too long.
        stem = self.final.name[:60]
        for _ in range(16):
            temp = self.final.with_name(f".{stem}.{secrets.token_hex(6)}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, mode)
            except FileExistsError:
                continue
            except OSError as exc:
                raise OutputError(f"cannot write {self.final}: {_reason(exc)}") from exc
            os.close(fd)
            self.temp = temp
            return
        raise OutputError(f"cannot write {self.final}: no free temporary name")

    def write_all(self, data: bytes) -> None:
        """Write ``data`` to the temporary file (through ``os.write``) and fsync it."""
        with self._open_temp() as fd:
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            except OSError as exc:
                raise OutputError(f"cannot write {self.final}: {_reason(exc)}") from exc
            _check_size(fd, len(data), self.final)

    def check_pdf(self, rendered_size: int | None = None) -> None:
        """:class:`OutputError` unless the temporary file holds a whole PDF.

        A renderer that only takes a path (Qt's PDF writer) may fail silently on a full
        disk and leave the first part of the document: so the file must start with
        ``%PDF-``, end with ``%%EOF`` (the trailer comes last), and have the size the
        renderer reports having rendered, when it reports one.
        """
        try:
            with open(self.temp, "rb") as f:
                head = f.read(5)
                size = os.fstat(f.fileno()).st_size
                f.seek(max(0, size - 1024))
                tail = f.read()
        except OSError as exc:
            raise OutputError(f"cannot write {self.final}: {_reason(exc)}") from exc
        if rendered_size is not None and size != rendered_size:
            raise OutputError(
                f"cannot write {self.final}: only {size} of {rendered_size} bytes reached "
                "the disk (is it full?)"
            )
        if head != b"%PDF-" or not tail.rstrip().endswith(b"%%EOF"):
            raise OutputError(
                f"cannot write {self.final}: the PDF is incomplete ({size} bytes, no %%EOF "
                "at the end; is the disk full?)"
            )

    @contextlib.contextmanager
    def _open_temp(self) -> Iterator[int]:
        try:
            fd = os.open(self.temp, os.O_WRONLY | os.O_TRUNC | _NOFOLLOW | _BINARY)
        except OSError as exc:
            raise OutputError(f"cannot write {self.final}: {_reason(exc)}") from exc
        try:
            yield fd
        finally:
            os.close(fd)

    def commit(self) -> Path:
        """Flush the temporary file to disk and rename it over the final name."""
        try:
            info = os.lstat(self.temp)
            if not stat.S_ISREG(info.st_mode):
                raise OutputError(f"cannot write {self.final}: its temporary file was replaced")
            fd = os.open(self.temp, os.O_RDONLY | _NOFOLLOW | _BINARY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            _refuse_symlink(self.final)
            os.replace(self.temp, self.final)
        except OutputError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write {self.final}: {_reason(exc)}") from exc
        self._committed = True
        _sync_folder(self.final.parent)
        return self.final

    def discard(self) -> None:
        """Remove the temporary file (nothing happens to the final name)."""
        if not self._committed:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)

    def __enter__(self) -> PendingFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.discard()


def write_bytes(path: Path, data: bytes, *, mode: int = 0o666) -> Path:
    """Write ``data`` to ``path`` atomically; :class:`OutputError` when it cannot."""
    with PendingFile(path, mode=mode) as pending:
        pending.write_all(data)
        return pending.commit()


class _FdWriter(io.RawIOBase):
    """Raw writes straight to ``os.write``: every byte of a text output takes one path."""

    def __init__(self, fd: int, final: Path) -> None:
        super().__init__()
        self._fd = fd
        self._final = final
        #: Set once the output is abandoned: buffered leftovers then go nowhere.
        self.discarding = False
        #: Bytes handed to the file, checked against its size before it is committed.
        self.written = 0

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data: Buffer) -> int:
        if self.discarding:
            return memoryview(data).nbytes
        try:
            count = os.write(self._fd, data)
            self.written += count
            return count
        except OSError as exc:
            raise OutputError(f"cannot write {self._final}: {_reason(exc)}") from exc


@contextlib.contextmanager
def open_binary(path: Path) -> Iterator[BinaryIO]:
    """A binary stream whose content replaces ``path`` only when the block completes.

    An exception in the block (or a failed write) leaves ``path`` as it was.
    """
    with PendingFile(path) as pending, pending._open_temp() as fd:
        raw = _FdWriter(fd, pending.final)
        out = io.BufferedWriter(raw)
        try:
            yield out
            out.flush()
            try:
                os.fsync(fd)
            except OSError as exc:
                raise OutputError(f"cannot write {pending.final}: {_reason(exc)}") from exc
            _check_size(fd, raw.written, pending.final)
        finally:
            # On success everything is flushed already; on an error, what is still buffered
            # must not be written (or fail again) when the stream closes.
            raw.discarding = True
            out.close()
        pending.commit()


@contextlib.contextmanager
def open_text(path: Path, *, encoding: str = "utf-8", newline: str = "") -> Iterator[TextIO]:
    """A text stream whose content replaces ``path`` only when the block completes.

    An exception in the block (or a failed write) leaves ``path`` as it was.
    """
    with open_binary(path) as binary:
        text = io.TextIOWrapper(binary, encoding=encoding, newline=newline)
        try:
            yield text
            text.flush()
        finally:
            # The binary stream is closed (and committed, or discarded) by open_binary; the
            # wrapper lets go of it so that closing it later writes nothing.
            with contextlib.suppress(ValueError, OSError):
                text.detach()


def _check_size(fd: int, expected: int, final: Path) -> None:
    """After the write: the file holds every byte written (not cut short by the disk)."""
    try:
        size = os.fstat(fd).st_size
    except OSError as exc:
        raise OutputError(f"cannot write {final}: {_reason(exc)}") from exc
    if size != expected:
        raise OutputError(f"cannot write {final}: only {size} of {expected} bytes reached the disk")


def check_target(path: Path) -> None:
    """Raise :class:`OutputError` now if ``path`` could never be written (a symlink, a
    folder, a device): for a verb that does long work before it writes, so it refuses at
    once instead of after the work."""
    _refuse_symlink(path)


def _refuse_symlink(path: Path) -> None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {_reason(exc)}") from exc
    if stat.S_ISLNK(info.st_mode):
        raise OutputError(f"refusing to write {path}: it is a symbolic link")
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write {path}: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        # A device or FIFO: renaming over it (as root, over /dev/null) would replace it.
        raise OutputError(f"refusing to replace {path}: it is not a regular file")


def is_stream(path: Path) -> bool:
    """Whether ``path`` names an existing device, FIFO or socket (``/dev/stdout``, a pipe).

    Such a target cannot be written atomically and is not replaced: callers that accept
    streams (``--out FILE``) write to it directly.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; not possible on every platform, hence best effort."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

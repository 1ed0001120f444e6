"""Paths as printed: one function, so every message shows a file name the same safe way.

A file name is bytes on POSIX: it may hold control characters (a newline forges a second
line of output; an escape sequence repaints the terminal) or bytes that are not UTF-8
(Python keeps them as lone surrogates, which cannot be written to a UTF-8 stream or stored
in SQLite). :func:`shown` turns either into visible escapes; ordinary names are unchanged.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath

#: C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(path: str | bytes | PurePath) -> str:
    """``path`` for a message or an output cell: non-UTF-8 bytes as ``\\xNN``, control
    characters as ``\\xNN`` (a backslash in the name itself is left as is)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    if not is_encodable(text):
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(_escape, text)


def shown_all(texts: list[str]) -> list[str]:
    """:func:`shown` of every text, in one pass over them all when none needs an escape
    (the usual case: a column of 50,000 run ids or model names, for ``runs``)."""
    joined = "".join(texts)
    if not _CONTROL.search(joined) and is_encodable(joined):
        return list(texts)  # shown(t) is t itself for every one of them
    return [shown(t) for t in texts]


def is_encodable(text: str) -> bool:
    """True when ``text`` can be written as UTF-8 (no lone surrogates from a bad name)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_from_here(path: str | PurePath) -> str:
    """``path`` as :func:`shown` prints it, in one form whatever form it was given in:
    relative to the working directory when it lies under it, else absolute.

    Lexical only (no symlink is followed), so a link is named by the name it was met by.
    """
    absolute = os.path.abspath(shown(path))
    try:
        here = os.getcwd()
    except OSError:  # the working directory was removed: nothing to be relative to
        return absolute
    if os.path.commonpath([absolute, here]) != here:
        return absolute
    return os.path.relpath(absolute, here)

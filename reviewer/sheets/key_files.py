"""Where rater keys live, and whether a rater has one: no cryptography imported.

The window's status bar says on every start whether the rater can sign yet; that needs
the key file's name, not the means to read it (:mod:`reviewer.sheets.keys`, which imports
``cryptography``, a tenth of a second).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from urllib.parse import quote, unquote

KEY_SUFFIX = ".key"
PUB_SUFFIX = ".pub"
#: Longest file-name stem for a name (bytes of the percent-encoded form); longer ones are
#: cut and get a hash of the whole name, so distinct names keep distinct files.
STEM_LIMIT = 100
CUT_MARK = "="
#: Names Windows reserves as devices, whatever the extension ("CON.txt" is the console).
_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"{dev}{n}" for dev in ("COM", "LPT") for n in [*"0123456789", "¹", "²", "³"]]
)


class KeyStoreError(Exception):
    """A key could not be created, found, read or used; the message says why."""


def keys_dir() -> Path:
    """``<config_dir>/keys`` under the per-user home (``A320_REVIEW_HOME`` overrides)."""
    # Imported here so that this module stays usable (with explicit folders) in tests and
    # tools that never touch the per-user home.
    from reviewer import home

    return Path(home.config_dir()) / "keys"


def file_stem(name: str, limit: int = STEM_LIMIT) -> str:
    """A file-name-safe form of a rater (or run) name, safe on every platform.

    Percent-encoding keeps distinct names distinct ("a b" and "a_b" do not collide) and
    leaves only ``A-Z a-z 0-9 - _ . ~ @ +`` and ``%``. A leading dot is encoded so that no
    name becomes a hidden file or ``..``; so is the first letter of a Windows device name
    (``CON``, ``NUL``, ``COM1``...). A stem longer than ``limit`` is cut and ends with
    ``=`` and 10 hex digits of the SHA-256 of the whole name, so it stays unique.
    """
    if not name:
        raise KeyStoreError("the rater name is empty")
    stem = quote(name, safe="-_.@+")
    if stem.startswith("."):
        stem = "%2E" + stem[1:]
    first = unicodedata.normalize("NFKC", unquote(stem.split(".")[0])).upper().rstrip(" ")
    if first in _RESERVED:
        stem = f"%{ord(stem[0]):02X}{stem[1:]}"
    if len(stem) > limit:
        import hashlib  # here: the window's first screen reads key files, never cut names

        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        head = stem[: limit - 11]
        # Never cut inside a %XX escape, and never end on a dot or space (Windows drops them).
        cut = head.rfind("%", len(head) - 2)
        head = (head[:cut] if cut != -1 else head).rstrip(". ")
        stem = f"{head}{CUT_MARK}{digest}"
    return stem


def key_paths(rater: str, directory: Path | None = None) -> tuple[Path, Path]:
    """Where the rater's private and public key files live."""
    folder = keys_dir() if directory is None else Path(directory)
    stem = file_stem(rater)
    return folder / (stem + KEY_SUFFIX), folder / (stem + PUB_SUFFIX)


def has_key(rater: str, directory: Path | None = None) -> bool:
    """Whether the rater already has a private key file."""
    return key_paths(rater, directory)[0].exists()

"""Rater identities: Ed25519 key pairs kept under the per-user home.

Each rater has one key pair. The private key is a PKCS#8 PEM file, encrypted when the rater
gives a passphrase, in ``<config_dir>/keys/<rater>.key`` (mode 0600, folder 0700); the public
key sits beside it as one text line, ``<rater>.pub``. That line is also the format of a trust
list: ``ed25519 <base64 raw key> <rater>``. A key is named by its fingerprint,
``SHA256:`` + the unpadded base64 of the SHA-256 of the raw 32-byte public key (the shape
OpenSSH prints, so raters recognise it).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from reviewer import outfile
from reviewer.raters import RaterNameError, check_rater_name

# Re-exported: where keys live is asked of this module too (``keys.has_key``).
from reviewer.sheets.key_files import CUT_MARK as CUT_MARK
from reviewer.sheets.key_files import KEY_SUFFIX as KEY_SUFFIX
from reviewer.sheets.key_files import PUB_SUFFIX as PUB_SUFFIX
from reviewer.sheets.key_files import STEM_LIMIT as STEM_LIMIT
from reviewer.sheets.key_files import KeyStoreError as KeyStoreError
from reviewer.sheets.key_files import file_stem as file_stem
from reviewer.sheets.key_files import has_key as has_key
from reviewer.sheets.key_files import key_paths as key_paths
from reviewer.sheets.key_files import keys_dir as keys_dir

# Re-exported: where keys live is asked of this module too (``keys.has_key``).

KEY_TYPE = "ed25519"
#: Key, public key and trust-list files are small; a bound keeps a hostile one (a symlink
#: to /dev/zero, a huge file) from hanging or exhausting the reader.
KEY_FILE_LIMIT = 64 * 1024


class KeyExistsError(KeyStoreError):
    """The rater already has a key, and replacing it was not asked for."""


class MissingKeyError(KeyStoreError):
    """The rater has no key pair yet."""


class PassphraseError(KeyStoreError):
    """The passphrase is wrong, missing for an encrypted key, or given for a plain one."""


@dataclass(frozen=True)
class PublicKey:
    """A raw Ed25519 public key with the rater name it was published under (if any)."""

    raw: bytes
    rater: str | None = None

    @property
    def b64(self) -> str:
        """The raw key, standard base64 (44 characters)."""
        return base64.b64encode(self.raw).decode("ascii")

    @property
    def fingerprint(self) -> str:
        """``SHA256:<unpadded base64>``, the short name of the key."""
        return fingerprint(self.raw)

    def line(self) -> str:
        """The one-line text form that ``whoami`` prints and trust lists hold."""
        return f"{KEY_TYPE} {self.b64} {self.rater}" if self.rater else f"{KEY_TYPE} {self.b64}"

    def verifier(self) -> Ed25519PublicKey:
        """The ``cryptography`` object that checks signatures."""
        return Ed25519PublicKey.from_public_bytes(self.raw)


@dataclass(frozen=True)
class RaterKey:
    """A rater's unlocked private key; signs bytes."""

    rater: str
    private_key: Ed25519PrivateKey
    path: Path | None = None

    @property
    def public(self) -> PublicKey:
        """The matching public key, labelled with the rater."""
        raw = self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return PublicKey(raw, self.rater)

    @property
    def fingerprint(self) -> str:
        """Fingerprint of the public key."""
        return self.public.fingerprint

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data``."""
        return self.private_key.sign(data)


def fingerprint(raw_public_key: bytes) -> str:
    """``SHA256:`` + unpadded base64 of the SHA-256 of a raw public key."""
    digest = hashlib.sha256(raw_public_key).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def decode_public_key(text: str) -> bytes:
    """The 32 raw bytes of a base64 public key; :class:`KeyStoreError` when it is not one."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as exc:
        raise KeyStoreError(f"public key is not base64: {text[:20]!r}") from exc
    if len(raw) != 32:
        raise KeyStoreError(f"public key has {len(raw)} bytes, an Ed25519 key has 32")
    # Unused trailing bits would let two texts name one key; only the canonical one is valid.
    if base64.b64encode(raw).decode("ascii") != text:
        raise KeyStoreError(f"public key is not canonical base64: {text[:20]!r}")
    return raw


def parse_public_key_line(line: str) -> PublicKey:
    """Parse ``ed25519 <base64> [rater name...]`` (the rater name may contain spaces)."""
    parts = line.strip().split(maxsplit=2)
    if len(parts) < 2 or parts[0] != KEY_TYPE:
        raise KeyStoreError(f"not a public key line (expected '{KEY_TYPE} <base64> [name]')")
    return PublicKey(decode_public_key(parts[1]), parts[2] if len(parts) == 3 else None)


# --- storage -----------------------------------------------------------------------------


def list_raters(directory: Path | None = None) -> list[str]:
    """Every rater with a private key in the folder, sorted."""
    folder = keys_dir() if directory is None else Path(directory)
    if not folder.is_dir():
        return []
    names = []
    for path in folder.glob("*" + KEY_SUFFIX):
        stem = path.name[: -len(KEY_SUFFIX)]
        if CUT_MARK not in stem:
            names.append(unquote(stem))
            continue
        # A cut stem cannot be decoded: the public key file beside it names the rater.
        with contextlib.suppress(KeyStoreError, UnicodeDecodeError):
            line = read_key_file(path.with_name(stem + PUB_SUFFIX)).decode("utf-8")
            rater = parse_public_key_line(line).rater
            if rater is not None and key_paths(rater, folder)[0] == path:
                names.append(rater)
    return sorted(names)


def read_key_file(path: Path, limit: int = KEY_FILE_LIMIT) -> bytes:
    """The bytes of a small regular file; :class:`KeyStoreError` for anything else.

    Opened non-blocking and checked with ``fstat`` after opening, so a FIFO does not block,
    a device (a symlink to ``/dev/zero``) is refused, and nothing is read past ``limit``.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise KeyStoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise KeyStoreError(f"cannot read {path}: it is not a regular file")
        chunks, size = [], 0
        while chunk := os.read(fd, limit + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise KeyStoreError(f"cannot read {path}: larger than {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise KeyStoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def generate_key(
    rater: str,
    *,
    passphrase: bytes | None = None,
    directory: Path | None = None,
    overwrite: bool = False,
) -> RaterKey:
    """Create and store a new key pair for ``rater``; refuses to replace one unless told.

    Replacing a key orphans every sheet the old key signed (they still verify, but against
    a key the rater no longer holds), hence the explicit ``overwrite``.
    """
    check_name(rater)
    key_path, pub_path = key_paths(rater, directory)
    if key_path.exists() and not overwrite:
        raise KeyExistsError(f"rater {rater!r} already has a key: {key_path}")
    if passphrase is not None and not passphrase:
        raise PassphraseError("the passphrase is empty")
    _private_folder(key_path.parent)
    private = Ed25519PrivateKey.generate()
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase)
        if passphrase
        else serialization.NoEncryption()
    )
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )
    key = RaterKey(rater, private, key_path)
    _write_pair(key_path, pem, pub_path, (key.public.line() + "\n").encode("utf-8"))
    return key


def load_key(
    rater: str, *, passphrase: bytes | None = None, directory: Path | None = None
) -> RaterKey:
    """Read and unlock the rater's private key, with a clear error for each way it fails."""
    check_name(rater)
    key_path, _ = key_paths(rater, directory)
    try:
        pem = read_key_file(key_path)
    except FileNotFoundError:
        raise MissingKeyError(
            f"rater {rater!r} has no key (looked for {key_path}); "
            f"create one with: a320-review keygen --rater {quote_arg(rater)}"
        ) from None
    _check_private_mode(key_path)
    encrypted = b"ENCRYPTED PRIVATE KEY" in pem
    if encrypted and not passphrase:
        raise PassphraseError(f"the key of {rater!r} is passphrase-protected: give its passphrase")
    if passphrase and not encrypted:
        # Accepting it silently would let a rater believe the key is protected.
        raise PassphraseError(f"the key of {rater!r} is not passphrase-protected: give none")
    try:
        private = serialization.load_pem_private_key(pem, password=passphrase or None)
    except ValueError as exc:
        if encrypted:
            raise PassphraseError(f"wrong passphrase for the key of {rater!r}") from exc
        raise KeyStoreError(f"{key_path} is not a readable private key: {exc}") from exc
    except UnsupportedAlgorithm as exc:
        raise KeyStoreError(f"{key_path} uses an unsupported algorithm: {exc}") from exc
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyStoreError(f"{key_path} is not an Ed25519 key")
    return RaterKey(rater, private, key_path)


def is_encrypted(rater: str, directory: Path | None = None) -> bool:
    """Whether the rater's key file is passphrase-protected (it must exist)."""
    key_path, _ = key_paths(rater, directory)
    try:
        return b"ENCRYPTED PRIVATE KEY" in read_key_file(key_path)
    except FileNotFoundError:
        raise MissingKeyError(f"rater {rater!r} has no key (looked for {key_path})") from None


def read_passphrase_file(path: Path) -> bytes:
    """The passphrase in ``path``: its first line, without the line ending."""
    try:
        data = read_key_file(Path(path))
    except (OSError, KeyStoreError) as exc:
        raise PassphraseError(f"cannot read passphrase file {path}: {exc}") from exc
    line = data.splitlines()[0] if data else b""
    if not line:
        raise PassphraseError(f"passphrase file {path} is empty")
    return line


def quote_arg(text: str) -> str:
    """``text`` quoted for a shell command line when it needs it (for messages)."""
    return shlex.quote(text)


def _private_folder(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    # mkdir's mode is filtered by the umask and ignored for an existing folder.
    with contextlib.suppress(NotImplementedError):
        os.chmod(folder, 0o700)


def _write_pair(key_path: Path, pem: bytes, pub_path: Path, pub: bytes) -> None:
    """Both key files written in full (0600 temporary files) before either is renamed into
    place: a full disk leaves no private key without its ``.pub``, nor half of either."""
    try:
        with (
            outfile.PendingFile(key_path, mode=0o600) as private_file,
            outfile.PendingFile(pub_path, mode=0o600) as public_file,
        ):
            private_file.write_all(pem)
            public_file.write_all(pub)
            private_file.commit()
            public_file.commit()
    except OSError as exc:
        raise KeyStoreError(str(exc)) from None


def check_name(rater: str) -> None:
    """The one rater-name rule (:mod:`reviewer.raters`), as a :class:`KeyStoreError`."""
    try:
        check_rater_name(rater)
    except RaterNameError as exc:
        raise KeyStoreError(str(exc)) from None


def _check_private_mode(path: Path) -> None:
    if os.name != "posix":
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        # The same rule as OpenSSH: a key others can read is no longer the rater's alone.
        raise KeyStoreError(
            f"{path} is readable by others (mode {mode:04o}); run: chmod 600 {path}"
        )

"""``keygen`` and ``whoami``, and reading a rater's key for the verbs that sign.

:func:`load_key` is the one way a verb gets a rater's key: the passphrase from
``--passphrase-file``, else asked on a terminal, else a clear refusal.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.commands.verbs import CommandError

if TYPE_CHECKING:
    from reviewer.sheets import keys
    from reviewer.sheets.keys import RaterKey


def run_keygen(args: argparse.Namespace) -> int:
    """Create the key pair and print what others need to trust it."""
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    passphrase = read_passphrase(args.passphrase_file)
    try:
        key = keys.generate_key(args.rater, passphrase=passphrase, overwrite=args.force)
    except keys.KeyExistsError as exc:
        raise CommandError(f"{exc} (use --force to replace it)") from None
    except KeyStoreError as exc:  # a full disk, a bad name: --force would not help
        raise CommandError(str(exc)) from None
    protected = "passphrase-protected" if passphrase else "not passphrase-protected"
    print(f"created the key of {key.rater} ({protected}): {key.path}")
    print(f"fingerprint: {key.fingerprint}")
    print(f"public key:  {key.public.line()}")
    return 0


def run_whoami(args: argparse.Namespace) -> int:
    """Print each rater's fingerprint and public key line: the key that actually signs.

    The public key is derived from the private key (which needs the passphrase of a
    protected key, from ``--passphrase-file``); the ``.pub`` file is only compared with it,
    since a swapped ``.pub`` would otherwise make raters publish a key they do not hold.
    Exit 1 when a ``.pub`` file does not match its private key.
    """
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    passphrase = read_passphrase(args.passphrase_file)
    raters = [args.rater] if args.rater else keys.list_raters()
    if not raters:
        raise CommandError(
            "no rater has a key yet; create one with: a320-review keygen --rater NAME"
        )
    mismatched = 0
    for index, rater in enumerate(raters):
        key_path, pub_path = keys.key_paths(rater)
        try:
            protected = keys.is_encrypted(rater)
            actual = None
            if not protected or passphrase is not None:
                actual = keys.load_key(rater, passphrase=passphrase if protected else None)
            stated = stated_public_key(pub_path)
        except FileNotFoundError:
            raise CommandError(
                f"rater {rater!r} has no key; create one with: "
                f"a320-review keygen --rater {keys.quote_arg(rater)}"
            ) from None
        except (KeyStoreError, OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read the key of {rater!r}: {exc}") from None
        public = actual.public if actual is not None else stated
        if public is None:
            raise CommandError(
                f"the key of {rater!r} is passphrase-protected and {pub_path} is missing: "
                "give --passphrase-file to derive its public key"
            )
        if actual is not None and (stated is None or stated.raw != public.raw):
            mismatched += 1
            found = "is missing" if stated is None else f"holds another key ({stated.fingerprint})"
            print(
                f"warning: {pub_path} {found}: the key that signs for {rater} is "
                f"{public.fingerprint}; publish the line below, not that file",
                file=sys.stderr,
            )
        if args.public_key:
            print(public.line())
            continue
        if index:
            print()
        checked = "" if actual is not None else " (from the .pub file; not checked: no passphrase)"
        print(f"rater:       {rater}")
        print(f"fingerprint: {public.fingerprint}{checked}")
        print(f"public key:  {public.line()}")
        lock = "passphrase-protected" if protected else "not passphrase-protected"
        print(f"key file:    {key_path} ({lock})")
    return 1 if mismatched else 0


def stated_public_key(pub_path: Path) -> keys.PublicKey | None:
    """What the ``.pub`` file says (``None`` when there is none)."""
    from reviewer.sheets import keys

    try:
        text = keys.read_key_file(pub_path).decode("utf-8")
    except FileNotFoundError:
        return None
    return keys.parse_public_key_line(text)


def read_passphrase(path: Path | None) -> bytes | None:
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    if path is None:
        return None
    try:
        return keys.read_passphrase_file(path)
    except KeyStoreError as exc:
        raise CommandError(str(exc)) from None


def load_key(rater: str, passphrase_file: Path | None) -> RaterKey:
    """The rater's key; asks for the passphrase on a terminal when no file gives it."""
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    passphrase = read_passphrase(passphrase_file)
    try:
        if passphrase is None and keys.has_key(rater) and keys.is_encrypted(rater):
            if not sys.stdin.isatty():
                raise CommandError(
                    f"the key of {rater!r} is passphrase-protected: give --passphrase-file"
                )
            passphrase = getpass.getpass(f"passphrase for the key of {rater}: ").encode()
        return keys.load_key(rater, passphrase=passphrase)
    except KeyStoreError as exc:
        raise CommandError(str(exc)) from None

"""Trust lists: which keys a reader vouches for, and under which rater name.

One entry a line, as ``a320-review whoami --public-key`` prints it
(``ed25519 <base64 key> <rater name>``), or a bare ``SHA256:`` fingerprint. The first form
binds the key to the name: :mod:`reviewer.sheets.verify` flags a sheet that the key signed
under another name. ``docs/sheet-format.md`` describes the format.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from reviewer.sheets.keys import KeyStoreError, check_name, parse_public_key_line, read_key_file

#: A trust list is a few lines a rater; the bound only stops a hostile file.
TRUST_FILE_LIMIT = 4 * 1024 * 1024


def load_trust_file(path: Path) -> dict[str, str | None]:
    """What a trust list says: each trusted fingerprint and the rater name bound to it.

    One entry a line: a public key line as ``whoami`` prints it (``ed25519 <base64> NAME``:
    the key is trusted *as NAME*), or a bare ``SHA256:`` fingerprint (trusted under any
    name). Blank lines and lines starting with ``#`` are skipped. A key listed twice under
    two names is an error: the list would not say who signs with it.
    """
    try:
        text = read_key_file(Path(path), TRUST_FILE_LIMIT).decode("utf-8")
    except FileNotFoundError:
        raise KeyStoreError(f"cannot read trust list {path}: no such file") from None
    except (KeyStoreError, UnicodeDecodeError) as exc:
        raise KeyStoreError(f"cannot read trust list {path}: {exc}") from exc
    found: dict[str, str | None] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        try:
            if entry.startswith("SHA256:"):
                key_fp, name = entry.split()[0], None
            else:
                public = parse_public_key_line(entry)
                key_fp, name = public.fingerprint, public.rater
                if name is not None:
                    check_name(name)
            if key_fp in found and found[key_fp] != name:
                raise KeyStoreError(f"key {key_fp} is listed as {found[key_fp]!r} and as {name!r}")
        except KeyStoreError as exc:
            raise KeyStoreError(f"{path}:{number}: {exc}") from exc
        found[key_fp] = name
    return found


def name_claim_problem(trust: Mapping[str, str | None], fingerprint: str, name: str) -> str | None:
    """Why a sheet signed by ``fingerprint`` under ``name`` breaks the trust list's binding
    of that *name*, or None: a name the list binds to keys can be claimed by those keys
    alone, whether or not unlisted keys are otherwise accepted."""
    owners = sorted(fp for fp, bound in trust.items() if bound == name)
    if not owners or fingerprint in owners:
        return None
    return (
        f"the trust list binds {name!r} to key {owners[0]}, but the sheet is signed by "
        f"{fingerprint}: an unlisted key claiming a listed name (if the key is really "
        f"{name}'s, add it to the trust list)"
    )

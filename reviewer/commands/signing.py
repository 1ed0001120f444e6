"""``keygen``, ``whoami``, ``sign``, ``export`` and ``verify``: signed rating sheets.

``sign`` and ``export`` write the PDF beside each JSON sheet when the entry point injected a
renderer (``main(..., pdf_renderer=...)``, from ``ui.entry``); without one they write the
JSON, which is the signed record, and say that the PDF was skipped.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from reviewer.cli import CommandError, UsageError
from reviewer.commands.store_cmds import add_db_option, open_store
from reviewer.sheets import keys
from reviewer.sheets.keys import KeyStoreError, RaterKey
from reviewer.sheets.sheet import verify_file
from reviewer.sheets.signing import SigningError, SigningService, WrittenSheet
from reviewer.store import StoreError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the five signing verbs."""
    p = subparsers.add_parser(
        "keygen",
        help="create a rater's signing key pair",
        description="Create an Ed25519 key pair for a rater under the per-user home "
        "(A320_REVIEW_HOME overrides), owner-only, encrypted when a passphrase is given.",
    )
    p.add_argument("--rater", required=True, metavar="NAME")
    _passphrase_option(p)
    p.add_argument("--force", action="store_true", help="replace the rater's existing key")
    p.set_defaults(run=run_keygen)

    p = subparsers.add_parser(
        "whoami",
        help="show a rater's key fingerprint and public key line",
        description="Show each rater with a key on this account (or the one given): the "
        "fingerprint, and the public key line that goes into other people's trust lists.",
    )
    p.add_argument("--rater", metavar="NAME")
    p.add_argument(
        "--public-key",
        action="store_true",
        help="print only the public key line (for: a320-review whoami --public-key >> trusted)",
    )
    p.set_defaults(run=run_whoami)

    p = subparsers.add_parser(
        "sign",
        help="sign a rater's submitted rating of a run",
        description="Sign the rater's submitted rating of the run, lock it in the database, "
        "and write <run_id>.<rater>.sheet.json (and .pdf). Drafts and incomplete ratings "
        "are refused.",
    )
    # dest is not "run": that name holds the verb's handler (set_defaults below).
    p.add_argument("--run", dest="run_id", required=True, metavar="RUN_ID")
    p.add_argument("--rater", required=True, metavar="NAME")
    add_db_option(p)
    p.add_argument("--out", type=Path, default=Path(), metavar="DIR", help="default: here")
    _passphrase_option(p)
    p.set_defaults(run=run_sign)

    p = subparsers.add_parser(
        "export",
        help="write every signed sheet",
        description="Write every signed sheet in the database (or one rater's) to DIR.",
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    add_db_option(p)
    p.add_argument("--rater", metavar="NAME")
    p.set_defaults(run=run_export)

    p = subparsers.add_parser(
        "verify",
        help="check signed sheets",
        description="One line per sheet, OK or FAILED: <reason>; exit code 1 if any failed. "
        "Checks the signature, that the payload is canonical and well formed, the "
        "trajectory's sha256 (with --trajectory) and the signer's key (with --trust).",
    )
    p.add_argument("sheets", nargs="+", type=Path, metavar="SHEET")
    p.add_argument("--trajectory", type=Path, metavar="PATH", help="the rated trajectory file")
    p.add_argument("--trust", type=Path, metavar="FILE", help="trusted public keys, one line each")
    p.add_argument(
        "--require-trusted",
        action="store_true",
        help="fail sheets whose key is not in the --trust list",
    )
    p.set_defaults(run=run_verify)


def _passphrase_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--passphrase-file",
        type=Path,
        metavar="FILE",
        help="read the key's passphrase from the first line of FILE",
    )


# --- keys -----------------------------------------------------------------------------------


def run_keygen(args: argparse.Namespace) -> int:
    """Create the key pair and print what others need to trust it."""
    passphrase = _read_passphrase(args.passphrase_file)
    try:
        key = keys.generate_key(args.rater, passphrase=passphrase, overwrite=args.force)
    except KeyStoreError as exc:
        hint = "" if args.force else " (use --force to replace it)"
        raise CommandError(f"{exc}{hint}") from None
    protected = "passphrase-protected" if passphrase else "not passphrase-protected"
    print(f"created the key of {key.rater} ({protected}): {key.path}")
    print(f"fingerprint: {key.fingerprint}")
    print(f"public key:  {key.public.line()}")
    return 0


def run_whoami(args: argparse.Namespace) -> int:
    """Print each rater's fingerprint and public key line, read from the public key file."""
    raters = [args.rater] if args.rater else keys.list_raters()
    if not raters:
        raise CommandError(
            "no rater has a key yet; create one with: a320-review keygen --rater NAME"
        )
    for index, rater in enumerate(raters):
        key_path, pub_path = keys.key_paths(rater)
        try:
            public = keys.parse_public_key_line(pub_path.read_text(encoding="utf-8"))
            protected = keys.is_encrypted(rater)
        except FileNotFoundError:
            raise CommandError(
                f"rater {rater!r} has no key; create one with: "
                f"a320-review keygen --rater {keys.quote_arg(rater)}"
            ) from None
        except (KeyStoreError, OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read the key of {rater!r}: {exc}") from None
        if args.public_key:
            print(public.line())
            continue
        if index:
            print()
        print(f"rater:       {rater}")
        print(f"fingerprint: {public.fingerprint}")
        print(f"public key:  {public.line()}")
        lock = "passphrase-protected" if protected else "not passphrase-protected"
        print(f"key file:    {key_path} ({lock})")
    return 0


def _read_passphrase(path: Path | None) -> bytes | None:
    if path is None:
        return None
    try:
        return keys.read_passphrase_file(path)
    except KeyStoreError as exc:
        raise CommandError(str(exc)) from None


def _load_key(rater: str, passphrase_file: Path | None) -> RaterKey:
    """The rater's key; asks for the passphrase on a terminal when no file gives it."""
    passphrase = _read_passphrase(passphrase_file)
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


# --- store verbs ----------------------------------------------------------------------------


def _report(written: WrittenSheet, *, renderer: bool) -> None:
    print(f"wrote {written.json_path}")
    if written.pdf_path is not None:
        print(f"wrote {written.pdf_path}")
    elif not renderer:
        print(f"no PDF for {written.json_path.name}: this entry point has no PDF renderer")


def run_sign(args: argparse.Namespace) -> int:
    """Sign one rating; exit 1 with the reason when it is refused."""
    renderer = getattr(args, "pdf_renderer", None)
    # The database first: a bad --db should not cost the rater a passphrase prompt.
    with open_store(args, create=False) as store:
        key = _load_key(args.rater, args.passphrase_file)
        run_pk = _find_run(store, args.run_id, args.rater)
        service = SigningService(store, pdf_renderer=renderer)
        try:
            written = service.sign(run_pk, key, args.out)
        except (SigningError, StoreError) as exc:
            raise CommandError(str(exc)) from None
    sheet = written.sheet.payload
    print(f"signed {sheet.run.run_id} for {sheet.rater.name}: sheet {sheet.sheet_id}")
    print(f"key {sheet.rater.fingerprint}, signature sha256 {written.sheet.signature_digest}")
    _report(written, renderer=renderer is not None)
    return 0


def _find_run(store, run_id: str, rater: str) -> int:  # type: ignore[no-untyped-def]
    """The run_pk of ``run_id``; when the file was re-imported, the version the rater rated."""
    rows = [r for r in store.list_runs(rater=rater) if r.run_id == run_id]
    if not rows:
        raise CommandError(f"no run {run_id!r} in this database")
    rated = [r for r in rows if r.rating_state != "unrated"]
    candidates = rated or rows
    if len(candidates) > 1:
        paths = ", ".join(f"{r.path} (version {r.version})" for r in candidates)
        raise CommandError(f"run {run_id!r} is ambiguous here: {paths}")
    return candidates[0].run_pk


def run_export(args: argparse.Namespace) -> int:
    """Write every signed sheet (of one rater) to the folder."""
    renderer = getattr(args, "pdf_renderer", None)
    with open_store(args, create=False, readonly="if-unwritable") as store:
        try:
            written = SigningService(store, pdf_renderer=renderer).export(
                args.out, rater=args.rater
            )
        except (SigningError, StoreError, OSError) as exc:
            raise CommandError(str(exc)) from None
    for item in written:
        _report(item, renderer=renderer is not None)
    who = f" by {args.rater}" if args.rater else ""
    print(f"exported {len(written)} signed sheet(s){who} to {args.out}")
    return 0


# --- verify ---------------------------------------------------------------------------------


def run_verify(args: argparse.Namespace) -> int:
    """One line per sheet; 1 when any sheet failed."""
    if args.require_trusted and args.trust is None:
        raise UsageError("--require-trusted needs --trust FILE")
    trusted = None
    if args.trust is not None:
        try:
            trusted = keys.load_trust_file(args.trust)
        except KeyStoreError as exc:
            raise CommandError(str(exc)) from None
    if args.trajectory is not None and not args.trajectory.is_file():
        raise CommandError(f"no trajectory file at {args.trajectory}")
    failed = 0
    for path in args.sheets:
        result = verify_file(
            path,
            trajectory=args.trajectory,
            trusted=trusted,
            require_trusted=args.require_trusted,
        )
        failed += not result.ok
        print(f"{path}: {result.summary()}")
    return 1 if failed else 0

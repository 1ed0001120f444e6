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
from typing import TYPE_CHECKING

from reviewer.cli import CommandError, UsageError, add_verb, input_path, rater_name_option
from reviewer.commands.store_cmds import add_db_option, open_store

if TYPE_CHECKING:
    from reviewer.sheets import keys
    from reviewer.sheets.keys import RaterKey
    from reviewer.sheets.signing import WrittenSheet


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the five signing verbs."""
    p = add_verb(
        subparsers,
        "keygen",
        help="create a rater's signing key pair",
        description="Create an Ed25519 key pair for a rater under the per-user home "
        "(A320_REVIEW_HOME overrides), owner-only, encrypted when a passphrase is given.",
        examples=[
            "a320-review keygen --rater alice",
            "a320-review keygen --rater alice --passphrase-file ~/.a320-pass",
        ],
    )
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        required=True,
        metavar="NAME",
        help="whose key this is",
    )
    _passphrase_option(p)
    p.add_argument("--force", action="store_true", help="replace the rater's existing key")
    p.set_defaults(run=run_keygen)

    p = add_verb(
        subparsers,
        "whoami",
        help="show a rater's key fingerprint and public key line",
        description="Show each rater with a key on this account (or the one given): the "
        "fingerprint, and the public key line that goes into other people's trust lists.",
        examples=["a320-review whoami", "a320-review whoami --rater alice --public-key >> trusted"],
    )
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="only this rater (default: every rater)",
    )
    p.add_argument(
        "--public-key",
        action="store_true",
        help="print only the public key line (for: a320-review whoami --public-key >> trusted)",
    )
    _passphrase_option(p)
    p.set_defaults(run=run_whoami)

    p = add_verb(
        subparsers,
        "sign",
        help="sign a rater's submitted rating of a run",
        description="Sign the rater's submitted rating of the run, lock it in the database, "
        "and write <run_id>.<rater>.<first 8 of the sheet id>.sheet.json (and .pdf). Drafts "
        "and incomplete ratings are refused. With --all, every submitted, unsigned rating of "
        "the rater is signed; a failure is named and the rest still signed (exit code 1).",
        examples=[
            "a320-review sign --run RUN_ID --rater alice --out sheets/",
            "a320-review sign --all --rater alice --out sheets/",
        ],
    )
    which = p.add_mutually_exclusive_group(required=True)
    # dest is not "run": that name holds the verb's handler (set_defaults below).
    which.add_argument("--run", dest="run_id", metavar="RUN_ID", help="the run_id of the run")
    which.add_argument(
        "--all",
        dest="sign_all",
        action="store_true",
        help="every submitted, unsigned rating of the rater (one passphrase prompt)",
    )
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        required=True,
        metavar="NAME",
        help="whose rating to sign",
    )
    add_db_option(p)
    p.add_argument(
        "--out", type=Path, default=Path(), metavar="DIR", help="where to write (default: here)"
    )
    _passphrase_option(p)
    p.set_defaults(run=run_sign)

    p = add_verb(
        subparsers,
        "export",
        help="write every signed sheet",
        description="Write every signed sheet in the database (or one rater's) to DIR.",
        examples=["a320-review export --out sheets/ --rater alice"],
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write to")
    add_db_option(p)
    p.add_argument(
        "--rater",
        type=rater_name_option("--rater"),
        metavar="NAME",
        help="only this rater's sheets",
    )
    p.set_defaults(run=run_export)

    p = add_verb(
        subparsers,
        "verify",
        help="check signed sheets",
        description="One line per sheet, OK or FAILED: <reason>; exit code 1 if any failed. "
        "Checks the signature, that the payload is canonical and well formed, the "
        "trajectory's sha256 (with --trajectory) and the signer's key (with --trust).",
        examples=[
            "a320-review verify sheets/*.sheet.json",
            "a320-review verify S.sheet.json --trajectory run.jsonl --trust trusted "
            "--require-trusted",
        ],
    )
    p.add_argument("sheets", nargs="+", type=input_path, metavar="SHEET", help="signed sheet files")
    p.add_argument(
        "--trajectory", type=input_path, metavar="PATH", help="the rated trajectory file"
    )
    p.add_argument(
        "--trust", type=input_path, metavar="FILE", help="trusted public keys, one line each"
    )
    p.add_argument(
        "--require-trusted",
        action="store_true",
        help="fail sheets whose key is not in the --trust list",
    )
    p.add_argument(
        "--with",
        dest="with_dir",
        type=input_path,
        metavar="DIR",
        help="the rating sheets at hand: an adjudication sheet must name exactly these",
    )
    p.set_defaults(run=run_verify)


def _passphrase_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--passphrase-file",
        type=input_path,
        metavar="FILE",
        help="read the key's passphrase from the first line of FILE",
    )


# --- keys -----------------------------------------------------------------------------------


def run_keygen(args: argparse.Namespace) -> int:
    """Create the key pair and print what others need to trust it."""
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    passphrase = _read_passphrase(args.passphrase_file)
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

    passphrase = _read_passphrase(args.passphrase_file)
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
            stated = _stated_public_key(pub_path)
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


def _stated_public_key(pub_path: Path) -> keys.PublicKey | None:
    """What the ``.pub`` file says (``None`` when there is none)."""
    from reviewer.sheets import keys

    try:
        text = keys.read_key_file(pub_path).decode("utf-8")
    except FileNotFoundError:
        return None
    return keys.parse_public_key_line(text)


def _read_passphrase(path: Path | None) -> bytes | None:
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

    if path is None:
        return None
    try:
        return keys.read_passphrase_file(path)
    except KeyStoreError as exc:
        raise CommandError(str(exc)) from None


def _load_key(rater: str, passphrase_file: Path | None) -> RaterKey:
    """The rater's key; asks for the passphrase on a terminal when no file gives it."""
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError

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
    from reviewer.sheets.signing import SigningError, SigningService
    from reviewer.store import StoreError

    if args.sign_all:
        from reviewer.commands.sign_all import run_sign_all

        return run_sign_all(args)
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
    print(f"key {sheet.rater.fingerprint}, sheet file sha256 {written.sheet.file_sha256}")
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
    from reviewer.sheets.signing import ExportError, SigningError, SigningService
    from reviewer.store import StoreError

    renderer = getattr(args, "pdf_renderer", None)
    failed: ExportError | None = None
    with open_store(args, create=False, readonly="if-unwritable") as store:
        try:
            written = SigningService(store, pdf_renderer=renderer).export(
                args.out, rater=args.rater
            )
        except ExportError as exc:
            written, failed = exc.written, exc
        except (SigningError, StoreError, OSError) as exc:
            raise CommandError(str(exc)) from None
        unsigned = [r for r in store.latest_decisions(rater=args.rater) if r.status == "submitted"]
    for item in written:
        _report(item, renderer=renderer is not None)
    who = f" by {args.rater}" if args.rater else ""
    print(f"exported {len(written)} signed sheet(s){who} to {args.out}")
    if unsigned:
        # A rater who has just rated expects export to hand over that work; only signed
        # sheets leave, so say what stayed behind and how to sign it.
        raters = sorted({r.rater for r in unsigned})
        print(
            f"export: {len(unsigned)} submitted rating(s) by {', '.join(raters)} not signed, "
            "so not exported: sign each with `a320-review sign --run RUN_ID --rater NAME` "
            "(or Ctrl+Shift+S in the window)",
            file=sys.stderr,
        )
    if failed is not None:
        raise CommandError(str(failed))
    return 0


# --- verify ---------------------------------------------------------------------------------


def _resolved_problems(result, folder: Path) -> list[str]:  # type: ignore[no-untyped-def]
    """Why an adjudication sheet does not resolve the rating sheets in ``folder``."""
    from reviewer.adjudication.resolved import resolved_problems, sheets_at_hand

    if not folder.is_dir():
        raise UsageError(f"--with: {folder} is not a folder")
    return resolved_problems(result.sheet.payload, sheets_at_hand(folder))


def run_verify(args: argparse.Namespace) -> int:
    """One line per sheet; 1 when any sheet failed."""
    from reviewer.sheets import keys
    from reviewer.sheets.keys import KeyStoreError
    from reviewer.sheets.sheet import verify_file

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
        summary = result.summary()
        if result.ok and result.is_adjudication and args.with_dir is not None:
            problems = _resolved_problems(result, args.with_dir)
            if problems:
                result, summary = None, "FAILED: " + "; ".join(problems)
            else:
                summary += f", resolves the rating sheets in {args.with_dir}"
        failed += result is None or not result.ok
        print(f"{path}: {summary}")
    return 1 if failed else 0

"""``keygen``, ``whoami``, ``sign``, ``export`` and ``verify``: their parsers.

The handlers live with what they handle: the keys in :mod:`reviewer.commands.key_verbs`,
the sheets in :mod:`reviewer.signing.sheet_verbs`, ``sign --all`` in
:mod:`reviewer.signing.sign_all`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.commands.key_verbs import run_keygen, run_whoami
from reviewer.commands.store_option import add_db_option
from reviewer.commands.verbs import Subparsers, add_verb, input_path, rater_name_option
from reviewer.signing.sheet_verbs import run_export, run_sign, run_verify
from reviewer.signing.sign_all import run_sign_all


def register(subparsers: Subparsers) -> None:
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
    p.set_defaults(run=_run_sign)

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


def _run_sign(args: argparse.Namespace) -> int:
    """``sign --run`` signs one rating, ``sign --all`` every submitted one of the rater."""
    return run_sign_all(args) if args.sign_all else run_sign(args)

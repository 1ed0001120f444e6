"""``a320-review collect``: bring other raters' signed sheets into this database."""

from __future__ import annotations

import argparse
from pathlib import Path

from reviewer.commands.verbs import CommandError, Subparsers, UsageError, add_verb

TYPE_CHECKING = False  # typing itself is not imported to build the parser
if TYPE_CHECKING:
    from reviewer.collecting.collect import TrustList


def register(subparsers: Subparsers) -> None:
    """Add the ``collect`` verb."""
    p = add_verb(
        subparsers,
        "collect",
        help="collect signed sheets from other raters",
        description="Verify each sheet (signature, and with --trust the key and the name it "
        "is bound to: a name the list binds to a key is refused under any other key), check "
        "it against the study it names (the run is in the study and assigned to the signer, "
        "the protocol and arm are the study's, a correction keeps the blind phase and "
        "changes something), find its run by trajectory sha256 and store it as that rater's "
        "signed, read-only rating. The same sheet again changes nothing; a correction "
        "supersedes what it corrects. Refused sheets are named with their reason; exit "
        "code 1 if any was refused.",
        examples=[
            "a320-review collect inbox/ --trust team.pub --require-trusted",
        ],
    )
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                   help="sheet files, or folders searched for *.sheet.json")  # fmt: skip
    p.add_argument("--trust", type=Path, metavar="FILE", help="trusted public keys, one a line")
    p.add_argument("--require-trusted", action="store_true",
                   help="refuse sheets whose key is not in the --trust list")  # fmt: skip
    from reviewer.commands.store_option import add_db_option

    add_db_option(p)
    p.set_defaults(run=run_collect)


def run_collect(args: argparse.Namespace) -> int:
    """One line per sheet; 1 when any was refused."""
    from reviewer.collecting.collect import TrustList, collect, sheet_files
    from reviewer.commands.store_option import open_store
    from reviewer.sheets.keys import KeyStoreError

    if args.require_trusted and args.trust is None:
        raise UsageError("--require-trusted needs --trust FILE")
    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    trust = None
    if args.trust is not None:
        try:
            trust = TrustList.load(args.trust)
        except (KeyStoreError, OSError) as exc:
            raise UsageError(str(exc)) from None
    if not sheet_files(args.paths):
        raise CommandError("no *.sheet.json found")
    from reviewer.collecting.facade import CollectingStore

    with open_store(args, CollectingStore, create=False) as store:
        results = collect(store, args.paths, trust=trust, require_trusted=args.require_trusted)
    for r in results:
        what = f" ({r.rater}, {r.run_id})" if r.rater else ""
        why = f": {r.reason}" if r.reason else ""
        print(f"{r.source}: {r.outcome}{what}{why}")
        if r.learned_key is not None:
            print(learned_line(r.rater or "", r.learned_key, trust, args.trust))
    refused = sum(r.outcome == "refused" for r in results)
    counts = {
        o: sum(r.outcome == o for r in results) for o in ("stored", "unchanged", "superseded")
    }
    print(f"collect: {counts['stored']} stored, {counts['unchanged']} unchanged, "
          f"{counts['superseded']} already corrected, {refused} refused")  # fmt: skip
    return 1 if refused else 0


def learned_line(rater: str, key: str, trust: TrustList | None, trust_path: Path | None) -> str:
    """What ``collect`` learned from a rater's first sheet: the key it now binds to the
    name, with a warning when no trust list vouches for that name."""
    line = f"  learned: {rater} signs with key {key}; only that key is accepted for {rater} here"
    if trust is None:
        return f"  warning: {line.strip()} (no trust list given: check the key with {rater})"
    if rater not in trust.names.values():
        return (f"  warning: {line.strip()} (the trust list {trust_path} does not name "
                f"{rater}: check the key with them)")  # fmt: skip
    return line

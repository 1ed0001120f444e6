"""``sign --all``: sign every submitted, unsigned rating of one rater in one go.

A rater with many submitted runs should not type ``sign --run`` once per run. This walks the
rater's live ratings, asks for the key's passphrase once, and signs each through the same
:class:`~reviewer.signing.service.SigningService` as ``sign --run`` and the window, so there
is one signing path. A rating that cannot be signed is named with its reason and the others
are still signed; the exit code is 1 when any failed. Progress goes to stderr, the sheets
written to stdout.
"""

from __future__ import annotations

import argparse
import sys

from reviewer.commands.key_verbs import load_key
from reviewer.commands.store_option import open_store
from reviewer.commands.verbs import CommandError
from reviewer.signing.sheet_verbs import report_written
from reviewer.tabular import cell


def run_sign_all(args: argparse.Namespace) -> int:
    """Sign every submitted, unsigned live rating of ``--rater``; 1 when any failed."""
    from reviewer.signing.service import SigningError, SigningService
    from reviewer.store import StoreError

    renderer = getattr(args, "pdf_renderer", None)
    failed: list[str] = []
    signed = 0
    from reviewer.studies.facade import StudiesStore

    with open_store(args, StudiesStore, create=False) as store:
        todo = [r for r in store.list_runs(rater=args.rater) if r.rating_state == "submitted"]
        if not todo:
            print(f"nothing to sign: {args.rater} has no submitted, unsigned rating")
            return 0
        # One prompt for the whole batch, and only when there is something to sign.
        key = load_key(args.rater, args.passphrase_file)
        service = SigningService(store, pdf_renderer=renderer)
        for index, row in enumerate(todo, start=1):
            name = row.run_id or row.path
            print(f"[{index}/{len(todo)}] signing {name}", file=sys.stderr)
            try:
                written = service.sign(row.run_pk, key, args.out)
            except (SigningError, StoreError, OSError) as exc:
                # Named and skipped: one bad rating must not keep the others unsigned.
                failed.append(name)
                print(f"{name}: not signed: {exc}", file=sys.stderr)
                continue
            signed += 1
            sheet = written.sheet.payload
            print(f"signed {cell(sheet.run.run_id)} for {sheet.rater.name}: sheet {sheet.sheet_id}")
            report_written(written, renderer=renderer is not None)
    print(f"signed {signed} of {len(todo)} rating(s) by {args.rater} into {args.out}")
    if failed:
        raise CommandError(f"{len(failed)} rating(s) not signed: {', '.join(failed)}")
    return 0

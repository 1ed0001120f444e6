"""``sign``, ``export`` and ``verify``: signed rating sheets written and checked.

``sign`` and ``export`` write the PDF beside each JSON sheet when the entry point injected a
renderer (``main(..., pdf_renderer=...)``, from ``ui.entry``); without one they write the
JSON, which is the signed record, and say that the PDF was skipped.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.commands.key_verbs import load_key
from reviewer.commands.store_option import open_store
from reviewer.commands.verbs import CommandError, UsageError

if TYPE_CHECKING:
    from reviewer.sheets.verify import VerifyResult
    from reviewer.signing.service import WrittenSheet
    from reviewer.studies.facade import StudiesStore


def report_written(written: WrittenSheet, *, renderer: bool) -> None:
    """The files a signing wrote, and why a PDF is missing when the entry point has no
    renderer."""
    print(f"wrote {written.json_path}")
    if written.pdf_path is not None:
        print(f"wrote {written.pdf_path}")
    elif not renderer:
        print(f"no PDF for {written.json_path.name}: this entry point has no PDF renderer")


def run_sign(args: argparse.Namespace) -> int:
    """Sign one rating; exit 1 with the reason when it is refused."""
    from reviewer.signing.service import SigningError, SigningService
    from reviewer.store import StoreError

    renderer = getattr(args, "pdf_renderer", None)
    # The database first: a bad --db should not cost the rater a passphrase prompt.
    from reviewer.studies.facade import StudiesStore

    with open_store(args, StudiesStore, create=False) as store:
        key = load_key(args.rater, args.passphrase_file)
        run_pk = _find_run(store, args.run_id, args.rater)
        service = SigningService(store, pdf_renderer=renderer)
        try:
            written = service.sign(run_pk, key, args.out)
        except (SigningError, StoreError) as exc:
            raise CommandError(str(exc)) from None
    sheet = written.sheet.payload
    print(f"signed {sheet.run.run_id} for {sheet.rater.name}: sheet {sheet.sheet_id}")
    print(f"key {sheet.rater.fingerprint}, sheet file sha256 {written.sheet.file_sha256}")
    report_written(written, renderer=renderer is not None)
    return 0


def _find_run(store: StudiesStore, run_id: str, rater: str) -> int:
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
    from reviewer.signing.service import ExportError, SigningError, SigningService
    from reviewer.store import StoreError

    renderer = getattr(args, "pdf_renderer", None)
    failed: ExportError | None = None
    from reviewer.studies.facade import StudiesStore

    with open_store(args, StudiesStore, create=False, readonly="if-unwritable") as store:
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
        report_written(item, renderer=renderer is not None)
    who = f" by {args.rater}" if args.rater else ""
    print(f"exported {len(written)} signed sheet(s){who} to {args.out}")
    if unsigned:
        # A rater who has just rated expects export to hand over that work; only signed
        # sheets leave, so say what stayed behind and how to sign it.
        raters = sorted({r.rater for r in unsigned})
        who = shlex.quote(raters[0]) if len(raters) == 1 else "NAME"
        out = shlex.quote(str(args.out))
        print(
            f"export: {len(unsigned)} submitted rating(s) by {', '.join(raters)} not signed, "
            f"so not exported: `a320-review sign --all --rater {who} --out {out}` signs "
            "and writes them (or Ctrl+Shift+S in the window, one run at a time)",
            file=sys.stderr,
        )
    if failed is not None:
        raise CommandError(str(failed))
    return 0


def _resolved_problems(result: VerifyResult, folder: Path) -> list[str]:
    """Why an adjudication sheet does not resolve the rating sheets in ``folder``."""
    from reviewer.sheets.adjudication import AdjudicationPayload
    from reviewer.sheets.resolved import resolved_problems, sheets_at_hand

    if not folder.is_dir():
        raise UsageError(f"--with: {folder} is not a folder")
    payload = result.sheet.payload if result.sheet is not None else None
    if not isinstance(payload, AdjudicationPayload):
        return []  # only an adjudication sheet names the rating sheets it resolves
    return resolved_problems(payload, sheets_at_hand(folder))


def run_verify(args: argparse.Namespace) -> int:
    """One line per sheet; 1 when any sheet failed."""
    from reviewer.sheets.keys import KeyStoreError
    from reviewer.sheets.trust import load_trust_file
    from reviewer.sheets.verify import verify_file

    if args.require_trusted and args.trust is None:
        raise UsageError("--require-trusted needs --trust FILE")
    trusted = None
    if args.trust is not None:
        try:
            trusted = load_trust_file(args.trust)
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
        summary, ok = result.summary(), result.ok
        if result.ok and result.is_adjudication and args.with_dir is not None:
            problems = _resolved_problems(result, args.with_dir)
            if problems:
                summary, ok = "FAILED: " + "; ".join(problems), False
            else:
                summary += f", resolves the rating sheets in {args.with_dir}"
        failed += not ok
        print(f"{path}: {summary}")
    return 1 if failed else 0

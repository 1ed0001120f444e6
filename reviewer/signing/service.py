"""Signing service: turn a rater's submitted rating into a signed sheet, and export sheets.

The service reads the rating, its run and its rubric from the store, builds the
:class:`~reviewer.sheets.sheet.SheetPayload`, signs it, writes the sheet JSON and (when a
renderer was injected) the PDF to temporary files in the output folder, and only then locks
the rating (``mark_signed``) and renames both files into place
(``<run_id>.<rater>.<short sheet id>.sheet.json`` / ``.pdf``, see
:func:`~reviewer.sheets.sheet.sheet_file_name`). Every file goes through
:mod:`reviewer.outfile`.
``reviewer`` never imports Qt, so the PDF renderer arrives as a plain callable
``(sheet, path) -> None`` (``ui.sheets.sheet_pdf.render_sheet_pdf`` in the app).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.outfile import OutputError, PendingFile
from reviewer.sheets.keys import RaterKey, quote_arg
from reviewer.sheets.sheet import (
    SheetAuditHead,
    SheetPayload,
    SignedSheet,
    sheet_file_bytes,
    sheet_file_name,
    sign_payload,
)
from reviewer.sheets.verify import read_sheet
from reviewer.signing.rating_payload import rating_payload

if TYPE_CHECKING:
    from reviewer.rubric import Rubric
    from reviewer.store.models import Rating
    from reviewer.studies.facade import StudiesStore

#: Draws the sheet's PDF at the path; may return the number of bytes it rendered, which
#: the file on disk must then match.
PdfRenderer = Callable[[SignedSheet, Path], "int | None"]
Clock = Callable[[], datetime]


class SigningError(Exception):
    """Signing was refused or failed; the message says why, for a rater to read."""


class ExportError(SigningError):
    """Some sheets could not be written; ``written`` are the ones that were."""

    def __init__(self, message: str, written: list[WrittenSheet]) -> None:
        super().__init__(message)
        self.written = written


class SheetFilesError(SigningError):
    """The rating was signed and locked, but its files could not be written.

    ``sheet`` is the signed sheet (kept in the store); ``export`` writes its files again.
    """

    def __init__(self, message: str, sheet: SignedSheet) -> None:
        super().__init__(message)
        self.sheet = sheet


def utc_now() -> datetime:
    """Now, in UTC, to the second (sheets show seconds; microseconds only add noise)."""
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class WrittenSheet:
    """One sheet on disk: the JSON always, the PDF when a renderer was available."""

    sheet: SignedSheet
    json_path: Path
    pdf_path: Path | None


@dataclass
class SigningService:
    """Signs ratings of one open store. ``clock`` and ``new_id`` are injectable for tests."""

    store: StudiesStore
    pdf_renderer: PdfRenderer | None = None
    clock: Clock = utc_now
    new_id: Callable[[], str] = field(default=lambda: str(uuid.uuid4()))

    # --- signing ---------------------------------------------------------------------------

    def signable_rating(self, run_pk: int, rater: str, *, rating_pk: int | None = None) -> Rating:
        """The rater's live rating of the run if it can be signed; else :class:`SigningError`.

        ``rating_pk`` is the rating the rater reviewed (the window passes the one it showed):
        when given, it must still be the live rating, so that a correction saved in between
        (another window, an import) is never signed in its place.
        """
        rating = self.store.live_rating(run_pk, rater)
        if rating is None:
            raise SigningError(f"{rater} has not rated this run")
        if rating_pk is not None and rating.rating_pk != rating_pk:
            raise SigningError(
                f"rating {rating_pk} is not {rater}'s current rating of this run "
                f"(that is rating {rating.rating_pk}, {rating.status}): "
                "reload the run and review it before signing"
            )
        if rating.status == "draft":
            missing = self._rubric_of(rating).problems(rating.items)
            todo = f" (still to do: {_listed(missing)})" if missing else ""
            raise SigningError(f"{rater}'s rating is a draft: submit it before signing{todo}")
        if rating.status == "signed":
            raise SigningError(
                f"{rater}'s rating is already signed (sheet {rating.sheet_id}); "
                f"to write its files again: {_export_command(rater)}; "
                "to change it, start a correction"
            )
        problems = self._rubric_of(rating).problems(rating.items)
        if problems:
            raise SigningError(f"{rater}'s rating is incomplete: {_listed(problems)}")
        return rating

    def build_payload(
        self, run_pk: int, rater_key: RaterKey, *, rating_pk: int | None = None
    ) -> SheetPayload:
        """The payload of the sheet for the rater's rating of the run (nothing is written)."""
        rating = self.signable_rating(run_pk, rater_key.rater, rating_pk=rating_pk)
        return self._payload(rating, rater_key)

    def sign(
        self, run_pk: int, rater_key: RaterKey, out_dir: Path, *, rating_pk: int | None = None
    ) -> WrittenSheet:
        """Sign the rater's submitted rating of the run, lock it, and write the sheet files.

        With ``rating_pk``, only that rating is signed, and only while it is the live one
        (see :meth:`signable_rating`). Both files are written to temporary files in
        ``out_dir`` *before* the store is marked, so a full disk, a bad folder or a failing
        PDF renderer leaves the rating unlocked (:class:`SigningError`). After locking only
        the renames remain; if one still fails, :class:`SheetFilesError` says the rating is
        signed and ``export`` writes the files again.
        """
        self._check_rater_key(rater_key)
        rating = self.signable_rating(run_pk, rater_key.rater, rating_pk=rating_pk)
        payload = self._payload(rating, rater_key)
        self._check_changed(payload)
        signed = sign_payload(payload, rater_key)
        folder = sheet_folder(out_dir)
        with contextlib.ExitStack() as stack:
            try:
                pending = self._prepare(signed, folder / sheet_file_name(signed.payload), stack)
            except (OSError, SheetRenderError) as exc:
                raise SigningError(
                    f"cannot write sheets to {folder}: {_reason(exc)}; nothing was signed"
                ) from None
            self.store.mark_signed(
                rating.rating_pk, sheet_id=signed.payload.sheet_id, sheet_json=signed.to_json()
            )
            try:
                return _commit(signed, *pending)
            except OSError as exc:
                raise SheetFilesError(
                    f"the rating IS signed (sheet {signed.payload.sheet_id}) and kept in the "
                    f"database, but writing its files to {folder} failed: {_reason(exc)}; "
                    f"write them again with: {_export_command(rater_key.rater)}",
                    signed,
                ) from exc

    # --- export ----------------------------------------------------------------------------

    def export(self, out_dir: Path, *, rater: str | None = None) -> list[WrittenSheet]:
        """Write every signed sheet in the store (of one rater, if given) to ``out_dir``.

        Every sheet has its own file name (its short sheet id is part of it). Names are
        checked before anything is written: if two would still coincide, :class:`SigningError`
        and no file is written. A sheet whose files cannot be written does not stop the
        others: :class:`ExportError` then names each failure and lists what was written.
        """
        rows = self.store.signed_sheets(rater=rater)
        sheets = [read_sheet(row.sheet_json) for row in rows]
        names = _export_names(sheets)
        out_dir = sheet_folder(out_dir)
        written: list[WrittenSheet] = []
        failures: list[str] = []
        for signed, name in zip(sheets, names, strict=True):
            try:
                written.append(self._write_as(signed, out_dir / name))
            except (OSError, SheetRenderError) as exc:
                failures.append(f"sheet {signed.payload.sheet_id} ({name}): {_reason(exc)}")
        self.store.record_export(
            "sheets",
            {
                "out_dir": str(out_dir),
                "rater": rater,
                "sheet_ids": [w.sheet.payload.sheet_id for w in written],
            },
        )
        if failures:
            raise ExportError(
                f"{len(failures)} of {len(sheets)} sheet(s) could not be written: "
                + "; ".join(failures),
                written,
            )
        return written

    def write(self, signed: SignedSheet, out_dir: Path) -> WrittenSheet:
        """Write one sheet's JSON (and PDF, with a renderer) into ``out_dir``."""
        return self._write_as(signed, sheet_folder(out_dir) / sheet_file_name(signed.payload))

    def _write_as(self, signed: SignedSheet, json_path: Path) -> WrittenSheet:
        with contextlib.ExitStack() as stack:
            return _commit(signed, *self._prepare(signed, json_path, stack))

    def _prepare(
        self, signed: SignedSheet, json_path: Path, stack: contextlib.ExitStack
    ) -> tuple[PendingFile, PendingFile | None]:
        """Both files written to temporary files beside their final names (not yet renamed).

        The temporary files are removed when ``stack`` closes unless they were committed.
        """
        json_file = stack.enter_context(PendingFile(json_path))
        json_file.write_all(sheet_file_bytes(signed))
        if self.pdf_renderer is None:
            return json_file, None
        pdf_file = stack.enter_context(PendingFile(json_path.with_suffix(".pdf")))
        try:
            rendered = self.pdf_renderer(signed, pdf_file.temp)
        except OSError:
            raise
        except Exception as exc:
            raise SheetRenderError(f"the PDF could not be drawn: {exc}") from exc
        # Checked after the write, before anything is signed: a full disk may have cut it.
        pdf_file.check_pdf(rendered if isinstance(rendered, int) else None)
        return json_file, pdf_file

    # --- helpers ---------------------------------------------------------------------------

    def check_rater_key(self, key: RaterKey) -> None:
        """Public name of :meth:`_check_rater_key` (adjudication signing binds keys alike)."""
        self._check_rater_key(key)

    def _check_rater_key(self, key: RaterKey) -> None:
        """Bind the rater to this key in the store on first signing; refuse another key later.

        A rater who silently switched keys would leave sheets that verify against different
        fingerprints, and a trust list naming the old one would stop accepting them.
        """
        known = self.store.ensure_rater(key.rater)
        public = key.public
        if known.fingerprint is None:
            self.store.set_rater_key(
                key.rater, public_key=public.b64, fingerprint=public.fingerprint
            )
        elif known.fingerprint != public.fingerprint:
            raise SigningError(
                f"this database knows {key.rater} by key {known.fingerprint}, "
                f"but the key at hand is {public.fingerprint}"
            )

    def _rubric_of(self, rating: Rating) -> Rubric:
        rubric = self.store.rubric()
        if rubric.sha256 != rating.rubric_sha256:
            raise SigningError(
                f"the rating was made with rubric {rating.rubric_id} v{rating.rubric_version}, "
                f"this database now uses {rubric.id} v{rubric.version}: start a correction "
                "under the current rubric"
            )
        return rubric

    def _supersedes(self, rating: Rating) -> str | None:
        """The sheet id of the nearest signed rating this one corrects, directly or not.

        A correction that was submitted but never signed has no sheet, so the chain is walked
        past it (A signed → B unsigned → C names A): stopping at B would leave A's sheet
        looking current to anyone who has only the sheet files.
        """
        seen: set[int] = set()
        pk = rating.supersedes_pk
        while pk is not None and pk not in seen:
            seen.add(pk)
            ancestor = self.store.get_rating(pk)
            if ancestor.sheet_id is not None:
                return ancestor.sheet_id
            pk = ancestor.supersedes_pk
        return None

    def _check_changed(self, payload: SheetPayload) -> None:
        """A correction identical to the sheet it corrects is not signed: it would add a
        second sheet saying the same (:mod:`reviewer.studies.sheet_rules`)."""
        if payload.supersedes is None:
            return
        from reviewer.studies.sheet_rules import claim_of

        for row in self.store.signed_sheets(rater=payload.rater.name):
            if row.sheet_id == payload.supersedes:
                original = read_sheet(row.sheet_json).payload
                if claim_of(original).content == claim_of(payload).content:
                    raise SigningError(
                        f"this correction is identical to sheet {payload.supersedes}, which it "
                        "corrects: change what needs correcting before signing; nothing was "
                        "signed"
                    )
                return

    def _payload(self, rating: Rating, key: RaterKey) -> SheetPayload:
        run = self.store.get_run(rating.run_pk)
        if not run.run_id or not run.scorecard.trajectory_sha256:
            raise SigningError("this run has no run id or trajectory hash: it cannot be signed")
        rubric = self._rubric_of(rating)
        state = self.store.rating_state(rating.run_pk, rating.rater)
        entries, last_hash = self.store.audit_head()
        return rating_payload(
            run,
            run.run_id,
            rating,
            rubric,
            state,
            key,
            audit_head=SheetAuditHead(entries=entries, hash=last_hash),
            sheet_id=self.new_id(),
            supersedes=self._supersedes(rating),
            signed_at=self.clock(),
        )


def _export_names(sheets: list[SignedSheet]) -> list[str]:
    """One file name per sheet, or :class:`SigningError` if two would coincide.

    Names are compared case-folded: on macOS and Windows "Alice" and "alice" are one file.
    """
    names = [sheet_file_name(s.payload) for s in sheets]
    first: dict[str, SignedSheet] = {}
    for name, signed in zip(names, sheets, strict=True):
        other = first.setdefault(name.casefold(), signed)
        if other is not signed:
            raise SigningError(
                f"sheets {other.payload.sheet_id} and {signed.payload.sheet_id} would both be "
                f"written as {name}: nothing was exported"
            )
    return names


class SheetRenderError(Exception):
    """The PDF renderer failed (not a file-system error)."""


def _commit(
    signed: SignedSheet, json_file: PendingFile, pdf_file: PendingFile | None
) -> WrittenSheet:
    json_path = json_file.commit()
    pdf_path = pdf_file.commit() if pdf_file is not None else None
    return WrittenSheet(signed, json_path, pdf_path)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OutputError):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def _export_command(rater: str) -> str:
    return f"a320-review export --out DIR --rater {quote_arg(rater)}"


def sheet_folder(out_dir: Path) -> Path:
    """``out_dir``, the folder of sheet files (adjudication sheets' too), created if
    missing; :class:`SigningError` when it cannot be."""
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SigningError(f"cannot write sheets to {folder}: it is a file, not a folder") from None
    except OSError as exc:
        raise SigningError(f"cannot write sheets to {folder}: {exc.strerror or exc}") from None
    return folder


def _listed(problems: list[tuple[str, str]]) -> str:
    return "; ".join(f"{metric}: {message}" for metric, message in problems)

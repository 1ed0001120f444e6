"""Checking an adjudication sheet against the rating sheets at hand (``verify --with DIR``).

The adjudication sheet names each rating sheet it resolves by sheet id and SHA-256. With
the rating sheets in a folder, every named sheet must be there, verify, belong to the same
run and rater, and hash to the SHA-256 the adjudicator signed: a sheet swapped, corrected
or re-signed since is caught.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from reviewer.sheets.adjudication import AdjudicationPayload
from reviewer.sheets.sheet import sheet_file_bytes
from reviewer.sheets.verify import SHEET_FILE_LIMIT, verify_file


@dataclass(frozen=True)
class AtHand:
    """A verified rating sheet found in the folder: its payload's ids and both hashes."""

    path: Path
    rater: str
    trajectory_sha256: str
    file_sha256: str
    written_sha256: str


def sheets_at_hand(folder: Path) -> dict[str, AtHand]:
    """Every rating sheet under ``folder`` that verifies, by sheet id."""
    out: dict[str, AtHand] = {}
    for path in sorted(Path(folder).rglob("*.sheet.json")):
        result = verify_file(path)
        if not result.ok or result.sheet is None or result.is_adjudication:
            continue
        try:
            if path.stat().st_size > SHEET_FILE_LIMIT:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        payload = result.sheet.payload
        out[payload.sheet_id] = AtHand(
            path=path,
            rater=payload.rater.name,
            trajectory_sha256=payload.run.trajectory_sha256,
            file_sha256=hashlib.sha256(data).hexdigest(),
            # A sheet re-indented by some JSON tool keeps its signed payload: it still counts
            # as the same sheet when written back the way a320-review writes it.
            written_sha256=hashlib.sha256(sheet_file_bytes(result.sheet)).hexdigest(),
        )
    return out


def resolved_problems(payload: AdjudicationPayload, at_hand: dict[str, AtHand]) -> list[str]:
    """Why the sheets at hand are not the ones the adjudication resolved (empty: they are)."""
    problems = []
    for named in payload.resolves:
        found = at_hand.get(named.sheet_id)
        if found is None:
            problems.append(f"rating sheet {named.sheet_id} ({named.rater}) is not at hand")
        elif found.rater != named.rater:
            problems.append(
                f"rating sheet {named.sheet_id} is by {found.rater}, the adjudication says "
                f"{named.rater}"
            )
        elif found.trajectory_sha256 != payload.run.trajectory_sha256:
            problems.append(f"rating sheet {named.sheet_id} ({named.rater}) rates another run")
        elif named.sha256 not in (found.file_sha256, found.written_sha256):
            problems.append(
                f"rating sheet {named.sheet_id} ({named.rater}) at {found.path.name} is not the "
                f"one resolved: sha256 {found.file_sha256[:16]}…, the adjudication names "
                f"{named.sha256[:16]}…"
            )
    return problems

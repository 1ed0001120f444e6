"""Issue 25: sheet PDF cells wrap at word boundaries only ("Workload manageme/nt" was cut
mid-word), and a blind study's sheet shows per metric the blind value, the final value
and the reason, and the study's name and protocol."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtGui import QImage, QTextCursor

from reviewer.sheets import keys, sheet
from reviewer.sheets.sheet import SheetPayload, SignedSheet
from ui.sheets.sheet_html import sheet_html
from ui.sheets.sheet_pdf import sheet_document

TITLES = ("Workload management", "Problem solving and decision making", "Communication")


def _blind_sheet(tmp_path: Path, *, blind: bool) -> SignedSheet:
    key = keys.generate_key("A. Martin", directory=tmp_path / "keys")
    items = []
    for i, title in enumerate(TITLES):
        item = {
            "metric_id": f"m{i}",
            "title": title,
            "outcome": "applicable",
            "score": 2,
            "anchor": "Standard: manages the workload and prioritises tasks appropriately",
            "comment": "Acknowledged the caution, then prioritised the isolation.",
        }
        if blind:
            item["blind"] = {"outcome": "applicable", "score": 1 if i == 0 else 2, "comment": ""}
            item["reason"] = "The ECAM read-back showed the isolation was done." if i == 0 else None
        items.append(item)
    payload = SheetPayload.model_validate(
        {
            "sheet_id": "sheet-0002",
            "supersedes": None,
            "signed_at": datetime(2025, 3, 1, 10, 15, tzinfo=UTC),
            "run": {
                "run_id": "run-7",
                "trajectory_sha256": hashlib.sha256(b"t").hexdigest(),
                "scenario_id": "hyd-blue-elec-pump-fault",
                "model": "model-y",
            },
            "scorer": {"version": "1.0", "vector": {"coverage": 1.0}},
            "rubric": {"id": "default", "version": 1, "sha256": "cd" * 32},
            "items": items,
            "overall_comment": "",
            "rater": {
                "name": key.rater,
                "public_key": key.public.b64,
                "fingerprint": key.fingerprint,
            },
            "study": {
                "name": "Spring calibration",
                "protocol": "blind",
                "blind_submitted_at": datetime(2025, 3, 1, 9, 0, tzinfo=UTC),
                "revealed_at": datetime(2025, 3, 1, 9, 1, tzinfo=UTC),
            }
            if blind
            else None,
        }
    )
    return sheet.sign_payload(payload, key)


def _broken_words(doc) -> list[str]:
    """Every place a line of a cell ends inside a word (not at a space or the end)."""
    broken = []
    block = doc.begin()
    while block.isValid():
        if QTextCursor(block).currentTable() is not None:
            text, layout = block.text(), block.layout()
            for n in range(layout.lineCount() - 1):
                line = layout.lineAt(n)
                end = line.textStart() + line.textLength()
                if 0 < end < len(text) and not text[end - 1].isspace() and text[end - 1] != "-":
                    broken.append(f"{text[:end]}/{text[end:]}")
        block = block.next()
    return broken


def test_sheet_cells_wrap_at_word_boundaries_only(qtbot, tmp_path: Path):
    device = QImage(2100, 2800, QImage.Format.Format_RGB32)
    device.setDotsPerMeterX(11811)  # 300 dpi, as the PDF writer
    device.setDotsPerMeterY(11811)
    for blind in (False, True):
        doc = sheet_document(_blind_sheet(tmp_path / str(blind), blind=blind), device, 2100)
        assert _broken_words(doc) == []


def test_a_blind_sheet_shows_blind_final_reason_and_the_study(tmp_path: Path):
    text = sheet_html(_blind_sheet(tmp_path, blind=True))
    for expected in (
        "Spring calibration",
        "blind",  # the protocol
        "Blind",
        "Final",
        "applicable · <b>1</b>",  # the blind value of Workload management
        "applicable · <b>2</b>",  # its final value
        "The ECAM read-back showed the isolation was done.",
        "unchanged",  # a metric whose blind value stood
        "2025-03-01 09:00:00 UTC",
    ):
        assert expected in text, expected


def test_a_sheet_outside_a_study_has_no_study_section(tmp_path: Path):
    text = sheet_html(_blind_sheet(tmp_path, blind=False))
    assert "<h2>Study</h2>" not in text and "Reason for the change" not in text

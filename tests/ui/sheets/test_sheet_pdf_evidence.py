"""The PDF's Evidence column: each cited step with its label and note."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtGui import QPdfWriter

from reviewer.sheets import keys, sheet
from reviewer.sheets.sheet import SheetPayload, SignedSheet
from ui.sheets.sheet_html import sheet_html
from ui.sheets.sheet_pdf import render_sheet_pdf, sheet_document

CITATIONS = [
    {"kind": "event", "ref": 4, "step": "3.0", "label": "3.0 set_control apu_gen = 0",
     "note": "before reading the <ECAM>"},
    {"kind": "ground_truth", "ref": 3, "step": "GT:4",
     "label": "GT:4 ext_pwr = 1 (APU GEN FAULT)", "note": ""},
]  # fmt: skip


def _signed(tmp_path: Path, citations: list | None = None) -> SignedSheet:
    key = keys.generate_key("alice", directory=tmp_path / "keys")
    cited = CITATIONS if citations is None else citations
    item = {"title": "Safety", "outcome": "applicable", "anchor": "anchor", "comment": "c"}
    payload = SheetPayload.model_validate(
        {
            "sheet_id": "sheet-0001",
            "supersedes": None,
            "signed_at": datetime(2026, 1, 1, tzinfo=UTC),
            "run": {
                "run_id": "run-42",
                "trajectory_sha256": hashlib.sha256(b"t").hexdigest(),
                "scenario_id": "elec-apu-gen-fault",
                "model": "model-x",
            },
            "scorer": {"version": "1.0", "vector": {"coverage": 0.5}},
            "rubric": {"id": "default", "version": 1, "sha256": "cd" * 32},
            "items": [
                item | {"metric_id": "safety", "score": 1, "citations": cited},
                item | {"metric_id": "verification", "title": "Verification", "score": 2},
            ],
            "overall_comment": "",
            "rater": {"name": "alice", "public_key": key.public.b64,
                      "fingerprint": key.fingerprint},
        }
    )  # fmt: skip
    return sheet.sign_payload(payload, key)


def test_the_rubric_table_has_an_evidence_column_with_steps_labels_and_notes(tmp_path) -> None:
    html = sheet_html(_signed(tmp_path))
    assert "<th>Evidence</th>" in html
    assert "<b>3.0</b> <span class='mono'>set_control apu_gen = 0</span>" in html
    assert "<i>before reading the &lt;ECAM&gt;</i>" in html  # a note is text, never markup
    assert "<b>GT:4</b> <span class='mono'>ext_pwr = 1 (APU GEN FAULT)</span>" in html
    assert html.count("<i class='muted'>none</i>") == 2  # Verification cites nothing (+ overall)


def test_the_rendered_sheet_reads_its_evidence(qtbot, tmp_path: Path) -> None:
    signed = _signed(tmp_path)
    writer = QPdfWriter(str(tmp_path / "probe.pdf"))
    text = sheet_document(signed, writer, 2000.0).toPlainText()
    assert "Evidence" in text
    assert "3.0 set_control apu_gen = 0" in text and "GT:4 ext_pwr = 1" in text
    render_sheet_pdf(signed, tmp_path / "sheet.pdf")
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")


def test_a_sheet_without_evidence_keeps_the_old_layout(tmp_path: Path) -> None:
    html = sheet_html(_signed(tmp_path, citations=[]))
    assert "Evidence" not in html and "<th width='32%'>Level</th>" in html

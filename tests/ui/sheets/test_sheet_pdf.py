"""The PDF rendering of a signed sheet."""

from __future__ import annotations

import errno
import hashlib
import itertools
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer.sheets import keys, sheet
from reviewer.sheets.sheet import SheetPayload, SignedSheet
from ui.sheets.pdf_pager import Pager
from ui.sheets.sheet_html import sheet_html
from ui.sheets.sheet_pdf import render_sheet_pdf, sheet_document


def _signed(tmp_path: Path, *, metrics: int = 3, supersedes: str | None = None) -> SignedSheet:
    key = keys.generate_key("Anne <Martin>", directory=tmp_path / "keys")
    items = [
        {
            "metric_id": f"m{i}",
            "title": f"Metric {i}",
            "outcome": "met",
            "score": i % 4,
            "anchor": f"Anchor text of level {i % 4}",
            "comment": "Checked <b>twice</b> & agreed\nsecond line" if i == 0 else "",
        }
        for i in range(metrics)
    ]
    payload = SheetPayload.model_validate(
        {
            "sheet_id": "sheet-0001",
            "supersedes": supersedes,
            "signed_at": datetime(2025, 3, 1, 10, 15, tzinfo=UTC),
            "run": {
                "run_id": "run-42",
                "trajectory_sha256": hashlib.sha256(b"t").hexdigest(),
                "scenario_id": "elec-apu-gen-fault",
                "model": "model-x",
            },
            "scorer": {
                "version": "1.0",
                "vector": {"coverage": 0.75, "all_passed": True, "extraneous": 2, "order": None},
            },
            "rubric": {"id": "default", "version": 1, "sha256": "cd" * 32},
            "items": items,
            "overall_comment": "Sound run.",
            "rater": {
                "name": key.rater,
                "public_key": key.public.b64,
                "fingerprint": key.fingerprint,
            },
        }
    )
    return sheet.sign_payload(payload, key)


def _page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def test_html_shows_everything_a_rater_checks(tmp_path: Path) -> None:
    signed = _signed(tmp_path, supersedes="sheet-0000")
    text = sheet_html(signed)
    p = signed.payload
    for expected in (
        "run-42",
        "elec-apu-gen-fault",
        "model-x",
        p.run.trajectory_sha256,
        "0.750",  # coverage, three decimals
        "yes",  # all_passed
        "Anchor text of level 1",
        "Metric 2",
        "Sound run.",
        p.rater.fingerprint,
        signed.file_sha256,  # what sha256sum prints for the .sheet.json
        p.sheet_id,
        "Not signed:",
        "supersedes sheet sheet-0000",
        "a320-review verify run-42.Anne%20%3CMartin%3E.sheet-00.sheet.json",
        "--require-trusted",
    ):
        assert expected in text, expected
    # Rater-typed text is escaped, never interpreted as markup.
    assert "Checked &lt;b&gt;twice&lt;/b&gt; &amp; agreed<br/>second line" in text
    assert "Anne &lt;Martin&gt;" in text


def test_renders_an_a4_pdf(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "sheet.pdf"
    render_sheet_pdf(_signed(tmp_path), path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert _page_count(data) == 1
    # A4 in points: 595 x 842.
    assert re.search(rb"/MediaBox \[0 0 595(\.0+)? 842(\.0+)?\]", data)


def test_a_long_rubric_flows_onto_more_pages(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "long.pdf"
    render_sheet_pdf(_signed(tmp_path, metrics=40), path)
    assert _page_count(path.read_bytes()) >= 2


def test_pages_are_cut_between_rows_and_repeat_the_table_header(qtbot, tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    # A 300 dpi A4-sized canvas stands in for the PDF writer: same resolution, same layout.
    device = QImage(2100, 2800, QImage.Format.Format_RGB32)
    device.setDotsPerMeterX(11811)  # 300 dpi
    device.setDotsPerMeterY(11811)
    doc = sheet_document(_signed(tmp_path, metrics=40), device, 2100)
    pager = Pager(doc, 2800)
    pages = pager.pages()
    assert len(pages) >= 3
    assert pages[0][0] == 0 and pages[-1][1] == pager.end
    for (_, end, _), (start, _, _) in itertools.pairwise(pages):
        # Each page ends at a clean cut (plus the border it draws) and the next starts there.
        assert start in pager.cuts
        assert end - pager.bleed.get(start, 0.0) == start
    # Every page that continues the rubric table starts under its repeated header row.
    [(band, table_bottom)] = pager.tables
    inside = [header for start, _, header in pages[1:] if start < table_bottom]
    assert inside and all(header == band for header in inside)
    assert pages[0][2] is None
    for start, end, header in pages:
        band = 0.0 if header is None else header[1] - header[0]
        assert end - start + band <= 2800 + max(pager.bleed.values())


@pytest.fixture(autouse=True)
def _no_pdf_left_open(tmp_path: Path):
    yield
    # Every PDF written is complete (QPainter.end ran): it ends with the EOF marker.
    for pdf in tmp_path.glob("*.pdf"):
        assert pdf.read_bytes().rstrip().endswith(b"%%EOF")


def test_the_pdf_is_whole_and_its_size_is_returned(qtbot, tmp_path: Path) -> None:
    # The signing service checks the file on disk against the size returned (issue 27).
    path = tmp_path / "sheet.pdf"
    size = render_sheet_pdf(_signed(tmp_path), path)
    data = path.read_bytes()
    assert size == len(data) and data.rstrip().endswith(b"%%EOF")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_full_disk_is_an_error_not_half_a_pdf(qtbot, tmp_path: Path) -> None:
    # Qt's writer, given the path, failed silently on a full disk and left half a file.
    with pytest.raises(OSError) as failed:
        render_sheet_pdf(_signed(tmp_path), Path("/dev/full"))
    assert failed.value.errno == errno.ENOSPC

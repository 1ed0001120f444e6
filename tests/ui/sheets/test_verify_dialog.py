"""The Verify sheet dialog: OK/FAILED per sheet with the reason, as the command line says."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer.sheets import keys, sheet
from reviewer.sheets.keys import RaterKey
from reviewer.sheets.sheet import SheetPayload
from ui.sheets.verify_dialog import VerifyDialog, VerifyResultModel
from ui.theme import plain_tooltip

TRAJECTORY = b'{"type":"meta"}\n'


def _write_sheet(folder: Path, key: RaterKey, run_id: str = "run-1") -> Path:
    payload = SheetPayload.model_validate(
        {
            "sheet_id": f"{run_id}-{key.rater}",
            "supersedes": None,
            "signed_at": datetime(2025, 3, 1, tzinfo=UTC),
            "run": {
                "run_id": run_id,
                "trajectory_sha256": hashlib.sha256(TRAJECTORY).hexdigest(),
                "scenario_id": "s",
                "model": "m",
            },
            "scorer": {"version": "1", "vector": {"coverage": 0.5}},
            "rubric": {"id": "r", "version": 1, "sha256": "11" * 32},
            "items": [],
            "overall_comment": "",
            "rater": {
                "name": key.rater,
                "public_key": key.public.b64,
                "fingerprint": key.fingerprint,
            },
        }
    )
    path = folder / sheet.sheet_file_name(payload)
    path.write_text(sheet.sign_payload(payload, key).to_json(), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    alice = keys.generate_key("alice", directory=tmp_path / "keys")
    good = _write_sheet(tmp_path, alice)
    envelope = json.loads(good.read_text())
    signature = bytearray(base64.b64decode(envelope["signature"]))
    signature[10] ^= 0x40
    envelope["signature"] = base64.b64encode(bytes(signature)).decode()
    tampered = tmp_path / "tampered.sheet.json"
    tampered.write_text(json.dumps(envelope))
    trajectory = tmp_path / "run-1.jsonl"
    trajectory.write_bytes(TRAJECTORY)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"another run\n")
    trust = tmp_path / "trusted.txt"
    trust.write_text(alice.public.line() + "\n")
    mallory = keys.generate_key("mallory", directory=tmp_path / "keys")
    untrusted = _write_sheet(tmp_path, mallory, "run-1")
    return {
        "good": good,
        "tampered": tampered,
        "trajectory": trajectory,
        "other": other,
        "trust": trust,
        "untrusted": untrusted,
    }


def _cells(dialog: VerifyDialog) -> list[tuple[str, ...]]:
    model = dialog.model
    return [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]


def test_shows_ok_and_failed_with_reasons(qtbot, qtmodeltester, files) -> None:
    dialog = VerifyDialog()
    qtbot.addWidget(dialog)
    assert dialog.model.rowCount() == 0
    assert "Add the .sheet.json files" in dialog.summary.text()

    with qtbot.waitSignal(dialog.verified) as blocker:
        dialog.add_sheets([files["good"], files["tampered"], files["good"]])  # duplicate ignored
    assert blocker.args == [1]
    rows = _cells(dialog)
    assert [r[:4] for r in rows] == [
        ("OK", "run-1.alice.run-1-al.sheet.json", "run-1", "alice"),
        ("FAILED", "tampered.sheet.json", "", ""),
    ]
    assert rows[0][4].endswith(", no trust list given")
    assert rows[1][4] == "signature does not match payload"
    assert "1 of 2 sheet(s) FAILED" in dialog.summary.text()
    # Colour is a second cue, never the only one (the text says OK/FAILED).
    ok_colour = dialog.model.index(0, 0).data(Qt.ItemDataRole.ForegroundRole)
    failed_colour = dialog.model.index(1, 0).data(Qt.ItemDataRole.ForegroundRole)
    assert ok_colour != failed_colour
    assert dialog.model.index(0, 1).data(Qt.ItemDataRole.ToolTipRole) == plain_tooltip(
        str(files["good"])
    )
    result = dialog.model.index(0, 0).data(VerifyResultModel.ResultRole)
    assert result.ok and result.sheet.payload.run.run_id == "run-1"
    qtmodeltester.check(dialog.model)


def test_trajectory_is_checked_when_given(qtbot, files) -> None:
    dialog = VerifyDialog(sheets=[files["good"]], trajectory=files["trajectory"])
    qtbot.addWidget(dialog)
    assert dialog.results()[0].ok
    with qtbot.waitSignal(dialog.verified):
        dialog.set_trajectory(files["other"])
    [row] = _cells(dialog)
    assert row[0] == "FAILED"
    assert row[4].startswith("trajectory sha256 differs")
    dialog.trajectory.clear.click()
    assert dialog.trajectory.path is None
    assert dialog.results()[0].ok


def test_trust_list_and_require_trusted(qtbot, files) -> None:
    dialog = VerifyDialog(sheets=[files["good"], files["untrusted"]])
    qtbot.addWidget(dialog)
    assert not dialog.require_trusted.isEnabled()
    dialog.set_trust_file(files["trust"])
    assert dialog.require_trusted.isEnabled()
    rows = _cells(dialog)
    assert rows[0][0] == "OK" and rows[0][4].startswith("signed by alice (SHA256:")
    assert rows[1][0] == "OK" and rows[1][4].endswith("key not in the trust list")
    with qtbot.waitSignal(dialog.verified) as blocker:
        dialog.require_trusted.setChecked(True)
    assert blocker.args == [1]
    assert _cells(dialog)[1][4].startswith("key not trusted: SHA256:")


def test_a_bad_trust_list_is_said_not_ignored(qtbot, files, tmp_path: Path) -> None:
    bad = tmp_path / "bad-trust.txt"
    bad.write_text("garbage\n")
    dialog = VerifyDialog(sheets=[files["good"]], trust_file=bad)
    qtbot.addWidget(dialog)
    assert "Trust list not used" in dialog.summary.text()
    assert "bad-trust.txt:1:" in dialog.summary.text()
    # Nothing is trusted from a list that could not be read, and the row says why rather
    # than calling the key "untrusted" (issue 9 item 12).
    details = _cells(dialog)[0][4]
    assert "trust NOT checked" in details and "untrusted" not in details
    # Under "fail untrusted", a list that could not be read fails every sheet.
    dialog.require_trusted.setChecked(True)
    assert _cells(dialog)[0][0] == "FAILED"


def test_an_ok_row_says_the_trajectory_matched(qtbot, files) -> None:
    dialog = VerifyDialog(sheets=[files["good"]])
    qtbot.addWidget(dialog)
    assert "trajectory" not in _cells(dialog)[0][4]
    dialog.set_trajectory(files["trajectory"])
    assert _cells(dialog)[0][0] == "OK"
    assert _cells(dialog)[0][4].endswith("the trajectory matches")


def test_missing_file_and_clear(qtbot, files, tmp_path: Path) -> None:
    dialog = VerifyDialog(sheets=[tmp_path / "gone.sheet.json"])
    qtbot.addWidget(dialog)
    assert _cells(dialog)[0][4] == "cannot read sheet: no such file"
    dialog.clear_sheets()
    assert dialog.model.rowCount() == 0


def test_the_dialog_opens_on_add_sheets_and_enter_picks_them(qtbot, monkeypatch) -> None:
    # Found under Xvfb with the keys: the dialog opened on "Trajectory…", the first button
    # Qt made its default, and Enter asked for an optional trajectory.
    dialog = VerifyDialog()
    qtbot.addWidget(dialog)
    asked = []
    monkeypatch.setattr(dialog, "_choose_sheets", lambda: asked.append("sheets"))
    dialog.add_button.clicked.disconnect()
    dialog.add_button.clicked.connect(dialog._choose_sheets)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.add_button
    assert not dialog.trajectory.choose.autoDefault() and not dialog.trust.choose.autoDefault()
    qtbot.keyClick(dialog.add_button, Qt.Key.Key_Return)
    assert asked == ["sheets"]

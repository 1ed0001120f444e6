"""File → Collect sheets…: another rater's signed sheet comes in on a worker thread with
progress; a tampered or untrusted sheet is refused with its reason; collecting again
changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from reviewer import assets
from reviewer.sheets import keys
from reviewer.signing.service import SigningService
from reviewer.workspace import ReviewStore
from ui.sheets.collect_dialog import CollectDialog, CollectResultModel


def _bob_signs(tmp_path: Path) -> Path:
    """Bob, on his own database, rates and signs one demo run; returns the sheet file."""
    run = sorted((assets.demo_dir() / "elec-apu-gen-fault").glob("*.jsonl"))[0]
    with ReviewStore.open(tmp_path / "bob.db") as store:
        store.import_paths([run])
        run_pk = store.list_runs()[0].run_pk
        rating = store.start_rating(run_pk, "bob")
        for metric in store.rubric().metric_ids:
            rating = store.save_item(rating.rating_pk, metric, outcome="applicable", score=2,
                                     comment="", expected_version=rating.version)  # fmt: skip
        store.submit(rating.rating_pk, expected_version=rating.version)
        key = keys.generate_key("bob")
        written = SigningService(store).sign(run_pk, key, tmp_path / "inbox")
    return written.json_path


def _open_dialog(window) -> CollectDialog:
    action = next(a for a in window.actions() if a.text() == "Collect sheets…")
    action.trigger()
    dialog = window.studies.collect_dialog
    assert dialog.isVisible()
    return dialog


def _collect(qtbot, app, dialog: CollectDialog) -> list:
    progressed = []
    app.controller.collect_progressed.connect(lambda *a: progressed.append(a))
    with qtbot.waitSignal(app.controller.collect_finished, timeout=20000):
        dialog.collect_button.click()
    assert progressed and progressed[-1][0] == progressed[-1][1]  # done/total reached the end
    return [dialog.model.index(r, 0).data(CollectResultModel.ResultRole)
            for r in range(dialog.model.rowCount())]  # fmt: skip


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    sheet = _bob_signs(tmp_path)
    tampered = sheet.with_name("tampered.sheet.json")
    envelope = json.loads(sheet.read_text(encoding="utf-8"))
    envelope["payload"] = envelope["payload"].replace('"score":2', '"score":3', 1)
    assert envelope["payload"] != json.loads(sheet.read_text(encoding="utf-8"))["payload"]
    tampered.write_text(json.dumps(envelope), encoding="utf-8")
    return sheet.parent


def test_collect_sheets_stores_the_good_one_and_names_the_refused(qtbot, demo_app, inbox):
    window = demo_app.window
    window.show()
    dialog = _open_dialog(window)
    assert not dialog.collect_button.isEnabled() and not dialog.require_trusted.isEnabled()
    dialog.add_paths([inbox])
    results = _collect(qtbot, demo_app, dialog)

    by_file = {Path(r.source).name: r for r in results}
    assert by_file["tampered.sheet.json"].outcome == "refused"
    assert by_file["tampered.sheet.json"].reason
    good = next(r for name, r in by_file.items() if name != "tampered.sheet.json")
    assert good.outcome == "stored" and good.rater == "bob"
    assert "1 collected" in dialog.summary.text() and "1 refused" in dialog.summary.text()
    stored = demo_app.store.latest_decisions(rater="bob")
    assert len(stored) == 1 and stored[0].status == "signed"

    again = _collect(qtbot, demo_app, dialog)  # the same sheets again change nothing
    assert {r.outcome for r in again} == {"unchanged", "refused"}
    assert len(demo_app.store.latest_decisions(rater="bob")) == 1


def test_require_trusted_refuses_a_key_not_in_the_trust_list(qtbot, demo_app, inbox, tmp_path):
    olga = keys.generate_key("olga")
    trust = tmp_path / "team.pub"
    trust.write_text(olga.public.line() + "\n", encoding="utf-8")
    window = demo_app.window
    window.show()
    dialog = _open_dialog(window)
    dialog.add_paths(sorted(inbox.glob("*.sheet.json")))
    dialog.set_trust(trust, required=True)
    assert dialog.require_trusted.isEnabled() and dialog.require_trusted.isChecked()
    results = _collect(qtbot, demo_app, dialog)
    assert {r.outcome for r in results} == {"refused"}
    assert any("not trusted" in (r.reason or "") for r in results)
    assert demo_app.store.latest_decisions(rater="bob") == []


def test_an_unreadable_trust_list_says_why_nothing_was_collected(qtbot, demo_app, inbox, tmp_path):
    bad = tmp_path / "bad.pub"
    bad.write_text("not a key\n", encoding="utf-8")
    dialog = _open_dialog(demo_app.window)
    dialog.add_paths([inbox])
    dialog.set_trust(bad)
    with qtbot.waitSignal(demo_app.controller.collect_failed, timeout=20000):
        dialog.collect_button.click()
    assert dialog.summary.text().startswith("Nothing collected:")
    assert dialog.collect_button.isEnabled()
    dialog.close()
    QApplication.processEvents()


def test_result_model_passes_the_model_tester(qtmodeltester):
    from reviewer.collecting.model import CollectResult

    model = CollectResultModel()
    model.set_results([
        CollectResult(source="/in/a.sheet.json", outcome="stored", rater="bob", run_id="r1"),
        CollectResult(source="/in/b.sheet.json", outcome="refused", reason="bad <b>sig</b>"),
    ])  # fmt: skip
    qtmodeltester.check(model)
    assert model.index(1, 0).data() == "REFUSED"
    assert model.index(1, 4).data() == "bad <b>sig</b>"  # shown as typed, never as HTML


def test_the_dialog_opens_on_add_sheets_and_enter_does_not_close_it(qtbot, demo_app):
    # With the keys: Enter on "Add sheets…" used to reach the dialog's default button,
    # Close; an optional "Trust…" must not be the default either.
    window = demo_app.window
    window.show()
    dialog = _open_dialog(window)
    asked = []
    dialog.add_button.clicked.disconnect()
    dialog.add_button.clicked.connect(lambda: asked.append("sheets"))
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.add_button
    assert not dialog.trust.choose.autoDefault()
    qtbot.keyClick(dialog.add_button, Qt.Key.Key_Return)
    assert asked == ["sheets"] and dialog.isVisible()

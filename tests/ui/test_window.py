"""The window as a rater uses it: keyboard-only rating, errors, signing, the screenshot."""

from __future__ import annotations

import json

from apphelpers import open_run
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from reviewer.sheets import keys
from reviewer.sheets.verify import verify_file
from ui.sheets.sign_flow import SignFlow


def _activate(qtbot, window) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def test_a_rating_done_entirely_with_keys_lands_in_the_database(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _activate(qtbot, window)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_next_unrated()
    run_pk = controller.current.run_pk
    metrics = controller.store.rubric().metric_ids
    # "2" scores a metric Standard and moves on; seven metrics, seven key presses.
    for _ in metrics:
        with qtbot.waitSignal(controller.rating_saved):
            qtbot.keyClick(window, Qt.Key.Key_2)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    rating = controller.store.live_rating(run_pk, "tester")
    assert rating.status == "submitted"
    assert {m: (i.outcome, i.score) for m, i in rating.items.items()} == {
        m: ("applicable", 2) for m in metrics
    }
    assert controller.current.run_pk != run_pk  # moved on to the next unrated run
    assert controller.store.progress("tester")[0] == 1


def test_typing_digits_in_a_comment_does_not_score(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    _activate(qtbot, window)
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.queue.select_next_unrated()
    qtbot.keyClick(window, Qt.Key.Key_O)  # not observed: the form asks for a comment
    qtbot.keyClick(window, Qt.Key.Key_C)
    comment = window.rubric.editor.comment
    qtbot.waitUntil(comment.hasFocus)
    qtbot.keyClicks(comment, "3 reads")
    window.rubric.flush()
    item = controller.rating.items[window.rubric.current_metric_id()]
    assert (item.outcome, item.score, item.comment) == ("not_observed", None, "3 reads")


def test_a_corrupt_trajectory_shows_a_readable_error_and_the_window_stays_usable(
    qtbot, demo_app, tmp_path
):
    b = TrajectoryBuilder(bundled_scenario("elec-apu-gen-fault"), run_id="20260724T101500Z-c0ffee")
    path = b.turn().read("read_ecam").set("ext_pwr", 1).done().final().write(tmp_path / "x.jsonl")
    demo_app.store.import_paths([path])
    demo_app.controller.reload_runs()
    # The file is damaged after import (a disk error, a bad copy): line 3 is no longer JSON.
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = "{not json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    victim = next(r for r in demo_app.store.list_runs() if r.path == str(path))
    with qtbot.waitSignal(demo_app.controller.run_failed, timeout=10000):
        demo_app.window.queue.select_run(victim.run_pk)
    banner = demo_app.window.run_view.banner.text()
    assert f"{path}:3: invalid JSON" in banner
    assert not demo_app.window.rubric.submit_button.isEnabled()
    # Still usable: another run opens normally and the banner goes away.
    open_run(qtbot, demo_app, lambda r: r.status == "scored" and r.path != str(path))
    assert demo_app.window.run_view.banner.isHidden()


def test_sign_and_export_writes_a_sheet_that_verifies_and_locks_the_rating(
    qtbot, demo_app, tmp_path
):
    controller = demo_app.controller
    run_pk = open_run(qtbot, demo_app, lambda r: r.status == "scored")
    for metric in controller.store.rubric().metric_ids:
        controller.save_item(metric, "applicable", 2, "")
    assert controller.submit()
    flow = SignFlow(
        controller,
        ask_passphrase=lambda parent, prompt: "correct horse",
        confirm=lambda parent, text: "yes",
        choose_dir=lambda parent, start: str(tmp_path / "sheets"),
    )
    written = flow.sign_current(demo_app.window)

    assert written is not None and written.pdf_path.read_bytes().startswith(b"%PDF")
    result = verify_file(written.json_path)
    assert result.ok, result.reason
    sheet = json.loads(written.json_path.read_text(encoding="utf-8"))
    # The payload is kept as the exact canonical text that was signed.
    assert json.loads(sheet["payload"])["run"]["run_id"] == controller.current.run_id
    assert keys.is_encrypted("tester")
    assert controller.store.live_rating(run_pk, "tester").status == "signed"
    # Locked: the form is read-only and a save is refused.
    assert not demo_app.window.rubric.submit_button.isEnabled()
    with qtbot.waitSignal(controller.rating_refused):
        controller.save_item(controller.store.rubric().metric_ids[0], "applicable", 3, "x")
    assert (
        controller.store.live_rating(run_pk, "tester")
        .items[controller.store.rubric().metric_ids[0]]
        .score
        == 2
    )


def test_screenshot_mode_renders_the_window(tmp_path):
    from reviewer import cli
    from ui.entry import _run_gui

    out = tmp_path / "shot.png"
    assert cli.main(["gui", "--screenshot", str(out)], gui=_run_gui) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_an_import_shows_progress_and_can_be_cancelled(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication as _App

    from ui.app import build

    for n in range(300):
        b = TrajectoryBuilder(
            bundled_scenario("elec-apu-gen-fault"), run_id=f"20260724T101500Z-{n:06x}"
        )
        b.turn().read("read_ecam").set("ext_pwr", 1).done().final()
        b.write(tmp_path / "runs" / f"{n}.jsonl")
    app = build(tmp_path / "review.db", "tester", qapp=_App.instance())
    qtbot.addWidget(app.window)
    try:
        with qtbot.waitSignal(app.controller.import_finished, timeout=30000) as finished:
            app.controller.import_paths([tmp_path / "runs"])
            assert app.window.status.progress.isVisibleTo(app.window)  # shown while it runs
            app.window.status.cancel_button.click()
        report = finished.args[0]
        assert report.cancelled and report.added < 300
        # What was imported before the cancel stays, and the queue shows it.
        assert app.window.queue.model.rowCount() == report.added == app.store.count_runs()
        assert not app.window.status.progress.isVisibleTo(app.window)
        assert "cancelled" in app.window.statusBar().currentMessage()
    finally:
        app.controller.wait_idle()
        app.store.close()

"""Issue 9 items 7 and 9: who is rating, the signing key, and corrections."""

from __future__ import annotations

from apphelpers import open_run
from PySide6.QtWidgets import QApplication

from reviewer import home
from reviewer.sheets import keys
from ui.app import first_rater, resolve_rater
from ui.queue.run_queue_model import Column
from ui.sheets.sign_flow import SignFlow


def test_first_start_asks_who_is_rating_offering_the_names_in_the_database(demo_app):
    demo_app.store.ensure_rater("A. Martin")
    asked = []

    def ask(parent, names, current):
        asked.append(list(names))
        return "B. Okafor"

    assert resolve_rater(None) is None  # nothing remembered: the window must ask
    assert first_rater(demo_app.store.path, ask) == "B. Okafor"
    assert "A. Martin" in asked[0] and "tester" in asked[0]
    home.remember_rater("B. Okafor")
    assert resolve_rater(None) == "B. Okafor"
    assert resolve_rater("C. Diallo") == "C. Diallo"


def test_first_start_offers_this_laptops_names_first_and_fills_in_none(demo_app):
    # Ann, Bob and Cat all rate in the study; only Bob has a key on this laptop. Bob comes
    # first, and nothing is filled in: Enter must not start rating as someone else.
    for name in ("Ann", "Cat", "Bob"):
        demo_app.store.ensure_rater(name)
    keys.generate_key("Bob")
    asked = []

    def ask(parent, names, current):
        asked.append((list(names), current))
        return None

    assert first_rater(demo_app.store.path, ask) is None
    names, current = asked[0]
    assert names[0] == "Bob" and {"Ann", "Cat", "tester"} <= set(names[1:])
    assert current == ""


def test_switch_rater_changes_the_status_bar_and_the_ratings_shown(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    run_pk = open_run(qtbot, demo_app, lambda r: r.status == "scored")
    controller.save_item(controller.store.rubric().metric_ids[0], "applicable", 2, "")
    assert window.status.rater_label.text().startswith("Rater: tester · no signing key yet")
    window.identity.ask_rater = lambda parent, names, current: "A. Martin"
    with qtbot.waitSignal(controller.run_opened, timeout=10000):
        window.identity.switch_rater()
    assert controller.rater == "A. Martin"
    assert window.status.rater_label.text().startswith("Rater: A. Martin")
    assert "A. Martin" in window.windowTitle()
    assert controller.current.run_pk == run_pk and controller.rating is None  # not tester's
    assert home.last_rater() == "A. Martin"
    # A refused name changes nothing.
    window.identity.ask_rater = lambda parent, names, current: "x" * 500
    window.identity.switch_rater()
    assert controller.rater == "A. Martin"


def test_signing_key_dialog_creates_a_key_asking_the_passphrase_twice(demo_app):
    told, alerts = [], []
    answers = iter(["one", "two", "secret", "secret"])
    flow = SignFlow(
        demo_app.controller,
        ask_passphrase=lambda parent, prompt: next(answers),
        alert=lambda parent, text: alerts.append(text),
        inform=lambda parent, text: told.append(text),
    )
    key = flow.manage_key(demo_app.window)
    assert key is not None and keys.is_encrypted("tester")
    assert alerts == ["The two passphrases differ. Please type them again."]
    assert key.fingerprint in told[-1]
    # Shown again: unlocked with the passphrase, the fingerprint of the key that signs.
    flow.ask_passphrase = lambda parent, prompt: "secret"
    flow.manage_key(demo_app.window)
    assert key.fingerprint in told[-1] and key.public.line() in told[-1]
    # A wrong passphrase is a dialog, not a status-bar line.
    flow.ask_passphrase = lambda parent, prompt: "wrong"
    assert flow.manage_key(demo_app.window) is None
    assert "wrong passphrase" in alerts[-1]


def test_a_correction_asks_first_shows_a_banner_and_keeps_history(qtbot, demo_app):
    window, controller = demo_app.window, demo_app.controller
    run_pk = open_run(qtbot, demo_app, lambda r: r.status == "scored")
    for metric in controller.store.rubric().metric_ids:
        controller.save_item(metric, "applicable", 2, "")
    assert controller.submit()
    answers = []
    window.confirm = lambda parent, title, text: answers.append(text) or False
    window.correct()
    assert controller.rating.status == "submitted"  # refused: nothing started
    window.confirm = lambda parent, title, text: True
    window.correct()
    assert controller.rating.status == "draft" and controller.rating.supersedes_pk
    # The queue says what it is, and the submitted rating still counts as rated.
    queue = window.queue
    cell = queue.model.index(queue.model.row_of(run_pk), Column.RATING)
    assert cell.data() == "Correcting"
    rated = queue.model.rated_count()
    controller.save_item(controller.store.rubric().metric_ids[0], "applicable", 1, "")
    assert cell.data() == "Correcting" and queue.model.rated_count() == rated
    controller.reload_runs()  # as the store lists it
    cell = queue.model.index(queue.model.row_of(run_pk), Column.RATING)
    assert cell.data() == "Correcting" and queue.model.rated_count() == rated
    assert window.rubric.banner.isVisibleTo(window)
    assert window.rubric.banner.text().startswith("Correcting the submitted rating of ")
    versions = controller.rating_history()
    assert [v.status for v in versions] == ["submitted", "draft"]
    window.show_history()
    from ui.rating.history_dialog import HistoryDialog

    dialog = window.findChild(HistoryDialog)
    assert dialog is not None and dialog.list.count() == 2
    dialog.list.setCurrentRow(1)  # the older, submitted version, read-only
    assert not dialog.form.submit_button.isEnabled()
    assert dialog.form.model.item(controller.store.rubric().metric_ids[0]).score == 2
    dialog.close()
    QApplication.processEvents()
    # Another run: no banner.
    open_run(qtbot, demo_app, lambda r: r.status == "scored" and r.run_pk != run_pk)
    assert not window.rubric.banner.isVisibleTo(window)


def test_on_a_laptop_that_joined_a_study_its_rater_is_offered_first(tmp_path):
    from reviewer import assets
    from reviewer.cli import main

    owner, laptop = tmp_path / "owner.db", tmp_path / "bob.db"
    keys.generate_key("olga")
    assert main(["import", str(assets.demo_dir()), "--db", str(owner)]) in (0, 1)
    assert main(["study", "create", "pilot", "--raters", "Ann,Bob,Cat", "--per-run", "1",
                 "--protocol", "blind", "--owner", "olga", "--db", str(owner)]) == 0  # fmt: skip
    packet = tmp_path / "packet-bob"
    assert main(["study", "packet", "pilot", "--rater", "Bob", "--out", str(packet),
                 "--db", str(owner)]) == 0  # fmt: skip
    assert main(["study", "join", str(packet), "--db", str(laptop)]) == 0
    asked = []
    first_rater(laptop, lambda parent, names, current: asked.append((list(names), current)))
    names, current = asked[0]
    assert names[0] == "Bob" and current == ""

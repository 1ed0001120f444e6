"""A mistyped passphrase in the window asks again instead of ending the signing (found
driving the window under Xvfb: one typo meant Ctrl+Shift+S and the confirmation again)."""

from __future__ import annotations

from apphelpers import open_run

from reviewer.sheets import keys
from ui.sheets.sign_flow import PASSPHRASE_TRIES, SignFlow


def _submitted(qtbot, demo_app) -> int:
    controller = demo_app.controller
    run_pk = open_run(qtbot, demo_app, lambda r: r.status == "scored")
    for metric in controller.store.rubric().metric_ids:
        controller.save_item(metric, "applicable", 2, "")
    assert controller.submit()
    keys.generate_key("tester", passphrase=b"correct horse")
    return run_pk


def _flow(demo_app, tmp_path, answers: list[str], prompts: list[str], alerts: list[str]):
    replies = iter(answers)

    def ask(parent, prompt):
        prompts.append(prompt)
        return next(replies)

    return SignFlow(
        demo_app.controller,
        ask_passphrase=ask,
        confirm=lambda parent, text: "yes",
        choose_dir=lambda parent, start: str(tmp_path / "sheets"),
        alert=lambda parent, text: alerts.append(text),
    )


def test_a_wrong_passphrase_asks_again_and_the_right_one_signs(qtbot, demo_app, tmp_path):
    run_pk = _submitted(qtbot, demo_app)
    prompts: list[str] = []
    alerts: list[str] = []
    flow = _flow(demo_app, tmp_path, ["nope", "correct horse"], prompts, alerts)
    assert flow.sign_current(demo_app.window) is not None
    assert len(prompts) == 2 and prompts[1].startswith("Wrong passphrase, try again")
    assert "Passphrase of tester's signing key:" in prompts[1]
    assert alerts == []
    assert demo_app.controller.store.live_rating(run_pk, "tester").status == "signed"


def test_it_gives_up_after_the_last_try_and_the_rating_stays_submitted(qtbot, demo_app, tmp_path):
    run_pk = _submitted(qtbot, demo_app)
    prompts: list[str] = []
    alerts: list[str] = []
    flow = _flow(demo_app, tmp_path, ["nope"] * PASSPHRASE_TRIES, prompts, alerts)
    assert flow.sign_current(demo_app.window) is None
    assert len(prompts) == PASSPHRASE_TRIES
    assert len(alerts) == 1 and "wrong passphrase" in alerts[0]
    assert demo_app.controller.store.live_rating(run_pk, "tester").status == "submitted"

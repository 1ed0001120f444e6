"""The timeline beside the ground truth: models, classes, selection sync, large runs."""

from __future__ import annotations

from apphelpers import open_run
from PySide6.QtCore import Qt

from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from scoring import parse_trajectory, score_trajectory
from ui.run.procedure_model import NodeRole, ProcedureModel
from ui.run.timeline_model import COL_CLASS, KindRole, TimelineModel, VerdictRole

APU = "elec-apu-gen-fault"


def _apu_run(*steps, passed=True):
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="20260724T101500Z-00000a", model="m")
    b.turn("Reading the ECAM first.").read("read_ecam")
    for control, value in steps:
        b.set(control, value)
    b.call("clear_failure", {"id": "elec.apu_gen.1"})
    b.set("apu_gen", "on", is_error=True, error="value out of domain")
    b.done().final("agent_done", passed=passed)
    traj = parse_trajectory(b.text().encode())
    return traj, score_trajectory(traj)


def test_models_pass_the_model_tester_and_show_every_class(qtmodeltester):
    # matched ×3 (reset off/on, ext pwr), optional (apu_master 0), dangerous (bat_1 0),
    # extraneous: apu_gen 1 a second time (repeat) and a fuel pump (uncatalogued).
    traj, card = _apu_run(
        ("apu_gen", 0),
        ("apu_gen", 1),
        ("ext_pwr", 1),
        ("apu_master", 0),
        ("bat_1", 0),
        ("apu_gen", 1),
        ("fuel_pump_l1", 0),
    )
    timeline, procedure = TimelineModel(), ProcedureModel()
    timeline.set_run(traj, card)
    procedure.set_run(traj, card)
    qtmodeltester.check(timeline)
    qtmodeltester.check(procedure)
    classes = [
        timeline.index(r, COL_CLASS).data()
        for r in range(timeline.rowCount())
        if timeline.index(r, 0).data(KindRole) in ("command", "call")
    ]
    assert classes == [
        "✓ matched",
        "✓ matched",
        "✓ matched",
        "○ optional",
        "⚠ DANGEROUS",
        "↻ repeat",
        "+ uncatalogued",
        "? off-surface",
        "✗ errored",
        "",
    ]  # the last one is report_done: not a command, no class
    # The missing isolation step (block 2's apu_gen 0) says so in the ground truth.
    texts = _procedure_texts(procedure)
    assert ("apu_gen = 0", "MISSING") in texts
    assert ("bat_1 = 0  [dangerous]", "TAKEN ×1 (step 1.5)") in texts


def _procedure_texts(model):
    out = []
    for top in range(model.rowCount()):
        parent = model.index(top, 0)
        for row in range(model.rowCount(parent)):
            out.append((model.index(row, 0, parent).data(), model.index(row, 1, parent).data()))
    return out


def test_out_of_order_commands_are_marked_in_the_ground_truth():
    # EXT PWR before the reset attempt: block 2's ext_pwr precedes block 1's actions.
    traj, card = _apu_run(("ext_pwr", 1), ("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0))
    procedure = ProcedureModel()
    procedure.set_run(traj, card)
    marked = [t for t in _procedure_texts(procedure) if "⇅" in (t[1] or "")]
    assert marked == [("ext_pwr = 1", "✓ step 1.1  ⇅ ahead of apu_gen = 0, apu_gen = 1")]


def test_selecting_a_command_selects_its_action_and_the_reverse(qtbot, demo_app):
    open_run(qtbot, demo_app, lambda r: r.scenario_id == APU and r.coverage == 0.75)
    view = demo_app.window.run_view
    view.select_first_command()
    node = view.procedure.currentIndex().data(NodeRole)
    verdict = view.timeline.currentIndex().data(VerdictRole)
    assert (node.kind, node.required_index) == ("required", verdict.required_index)

    # The reverse: pick the ground-truth action of the third command, the timeline follows.
    target = view.procedure_model.index_for_command(2)
    view.procedure.setCurrentIndex(target)
    assert view.timeline.currentIndex().data(VerdictRole).index == 2


def test_a_5000_call_trajectory_opens(qtbot):
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="20260724T101500Z-00000b", model="m")
    for n in range(2500):
        b.turn(f"turn {n}").read("read_ecam").set("apu_gen", n % 2)
    traj = parse_trajectory(b.final("agent_done").text().encode())
    card = score_trajectory(traj)
    model = TimelineModel()
    model.set_run(traj, card)
    assert model.rowCount() == 1 + 2500 * 3 + 1  # setup, turns and calls, final
    last_command = model.row_of_call(4999)
    assert model.index(last_command, 0).data(Qt.ItemDataRole.DisplayRole) == "2500.1"


def test_a_command_flown_too_early_is_marked_in_the_timeline_too():
    traj, card = _apu_run(("ext_pwr", 1), ("apu_gen", 0), ("apu_gen", 1), ("apu_gen", 0))
    timeline = TimelineModel()
    timeline.set_run(traj, card)
    classes = [
        timeline.index(r, COL_CLASS).data()
        for r in range(timeline.rowCount())
        if timeline.index(r, 0).data(KindRole) == "command"
    ]
    # EXT PWR came before the whole reset block: it is matched, but out of order.
    assert classes == ["⇅ out of order", "✓ matched", "✓ matched", "✓ matched"]


def test_without_the_scorer_the_ground_truth_shows_the_procedure_alone(qtmodeltester, qtbot):
    from ui.run.procedure_model import COL_RUN
    from ui.run.run_view import RunView

    traj, card = _apu_run(("apu_gen", 0), ("apu_gen", 1), ("ext_pwr", 1))
    model = ProcedureModel()
    model.set_run(traj, None)  # blind phase 1: no ScoreCard reaches the model
    qtmodeltester.check(model)
    assert model.index(0, 0).data() == "1. reset_attempt"
    texts = _procedure_texts(model)
    assert texts[:2] == [("apu_gen = 0", ""), ("apu_gen = 1", "")]  # no "✓ step", no MISSING
    tops = [model.index(r, 0) for r in range(model.rowCount())]
    nodes = [model.index(r, 0, t).data(NodeRole) for t in tops for r in range(model.rowCount(t))]
    assert nodes and all(n.style is None and not n.commands and not n.run_text for n in nodes)

    view = RunView()
    qtbot.addWidget(view)
    view.set_scorer_visible(False)
    view.show_run("t", traj, card, None)
    assert view.procedure.isColumnHidden(COL_RUN) and view.timeline.isColumnHidden(COL_CLASS)
    assert all(
        view.timeline_model.index(r, 0).data(VerdictRole) is None
        for r in range(view.timeline_model.rowCount())
    )
    view.set_scorer_visible(True)  # the reveal: the same run, classified
    assert not view.procedure.isColumnHidden(COL_RUN)
    assert any(
        view.timeline_model.index(r, 0).data(VerdictRole) is not None
        for r in range(view.timeline_model.rowCount())
    )

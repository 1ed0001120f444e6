"""The timeline shows tool results as a person reads them; the raw JSON is in the details."""

from __future__ import annotations

from reviewer.demo import mcp_text
from reviewer.demo.synth import TrajectoryBuilder, bundled_scenario
from scoring import parse_trajectory, score_trajectory
from ui.run.event_details import describe
from ui.run.timeline_model import COL_DETAILS, COL_EVENT, TimelineModel

APU = "elec-apu-gen-fault"
ERROR = mcp_text.missing_arguments("set_control", ["control", "value"], {})


def _model(qtmodeltester):
    b = TrajectoryBuilder(bundled_scenario(APU), run_id="20260724T101500Z-00000b", t0=84.0)
    ecam = mcp_text.wrapped(mcp_text.ecam_entries(["APU GEN FAULT", "AC ESS BUS FAULT"]))
    b.turn("").call("read_ecam", {}, result=ecam)
    b.turn("Off, then let it settle.").set("apu_gen", 0).advance(2)
    b.turn("Again.").call("set_control", {}, result=ERROR, is_error=True)
    b.call("read_ecam", {}, result={"result": []})
    b.done().final("agent_done")
    traj = parse_trajectory(b.text().encode())
    card = score_trajectory(traj)
    model = TimelineModel()
    model.set_run(traj, card)
    qtmodeltester.check(model)
    rows = {}
    for r in range(model.rowCount()):
        key = (
            model.index(r, COL_EVENT).data(),
            len([k for k in rows if k[0] == model.index(r, COL_EVENT).data()]),
        )
        rows[key] = r
    return model, traj, card, rows


def _details(model, row):
    return model.index(row, COL_DETAILS).data()


def test_results_read_as_text_in_the_timeline(qtmodeltester):
    model, _, _, rows = _model(qtmodeltester)
    assert _details(model, rows["Agent", 0]) == "(no text; only called read_ecam)"
    assert _details(model, rows["read_ecam", 0]) == (
        "→  APU GEN FAULT (caution) · AC ESS BUS FAULT (caution)"
    )
    assert _details(model, rows["read_ecam", 1]) == "→  no ECAM message"
    assert _details(model, rows["set_control", 0]) == (
        "apu_gen = 0  →  apu_gen <- 0 (call advance() for the aircraft to react)"
    )
    assert _details(model, rows["advance", 0]) == "→  advanced 2s (t=86.0s)"
    assert _details(model, rows["set_control", 1]) == (
        "→  Error executing tool set_control: 2 validation errors for set_controlArguments …"
    )


def test_the_details_pane_has_the_whole_error_and_the_raw_json(qtmodeltester):
    model, traj, card, rows = _model(qtmodeltester)
    error_text = describe(model, model.index(rows["set_control", 1], 0), card, traj)
    for line in ERROR.splitlines():
        assert line in error_text  # every line of the validation message
    ecam_text = describe(model, model.index(rows["read_ecam", 0], 0), card, traj)
    assert "  APU GEN FAULT — caution, ELEC [vendor_flag]" in ecam_text.splitlines()
    assert 'raw result: {\n  "result": [' in ecam_text  # the JSON as recorded, one click away
    turn_text = describe(model, model.index(rows["Agent", 0], 0), card, traj)
    assert turn_text == "(no text; only called read_ecam)"

"""Tool results read as a person reads them, whatever shape the file records them in."""

from __future__ import annotations

from reviewer.demo.mcp_text import ecam_entries, missing_arguments
from reviewer.event_text import NO_ECAM, args_line, result_detail, result_line, turn_line

ECAM = {"result": ecam_entries(["AC ESS BUS FAULT", "APU GEN FAULT"])}


def test_an_ecam_read_is_its_messages_with_their_severity():
    assert result_line("read_ecam", ECAM) == "AC ESS BUS FAULT (caution) · APU GEN FAULT (caution)"
    assert result_detail("read_ecam", ECAM) == [
        "AC ESS BUS FAULT — caution, ELEC [derived]",
        "APU GEN FAULT — caution, ELEC [vendor_flag]",
    ]


def test_an_empty_ecam_says_so():
    assert result_line("read_ecam", {"result": []}) == NO_ECAM == "no ECAM message"
    assert result_detail("read_ecam", {"result": []}) == [NO_ECAM]


def test_older_ecam_shapes_read_the_same_way():
    old = {"messages": ["APU GEN FAULT"], "sim_time": 75.0}
    assert result_line("read_ecam", old) == "APU GEN FAULT"
    assert result_line("read_ecam", {"messages": [], "sim_time": 75.0}) == NO_ECAM


def test_a_command_or_an_advance_is_its_text():
    text = "apu_gen <- 0 (call advance() for the aircraft to react)"
    assert result_line("set_control", {"result": text}) == text
    assert result_line("advance", {"result": "advanced 2s (t=86.0s)"}) == "advanced 2s (t=86.0s)"
    assert result_line("set_control", "OK: apu_gen set to 0") == "OK: apu_gen set to 0"


def test_a_validation_error_is_its_first_line_and_the_rest_is_in_the_details():
    error = missing_arguments("set_control", ["control", "value"], {})
    line = result_line("set_control", error, is_error=True)
    assert line == (
        "Error executing tool set_control: 2 validation errors for set_controlArguments …"
    )
    assert result_detail("set_control", error, is_error=True) == error.splitlines()
    assert result_line("clear_failure", "Unknown tool: clear_failure", is_error=True) == (
        "Unknown tool: clear_failure"
    )


def test_read_state_is_its_values_switches_as_0_and_1():
    values = {"ELEC_AC_1_BUS_IS_POWERED": 1.0, "A32NX_HYD_BLUE_PRESSURE": 2987.5}
    assert result_line("read_state", values) == (
        "ELEC_AC_1_BUS_IS_POWERED = 1, A32NX_HYD_BLUE_PRESSURE = 2987.5"
    )
    assert result_line("read_state", {"values": {"X": 0}}) == "X = 0"  # the older shape
    assert result_detail("read_state", values)[0] == "ELEC_AC_1_BUS_IS_POWERED = 1"


def test_a_list_result_names_its_entries():
    controls = {"result": [{"name": f"c{i}", "domain": "cockpit"} for i in range(8)]}
    assert result_line("list_controls", controls) == "8: c0, c1, c2, c3, c4, c5, and 2 more"
    assert result_line("list_failures", {"result": []}) == "(none)"


def test_a_turn_without_text_says_which_tools_it_only_called():
    assert turn_line("  Reading\nthe ECAM. ", ["read_ecam"]) == "Reading the ECAM."
    assert turn_line("", ["read_ecam", "read_state", "read_state"]) == (
        "(no text; only called read_ecam, read_state ×2)"
    )
    assert turn_line(None, []) == "(no text and no tool call)"


def test_arguments_are_left_out_where_the_answer_says_them():
    values = {"ELEC_AC_1_BUS_IS_POWERED": 1.0}
    assert args_line("read_state", {"variables": ["ELEC_AC_1_BUS_IS_POWERED"]}, values) == ""
    assert args_line("advance", {"seconds": 3}, {"result": "advanced 3s (t=78.0s)"}) == ""
    refused = "Error executing tool advance: seconds must be positive, got -1"
    assert args_line("advance", {"seconds": -1}, refused, is_error=True) == '{"seconds": -1}'
    assert args_line("set_control", {"control": "gen_1", "value": "1"}, None) == 'gen_1 = "1"'
    assert args_line("set_control", {"control": "g", "value": 1, "x": 2}, None) == 'g = 1  {"x": 2}'
    assert args_line("set_control", {}, "Error …", is_error=True) == ""

"""The path field shared by the Verify and Collect dialogs."""

from __future__ import annotations

from pathlib import Path

from ui.sheets.path_field import PathField


def test_a_path_is_shown_and_cleared_with_a_signal_each_time(qtbot, tmp_path: Path) -> None:
    field = PathField("optional: a file", "&Choose…")
    qtbot.addWidget(field)
    assert field.path is None
    with qtbot.waitSignal(field.changed) as chosen:
        field.set_path(tmp_path / "keys.txt")
    assert chosen.args == [tmp_path / "keys.txt"]
    assert field.edit.text() == str(tmp_path / "keys.txt")
    assert field.clear.isEnabled()
    with qtbot.waitSignal(field.changed) as cleared:
        field.clear.click()
    assert cleared.args == [None]
    assert field.path is None and field.edit.text() == ""
    assert not field.clear.isEnabled()

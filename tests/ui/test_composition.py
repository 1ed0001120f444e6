"""The window is composed of parts, not mixed in (issue 22).

Each of the window's classes derives from its Qt class alone; what it is made of are
attributes handed what they need, so a reader (and the type checker) can follow every name.
"""

from __future__ import annotations

import pytest

from ui.controller import ReviewController
from ui.main_window import MainWindow
from ui.queue.queue_panel import QueuePanel
from ui.rating.rubric_form import RubricForm


def _non_qt_bases(cls: type) -> list[str]:
    return [
        base.__qualname__
        for base in cls.__mro__[1:]
        if base is not object and not base.__module__.startswith(("PySide6", "Shiboken"))
    ]


@pytest.mark.parametrize("cls", [MainWindow, RubricForm, QueuePanel, ReviewController])
def test_the_window_classes_derive_from_qt_alone(cls: type) -> None:
    assert _non_qt_bases(cls) == []


def test_the_parts_are_attributes(qtbot, demo_app) -> None:
    window = demo_app.window
    assert window.menus.sign_action.text() == "Sign and export…"
    assert window.status.rater_label.text().startswith("Rater: ")
    assert window.rubric.pending.comment is None and window.rubric.revision_flow.phase == "open"
    assert window.queue.columns.view is window.queue.view
    assert demo_app.controller.studies.study is None

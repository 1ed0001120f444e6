"""Fixtures for the window tests: a real store on a temporary file, the demo runs in it,
and the window built by the same composition root the app uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from reviewer import assets
from ui.app import App, build


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> None:
    # Keys, state and sheets of the tests never touch the real per-user folders.
    monkeypatch.setenv("A320_REVIEW_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture
def demo_app(qtbot, tmp_path: Path) -> App:
    """The window on a fresh database holding the demo runs (imported synchronously)."""
    app = build(tmp_path / "review.db", "tester", qapp=QApplication.instance())
    app.store.import_paths([assets.demo_dir()])
    qtbot.addWidget(app.window)
    app.controller.reload_runs()
    yield app
    app.controller.wait_idle()
    app.store.close()

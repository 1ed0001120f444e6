"""Where the window was: its geometry and splitter positions, kept between sessions.

Stored with QSettings in an INI file in the app's per-user config folder
(``reviewer.home.config_dir()``), so ``A320_REVIEW_HOME`` moves it too and tests never
touch a rater's real settings. A missing or damaged file means "first start".
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, QSize
from PySide6.QtWidgets import QMainWindow, QSplitter

from reviewer import home

SETTINGS_FILENAME = "window.ini"
#: The smallest screen the window must be usable on.
SMALLEST_SCREEN = QSize(1280, 720)


def initial_size(available: QSize) -> QSize:
    """A first-start size: most of the available screen, never more than it."""
    width = min(available.width(), max(int(available.width() * 0.92), SMALLEST_SCREEN.width()))
    height = min(available.height(), max(int(available.height() * 0.92), 600))
    return QSize(width, height)


class WindowLayout:
    """Saves and restores a main window's geometry and its splitters' positions."""

    def __init__(self) -> None:
        self._path = home.config_dir() / SETTINGS_FILENAME

    def _settings(self) -> QSettings:
        return QSettings(str(self._path), QSettings.Format.IniFormat)

    def restore_geometry(self, window: QMainWindow) -> bool:
        """Put ``window`` where it was; False on a first start."""
        if not self._path.exists():
            return False
        geometry = self._settings().value("window/geometry")
        return bool(geometry) and window.restoreGeometry(geometry)

    def restore_splitters(self, window: QMainWindow) -> bool:
        """Restore every named splitter of ``window``; False when nothing was saved."""
        if not self._path.exists():
            return False
        settings = self._settings()
        restored = False
        for name, splitter in _splitters(window):
            state = settings.value(f"splitters/{name}")
            if state:
                restored = splitter.restoreState(state) or restored
        return restored

    def save(self, window: QMainWindow) -> None:
        """Remember ``window``'s geometry and splitters (best effort: it only saves work)."""
        try:
            home.ensure_dir(self._path.parent)
        except OSError:
            return
        settings = self._settings()
        settings.setValue("window/geometry", window.saveGeometry())
        for name, splitter in _splitters(window):
            if any(splitter.sizes()):  # a splitter never shown has nothing to remember
                settings.setValue(f"splitters/{name}", splitter.saveState())
        settings.sync()


def _splitters(window: QMainWindow) -> list[tuple[str, QSplitter]]:
    # Named by their place in the widget tree, which is stable from one start to the next.
    found = window.findChildren(QSplitter)
    return [(f"s{i}", splitter) for i, splitter in enumerate(found)]

"""Where the window was: its geometry and splitter positions, kept between sessions.

Stored with QSettings in an INI file in the app's per-user config folder
(``reviewer.home.config_dir()``), so ``A320_REVIEW_HOME`` moves it too and tests never
touch a rater's real settings. A missing or damaged file means "first start".
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtWidgets import QMainWindow, QSplitter

from reviewer import home

SETTINGS_FILENAME = "window.ini"
#: The smallest screen the window must be usable on.
SMALLEST_SCREEN = QSize(1280, 720)
#: Up to this width the first start takes the whole available screen.
LAPTOP_WIDTH = 1440


def initial_size(available: QSize) -> QSize:
    """A first-start size: most of the available screen, never more than it; all of a
    laptop's screen (up to 1440 px wide), where every pixel is needed."""
    if available.width() <= LAPTOP_WIDTH:
        return QSize(available)
    width = min(available.width(), max(int(available.width() * 0.92), SMALLEST_SCREEN.width()))
    height = min(available.height(), max(int(available.height() * 0.92), 600))
    return QSize(width, height)


def first_start_size(window: QMainWindow, preferred: QSize | None = None) -> None:
    """Size ``window`` for a first start on its screen (no more than ``preferred``, when
    given); on a laptop, maximized, so the window manager fits its frame in (a client area
    of the whole screen once pushed the status bar below a 768-px screen's edge)."""
    available = window.screen().availableGeometry().size()
    size = initial_size(available)
    if preferred is not None:
        size = size.boundedTo(preferred)
    window.resize(size)
    if size == available:
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


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
            before = splitter.saveState()
            if state and splitter.restoreState(state):
                keep_panes(splitter)  # the saved state carries its own "collapsible" flag
                _keep_proportions(splitter, settings.value(f"splitter_sizes/{name}"))
                if collapsed_panes(splitter):
                    # A pane left (or damaged) at nothing: the first-start share instead,
                    # never an invisible pane a rater finds only by dragging.
                    splitter.restoreState(before)
                    keep_panes(splitter)
                    continue
                restored = True
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
                settings.setValue(f"splitter_sizes/{name}", ",".join(map(str, splitter.sizes())))
        settings.sync()


def keep_panes(splitter: QSplitter) -> None:
    """No drag can shrink a pane of ``splitter`` below its minimum size to nothing."""
    splitter.setChildrenCollapsible(False)
    for i in range(splitter.count()):
        splitter.setCollapsible(i, False)


def collapsed_panes(splitter: QSplitter) -> list[int]:
    """The panes of ``splitter`` that should show but are given (next to) no room."""
    horizontal = splitter.orientation() == Qt.Orientation.Horizontal
    found = []
    for i, size in enumerate(splitter.sizes()):
        widget = splitter.widget(i)
        if widget is None or widget.isHidden():
            continue  # hidden on purpose (the adjudication pane outside adjudication)
        hint = widget.minimumSizeHint()
        least = max(8, min(hint.width() if horizontal else hint.height(), 40))
        if size < least:
            found.append(i)
    return found


def share_width(splitter: QSplitter, queue_natural: int, rating: int) -> None:
    """The first-start share of the main splitter (queue | run | rating [| hidden]).

    The rating pane at its natural width; the queue at the width its columns want within
    a quarter of the window on a laptop (under 1600 px) and 30 % above; the run view, which
    needs the most, the rest.
    """
    width = sum(splitter.sizes()) or splitter.width()
    share = 0.25 if width < 1600 else 0.3
    queue = max(min(queue_natural or width, int(width * share)), 240)
    sizes = [queue, max(width - queue - rating, 0), rating]
    splitter.setSizes(sizes + [0] * (splitter.count() - len(sizes)))


def _splitters(window: QMainWindow) -> list[tuple[str, QSplitter]]:
    # Named by their place in the widget tree, which is stable from one start to the next.
    found = window.findChildren(QSplitter)
    return [(f"s{i}", splitter) for i, splitter in enumerate(found)]


def _keep_proportions(splitter: QSplitter, saved: object) -> None:
    """Share the splitter's room as it was shared when saved, when that room has changed.

    restoreState gives back pixels: a layout left on a 1920-pixel monitor and reopened on
    a 1366-pixel laptop kept the queue and the rating pane at their old widths and
    squeezed the run view between them to a sliver. Proportions survive the move.
    """
    try:
        sizes = [int(part) for part in str(saved).split(",")] if saved else []
    except ValueError:
        return  # a damaged value: the restored state stands
    if len(sizes) != splitter.count() or sum(sizes) <= 0:
        return
    horizontal = splitter.orientation() == Qt.Orientation.Horizontal
    room = (splitter.width() if horizontal else splitter.height()) - splitter.handleWidth() * (
        splitter.count() - 1
    )
    if room <= 0 or abs(room - sum(sizes)) <= 0.05 * sum(sizes):
        return  # the same room, give or take: the pixels as left
    splitter.setSizes([round(size * room / sum(sizes)) for size in sizes])

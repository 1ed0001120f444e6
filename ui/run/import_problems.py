"""A dock listing the files an import could not read, without interrupting the rater."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDockWidget, QListView

from ui.theme import plain_tooltip


def relative_name(path: str, roots: Sequence[Path]) -> str:
    """``path`` as seen from the folder that was imported (a file given by itself: its name).

    The machine's absolute paths say nothing to a rater and leak into screenshots; the
    full path stays in the tooltip.
    """
    target = Path(path)
    for root in roots:
        base = root if root.is_dir() else root.parent
        try:
            return str(target.relative_to(base))
        except ValueError:
            continue
    return target.name or path


#: Problems shown at once before the list scrolls.
MAX_LINES_SHOWN = 3


class ImportProblemsDock(QDockWidget):
    """Unreadable files of the last import, each with its file, line and reason."""

    def __init__(self, parent=None) -> None:
        super().__init__("Import problems", parent)
        self.setObjectName("importProblems")
        self.model = QStandardItemModel(self)
        view = QListView()
        view.setModel(self.model)
        view.setWordWrap(True)
        view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.view = view
        self.setWidget(view)

    def show_report(self, report, roots: Sequence[Path] = ()) -> None:
        """Show the unreadable files of ``report`` (paths relative to ``roots``, the
        imported folders); hide the dock when there are none."""
        self.model.clear()
        for path, message in report.unreadable:
            # Display text is plain in a list view: a file name cannot inject markup.
            item = QStandardItem(f"{relative_name(path, roots)}: {message}")
            item.setToolTip(plain_tooltip(f"{path}: {message}"))
            item.setEditable(False)
            self.model.appendRow(item)
        count = self.model.rowCount()
        # As tall as its lines, up to three (it scrolls beyond): one problem took four
        # lines' height at 1366×768, out of the queue's and the run's room.
        lines = min(max(count, 1), MAX_LINES_SHOWN)
        frame = 2 * self.view.frameWidth()
        self.view.setMaximumHeight(lines * (self.view.fontMetrics().lineSpacing() + 4) + frame)
        self.setWindowTitle(f"Import problems ({count} unreadable, skipped)")
        self.setVisible(bool(count))

    def lines(self) -> list[str]:
        """The texts shown, top to bottom."""
        return [self.model.item(row).text() for row in range(self.model.rowCount())]

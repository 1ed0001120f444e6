"""A dock listing the files an import could not read, without interrupting the rater."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel
from PySide6.QtWidgets import QDockWidget, QListView


class ImportProblemsDock(QDockWidget):
    """Unreadable files of the last import, each with its file, line and reason."""

    def __init__(self, parent=None) -> None:
        super().__init__("Import problems", parent)
        self.setObjectName("importProblems")
        self.model = QStringListModel(self)
        view = QListView()
        view.setModel(self.model)
        view.setWordWrap(True)
        view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        # A few lines are enough to notice; the rater can drag it taller.
        view.setMaximumHeight(64)
        self.setWidget(view)

    def show_report(self, report) -> None:
        """Show the unreadable files of ``report``; hide the dock when there are none."""
        lines = [f"{path}: {message}" for path, message in report.unreadable]
        self.model.setStringList(lines)
        self.setWindowTitle(f"Import problems ({len(lines)} unreadable, skipped)")
        self.setVisible(bool(lines))

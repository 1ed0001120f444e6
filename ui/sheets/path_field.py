"""A path chosen by the rater, shown read-only with Choose… and Clear: the trajectory and
trust-list fields of the Verify and Collect dialogs.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLineEdit, QPushButton, QWidget


class PathField(QWidget):
    """A read-only path with Choose… and Clear buttons; emits ``changed`` with the path."""

    changed = Signal(object)

    def __init__(self, placeholder: str, choose_label: str, parent=None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setReadOnly(True)
        self.edit.setPlaceholderText(placeholder)
        self.choose = QPushButton(choose_label)
        self.clear = QPushButton("Clear")
        # In a dialog a push button is its default by default: the dialog opened on the
        # first one, and Enter picked an optional trajectory instead of the sheets.
        for button in (self.choose, self.clear):
            button.setAutoDefault(False)
        self.clear.clicked.connect(lambda: self.set_path(None))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.choose)
        layout.addWidget(self.clear)
        self.path: Path | None = None

    def set_path(self, path: Path | None) -> None:
        self.path = None if path is None else Path(path)
        self.edit.setText("" if path is None else str(path))
        self.clear.setEnabled(path is not None)
        self.changed.emit(self.path)

    def choose_file(self, title: str, start_dir: str, filters: str = "") -> None:
        """Ask for an existing file (a native dialog); a chosen one becomes the path."""
        name, _ = QFileDialog.getOpenFileName(self.window(), title, start_dir, filters)
        if name:
            self.set_path(Path(name))

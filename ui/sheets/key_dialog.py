"""The Signing key dialog: its text, with the public-key line shown whole on one line and a
Copy button beside it.

A message box wrapped the key inside itself, so copying it from the screen could take a
line break with it, and a verifier's trust list then held a broken key. Here the line is
a read-only field that never wraps (it scrolls), and Copy puts exactly the line on the
clipboard.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

#: The line of the message that holds the key (``SignFlow.manage_key`` writes it).
KEY_PREFIX = "Public key: "


class KeyDialog(QDialog):
    """``text`` as plain text; its "Public key: …" line as a field with a Copy button."""

    def __init__(self, parent: QWidget | None, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Signing key")
        lines = text.split("\n")
        key_at = next((i for i, line in enumerate(lines) if line.startswith(KEY_PREFIX)), None)
        layout = QVBoxLayout(self)
        self.key_field: QLineEdit | None = None
        self.copy_button: QPushButton | None = None
        before = lines if key_at is None else lines[:key_at]
        layout.addWidget(_plain("\n".join(before)))
        if key_at is not None:
            row = QHBoxLayout()
            row.addWidget(QLabel(KEY_PREFIX.strip()))
            self.key_field = QLineEdit(lines[key_at][len(KEY_PREFIX) :], readOnly=True)
            self.key_field.setCursorPosition(0)
            metrics = self.key_field.fontMetrics()
            self.key_field.setMinimumWidth(
                min(metrics.horizontalAdvance(self.key_field.text()) + 16, 720)
            )
            row.addWidget(self.key_field, 1)
            self.copy_button = QPushButton("Copy")
            self.copy_button.setToolTip("Copy the public key line, exactly, to the clipboard")
            self.copy_button.clicked.connect(self.copy_key)
            row.addWidget(self.copy_button)
            layout.addLayout(row)
            after = "\n".join(lines[key_at + 1 :]).strip("\n")
            if after:
                layout.addWidget(_plain(after))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)

    def copy_key(self) -> None:
        """Put the public-key line on the clipboard, with no line break."""
        if self.key_field is not None:
            QApplication.clipboard().setText(self.key_field.text())
            if self.copy_button is not None:
                self.copy_button.setText("Copied")


def _plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # names and paths are user text
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    return label


def show_key_text(parent: QWidget, text: str) -> str | None:
    """The ``inform`` of :class:`ui.sheets.sign_flow.SignFlow`: the dialog, modal."""
    KeyDialog(parent, text).exec()
    return None

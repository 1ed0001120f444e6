"""The main window's small pieces: a titled pane, and its default dialogs (tests replace
them on the window: ``window.confirm``, ``window.ask_note``)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


def ask_note(parent: QWidget, label: str, note: str) -> str | None:
    """A one-line note on an evidence citation; None when cancelled."""
    from PySide6.QtWidgets import QInputDialog  # its enums are built on first use: not at start

    text, ok = QInputDialog.getText(
        parent, "Evidence note", f"A short note on {label} (one line):", text=note
    )
    return text if ok else None


def confirm(parent: QWidget, title: str, text: str) -> bool:
    """Yes or no, asked in a dialog."""
    from PySide6.QtWidgets import QMessageBox  # its enums are built on first use: not at start

    answer = QMessageBox.question(parent, title, text)
    return answer == QMessageBox.StandardButton.Yes


def titled(title: str, widget: QWidget) -> QWidget:
    """``widget`` under a pane title."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 4, 4, 4)
    label = QLabel(title)
    label.setObjectName("panelTitle")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box

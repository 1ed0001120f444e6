"""Earlier versions of one run's rating, opened read-only (Rating → History…).

A correction supersedes a rating; the superseded versions stay in the store. This dialog
lists them, newest first, and shows the chosen one in a read-only rubric form, so a rater
correcting a rating can see exactly what they decided before.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.rating.rubric_form import RubricForm

_STATUS = {"draft": "draft", "submitted": "submitted", "signed": "signed"}


def version_label(rating: Any) -> str:
    """One line per version: its status, when it was decided, and whether it is live."""
    when = rating.signed_at or rating.submitted_at or rating.updated_at
    text = f"{_STATUS.get(rating.status, rating.status)} · {when.astimezone():%Y-%m-%d %H:%M}"
    return text if rating.superseded_by_pk is None else f"{text} (superseded)"


class HistoryDialog(QDialog):
    """Every version of a rating, newest first; each opens read-only on the right."""

    def __init__(self, parent: QWidget | None, rubric: Any, versions: list[Any]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rating history")
        self._versions = list(reversed(versions))  # newest first
        self.list = QListWidget(self)
        for rating in self._versions:
            item = QListWidgetItem(version_label(rating))
            item.setToolTip(f"Rating #{rating.rating_pk}, version {rating.version}")
            self.list.addItem(item)
        self.list.setMaximumWidth(self.fontMetrics().horizontalAdvance("m" * 28))
        self.form = RubricForm(self)
        self.form.set_rubric(rubric)
        self.form.submit_button.hide()  # read-only: nothing to submit here
        self.list.currentRowChanged.connect(self._show)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        body = QHBoxLayout()
        body.addWidget(self.list)
        body.addWidget(self.form, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(buttons)
        if self._versions:
            self.list.setCurrentRow(0)
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self._versions):
            rating = self._versions[row]
            self.form.set_rating(rating, dict(rating.items), False)
            self.form.set_citations(rating.citations)  # each version keeps its own evidence

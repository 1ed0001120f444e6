"""The study selector above the queue: "All runs" or one study, and "My queue" within it.

It only emits intents (``study_chosen``, ``my_queue_toggled``); the controller decides what
the queue lists. Pushing state in (:meth:`StudyBar.set_studies`, :meth:`StudyBar.set_study`)
never emits, so there is no feedback loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

ALL_RUNS = "All runs"
BLIND_NOTE = "Blind: the automatic score stays hidden until you submit your blind rating."


def study_caption(study: Any) -> str:
    """How a study reads in the selector: name, protocol, k per run."""
    return f"{study.name} · {study.protocol} · {study.per_run} per run"


class StudyBar(QWidget):
    """Study selector and "My queue" switch (the default within a study)."""

    study_chosen = Signal(object)  # str | None (all runs)
    my_queue_toggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._studies: list[Any] = []
        self.combo = QComboBox(self)
        self.combo.setToolTip("Show every run, or the runs of one study")
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(12)
        self.combo.addItem(ALL_RUNS)
        self.combo.currentIndexChanged.connect(self._on_index)
        self.mine = QCheckBox("My queue", self)
        self.mine.setToolTip("Only the runs assigned to you, in your queue's order")
        self.mine.setChecked(True)
        self.mine.setEnabled(False)
        self.mine.toggled.connect(self.my_queue_toggled)
        self.note = QLabel(self)
        self.note.setObjectName("studyNote")
        self.note.setWordWrap(True)
        self.note.hide()

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Study", self))
        row.addWidget(self.combo, 1)
        row.addWidget(self.mine)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.note)
        # Nothing to choose until a study exists: the bar stays out of the way.
        self.setVisible(False)

    def set_studies(self, studies: Sequence[Any]) -> None:
        """Offer "All runs" and each study; the chosen one stays chosen if still there."""
        keep = self.current_study()
        self._studies = list(studies)
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(ALL_RUNS)
        for study in self._studies:
            self.combo.addItem(study_caption(study))
        self.combo.blockSignals(False)
        self.setVisible(bool(self._studies))
        self.set_study(keep)

    def set_study(self, name: str | None) -> None:
        """Show ``name`` as chosen (None: all runs), without emitting."""
        names = [s.name for s in self._studies]
        index = names.index(name) + 1 if name in names else 0
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(index)
        self.combo.blockSignals(False)
        self._show_state(index)

    def current_study(self) -> str | None:
        index = self.combo.currentIndex()
        return self._studies[index - 1].name if index > 0 else None

    def _on_index(self, index: int) -> None:
        self._show_state(index)
        self.study_chosen.emit(self.current_study())

    def _show_state(self, index: int) -> None:
        study = self._studies[index - 1] if index > 0 else None
        self.mine.blockSignals(True)
        self.mine.setChecked(True)  # "My queue" is the default in every study
        self.mine.blockSignals(False)
        self.mine.setEnabled(study is not None)
        blind = study is not None and study.protocol == "blind"
        self.note.setText(BLIND_NOTE if blind else "")
        self.note.setVisible(blind)

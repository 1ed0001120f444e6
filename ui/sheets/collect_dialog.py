"""File → Collect sheets…: bring other raters' signed sheets into this database.

The rater picks sheet files or folders, optionally a trust list and "require trusted"; the
dialog emits ``collect_requested`` (an intent: the controller collects on a pool thread,
as ``a320-review collect`` does) and shows the progress, then one row per sheet: stored,
unchanged, superseded or refused, with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
)

from ui.sheets.path_field import PathField
from ui.theme import plain_tooltip

_Index = QModelIndex | QPersistentModelIndex
OUTCOME_LABELS = {
    "stored": "Collected",
    "unchanged": "Already here",
    "superseded": "Kept (corrected)",
    "refused": "REFUSED",
}
_REFUSED = QColor("#b3261e")
_STORED = QColor("#1b7f3b")


class CollectResultModel(QAbstractTableModel):
    """One row per sheet file: what happened to it, whose it is, and why."""

    COLUMNS = ("Result", "Sheet", "Rater", "Run", "Reason")
    ResultRole = Qt.ItemDataRole.UserRole + 1  # the CollectResult of the row

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []

    def set_results(self, results: Iterable[Any]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._rows = list(results)
        self.endResetModel()

    def results(self) -> list[Any]:
        return list(self._rows)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section] if 0 <= section < len(self.COLUMNS) else None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        result = self._rows[index.row()]
        column = index.column()
        if role == self.ResultRole:
            return result
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(result, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            # Paths and reasons name files: shown literally, never as rich text.
            text = result.source if column == 1 else self._display(result, column)
            return plain_tooltip(text) if text else None
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return _REFUSED if result.outcome == "refused" else _STORED
        return None

    @staticmethod
    def _display(result: Any, column: int) -> str:
        if column == 0:
            return OUTCOME_LABELS.get(result.outcome, result.outcome)
        if column == 1:
            return Path(result.source).name
        if column == 2:
            return result.rater or ""
        if column == 3:
            return result.run_id or ""
        return result.reason or ""


def summary_text(results: list[Any]) -> str:
    """``3 collected, 1 already here, 2 refused`` for the dialog's summary line."""
    if not results:
        return "No sheet found (sheets are *.sheet.json files)."
    counts = Counter(r.outcome for r in results)
    words = {"stored": "collected", "unchanged": "already here",
             "superseded": "kept as corrected", "refused": "refused"}  # fmt: skip
    return ", ".join(f"{counts[k]} {w}" for k, w in words.items() if counts[k])


class CollectDialog(QDialog):
    """Pick sheets, a trust list and "require trusted"; collect; see each sheet's fate."""

    collect_requested = Signal(list, object, bool)  # paths, trust file or None, required

    def __init__(self, parent=None, *, start_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Collect rating sheets")
        self.setObjectName("collectDialog")
        self.resize(960, 420)
        self._paths: list[Path] = []
        self._start_dir = str(start_dir or Path.home())

        self.sources = QLabel("No sheets chosen yet.")
        self.sources.setTextFormat(Qt.TextFormat.PlainText)
        self.sources.setWordWrap(True)
        # The dialog opens on "Add sheets…", and Enter there picks them (not Close).
        add_files = QPushButton("Add &sheets…")
        add_files.clicked.connect(self._add_files)
        self.add_button = add_files
        add_folder = QPushButton("Add &folder…", autoDefault=False)
        add_folder.clicked.connect(self._add_folder)
        row = QHBoxLayout()
        row.addWidget(add_files)
        row.addWidget(add_folder)
        row.addStretch(1)

        self.require_trusted = QCheckBox("Refuse sheets signed by a key not in the trust list")
        self.trust = PathField("optional: trusted public keys, bound to rater names", "&Trust…")
        self.trust.choose.clicked.connect(self._choose_trust)
        self.trust.changed.connect(self._trust_changed)
        self.trust.set_path(None)  # "require trusted" means something only with a trust list

        self.progress = QProgressBar(textVisible=True)
        self.progress.hide()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.model = CollectResultModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)  # the reason matters most
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in ((0, 110), (1, 220), (2, 90), (3, 190)):
            header.resizeSection(column, width)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.collect_button = buttons.addButton("&Collect", QDialogButtonBox.ButtonRole.ApplyRole)
        self.collect_button.setEnabled(False)
        self.collect_button.clicked.connect(self._collect)
        buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("Sheets:", self.sources)
        form.addRow("", row)
        form.addRow("Trust list:", self.trust)
        form.addRow("", self.require_trusted)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        add_files.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- inputs --------------------------------------------------------------------------
    def add_paths(self, paths: Iterable[Path]) -> None:
        """Add sheet files or folders (searched for ``*.sheet.json``) to collect."""
        for path in paths:
            if Path(path) not in self._paths:
                self._paths.append(Path(path))
        names = ", ".join(p.name or str(p) for p in self._paths)
        self.sources.setText(names or "No sheets chosen yet.")
        self.collect_button.setEnabled(bool(self._paths))

    def set_trust(self, path: Path | None, *, required: bool = False) -> None:
        self.trust.set_path(path)
        self.require_trusted.setChecked(required and path is not None)

    def _trust_changed(self, path: Path | None) -> None:
        self.require_trusted.setEnabled(path is not None)
        if path is None:
            self.require_trusted.setChecked(False)

    def _add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Sheets to collect", self._start_dir, "Rating sheets (*.sheet.json);;All (*)"
        )
        self.add_paths(Path(f) for f in files)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A folder of sheets", self._start_dir)
        if folder:
            self.add_paths([Path(folder)])

    def _choose_trust(self) -> None:
        self.trust.choose_file("Trust list", self._start_dir)

    # -- the run -------------------------------------------------------------------------
    def _collect(self) -> None:
        self.collect_button.setEnabled(False)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.summary.setText("Collecting…")
        self.collect_requested.emit(
            list(self._paths), self.trust.path, self.require_trusted.isChecked()
        )

    def show_progress(self, done: int, total: int, _current: str) -> None:
        """Progress from the worker (delivered on the GUI thread)."""
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done}/{total}")

    def show_results(self, results: list[Any]) -> None:
        """The collect finished: one row per sheet file."""
        self.progress.hide()
        self.collect_button.setEnabled(bool(self._paths))
        self.model.set_results(results)
        self.summary.setText(summary_text(results))

    def show_failure(self, message: str) -> None:
        """Nothing was collected (an unreadable trust list, a database error): why."""
        self.progress.hide()
        self.collect_button.setEnabled(bool(self._paths))
        self.summary.setText(f"Nothing collected: {message}")

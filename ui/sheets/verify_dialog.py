"""The "Verify sheet" dialog: check signed rating sheets, offline, as ``a320-review verify``.

The rater picks sheet files, and optionally the trajectory they rate and a trust list; each
sheet gets a row saying OK or FAILED with the reason. Checking is a pure function of the
files (``reviewer.sheets.verify.verify_file``) and takes milliseconds, so it runs again whenever an
input changes; there is no database involved.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont
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
    QPushButton,
    QTableView,
    QVBoxLayout,
)

from reviewer.sheets.keys import KeyStoreError
from reviewer.sheets.trust import load_trust_file
from reviewer.sheets.verify import VerifyResult, verify_file
from ui.sheets.path_field import PathField
from ui.theme import plain_tooltip

_Index = QModelIndex | QPersistentModelIndex
_OK = QColor("#1b7f3b")
_FAILED = QColor("#b3261e")


class VerifyResultModel(QAbstractTableModel):
    """One row per checked sheet: file, result, run, rater, details."""

    COLUMNS = ("Result", "Sheet", "Run", "Rater", "Details")
    #: The :class:`VerifyResult` of a row, for delegates and tests.
    ResultRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[Path, VerifyResult]] = []
        self._context = _Context()

    def set_results(
        self,
        rows: Iterable[tuple[Path, VerifyResult]],
        *,
        trajectory_checked: bool = False,
        trust_unreadable: bool = False,
    ) -> None:
        """Replace every row; the flags say what the checks covered, for the Details."""
        self.beginResetModel()
        self._rows = list(rows)
        self._context = _Context(trajectory_checked, trust_unreadable)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> object:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self.COLUMNS)
        ):
            return self.COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        path, result = self._rows[index.row()]
        column = index.column()
        if role == self.ResultRole:
            return result
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(path, result, column, self._context)
        if role == Qt.ItemDataRole.ToolTipRole:
            text = str(path) if column == 1 else self._display(path, result, column, self._context)
            return plain_tooltip(text)  # names and reasons come from files
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return _OK if result.ok else _FAILED
        if role == Qt.ItemDataRole.FontRole and column == 0:
            font = QFont()
            font.setBold(True)
            return font
        return None

    @staticmethod
    def _display(path: Path, result: VerifyResult, column: int, context: _Context) -> str:
        payload = result.sheet.payload if result.sheet is not None else None
        if column == 0:
            return "OK" if result.ok else ("FLAGGED" if result.flagged else "FAILED")
        if column == 1:
            return path.name
        if column == 2:
            return payload.run.run_id if payload else ""
        if column == 3:
            return payload.rater.name if payload else ""
        # Details: the reason of a failure, or everything an OK rests on.
        if not result.ok:
            return result.reason or ""
        if context.trust_unreadable:
            key = (
                f"signed by {result.signer} ({result.fingerprint}); trust NOT checked "
                "(the trust list could not be read)"
            )
        else:
            key = result.summary().removeprefix("OK: ")
        parts = [key]
        if context.trajectory_checked:
            parts.append("the trajectory matches")
        if payload is not None and payload.supersedes:
            parts.append(f"supersedes sheet {payload.supersedes}")
        return "; ".join(parts)


class _Context(NamedTuple):
    """What the last check covered (it shapes the Details text)."""

    trajectory_checked: bool = False
    trust_unreadable: bool = False


class VerifyDialog(QDialog):
    """Pick sheets (and optionally a trajectory and trust list); see OK/FAILED per sheet.

    ``verified`` is emitted after each check with the number of sheets that failed.
    """

    verified = Signal(int)

    def __init__(
        self,
        parent=None,
        *,
        sheets: Iterable[Path] = (),
        trajectory: Path | None = None,
        trust_file: Path | None = None,
        start_dir: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Verify rating sheets")
        self.setObjectName("verifyDialog")
        self.resize(920, 400)
        self._sheets: list[Path] = []
        self._start_dir = str(start_dir or Path.home())
        self._trust_error: str | None = None
        # Fingerprint -> bound name; an empty set when the list is unreadable (none trusted).
        self._trusted: dict[str, str | None] | frozenset[str] | None = None

        self.model = VerifyResultModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        # Long run ids keep their distinctive ends; the full text is in the tooltip.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        # The details (the reason a sheet failed) matter most: they get the spare width.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in ((0, 70), (1, 220), (2, 170), (3, 90)):
            header.resizeSection(column, width)

        self.trajectory = PathField("optional: the rated trajectory (.jsonl)", "Tra&jectory…")
        self.trust = PathField("optional: trusted public keys, one per line", "&Trust list…")
        self.require_trusted = QCheckBox("Fail sheets signed by a key not in the trust list")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        # The dialog opens on "Add sheets…" (what a rater came for): Enter picks them.
        add = QPushButton("&Add sheets…")
        self.add_button = add
        clear = QPushButton("Clear &list")
        clear.setAutoDefault(False)
        sheet_row = QHBoxLayout()
        sheet_row.addWidget(add)
        sheet_row.addWidget(clear)
        sheet_row.addStretch(1)

        form = QFormLayout()
        form.addRow("Trajectory:", self.trajectory)
        form.addRow("Trust list:", self.trust)
        form.addRow("", self.require_trusted)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(sheet_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)

        add.clicked.connect(self._choose_sheets)
        clear.clicked.connect(self.clear_sheets)
        self.trajectory.choose.clicked.connect(self._choose_trajectory)
        self.trust.choose.clicked.connect(self._choose_trust)
        self.trajectory.changed.connect(self.verify)
        self.trust.changed.connect(self._trust_changed)
        self.require_trusted.toggled.connect(self.verify)

        # Seed the inputs quietly, then check once.
        for field, value in ((self.trajectory, trajectory), (self.trust, trust_file)):
            field.blockSignals(True)
            field.set_path(value)
            field.blockSignals(False)
        self._load_trust()
        self.add_sheets(sheets)
        add.setFocus(Qt.FocusReason.OtherFocusReason)

    # --- inputs ---------------------------------------------------------------------------

    def add_sheets(self, paths: Iterable[Path]) -> None:
        """Add sheet files (duplicates ignored) and check again."""
        for path in map(Path, paths):
            if path not in self._sheets:
                self._sheets.append(path)
        self.verify()

    def clear_sheets(self) -> None:
        """Forget every sheet."""
        self._sheets.clear()
        self.verify()

    def set_trajectory(self, path: Path | None) -> None:
        """The trajectory every sheet must hash to (``None``: do not check)."""
        self.trajectory.set_path(path)

    def set_trust_file(self, path: Path | None) -> None:
        """The trust list (``None``: report keys without judging them)."""
        self.trust.set_path(path)

    def results(self) -> list[VerifyResult]:
        """The results shown, in row order."""
        return [
            self.model.index(r, 0).data(VerifyResultModel.ResultRole)
            for r in range(self.model.rowCount())
        ]

    # --- checking -------------------------------------------------------------------------

    def verify(self) -> None:
        """Check every sheet against the current inputs and show the outcome."""
        trusted = self._trusted
        rows = [
            (
                path,
                verify_file(
                    path,
                    trajectory=self.trajectory.path,
                    trusted=trusted,
                    require_trusted=self.require_trusted.isChecked(),
                ),
            )
            for path in self._sheets
        ]
        self.model.set_results(
            rows,
            trajectory_checked=self.trajectory.path is not None,
            trust_unreadable=self._trust_error is not None,
        )
        failed = sum(not result.ok for _, result in rows)
        self._show_summary(len(rows), failed)
        self.verified.emit(failed)

    def _show_summary(self, total: int, failed: int) -> None:
        if self._trust_error:
            text = f"<span style='color:{_FAILED.name()}'>{html.escape(self._trust_error)}</span>"
        elif not total:
            text = "Add the .sheet.json files to check."
        elif failed:
            text = (
                f"<b style='color:{_FAILED.name()}'>{failed} of {total} sheet(s) FAILED.</b> "
                "Do not rely on a failed sheet."
            )
        else:
            text = f"<b style='color:{_OK.name()}'>All {total} sheet(s) OK.</b>"
            if self.trust.path is None:
                text += " No trust list given: compare each key fingerprint with the rater's."
        self.summary.setText(text)

    def _trust_changed(self, _path: object) -> None:
        self._load_trust()
        self.verify()

    def _load_trust(self) -> None:
        self._trusted = None
        self._trust_error = None
        self.require_trusted.setEnabled(self.trust.path is not None)
        if self.trust.path is None:
            self.require_trusted.setChecked(False)
            return
        try:
            self._trusted = load_trust_file(self.trust.path)
        except (KeyStoreError, OSError, ValueError) as exc:
            # An unreadable trust list must not quietly turn into "no trust list": under
            # "fail untrusted" every sheet fails; otherwise each says trust was not checked.
            self._trusted = frozenset()
            self._trust_error = f"Trust list not used: {exc}"

    # --- file pickers (not exercised by tests: they open native dialogs) ------------------

    def _choose_sheets(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Choose signed rating sheets",
            self._start_dir,
            "Rating sheets (*.sheet.json);;JSON files (*.json);;All files (*)",
        )
        if paths:
            self._start_dir = str(Path(paths[0]).parent)
            self.add_sheets(Path(p) for p in paths)

    def _choose_trajectory(self) -> None:
        self.trajectory.choose_file(
            "Choose the rated trajectory", self._start_dir, "Trajectories (*.jsonl);;All files (*)"
        )

    def _choose_trust(self) -> None:
        self.trust.choose_file(
            "Choose a trust list", self._start_dir, "Text files (*.txt);;All files (*)"
        )

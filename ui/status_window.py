"""The main window's status bar and identity: messages, import progress, the rater.

A mixin of :class:`ui.main_window.MainWindow`, like :mod:`ui.study_window`. The status bar
shows who rates (and whether they can sign yet), the progress of an import or an export,
and the controller's messages; the rater is switched and the signing key made from here.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QProgressBar, QPushButton

from reviewer import home
from reviewer.sheets import keys


class StatusWindow:
    """Status bar, rater identity, signing and importing, on the main window."""

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        # A rater name is user text: plain, never HTML.
        self.rater_label = QLabel()
        self.rater_label.setTextFormat(Qt.TextFormat.PlainText)
        self.rater_label.setToolTip("Change it with File → Switch rater…")
        self._show_rater(self.controller.rater)
        self.progress = QProgressBar(maximumWidth=220, textVisible=True)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel import", clicked=self.controller.cancel_import)
        self.cancel_button.hide()
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        bar.addPermanentWidget(self.rater_label)

    def _say(self, text: str) -> None:
        self.statusBar().showMessage(text, 15000)

    def switch_rater(self) -> None:
        """File → Switch rater…: rate as someone else (names in the database offered)."""
        self.rubric.flush()  # the last comment belongs to the rater who typed it
        name = self.ask_rater(self, self.controller.rater_names(), self.controller.rater)
        if name and name != self.controller.rater and self.controller.switch_rater(name):
            home.remember_rater(self.controller.rater)
            self._say(f"Now rating as {self.controller.rater}.")

    def _show_rater(self, name: str) -> None:
        # Say before Ctrl+Shift+S that signing needs a key, and where to make one.
        no_key = "" if keys.has_key(name) else " · no signing key yet (Rating → Signing key…)"
        self.rater_label.setText(f"Rater: {name}{no_key}")
        self.setWindowTitle(f"a320-review — {name}")

    def _signing_key(self) -> None:
        if self._key_manager is not None:
            self._key_manager(self)
            self._show_rater(self.controller.rater)

    def _sign(self) -> None:
        if self._signer is None:
            self._say("Signing is not available.")
            return
        self._signer(self)
        self._show_rater(self.controller.rater)  # signing may have created the key

    def _verify(self) -> None:
        if self._verifier is not None:
            self._verifier(self)

    def _import_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Import trajectories", "", "Trajectories (*.jsonl)"
        )
        if files:
            self.controller.import_paths([Path(f) for f in files])

    def _import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Import a folder of trajectories")
        if folder:
            self.controller.import_paths([Path(folder)])

    def _import_started(self) -> None:
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self._say("Importing…")

    def _import_progressed(self, done: int, total: int, current: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{done}/{total}")

    def _import_finished(self, report) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        if report is None:
            return
        text = (
            f"Imported {report.added} new, {report.new_versions} changed, "
            f"{report.unchanged} unchanged, {len(report.unreadable)} unreadable"
            + (" — cancelled" if report.cancelled else "")
        )
        self._say(text)
        self.problems.show_report(report, self.controller.last_import_roots)
        if self.queue.current_run_pk() is None:
            self.queue.select_next_unrated()

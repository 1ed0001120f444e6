"""Sign and export from the window, and the Verify sheet dialog.

The questions the flow asks (passphrase, folder, confirmation) are injectable callables,
defaulting to dialogs, so tests drive the whole flow without a modal loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget

from reviewer import home
from reviewer.sheets import key_files
from reviewer.store import StoreError
from ui.controller import ReviewController
from ui.sheets.key_dialog import show_key_text

if TYPE_CHECKING:
    # Signing, keys (cryptography), the PDF and the Verify dialog are imported when first
    # used, not with the window: none of them is on its first screen.
    from reviewer.sheets.keys import RaterKey
    from reviewer.signing.service import WrittenSheet
    from ui.sheets.verify_dialog import VerifyDialog

Ask = Callable[[QWidget, str], str | None]

#: How many passphrases the window asks for before it gives up on signing.
PASSPHRASE_TRIES = 3


def sheets_dir() -> Path:
    """Where the window writes sheets unless the rater picks another folder."""
    return home.data_dir() / "sheets"


def _ask_passphrase(parent: QWidget, prompt: str) -> str | None:
    text, ok = QInputDialog.getText(parent, "Signing key", prompt, QLineEdit.EchoMode.Password)
    return text if ok else None


def _choose_dir(parent: QWidget, start: str) -> str | None:
    folder = QFileDialog.getExistingDirectory(parent, "Write the signed sheet to…", start)
    return folder or None


def _confirm(parent: QWidget, text: str) -> str | None:
    answer = QMessageBox.question(parent, "Sign rating", text)
    return "yes" if answer == QMessageBox.StandardButton.Yes else None


def _alert(parent: QWidget, text: str) -> str | None:
    box = QMessageBox(QMessageBox.Icon.Warning, "Signing key", text, parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # names and paths are user text
    box.exec()
    return None


class SignFlow(QObject):
    """The window's "Sign and export" and "Verify sheet" actions."""

    def __init__(
        self,
        controller: ReviewController,
        *,
        ask_passphrase: Ask = _ask_passphrase,
        choose_dir: Ask = _choose_dir,
        confirm: Ask = _confirm,
        alert: Ask = _alert,
        inform: Ask = show_key_text,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.ask_passphrase = ask_passphrase
        self.choose_dir = choose_dir
        self.confirm = confirm
        self.alert = alert  # a failure the rater must see (a wrong passphrase): a dialog
        self.inform = inform
        self.last_written: WrittenSheet | None = None

    def sign_current(self, window: QWidget) -> WrittenSheet | None:
        """Sign the current run's submitted rating and write its JSON and PDF."""
        c = self.controller
        say = c.message_posted.emit
        if c.current is None:
            say("Sign and export: no run is open yet (it may still be loading).")
            return None
        if c.rating is None or c.rating.status != "submitted":
            say("Sign and export needs a submitted rating: submit it first (Ctrl+Enter).")
            return None
        # What the rater is looking at now is what gets signed: the dialogs below run their
        # own event loops, and a run still loading could become "current" meanwhile.
        run_pk, run_id, rating_pk = c.current.run_pk, c.current.run_id, c.rating.rating_pk
        key = self._key(window)
        if key is None:
            return None
        text = (
            f"Sign your rating of {run_id} as {key.rater} "
            f"(key {key.fingerprint})?\nA signed rating is locked: corrections supersede it."
        )
        if self.confirm(window, text) is None:
            return None
        # The dialog opens where sheets usually go; it must exist to open there.
        start = home.ensure_dir(sheets_dir())
        folder = self.choose_dir(window, str(start))
        if folder is None:
            return None
        from reviewer.signing.service import SheetFilesError, SigningError, SigningService
        from ui.sheets.sheet_pdf import render_sheet_pdf

        service = SigningService(c.store, pdf_renderer=render_sheet_pdf)
        try:
            written = service.sign(run_pk, key, Path(folder), rating_pk=rating_pk)
        except SheetFilesError as exc:
            # Locked in the store, but the files could not be written: say exactly that.
            say(str(exc))
            c.rating_was_signed()
            return None
        except (SigningError, StoreError, OSError) as exc:
            say(f"Not signed: {exc}")
            return None
        self.last_written = written
        c.rating_was_signed()
        if c.current is None or c.current.run_pk != run_pk:
            c.reload_runs()  # another run is open by now: refresh the queue's rating states
        # File names, and the folder by its name: the machine's absolute paths say nothing
        # to a rater and would leak into screenshots (the folder is the one just chosen).
        folder_name = written.json_path.parent.name
        # The window's service renders a PDF: it is there whenever the sheet is.
        pdf_name = written.pdf_path.name if written.pdf_path is not None else "no PDF"
        say(
            f"Signed {run_id}. Wrote {written.json_path.name} and {pdf_name} "
            f"in the folder '{folder_name}'."
        )
        return written

    def rater_key(self, window: QWidget) -> RaterKey | None:
        """The rater's key, unlocked (asking the passphrase) or created; None if declined.
        Adjudication signing (ui/window/adjudication.py) asks for it the same way."""
        return self._key(window)

    def _key(self, window: QWidget) -> RaterKey | None:
        rater = self.controller.rater
        if not key_files.has_key(rater):
            return self._create_key(window, "No signing key yet for {rater}: one is created now.")
        return self._unlock(window)

    def _create_key(self, window: QWidget, intro: str) -> RaterKey | None:
        """A new key for the rater, its passphrase asked twice (a typo would lock it)."""
        rater = self.controller.rater
        while True:
            first = self.ask_passphrase(
                window,
                intro.format(rater=rater) + "\nPassphrase to protect it (leave empty for none):",
            )
            if first is None:
                return None
            second = self.ask_passphrase(window, "The same passphrase again, to be sure:")
            if second is None:
                return None
            if first == second:
                break
            self.alert(window, "The two passphrases differ. Please type them again.")
        from reviewer.sheets import keys

        try:
            # The signing service records the public key in the store on first use.
            return keys.generate_key(rater, passphrase=first.encode() or None)
        except keys.KeyStoreError as exc:
            self.alert(window, f"No key created: {exc}")
            return None

    def _unlock(self, window: QWidget) -> RaterKey | None:
        from reviewer.sheets import keys

        rater = self.controller.rater
        prompt = f"Passphrase of {rater}'s signing key:"
        # A mistyped passphrase asks again (a few times), as sudo and ssh do, instead of
        # ending the signing and making the rater start over with Ctrl+Shift+S.
        for left in range(PASSPHRASE_TRIES - 1, -1, -1):
            try:
                passphrase = None
                if keys.is_encrypted(rater):
                    answer = self.ask_passphrase(window, prompt)
                    if answer is None:
                        return None
                    passphrase = answer.encode()
                return keys.load_key(rater, passphrase=passphrase)
            except keys.PassphraseError as exc:
                if not left:
                    self.alert(window, f"The signing key cannot be used: {exc}")
                    return None
                prompt = f"Wrong passphrase, try again ({left} left). {prompt.split('. ')[-1]}"
            except keys.KeyStoreError as exc:
                self.alert(window, f"The signing key cannot be used: {exc}")
                return None
        return None

    def manage_key(self, window: QWidget) -> RaterKey | None:
        """Rating → Signing key…: show the rater's key and fingerprint, or create one."""
        rater = self.controller.rater
        if key_files.has_key(rater):
            # The fingerprint shown is that of the key that signs (its private half), not
            # of a .pub file next to it, which could have been swapped.
            key = self._unlock(window)
            if key is not None:
                self.inform(
                    window,
                    f"Signing key of {rater}\n\nFingerprint: {key.fingerprint}\n"
                    f"Public key: {key.public.line()}\n\nPrivate key: {key.path}\n\n"
                    "Give the public key line to whoever verifies your sheets "
                    "(their trust list).",
                )
            return key
        key = self._create_key(window, "{rater} has no signing key yet: create one now.")
        if key is not None:
            self.inform(
                window,
                f"Created the signing key of {rater}.\n\nFingerprint: {key.fingerprint}\n"
                f"Private key: {key.path}",
            )
        return key

    def verify_dialog(self, window: QWidget) -> VerifyDialog:
        """Open the Verify sheet dialog (non-modal: rating can go on beside it)."""
        from ui.sheets.verify_dialog import VerifyDialog

        dialog = VerifyDialog(window, start_dir=sheets_dir())
        dialog.open()
        return dialog

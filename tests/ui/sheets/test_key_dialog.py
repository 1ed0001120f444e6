"""Issue 25: the Signing key dialog shows the public key on one line, never wrapped inside
it, with a Copy button that copies exactly that line."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLabel

from ui.sheets.key_dialog import KeyDialog

LINE = "a320-review-ed25519 " + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo" * 3 + " A. Martin"


def test_the_public_key_is_one_unwrapped_line_with_a_copy_button(qtbot):
    text = (
        "Signing key of A. Martin\n\nFingerprint: SHA256:abc\n"
        f"Public key: {LINE}\n\nPrivate key: /home/a/key\n\nGive the public key line away."
    )
    dialog = KeyDialog(None, text)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.key_field is not None and dialog.key_field.text() == LINE
    # No label holds the key, so no wrapping can cut it; the field scrolls instead.
    assert all(LINE not in label.text() for label in dialog.findChildren(QLabel))
    dialog.copy_button.click()
    assert QApplication.clipboard().text() == LINE
    assert "\n" not in QApplication.clipboard().text()
    shown = "\n".join(label.text() for label in dialog.findChildren(QLabel))
    assert "SHA256:abc" in shown and "/home/a/key" in shown


def test_a_message_without_a_key_is_shown_as_it_is(qtbot):
    dialog = KeyDialog(None, "Created the signing key of A.\n\nFingerprint: SHA256:x")
    qtbot.addWidget(dialog)
    assert dialog.key_field is None
    assert any("SHA256:x" in label.text() for label in dialog.findChildren(QLabel))

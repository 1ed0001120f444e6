"""Who is rating: asked on first start and by File → Switch rater….

The window never rates silently as the login name: a rater picks a name already in the
database or types a new one. The name is checked by the store (``ensure_rater``); this
module only asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QWidget

#: (parent, names already in the database, the current name or "") -> the chosen name,
#: or None when the rater cancels. Tests pass their own.
AskRater = Callable[[QWidget | None, Sequence[str], str], str | None]

PROMPT = (
    "Who is rating? Your name goes on every rating and signed sheet.\n"
    "Pick your name or type a new one:"
)


def ask_rater(parent: QWidget | None, names: Sequence[str], current: str) -> str | None:
    """A dialog offering ``names`` (editable: a new name may be typed)."""
    from PySide6.QtWidgets import QInputDialog  # its enums are built on first use: not at start

    choices = list(dict.fromkeys([current, *names] if current else names))
    name, ok = QInputDialog.getItem(
        parent, "Rater", PROMPT, choices, 0 if choices else -1, editable=True
    )
    name = name.strip()
    return name if ok and name else None

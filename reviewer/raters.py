"""The one rule for rater names, shared by the key store, the signing verbs and the store.

A rater name is printed in trust lists (one key a line), sheet files, status bars and file
names, so a name must be a single visible line: a line break would forge a second
trust-list line, a control character can rewrite a terminal. Length is bounded so that
every place that shows a name can show all of it.
"""

from __future__ import annotations

import unicodedata

MAX_RATER_NAME = 100


class RaterNameError(ValueError):
    """A rater name breaks the rule; the message says which part and why."""


def check_rater_name(name: str) -> str:
    """``name`` unchanged if it is a valid rater name; :class:`RaterNameError` if not.

    Refused: empty or whitespace-only names, names with leading or trailing whitespace,
    more than :data:`MAX_RATER_NAME` characters, and any control, format, line or
    paragraph separator character (``\\n``, ``\\r``, tab, NUL, U+2028, bidi overrides...).
    """
    if not isinstance(name, str) or not name.strip():
        raise RaterNameError("the rater name is empty")
    if len(name) > MAX_RATER_NAME:
        raise RaterNameError(
            f"the rater name has {len(name)} characters; at most {MAX_RATER_NAME} are allowed"
        )
    for index, char in enumerate(name):
        # Cc: controls (line breaks, tab, ESC); Cf: format (bidi overrides, zero-width);
        # Zl/Zp: Unicode line and paragraph separators; Cs: lone surrogates.
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            raise RaterNameError(
                f"the rater name contains a control or line-break character "
                f"(U+{ord(char):04X} at position {index + 1}): {name!r}"
            )
    if name != name.strip():
        raise RaterNameError(f"the rater name starts or ends with a space: {name!r}")
    return name

"""The per-user home: where the default review database and small per-user state live.

By default these are the platform's user data and config folders (``platformdirs``: e.g.
``~/.local/share/a320-review`` and ``~/.config/a320-review`` on Linux). Setting the
``A320_REVIEW_HOME`` environment variable puts everything under that one folder instead,
``<home>/data`` and ``<home>/config``, which is what tests, demos and portable installs want.

Nothing here creates folders on import or on a mere lookup: a command that only reads must
not leave empty folders behind. :func:`ensure_dir` creates one when a writer needs it.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import platformdirs

#: Environment variable that overrides the platform folders.
HOME_ENV = "A320_REVIEW_HOME"
APP_NAME = "a320-review"
DB_FILENAME = "review.db"
STATE_FILENAME = "state.json"


def _override() -> Path | None:
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def data_dir() -> Path:
    """Folder of the default database (``$A320_REVIEW_HOME/data`` when that is set)."""
    home = _override()
    if home is not None:
        return home / "data"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """Folder of per-user settings and keys (``$A320_REVIEW_HOME/config`` when that is set)."""
    home = _override()
    if home is not None:
        return home / "config"
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    """The review database used when a command is given no ``--db``."""
    return data_dir() / DB_FILENAME


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) if missing; returns it."""
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class UserState:
    """Small per-user state remembered between sessions; every field is optional.

    A plain dataclass, not a pydantic model: the window and ``runs`` read it before
    anything else of theirs needs pydantic (whose first model costs ~0.1 s of start-up).
    """

    last_rater: str | None = None
    last_db: str | None = None

    @classmethod
    def from_json(cls, data: bytes) -> UserState:
        """The state in ``data``; ``ValueError`` unless it is an object whose known keys
        hold text or null (unknown keys are ignored, as a newer version may add some)."""
        found = json.loads(data)
        if not isinstance(found, dict):
            raise ValueError("the state file does not hold a JSON object")
        values = {f.name: found.get(f.name) for f in fields(cls)}
        if not all(v is None or isinstance(v, str) for v in values.values()):
            raise ValueError("a state value is neither text nor null")
        return cls(**values)


def state_path() -> Path:
    """The JSON file holding :class:`UserState`."""
    return config_dir() / STATE_FILENAME


def load_state() -> UserState:
    """The saved state; a missing or damaged file gives the defaults.

    The state only saves typing (the last rater name), so a damaged file is not worth an
    error dialog: it is replaced on the next :func:`save_state`.
    """
    try:
        return UserState.from_json(state_path().read_bytes())
    except (OSError, ValueError):  # json.JSONDecodeError and UnicodeDecodeError included
        return UserState()


def save_state(state: UserState) -> None:
    """Write ``state`` atomically (a crash leaves either the old or the new file)."""
    folder = ensure_dir(config_dir())
    fd, tmp = tempfile.mkstemp(prefix=".state-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(asdict(state), fh, indent=2)
            fh.write("\n")
        os.replace(tmp, state_path())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def last_rater() -> str | None:
    """The rater name used last on this account, if any."""
    return load_state().last_rater


def remember_rater(name: str) -> None:
    """Record ``name`` as the last rater (kept for the next session)."""
    save_state(replace(load_state(), last_rater=name))

"""The one way to reach bundled data (rubrics, demo scenarios and runs, icons, stylesheet).

Everything goes through :mod:`importlib.resources`, so it works the same from a checkout,
an editable install and a wheel.  ``ui`` builds its icons and stylesheet from these paths.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGE = "resources"


def root() -> Traversable:
    """The bundled ``resources`` package."""
    return resources.files(PACKAGE)


def path(*parts: str) -> Traversable:
    """A bundled file or folder, e.g. ``path("icons", "matched.svg")``."""
    node = root()
    for part in parts:
        node = node / part
    return node


def read_text(*parts: str) -> str:
    """The UTF-8 text of a bundled file."""
    return path(*parts).read_text(encoding="utf-8")


def as_file(*parts: str) -> AbstractContextManager[Path]:
    """A real filesystem path for a bundled file or folder (for APIs that need one)."""
    return resources.as_file(path(*parts))


def demo_dir() -> Path:
    """The folder of bundled demo trajectories.

    Packages installed from a wheel or in editable mode live on the filesystem, so this is
    a plain path; a zipped install is not supported for the demo.
    """
    return Path(str(path("demo")))

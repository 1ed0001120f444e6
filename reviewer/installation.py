"""Are ``scoring``, ``reviewer``, ``ui`` and ``resources`` all from this installation?

The four top-level names are generic: another installed package, a folder on
``PYTHONPATH`` or a ``scoring/`` folder in the directory where ``python -m reviewer`` runs
can shadow one of them, and the command then fails later with an ImportError that names
nothing useful (``pip check`` sees no problem either). :func:`shadowing_problem` finds
that case up front, without importing the packages (only their import specs are looked
up), so the command line can exit with one line that says which folder is in the way.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

#: The top-level packages one a320-review installation puts side by side.
PACKAGES: tuple[str, ...] = ("scoring", "reviewer", "ui", "resources")


def package_dir(name: str) -> Path | None:
    """The folder the import system would load package ``name`` from (None: not found)."""
    module = sys.modules.get(name)
    if module is not None and module.__file__:
        return Path(module.__file__).resolve().parent
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
        return Path(spec.origin).resolve().parent
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]).resolve() if locations else None


def shadowing_problem() -> str | None:
    """One line naming the package that does not come from this installation, or None.

    This installation is where ``reviewer`` (the code running now) lives; each of the
    others must sit in the same folder.
    """
    home = Path(__file__).resolve().parent.parent
    for name in PACKAGES:
        where = package_dir(name)
        if where is None:
            return (
                f"a320-review: the package {name!r} of this installation is missing (expected "
                f"{home / name}); reinstall a320-review (pip install --force-reinstall a320-review)"
            )
        if where.parent != home:
            return f"a320-review: {name!r} is loaded from {where}, not from {home}; {_fix(where)}"
    return None


def _fix(where: Path) -> str:
    """What to do about the folder ``where`` that shadows one of our packages."""
    parent = where.parent
    on_pythonpath = {
        Path(p).resolve() for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p
    }
    if parent in on_pythonpath:
        return f"remove {parent} from PYTHONPATH"
    if parent == Path.cwd().resolve():
        return f"run a320-review from another directory (this one holds a {where.name}/ folder)"
    return (
        f"uninstall or rename the other package at {where} "
        "(pip uninstall it, or install a320-review in its own virtual environment)"
    )

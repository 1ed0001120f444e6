"""``scoring``'s names are resolved on first use (PEP 562): its three lists of them, the
checkers' imports, the lazy table and ``__all__``, name the same things, and each resolves
to the object of the module the checkers import it from."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import scoring


def _checker_imports() -> dict[str, str]:
    tree = ast.parse(Path(scoring.__file__).read_text(encoding="utf-8"))
    guarded = next(n for n in tree.body if isinstance(n, ast.If))  # if TYPE_CHECKING:
    return {
        alias.name: node.module.removeprefix("scoring.")
        for node in guarded.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def test_the_lazy_table_all_and_the_checkers_imports_agree() -> None:
    imports = _checker_imports()
    assert imports == scoring._WHERE
    assert sorted(scoring.__all__) == sorted(imports)


def test_every_name_resolves_to_its_modules_object() -> None:
    for name, module in scoring._WHERE.items():
        assert getattr(scoring, name) is getattr(importlib.import_module(f"scoring.{module}"), name)

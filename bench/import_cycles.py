"""List the import cycles among the product's modules (scoring, reviewer, ui).

Reads the source with :mod:`ast`, so every import counts: module level, inside a function,
and under ``if TYPE_CHECKING:`` alike (a type-only import that dodges a cycle is still
one). A cycle is a strongly connected component of the module graph; an import of a
module's own parent package is left out (Python loads the parent first anyway).

    python bench/import_cycles.py          # from the project root; exit 1 if any cycle
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOTS = ("scoring", "reviewer", "ui")


def module_files(root: Path) -> dict[str, Path]:
    """Every module under the product packages, by dotted name."""
    found = {}
    for package in ROOTS:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is a module (``a.b.Name`` -> ``a.b``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, Path]) -> dict[str, dict[str, int]]:
    """``module -> {imported module: first line}``, parent packages left out."""
    graph: dict[str, dict[str, int]] = {name: {} for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                known = _known(target, modules)
                if known and known != name and not name.startswith(known + "."):
                    graph[name].setdefault(known, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in graph:
        if node not in index:
            visit(node)
    return found


def main() -> int:
    """Print each cycle with the imports that close it; 1 when there is any."""
    graph = import_graph(module_files(Path.cwd()))
    found = cycles(graph)
    for component in found:
        print(f"cycle of {len(component)} modules:")
        for module in component:
            for other, line in sorted(graph[module].items()):
                if other in component:
                    print(f"  {module}:{line} -> {other}")
    print(f"{len(found)} import cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

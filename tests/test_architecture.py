"""The package's import graph: no cycles (function-level imports included, ``if TYPE_CHECKING`` ones not), and
no module importing a private name from another package.

A cycle hidden behind an import inside a function still ties the two modules together: neither can be read,
tested or changed alone. Imports that only type checkers see do not run, so they are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "ont_platform"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        if "_bundled" in path.relative_to(PACKAGE).parts:
            continue
        parts = ("ont_platform", *path.relative_to(PACKAGE).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _package(module: str) -> str:
    """The package a module belongs to: private names may be shared inside it, not across packages."""
    return module.rsplit(".", 1)[0]


def _graph() -> tuple[nx.DiGraph, list[str]]:
    modules = _modules()
    graph: nx.DiGraph = nx.DiGraph()
    graph.add_nodes_from(modules)
    private: list[str] = []
    for name, path in modules.items():
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if not (node.module or "").startswith("ont_platform"):
                    continue
                base = node.module or ""
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
                private += [
                    f"{name} imports {base}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                    and not a.name.startswith("__")
                    and f"{base}.{a.name}" not in modules
                    and _package(base) != _package(name)
                ]
            else:
                targets = [a.name for a in node.names if a.name.startswith("ont_platform")]
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph, private


def test_the_package_has_no_import_cycles() -> None:
    graph, _ = _graph()
    assert len(graph) > 50  # the walk found the package
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []


def test_no_module_imports_a_private_name_of_another_package() -> None:
    _, private = _graph()
    assert private == []


def test_a_cycle_is_found_when_there_is_one() -> None:
    """The check itself: two modules importing each other inside functions form a component."""
    graph: nx.DiGraph = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    assert [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1] == [["a", "b"]]

#!/usr/bin/env python3
"""The first-party import graph, read with ``ast``: imports inside functions and cycles.

Usage::

    python tools/import_graph.py                # both reports
    python tools/import_graph.py --local        # only first-party imports inside functions
    python tools/import_graph.py --cycles       # only module-level cycles (strongly connected)
    python tools/import_graph.py --edges MOD    # what MOD imports and who imports MOD

A function-level import is listed with the module and line it sits in; the cycles are the
strongly connected components of the module-level graph (each line one component). The
layer contracts themselves are in pyproject.toml (``lint-imports``); this is the map used to
plan and check them.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "duplicate")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ".venv" in path.parts:
                continue
            found[module_name(path)] = path
    return found


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` is or lies inside."""
    while name:
        if name in known:
            return name
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return None


def imports_of(module: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(imported module, line, inside a function?) for each first-party import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    result: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    target = resolve(alias.name, known)
                    if target:
                        result.append((target, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = module.split(".")
                    if not is_package:
                        anchor = anchor[:-1]
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in child.names:
                    target = resolve(f"{base}.{alias.name}", known) or resolve(base, known)
                    if target and target != module:
                        result.append((target, child.lineno, in_function))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                continue
            visit(child, inner)

    visit(tree, False)
    return result


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(10000)

    def connect(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in graph.get(node, ()):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(components, key=len, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local", action="store_true", help="function-level imports only")
    parser.add_argument("--cycles", action="store_true", help="module-level cycles only")
    parser.add_argument("--all-levels", action="store_true",
                        help="count function-level imports in the cycles too")
    parser.add_argument("--edges", metavar="MODULE", help="a module's imports and importers")
    args = parser.parse_args()
    known = all_modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    local: list[tuple[str, int, str]] = []
    every: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target, line, inside in imports_of(name, path, known):
            every[name].add(target)
            if inside and (name, line, target) not in local:
                local.append((name, line, target))
            else:
                graph[name].add(target)
    if args.edges:
        print("imports:", ", ".join(sorted(every.get(args.edges, ()))))
        print("imported by:", ", ".join(sorted(n for n, t in every.items() if args.edges in t)))
        return 0
    both = not (args.local or args.cycles)
    if args.local or both:
        for name, line, target in local:
            print(f"{known[name].relative_to(ROOT)}:{line}: {target}")
        print(f"{len(local)} first-party imports inside functions")
    if args.cycles or both:
        components = strongly_connected(every if args.all_levels else graph)
        for component in components:
            print(f"cycle ({len(component)}): {' '.join(component)}")
        print(f"{len(components)} cycles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

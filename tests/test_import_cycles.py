"""No import cycles inside the interpreter package.

Every ``import`` and ``from … import`` in ``interpreter/`` is read with
:mod:`ast`, at any depth (an import inside a function is still an edge: the
two modules need each other), except those under ``if TYPE_CHECKING:``,
which never run. Relative imports are resolved, and ``from package import
name`` counts as importing the submodule when ``name`` is one (and the
package otherwise). The graph
must have no cycle; each cycle found is reported with its modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "interpreter"

# Cycles another change is removing, one line each, taken out when it lands, e.g.
#     frozenset({"interpreter.mods", "interpreter.ruleset"}),
# (that one is gone: mods take the declarations they change as arguments now).
KNOWN: set[frozenset[str]] = set()


def module_files() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every import node of the tree, skipping the bodies of ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        is_package = path.name == "__init__.py"
        here = mod.split(".") if is_package else mod.split(".")[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = here[:len(here) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                # 'from package import module' needs that module; any other name, the package
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in files else target
                           for a in node.names]
            for target in targets:
                if target in files and target != mod:
                    graph[mod].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walker_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_walker_reads_relative_and_nested_imports():
    graph = import_graph()
    # a relative import at the top of a module, and an import inside a function
    assert "interpreter.engine.game" in graph["interpreter.engine.flow"]
    assert "interpreter.engine.lookahead" in graph["interpreter.engine.agents"]


def test_no_import_cycles_in_the_interpreter():
    found = [c for c in cycles(import_graph()) if frozenset(c) not in KNOWN]
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)

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
PACKAGE = "interpreter"  # the folder
NAME = "rulebook_games"  # the name it is imported by

# Cycles another change is removing, one line each, taken out when it lands, e.g.
#     frozenset({"rulebook_games.load.mods", "rulebook_games.load.ruleset"}),
# (that one is gone: mods take the declarations they change as arguments now).
KNOWN: set[frozenset[str]] = set()


def module_files() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = [NAME] + list(path.relative_to(ROOT / PACKAGE).with_suffix("").parts)
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
    assert "rulebook_games.engine.game" in graph["rulebook_games.engine.flow"]
    assert "rulebook_games.agents.lookahead" in graph["rulebook_games.agents.greedy"]


def test_no_import_cycles_in_the_interpreter():
    found = [c for c in cycles(import_graph()) if frozenset(c) not in KNOWN]
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


# Rooms and what each may import (docs/architecture.md). The modules at the top of
# the package are the base; the package itself (which hands out the Python API's
# names) and the command line may use every room.
BASE = "base"
ROOMS = {
    BASE: {BASE},
    "lang": {BASE, "lang"},
    "load": {BASE, "lang", "load"},
    "engine": {BASE, "lang", "load", "engine"},
    "agents": {BASE, "lang", "load", "engine", "agents"},
    "scenarios": {BASE, "lang", "load", "engine", "agents", "scenarios"},
    "play": {BASE, "lang", "load", "engine", "agents", "play"},
    "sim": {BASE, "lang", "load", "engine", "agents", "play", "sim"},
    "lab": {BASE, "lang", "load", "engine", "agents", "play", "sim", "lab"},
    "lsp": {BASE, "lang", "load", "engine", "scenarios", "lsp"},
    "env": {BASE, "lang", "load", "engine", "agents", "play", "env"},
    "api": {BASE, "lang", "load", "engine", "agents", "play", "sim", "api"},
    "web": {BASE, "lang", "load", "engine", "agents", "play", "sim", "api", "web"},
}


def room(module: str) -> str | None:
    """The room a module belongs to; None for the package itself and the command line."""
    parts = module.split(".")[1:]
    if not parts or parts[0] in ("cli", "__main__"):
        return None
    return parts[0] if len(parts) > 1 or parts[0] in ROOMS else BASE


def test_every_module_belongs_to_a_room():
    for module in import_graph():
        where = module.split(".")[1:]
        assert room(module) in ROOMS or not where or where[0] in ("cli", "__main__"), module


def test_no_room_imports_one_above_it():
    wrong = []
    for module, targets in import_graph().items():
        here = room(module)
        if here is None:
            continue
        for target in sorted(targets):
            there = room(target)
            if there is None or there not in ROOMS[here]:
                wrong.append(f"{module} -> {target}")
    assert not wrong, "imports a room may not make:\n" + "\n".join(wrong)

"""Stage 5: compile checked effects into one Python module per ruleset.

:class:`Compiler` collects every effect and expression of a ruleset as it is
checked (``effect``/``expression`` hand back a placeholder at once), then
:meth:`Compiler.finish` makes the module; each entry's source is generated
with :mod:`.codegen`, compiled with Python's own compiler, and put where its
placeholder was. The module sees no Python builtin beyond the few the
generated code itself uses, and no name the rules could choose; each piece of
source is checked by :mod:`.pycheck` to hold nothing else before it runs. Small pieces
compiled later (a scenario's check, a value the words need) each get a small
module of their own that calls into the ruleset's.

Each entry's Python is written and compiled the first time it runs, since a
game runs only part of a ruleset; :meth:`Compiler.generate_all` writes all of
it, for ``rulebook compile RULESET --emit``.
"""

from __future__ import annotations

import builtins
import itertools
from typing import Any, Callable

from . import ast
from . import gensupport as G
from . import pycheck
from . import unparse
from .codegen import CodeGen, Source, pyname
from .runtime import MAX_CALL_DEPTH, Frame, RuleRuntimeError
from .symbols import SymbolTable

Code = Callable[[Frame], Any]

_numbers = itertools.count(1)

# the only Python builtins generated code may use
_BUILTINS = {name: getattr(builtins, name)
             for name in ("any", "all", "sum", "len", "next", "bool", "dict", "abs", "max",
                          "range")}

_SUPPORT = {
    "_F": Frame, "_items": G.items, "_seen": G.seen, "_made": G.made, "_taken": G.taken,
    "_counted": G.counted, "_listed": G.listed, "_overflow": G.overflow, "_div": G.div,
    "_no_player": G.no_player, "_field_of": G.field_of, "_field": G.field,
    "_too_deep_calls": G.too_deep_calls, "_MAXD": MAX_CALL_DEPTH,
    "_call_asking": G.call_asking, "_asking": G.asking,
    "_asking_items": G.asking_items, "_any_of": G.any_of, "_may": G.may,
    "_choose": G.choose, "_modifier": G.modifier,
    "_require_failed": G.require_failed, "_memo": G.memo, "_by_zones": G.by_zones,
    "_by_board": G.by_board, "_by_zones_seen": G.by_zones_seen, "_by_board_seen": G.by_board_seen,
    "_cell": G.cell, "_number": G.number, "_MAXI": G.MAXI, "_MINI": G.MINI, "_UNSET": G.UNSET,
    "_Return": G.Return, "_Break": G.Break,
    "_RuleError": RuleRuntimeError,
}


class _Pending:
    """A compiled entry whose Python is generated the first time it runs."""

    __slots__ = ("compiler", "node", "kind", "real", "unit", "key")

    def __init__(self, compiler: "Compiler", node, kind: str):
        self.compiler, self.node, self.kind = compiler, node, kind
        self.real = self.unit = self.key = None

    def ready(self):
        if self.real is None:
            if self.unit is None:
                self.compiler.finish()
            self.unit.generate(self)
        return self.real

    def __call__(self, frame: Frame):
        return (self.real or self.ready())(frame)

    def call(self, rt, V: dict):
        """The entry run for the runtime ``rt`` and the variables ``V``, with no frame
        made (see ``gensupport.entry``)."""
        return (self.real or self.ready()).call(rt, V)

    @property
    def plain(self):
        return self.ready().plain


class _Unit:
    """One module: its namespace, and the entries whose source is not written yet.

    Writing and compiling a whole ruleset's Python takes longer than a game
    needs to start, and a game runs only part of it, so each entry is written
    and compiled the first time it runs (or all at once, for ``--emit``)."""

    def __init__(self, compiler: "Compiler", gen: CodeGen, src: Source, namespace: dict,
                 filename: str):
        self.compiler, self.gen, self.src, self.namespace = compiler, gen, src, namespace
        self.filename = filename
        self.chunks: list[str] = []
        self.entries: list[_Pending] = []  # every entry of the module, written or not
        self.consts_done = 0
        self.count = 0

    def generate(self, p: _Pending) -> None:
        if p.real is not None:
            return
        src, key, table = self.src, p.key, self.compiler.table
        start = len(src.lines)
        name = src.fresh("F")
        pure, params, callee = None, frozenset(), None
        if key is not None and len(key) == 2 and key[0] in ("procedure", "function"):
            callee = key[1]
            decl = table.callables.get(key[1])
            if key[0] == "function" and p.kind in ("expression", "number") \
                    and decl is not None:
                pure, params = key[1], frozenset(n for n, _, _ in decl.params)
        where = p.node.span
        title = (" / ".join(str(k) for k in key) if key else p.kind) + (
            f" ({where.file}:{where.line})" if where is not None else "")
        # a comment line: nothing in it may end the line or the comment early
        title = "".join(c if c.isprintable() and c.isascii() else "?" for c in title)
        fast = self.gen.function(name, p.node, p.kind, pure, params, callee, title)
        fast, twin = fast if isinstance(fast, tuple) else (fast, None)
        if callee is not None:  # calls find it under its own name from now on
            src.line(0, f"{pyname(*key)} = {name}", None)
        if fast is not None:  # and with Python arguments, under its other name
            src.line(0, f"{pyname(*key, True)} = {fast}", None)
        if twin is not None:  # and handing out its list itself
            src.line(0, f"{pyname(*key, 'live')} = {twin}", None)
        lines, spans = src.lines[start:], src.spans[start:]
        self.count += 1
        filename = f"{self.filename[:-1]}.{self.count}>"
        text = "\n".join(lines) + "\n"
        self.chunks.append(text)
        G.MODULES[filename] = G.ModuleInfo(filename, lines, spans, src.calls)
        names = list(src.consts)
        for const in names[self.consts_done:]:
            self.namespace[const] = src.consts[const]
        self.consts_done = len(names)
        # only source that holds nothing but what the generator writes is ever run
        tree = pycheck.check(text, filename)
        exec(compile(tree, filename, "exec"), self.namespace)  # noqa: S102 (our own source)
        fn = self.namespace[name]
        p.real = G.entry(fn, p.node.span, p.kind == "effect")
        p.real.compiler = self.compiler
        p.real.args = self.namespace[fast] if fast is not None else None
        p.real.live = self.namespace[twin] if twin is not None else None
        code = self.compiler.code
        if key is not None and code.get(key) is p:
            code[key] = p.real

    def trampoline(self, p: _Pending):
        """What a call finds under a procedure's name until its Python is written."""
        def first_call(rt, B, d, V, at=None):
            self.generate(p)
            return self.namespace[pyname(*p.key)](rt, B, d, V, at)
        return first_call

    def trampoline_args(self, p: _Pending, which: bool | str = True):
        """As :meth:`trampoline`, under a function's name for calls with Python
        arguments (``codegen.CodeGen.args_of``; ``which`` 'live': its twin that hands out
        its list itself, ``live_of``)."""
        def first_call(rt, B, d, at, *values):
            self.generate(p)
            return self.namespace[pyname(*p.key, which)](rt, B, d, at, *values)
        return first_call


class Compiler:
    def __init__(self, table: SymbolTable, code: dict | None = None, label: str = "rules"):
        self.table = table
        # the compiled entries of the ruleset, by key; a call to a declared procedure or
        # function finds its body here when it lives in another module
        self.code = code if code is not None else {}
        self.label = label
        self._pending: list[_Pending] = []
        self._units: list[_Unit] = []
        self._explainers: dict[int, Callable] = {}
        self._values: dict[int, tuple] = {}
        # every declared procedure's and function's tree met so far, by key (what the
        # generator looks into to learn what a call may do)
        self.declared: dict[tuple, Any] = {}
        # every declared function's value expression met so far (what the generator may
        # write out where it is called): a later module inlines as the first one does
        self._bodies: dict[tuple, Any] = {}
        # what the generator found out about declared functions (CodeGen.args_of, live_of)
        self._known: tuple = ({}, {})

    # ------------------------------------------------------------- entry points
    def effect(self, effect: ast.Effect) -> Code:
        p = _Pending(self, effect, "effect")
        self._pending.append(p)
        return p

    def expression(self, e: ast.Expr, number: bool = False) -> Code:
        """An expression's code; ``number``: the engine counts with its value, so a value
        that is not a number (none, which the types allow) is a rule error at the
        expression, not a failure of the engine's own sums."""
        p = _Pending(self, e, "number" if number else "expression")
        self._pending.append(p)
        return p

    def expr(self, e: ast.Expr) -> Code:
        """A value worked out now and then (for the words), with no budget allowance of
        its own."""
        found = self._values.get(id(e))
        if found is None:
            p = self.expression(e)
            self.finish()
            found = self._values[id(e)] = (p.ready().plain, e)  # the node keeps its id
        return found[0]

    def finish(self) -> None:
        """Make a module for everything collected so far (its Python is written lazily)."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        keys = {id(v): k for k, v in self.code.items() if isinstance(v, _Pending)}
        bodies = {}
        for p in pending:
            p.key = keys.get(id(p))
            if p.key is not None and len(p.key) == 2 and p.key[0] in ("procedure", "function"):
                self.declared[p.key] = p.node
            if p.kind == "expression" and p.key is not None and len(p.key) == 2 \
                    and p.key[0] == "function":
                bodies[p.key] = p.node
        self._bodies.update(bodies)
        bodies = dict(self._bodies)
        src = Source()
        filename = f"<{self.label} {next(_numbers)}>"
        namespace: dict[str, Any] = {"__builtins__": _BUILTINS, "__name__": filename}
        namespace.update(_SUPPORT)
        namespace["_explainer"] = self.explainer_for
        gen = CodeGen(self.table, src, bodies, self.declared, self._known)
        unit = _Unit(self, gen, src, namespace, filename)
        self._units.append(unit)
        for p in pending:
            p.unit = unit
            unit.entries.append(p)
            if p.key is not None and len(p.key) == 2 and p.key[0] in ("procedure", "function"):
                namespace[pyname(*p.key)] = unit.trampoline(p)
                if p.key[0] == "function" and gen.args_of(p.key[1]) is not None:
                    namespace[pyname(*p.key, True)] = unit.trampoline_args(p)
                    if gen.live_of(p.key[1]):
                        namespace[pyname(*p.key, "live")] = unit.trampoline_args(p, "live")
        # declared procedures and functions of an earlier module
        for key, value in self.code.items():
            if len(key) == 2 and key[0] in ("procedure", "function"):
                namespace.setdefault(pyname(*key), _adapt(value, namespace, pyname(*key)))
                order = gen.args_of(key[1]) if key[0] == "function" else None
                if order is not None:
                    namespace.setdefault(pyname(*key, True), _adapt_args(
                        value, namespace, pyname(*key, True), order))
                    if gen.live_of(key[1]):
                        namespace.setdefault(pyname(*key, "live"), _adapt_args(
                            value, namespace, pyname(*key, "live"), order, "live"))
        for name, decl in self.table.callables.items():
            namespace.setdefault(pyname(decl.kind, name), G.missing(name))
            if decl.kind == "function":
                namespace.setdefault(pyname(decl.kind, name, True), G.missing_args(name))
                namespace.setdefault(pyname(decl.kind, name, "live"), G.missing_args(name))

    def generate_all(self) -> str:
        """Write every entry's Python now, and return the source of all modules."""
        self.finish()
        for unit in self._units:
            for p in [v for v in self.code.values() if isinstance(v, _Pending)
                      and v.unit is unit]:
                unit.generate(p)
        return "\n".join(chunk for unit in self._units for chunk in unit.chunks)

    def ready_all(self) -> None:
        """Write and compile the Python of every entry made so far, the ruleset's and the
        conditions the loader compiles besides (before processes are forked from this one,
        so that none of them compiles any)."""
        self.finish()
        for unit in self._units:
            for p in unit.entries:
                unit.generate(p)

    # ------------------------------------------------------------ explanations
    def explainer_for(self, e: ast.Expr) -> Callable[[Frame], str]:
        found = self._explainers.get(id(e))
        if found is None:
            found = self._explainers[id(e)] = self.explainer(e)
        return found

    def explainer(self, e: ast.Expr) -> Callable[[Frame], str]:
        """'needs level >= 9, but level is 7' for comparisons; the rule text otherwise.

        The parts are compiled the first time the explanation is asked for."""
        text = unparse.expr(e)
        if isinstance(e, ast.Call) and e.func == "meets_requirements" and e.args:
            def requirements(f):
                card = self.expr(e.args[0])(f)
                who = self.expr(e.args[1])(f) if len(e.args) > 1 else f.vars.get("you")
                return f.rt.explain_requirements(card, who)
            return requirements
        if isinstance(e, ast.Binary) and e.op in ("<", "<=", ">", ">=", "==", "!="):
            left_text = unparse.expr(e.left)
            return lambda f: f"needs {text}, but {left_text} is {self.expr(e.left)(f)}"
        if isinstance(e, ast.Binary) and e.op == "and":
            b, c = self.explainer(e.left), self.explainer(e.right)
            return lambda f: b(f) if not self.expr(e.left)(f) else c(f)
        return lambda f: f"needs {text}"


def _adapt(code, namespace: dict | None = None, name: str | None = None):
    """An entry of another module, called the way generated code calls bodies; once its
    body is known, ``namespace[name]`` is that body, called directly from then on (as a
    module's own procedures are, after their first call)."""
    def body(rt, B, d, V, at=None):
        if isinstance(code, _Pending):
            fn = code.ready().direct
        else:
            fn = getattr(code, "direct", None)
        if fn is not None:
            if namespace is not None and namespace.get(name) is body:
                namespace[name] = fn
            return fn(rt, B, d, V, at)
        return code.plain(Frame(rt, V, d, B))
    return body


def _adapt_args(code, namespace: dict, name: str, order: list, which: str = "args"):
    """As :func:`_adapt`, for a function called with Python arguments: its body that
    takes them (``which``: 'args', or 'live' for its twin that hands out its list
    itself), once known, else the function called with a dict made of them."""
    def body(rt, B, d, at, you, *values):
        real = code.ready() if isinstance(code, _Pending) else code
        fn = getattr(real, which, None)
        if fn is not None:
            if namespace.get(name) is body:
                namespace[name] = fn
            return fn(rt, B, d, at, you, *values)
        V = {"you": you}
        V.update(zip(order, values))
        return _adapt(code)(rt, B, d, V, at)
    return body


def _complete(ruleset) -> None:
    """The implied checks a loader works out when first asked for, all worked out now."""
    complete = getattr(getattr(ruleset, "implied", None), "complete", None)
    if complete is not None:
        complete()


def compile_whole(ruleset) -> None:
    """Compile every rule of a loaded ruleset now rather than when it first runs (the
    checks its actions and cards imply included, worked out first)."""
    _complete(ruleset)
    for value in ruleset.code.values():
        compiler = getattr(value, "compiler", None)
        if compiler is not None:
            compiler.ready_all()
            return


def source_of(ruleset) -> str:
    """The Python a loaded ruleset's rules compile to, every entry written out."""
    for value in ruleset.code.values():
        compiler = getattr(value, "compiler", None)
        if compiler is not None:
            return compiler.generate_all()
    return ""

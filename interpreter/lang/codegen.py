"""Stage 5: turn checked effects into Python source, one module per ruleset.

Every effect, condition and expression of a ruleset becomes an ordinary Python
function ``F<n>(rt, B, d, V)`` (the runtime, the work budget, the call depth
and the dict of the rule's variables); declared procedures and functions are
called directly by name. Expressions become inline Python: comparisons,
arithmetic with its bound check, comprehensions as generator expressions over
locals. Nothing is parsed or checked here: the checker has resolved every name.

The sandbox stays whole: the source only ever contains names made here (the
rule's own names appear only as string constants and dict keys), so rules can
reach no attribute and no builtin of Python; every loop item, comprehension
item, declared call and list a builtin makes is charged to the budget ``B``.
Work that does not depend on a comprehension's variable is worked out once per
comprehension, and a part of a function that does not depend on its
parameters once per read-only moment of the engine (see ``gensupport.memo``).

Each generated line remembers the rule position it came from, so an error in
it is reported at the YAML file, line and column (``gensupport.rule_error``).
"""

from __future__ import annotations

import ast as pyast
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from . import ast
from . import types as T
from . import unparse
from .builtins import AGGREGATES, BUILTINS, log_typed
from .runtime import MAX_REPEAT, REPEAT

# how deep generated code may nest before a block or an expression moves into a
# function of its own: CPython refuses more than 20 nested loops in a function,
# 100 levels of indentation and 200 of brackets; the rules may nest deeper
_MAX_INDENT = 30
_MAX_BLOCKS = 12
_MAX_EXPR_DEPTH = 30

# The operators of the language and the Python each is written as: the only
# operator tokens generated code contains (a tree from anywhere else, the cache
# say, that names another is refused, never written out)
_COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_ARITHMETIC = {"+": "+", "-": "-", "*": "*"}
_LOGIC = {"and": "and", "or": "or"}
# the statements a declared function's body may hold that only read (reads_you)
_READING_STATEMENTS = (ast.Let, ast.Return, ast.If, ast.For, ast.Repeat, ast.While,
                       ast.Break, ast.Pass, ast.Require)
_INLINE_AGG = {"any", "all", "count", "sum", "filter", "map", "first"}
_IMPURE_KINDS = {"choice", "random", "effect"}
# builtins whose lists are no longer than the game's own collections (its cards,
# seats, spaces): making them costs no more than the loops over them are charged
_BOUNDED_LISTS = {"cards_in", "all_cards_in", "players", "opponents", "turn_order",
                  "neighbours_of", "spaces", "neighbours"}
# builtins that look at a list without going over it
_NO_WALK = {"size", "item"}
# builtins that read the lists they are given at once and keep none of them (their
# result, if a list, is a new one): given a zone, they get the zone's own list
_READS_LISTS = {"size", "item", "occurrences", "position", "reversed", "concat", "without"}
# builtins that read the game by trying an effect on it and rolling it back
_TRIES = {"can_run"}
# builtins whose answer depends on where the cards lie and nothing else that changes
_ZONE_READERS = {"cards_in", "all_cards_in", "top", "zone_of", "slot_of", "size", "item",
                 "concat", "reversed", "without", "position", "occurrences", "range", "min",
                 "max", "abs", "clamp", "div_floor", "players", "player_count", "player",
                 "opponents", "neighbours_of"}
# builtins that read the board: the spaces, their neighbours and where a card's tile
# lies (what lies on a space changes only as the engine sets it, and a kept value is
# forgotten then too: see ``gensupport.by_zones``)
_BOARD_READERS = {"spaces", "neighbours", "space_of"}
# of the zone readers, those that look at where the cards lie (the others read only
# their arguments or the seats, which never change)
_WHERE_CARDS_LIE = {"cards_in", "all_cards_in", "top", "zone_of", "slot_of"}
# builtins that build a new list out of others
_MAKES_LISTS = {"concat", "reversed", "without", "range"}
# card fields that never change during a game
_FIXED_CARD_FIELDS = {"id", "name", "cost", "tags", "type", "number", "holds"}
# card fields read through the runtime's card_field rather than its table of fixed
# facts: the one that changes
_CARD_FACTS_SKIP = {"owner"}
# a space's fields the state holds (what lies on it now), and those read through the
# runtime's space_field (worked out there); the others the board declares
_LIVE_SPACE_FIELDS = {"tile", "owner", "card"}
_SPACE_FIELDS_SKIP = {"claimed_by", "bonus"}
# thin builtins called as the runtime method they stand for ({i} is argument i)
_DIRECT = {
    "stock": "rt.stock({1}, {0})", "production": "rt.production({1}, {0})",
    "track": "rt.track({0}, {1})", "resources_on": "rt.resources_on({0}, {1})",
    "capacity": "rt.capacity({1}, {0})", "cards_in": "rt.cards_in({0}, {1})",
    "all_cards_in": "rt.all_cards_in({0})", "zone_of": "rt.zone_of({0})",
    "slot_of": "rt.slot_of({0})", "is_marked": "rt.is_marked({0}, {1})",
    "has_block": "rt.has_block({0}, {1})", "cubes_on": "rt.pieces_on({0}, {1})",
    "players": "rt.players()", "turn_order": "rt.turn_order()", "spaces": "rt.spaces()",
    "neighbours": "rt.neighbours({0})", "space_of": "rt.space_of({0})",
    "round_number": "rt.round_number()", "size": "len({0})",
    "meets_requirements": "rt.meets_requirements({0}, {1})", "vp_of": "rt.vp_of({0})",
}


def asks(e) -> bool:
    """Whether evaluating the node asks a player something."""
    for n in ast.walk(e):
        if isinstance(n, ast.AnyOf):
            return True
        if isinstance(n, ast.Comprehension) and n.func in ("choose", "choose_optional"):
            return True
        if isinstance(n, ast.Call) and n.func in BUILTINS and BUILTINS[n.func].kind == "choice":
            return True
    return False


@dataclass
class Scope:
    """Where the code being generated stands."""

    V: str = "V"                                  # the variables dict
    comp: dict = field(default_factory=dict)      # comprehension variable -> Python local
    nested: bool = False                          # in a nested def: return/break raise
    loop: bool = False                            # in a Python loop of the current def
    iterable: bool = False                        # in a comprehension's iterable (no :=)
    hoist: dict | None = None                     # expression text -> cache local
    params: frozenset = frozenset()               # a pure function's parameters (for memo)
    pure_fn: str | None = None                    # the pure function being generated
    bound: frozenset = frozenset()                # names a hoisted part must not read
    you: str | None = None                        # a local holding V.get('you'), if any
    # a declared function called with Python arguments: the body's variables are those
    # arguments, each a Python local (rule name -> local, 'you' among them), and there
    # is no variables dict (see CodeGen.args_of)
    args: dict | None = None


class Source:
    """The text of one module under construction, with a rule position per line."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: list = []
        self.consts: dict[str, Any] = {}
        self._const_ids: dict[int, str] = {}
        self.calls: dict[int, tuple] = {}
        self.counter = itertools.count(1)

    def line(self, indent: int, text: str, span) -> None:
        self.lines.append("    " * indent + text)
        self.spans.append(span)

    def const(self, value: Any, prefix: str = "K") -> str:
        """A module-level name bound to ``value`` (spans, AST nodes, builtins…)."""
        key = id(value)
        name = self._const_ids.get(key)
        if name is None:
            name = self._const_ids[key] = f"{prefix}{len(self.consts) + 1}"
            self.consts[name] = value
        return name

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"


def pyname(kind: str, name: str, args: bool | str = False) -> str:
    """The Python name of a declared procedure or function in generated code.

    The mapping is one-to-one: a declared id (lower-case ASCII words) is
    written as it is after ``n_``, and anything else (however it got here)
    is spelled out in hexadecimal after ``x_``, so it can never be a Python
    keyword, clash with another name after Unicode normalisation, end the
    line, or be mistaken for a plain id that happens to look like hex."""
    if kind not in ("procedure", "function"):
        raise Unwritable(f"a declaration of kind {kind!r}")
    # A_: the same body called with Python arguments; L_: so called, handing out its list
    # itself rather than a copy, for a caller that reads it at once (CodeGen.live_of)
    head = "L" if args == "live" else "A" if args else "P"
    if name.isascii() and name.isidentifier() and name.islower():
        return f"{head}_{kind}__n_{name}"
    return f"{head}_{kind}__x_{name.encode('utf-8', 'surrogatepass').hex()}"


class Unwritable(Exception):
    """A tree the generator has no fixed Python for (it came from outside the checker)."""


class CodeGen:
    """Generates the functions of one module; see the module paragraph."""

    def __init__(self, table, src: Source, bodies: dict | None = None,
                 declared: dict | None = None, known: tuple | None = None):
        self.table = table
        self.src = src
        self.bodies = bodies or {}  # declared functions' value expressions, for inlining
        self._reads_you: dict = {}  # declared function -> whether it may read 'you'
        # every declared procedure's and function's tree known, by key (see tries)
        self.declared = declared if declared is not None else {}
        self._tries: dict[str, bool] = {}  # declared function -> whether it may try
        # declared function -> see args_of, and -> see live_of (shared by the modules of a
        # ruleset, as ``declared`` is: a function's tree, once known, never changes)
        self._args, self._live = known if known is not None else ({}, {})
        self._inlining: list[str] = []
        self._stmts: list = []  # the statements being generated, for prompts
        self.indent = 0

    # ------------------------------------------------------------- entries
    def function(self, name: str, node, kind: str, pure_name: str | None = None,
                 params: frozenset = frozenset(), callee: str | None = None,
                 title: str = "") -> str | None:
        """``def name(rt, B, d, V)`` for an effect (kind 'effect') or an expression (kind
        'expression', or 'number' for one whose value the engine counts with).

        A declared procedure or function (``callee`` is its name) pays for its
        call and checks how deeply calls nest, as it starts. A declared function
        that needs no dict of its variables (:meth:`args_of`) is written as
        ``def F(rt, B, d, at, you, *its parameters)``, each a Python local, and
        ``name`` is then that function called with a dict (as the engine calls
        it); the name of the first is returned (else None)."""
        self.buf, self.deferred, self.indent, self.blocks, self.edepth = [], [], 1, 0, 0
        span = node.span
        live = None
        if title:  # what the function is, for people reading the source
            self.buf.append((0, f"# {title}", span))
        order = self.args_of(callee) if callee is not None and \
            getattr(self.table.callables.get(callee), "kind", None) == "function" else None
        args = fast = None
        if order is not None:
            args = {"you": self.src.fresh("_y")}
            args.update((n, self.src.fresh("_v")) for n in order)
            fast = self.src.fresh("F")
            self.buf.append((0, f"def {fast}(rt, B, d, at, {', '.join(args.values())}):", span))
        elif callee is None:
            self.buf.append((0, f"def {name}(rt, B, d, V):", span))
        else:  # the caller says where the call is, for the errors
            self.buf.append((0, f"def {name}(rt, B, d, V, at=None):", span))
        # a run pays for what it does outside its loops (a top-level run has paid a step)
        cost = weight(node.body if kind == "effect" else node) - (callee is None)
        if cost:
            self.emit(f"B.used += {cost}", span)
            self.emit(f"if B.used > B.limit: raise B.exceeded({'at' if callee else 'None'})",
                      span)
        if callee is not None:
            self.emit(f"if d > _MAXD: raise _too_deep_calls({callee!r}, at)", span)
        # the acting player, read from the variables once: no statement of a body sets
        # 'you' in its own variables (a block for another player has variables of its own)
        you = self.src.fresh("_y") if args is None else None
        self._you_used = False
        start = len(self.buf)
        scope = Scope(params=params, pure_fn=pure_name, you=you, args=args)
        if kind == "effect":
            self.sub_at(node.body, scope, span)
        elif pure_name is not None and worth_keeping(node) and self.zone_only(node):
            # it reads only where the cards lie and the spaces: kept until either changes,
            # or, reading no zone, until a space changes
            values = ", ".join([self._get_you(scope)] + [
                f"V.get({n!r})" if args is None else args[n] for n in sorted(params)])
            kept = "_by_zones" if self.reads_zones(node) else "_by_board"
            # with parameters, its parts that do not depend on them are still worked out
            # once while the engine reads (without, the whole is kept anyway)
            value = self.expr(node, scope if params else replace(scope, pure_fn=None))
            if kind == "number":
                value = f"_number({value}, {self.src.const(span, 'S')})"
            self.emit(f"return {kept}(rt, ({pure_name!r}, {values}), lambda: {value})", span)
            live = f"return {kept}_seen(rt, ({pure_name!r}, {values}), lambda: {value})"
        elif kind == "number":  # the engine counts with it: a number, or a rule error here
            if not params:  # (with parameters, its parts without them are kept as above)
                scope = replace(scope, pure_fn=None)
            self.emit(f"return _number({self.expr(node, scope)}, {self.src.const(span, 'S')})",
                      span)
        else:
            value = self.expr(node, scope)
            self.emit(f"return {value}", span)
            live = f"return {_live_zone(value) or value}"
        if self._you_used:
            self.buf.insert(start, (1, f"{you} = V.get('you')", span))
        if fast is not None:  # as the engine calls it: with a dict of its variables
            given = ", ".join(["V.get('you')"] + [f"V[{n!r}]" for n in order])
            self.buf.append((0, f"def {name}(rt, B, d, V, at=None):", span))
            self.buf.append((1, f"return {fast}(rt, B, d, at, {given})", span))
        twin = None
        if fast is not None and self.live_of(callee):
            # for a caller that reads the list at once: the same, up to its last line,
            # which hands out the list itself (a zone's own, a kept one) and no copy of it
            twin = self.src.fresh("F")
            head = [line for line in self.buf if line[1].startswith(f"def {fast}(")][0]
            body = self.buf[self.buf.index(head) + 1:]
            end = next(i for i, line in enumerate(body) if line[0] == 0)
            if live is None or not body[end - 1][1].startswith("return "):
                raise Unwritable("a function with a list whose last line is no return")
            self.buf.append((0, head[1].replace(f"def {fast}(", f"def {twin}("), head[2]))
            self.buf.extend(body[:end - 1])
            self.buf.append((1, live, span))
        self._flush(self.buf)
        while self.deferred:
            self._flush(self.deferred.pop(0))
        return fast if twin is None else (fast, twin)

    def args_of(self, func: str) -> list | None:
        """The parameters, in order, of a declared function called with Python arguments
        (``A_function__…(rt, B, d, at, you, *values)``), or None for one called with a
        dict of its variables (``P_function__…(rt, B, d, V, at)``).

        A function is called with Python arguments when its body needs no dict:
        it sets no variable (no 'let', no loop's variable), asks nothing, nests
        no 'as' block, and reads no variable but its parameters, 'you' and its
        comprehensions' items. Its parameters are then Python locals. The calls
        cost what they cost with a dict: the step and the depth check are the
        body's own, as before."""
        if func in self._args:
            return self._args[func]
        decl = self.table.callables.get(func)
        node = self.declared.get(("function", func)) if decl is not None else None
        if node is None:
            return None  # (not known yet: called with a dict, which always works)
        names = [p[0] for p in decl.params]
        out = names if _dictless(node, names) else None
        self._args[func] = out
        return out

    def live_of(self, func: str) -> bool:
        """Whether a declared function called with Python arguments has a twin that hands
        out the list it makes itself (``L_function__…``), not a copy, for callers that
        read it at once and let it go while no card moves (those that read a zone's own
        list: see :func:`_live_zone`): a function whose value is a list (a zone's
        cards, a kept list), charged as the function is, step for step."""
        found = self._live.get(func)
        if found is None:
            if self.args_of(func) is None:
                return False  # (not known yet, or called with a dict: as it was)
            node = self.declared.get(("function", func))
            found = self._live[func] = not isinstance(node, (ast.Effect, list)) and \
                isinstance(getattr(node, "type", None), T.ListType)
        return found

    def live(self, code: str) -> str | None:
        """``code`` reading a list at once: a zone's own list for ``rt.cards_in(…)``, a
        function's twin for ``A_function__…(…)`` when it has one; None for anything else."""
        found = _live_zone(code)
        if found is not None or "A_function__" not in code:
            return found
        try:
            tree = pyast.parse(code.strip(), mode="eval").body
        except SyntaxError:
            return None
        func = getattr(tree, "func", None)
        if not (isinstance(tree, pyast.Call) and isinstance(func, pyast.Name)
                and func.id.startswith("A_function__") and func.lineno == func.end_lineno == 1):
            return None
        names = self._live.get(None)  # (the functions by their Python names, made once)
        if names is None:
            names = self._live[None] = {pyname("function", n, True): n for n, d in
                                        self.table.callables.items() if d.kind == "function"}
        declared = names.get(func.id)
        if declared is None or not self.live_of(declared):
            return None
        start = len(code) - len(code.lstrip())
        return (code[:start + func.col_offset] + "L" + code[start + func.col_offset + 1:])

    def vd(self, scope: Scope) -> str:
        """The rule's variables as a dict, for what reads them all (a frame for words):
        the dict itself, or one made of a function's Python arguments."""
        if scope.args is None:
            return scope.V
        return "{" + ", ".join(f"{n!r}: {local}" for n, local in scope.args.items()) + "}"

    def _flush(self, buf) -> None:
        for indent, text, span in buf:
            self.src.line(indent, text, span)
        self.src.line(0, "", None)

    # ------------------------------------------------------------- blocks
    def block(self, stmts: list, scope: Scope) -> None:
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Let) and asks(s.value):
                # a prompt for 'let n = choose_number(…)' says what n is for: the first
                # later statement of the block that uses it ('pay n gold')
                s.purpose = next((t for t in stmts[i + 1:] if any(
                    isinstance(n, ast.Name) and n.id == s.name for n in ast.walk(t))), None)
        if stmts and (self.indent > _MAX_INDENT or self.blocks > _MAX_BLOCKS):
            self._outlined(stmts, scope)
            return
        for s in stmts:
            self._stmts.append(s)
            try:
                getattr(self, "s_" + type(s).__name__)(s, scope)
            finally:
                self._stmts.pop()

    def sub_at(self, stmts: list, scope: Scope, span) -> None:
        """A block at the current indentation; 'pass' when it generates nothing."""
        start = len(self.buf)
        self.block(stmts, scope)
        if len(self.buf) == start:
            self.emit("pass", span)

    def sub(self, stmts: list, scope: Scope, span, loop: bool = False) -> None:
        """An indented block (a loop's body when ``loop``)."""
        self.indent += 1
        self.blocks += loop
        self.sub_at(stmts, replace(scope, loop=True) if loop else scope, span)
        self.blocks -= loop
        self.indent -= 1

    def _outlined(self, stmts: list, scope: Scope) -> None:
        """A deeply nested block as a module-level function of its own.

        Python limits how deeply blocks nest in one function; the rules' own
        limit is deeper. The block keeps the same variables dict; a 'break' or
        'return' inside it raises out to the code that called it."""
        name, span = self.src.fresh("_blk"), stmts[0].span
        saved = (self.buf, self.indent, self.blocks)
        given = scope.V if scope.args is None else ", ".join(scope.args.values())
        self.buf, self.indent, self.blocks = [(0, f"def {name}(rt, B, d, {given}):", span)], 1, 0
        self.sub_at(stmts, Scope(nested=True, args=scope.args), span)
        self.deferred.append(self.buf)
        self.buf, self.indent, self.blocks = saved
        self._run_nested(name, scope, stmts, span, f"rt, B, d, {given}")

    def _run_nested(self, fn: str, scope: Scope, body, span, args: str | None = None) -> None:
        """Call a nested function, passing a 'return' or 'break' inside it on outward."""
        catch_return = not scope.nested and any(isinstance(n, ast.Return)
                                                for n in ast.walk(body))
        catch_break = scope.loop and any(True for _ in _own_breaks(body))
        call = f"{fn}({args or scope.V})"
        if not (catch_return or catch_break):
            self.emit(call, span)
            return
        self.emit("try:", span)
        self.emit(f"    {call}", span)
        if catch_return:
            self.emit("except _Return as _r:", span)
            self.emit("    return _r.value", span)
        if catch_break:
            self.emit("except _Break:", span)
            self.emit("    break", span)

    def emit(self, text: str, span) -> None:
        self.buf.append((self.indent, text, span))

    def _asking(self, node):
        return self.src.const((self._stmts[-1] if self._stmts else None, node), "Q")

    def frame(self, scope: Scope) -> str:
        """A Frame for the runtime's words, with the comprehension variables in it."""
        if scope.comp:
            extra = ", ".join(f"{name!r}: {local}" for name, local in scope.comp.items())
            return f"_F(rt, {{**{self.vd(scope)}, {extra}}}, d, B)"
        return f"_F(rt, {self.vd(scope)}, d, B)"

    def _player(self, e, span, scope: Scope) -> str:
        """A local holding who a statement is for; never nobody."""
        p = self.src.fresh("_p")
        s = self.src.const(span, "S")
        value = self._get_you(scope) if e is None else self.expr(e, scope)
        self.emit(f"{p} = {value}", span)
        self.emit(f"if {p} is None: raise _no_player({s})", span)
        return p

    # --------------------------------------------------------- statements
    def s_Gain(self, s: ast.Gain, scope: Scope) -> None:
        player = self._player(s.player, s.span, scope)
        res = repr(s.resource_id) if s.resource_id is not None else f"{scope.V}[{s.resource!r}]"
        amount = self.expr(s.amount, scope)
        if s.production:
            self.emit(f"rt.change_production({player}, {res}, {amount}, {s.verb!r})", s.span)
        else:
            self.emit(f"rt.change_stock({player}, {res}, {amount}, {s.verb!r})", s.span)

    def s_Raise(self, s: ast.Raise, scope: Scope) -> None:
        n = self.src.fresh("_n")
        span = self.src.const(s.span, "S")
        self.emit(f"{n} = {self.expr(s.steps, scope) if s.steps is not None else '1'}", s.span)
        # the track moves, and may reward, step by step
        self.emit(f"B.used += abs({n})", s.span)
        self.emit(f"if B.used > B.limit: raise B.exceeded({span})", s.span)
        track = repr(s.track_id) if s.track_id is not None else f"{scope.V}[{s.track!r}]"
        player = (self.expr(s.player, scope) if s.player is not None
                  else self._get_you(scope))
        sign = "" if s.verb == "raise" else "-"
        self.emit(f"rt.move_track({track}, {sign}{n}, {player})", s.span)

    def s_Place(self, s: ast.Place, scope: Scope) -> None:
        where = "None"
        if s.target is not None and s.mode == "on":
            where = self.src.fresh("_w")
            self.emit(f"{where} = {self.expr(s.target, scope)}", s.span)
        elif s.target is not None:
            where = self.src.fresh("_acc")
            inner_v = self.src.fresh("V")
            self.emit(f"def {where}(space):", s.span)
            self.emit(f"    {inner_v} = dict({scope.V}); {inner_v}['space'] = space", s.span)
            inner = replace(scope, V=inner_v, comp={}, nested=True, loop=False, hoist=None)
            self.emit(f"    return {self.expr(s.target, inner)}", s.span)
        if s.mode == "on" and s.player is None:
            player = self._get_you(scope)  # none: the game places it
        else:
            player = self._player(s.player, s.span, scope)
        tile = repr(s.tile_id) if s.tile_id is not None else f"{scope.V}[{s.tile!r}]"
        call = f"rt.place_tile({tile}, {player}, {s.mode!r}, {where}, {scope.V}.get('this'))"
        self.emit(f"{scope.V}[{s.bind!r}] = {call}" if s.bind else call, s.span)

    def s_Transfer(self, s: ast.Transfer, scope: Scope) -> None:
        V = scope.V
        self.emit(f"rt.decider = {self._get_you(scope)}", s.span)
        res = repr(s.resource_id) if s.resource_id is not None else f"{V}[{s.resource!r}]"
        src = self.expr(s.source, scope) if s.source is not None else "None"
        dst = self.expr(s.dest, scope) if s.dest is not None else "None"
        self.emit(f"rt.transfer({s.verb!r}, {res}, {self.expr(s.amount, scope)}, {s.up_to!r}, "
                  f"{src}, {dst}, {self._you(scope)})", s.span)

    def s_Let(self, s: ast.Let, scope: Scope) -> None:
        self.emit(f"{scope.V}[{s.name!r}] = {self.expr(s.value, scope)}", s.span)

    def s_AsPlayer(self, s: ast.AsPlayer, scope: Scope) -> None:
        inner_v = self.src.fresh("V")
        self.emit(f"{inner_v} = dict({scope.V}); {inner_v}['you'] = "
                  f"{self.expr(s.player, scope)}", s.span)
        # variables set inside stay local to the block, as in any other block
        self.sub_at(s.body, replace(scope, V=inner_v), s.span)

    def s_Set(self, s: ast.Set, scope: Scope) -> None:
        value = self.expr(s.value, scope)
        if getattr(s, "target_kind", "local") == "track":
            if s.player is not None:
                v = self.src.fresh("_v")
                self.emit(f"{v} = {value}", s.span)
                self.emit(f"rt.set_track({s.name!r}, {v}, {self.expr(s.player, scope)})",
                          s.span)
            else:
                self.emit(f"rt.set_track({s.name!r}, {value}, {self._get_you(scope)})", s.span)
            return
        self.emit(f"{scope.V}[{s.name!r}] = {value}", s.span)

    def s_Return(self, s: ast.Return, scope: Scope) -> None:
        value = self.expr(s.value, scope) if s.value is not None else "None"
        if scope.nested:
            self.emit(f"raise _Return({value})", s.span)
        else:
            self.emit(f"return {value}", s.span)

    def s_Require(self, s: ast.Require, scope: Scope) -> None:
        cond = self.expr(s.cond, scope)
        node = self.src.const(s.cond, "N")
        span = self.src.const(s.span, "S")
        self.emit(f"if not ({cond}):", s.span)
        self.emit(f"    raise _require_failed(rt, {s.message!r}, {node}, {self.frame(scope)}, "
                  f"_explainer({node}), {span})", s.span)

    def s_Emit(self, s: ast.Emit, scope: Scope) -> None:
        record = self.table.events[s.event]
        names = [n for n, _ in record.fields]
        given = {names[i]: self.expr(a, scope) for i, a in enumerate(s.args)}
        for k, v in s.kwargs.items():
            given[k] = self.expr(v, scope)
        parts = [f"{n!r}: {given.get(n, 'None')}" for n in names]
        parts += [f"{k!r}: {v}" for k, v in given.items() if k not in names]
        span = self.src.const(s.span, "S")
        # inline rather than through a helper: triggers setting off triggers nest
        # 200 deep before the limit stops them, and Python's stack must hold that
        self.emit("try:", s.span)
        self.emit(f"    rt.emit({s.event!r}, {{{', '.join(parts)}}})", s.span)
        self.emit("except _RuleError as _e:", s.span)
        self.emit("    if _e.span is not None: raise", s.span)
        self.emit(f"    raise _RuleError(_e.message, {span}) from None", s.span)

    def s_Run(self, s: ast.Run, scope: Scope) -> None:
        block = self.table.canonical(s.block)
        self.emit(f"rt.run_block({self.expr(s.card, scope)}, {block!r}, {self._you(scope)})",
                  s.span)

    def s_CallStmt(self, s: ast.CallStmt, scope: Scope) -> None:
        self.emit(self.expr(s.call, scope), s.span)

    def s_Pass(self, s, scope: Scope) -> None:
        self.emit("pass", s.span)

    def s_If(self, s: ast.If, scope: Scope) -> None:
        for i, (cond, body) in enumerate(s.branches):
            self.emit(f"{'if' if i == 0 else 'elif'} {self.expr(cond, scope)}:", s.span)
            self.sub(body, scope, s.span)
        if s.orelse is not None:
            self.emit("else:", s.span)
            self.sub(s.orelse, scope, s.span)

    def s_For(self, s: ast.For, scope: Scope) -> None:
        span = self.src.const(s.span, "S")
        iterable = self.expr(s.iterable, scope)
        # _items copies what the loop goes over (its body may move the cards): a zone's
        # own list is copied there, once
        self.emit(f"for {scope.V}[{s.var!r}] in _items(B, {span}, "
                  f"{self.live(iterable) or iterable}, {weight(s.body)}):", s.span)
        if not _asks_about_each_card(s):
            self.sub(s.body, scope, s.span, loop=True)
            return
        # a question its body asks names the card the loop is at ('Buy cards · Oak Mill:
        # pay how many gold?'), as a question of a card's own effect names that card
        self.indent += 1
        self.emit(f"rt.asking_about({scope.V}[{s.var!r}])", s.span)
        self.emit("try:", s.span)
        self.blocks += 1
        self.sub(s.body, scope, s.span, loop=True)
        self.blocks -= 1
        self.emit("finally:", s.span)
        self.emit("    rt.asked_about()", s.span)
        self.indent -= 1

    def s_Repeat(self, s: ast.Repeat, scope: Scope) -> None:
        n = self.src.fresh("_n")
        span = self.src.const(s.span, "S")
        self.emit(f"{n} = {self.expr(s.count, scope)}", s.span)
        self.emit(f"if {n} > {MAX_REPEAT}: raise _RuleError(f'repeat {{{n}}} is more than the "
                  f"limit of {MAX_REPEAT}', {span})", s.span)
        self.emit(f"{n} = max({n}, 0)", s.span)
        self.emit(f"B.used += {n} * {weight(s.body)}", s.span)
        self.emit(f"if B.used > B.limit: raise B.exceeded({span})", s.span)
        if not any(asks(x) for x in s.body):
            self.emit(f"for _ in range({n}):", s.span)
            self.sub(s.body, scope, s.span, loop=True)
            return
        # a question inside says which time it is asked ('1 of 3': prompts.py), from a
        # variable no rule can name
        k, outer = self.src.fresh("_i"), self.src.fresh("_v")
        self.emit(f"{outer} = {scope.V}.get({REPEAT!r})", s.span)
        self.emit(f"for {k} in range({n}):", s.span)
        self.indent += 1
        self.emit(f"{scope.V}[{REPEAT!r}] = ({k} + 1, {n})", s.span)
        self.indent -= 1
        self.sub(s.body, scope, s.span, loop=True)
        self.emit(f"{scope.V}[{REPEAT!r}] = {outer}", s.span)

    def s_While(self, s: ast.While, scope: Scope) -> None:
        turns = self.src.fresh("_turns")
        span = self.src.const(s.span, "S")
        self.emit(f"{turns} = 0", s.span)
        self.emit(f"while {self.expr(s.cond, scope)}:", s.span)
        self.indent += 1
        self.emit(f"{turns} += 1", s.span)
        self.emit(f"if {turns} > {MAX_REPEAT}: raise _RuleError('this loop ran {MAX_REPEAT} "
                  f"times and its condition still holds', {span})", s.span)
        self.emit(f"B.used += {weight([s.cond, s.body])}", s.span)
        self.emit(f"if B.used > B.limit: raise B.exceeded({span})", s.span)
        self.indent -= 1
        self.sub(s.body, scope, s.span, loop=True)

    def s_Break(self, s, scope: Scope) -> None:
        self.emit("break" if scope.loop else "raise _Break()", s.span)

    def s_May(self, s: ast.May, scope: Scope) -> None:
        node = self.src.const(s.body, "N")
        fallback = repr(unparse.block(s.body))
        # the names the body uses, so the question can show the cards it is about
        used = tuple(sorted({n.id for n in ast.walk(s.body) if isinstance(n, ast.Name)
                             and n.binding == "local" and n.id not in ("you",)}))
        self.emit(f"if _may(rt, {scope.V}, {self.frame(scope)}, {node}, {fallback}, "
                  f"{used!r}):", s.span)
        self.sub(s.body, scope, s.span)
        if s.orelse is not None:
            self.emit("else:", s.span)
            self.sub(s.orelse, scope, s.span)

    def s_Choose(self, s: ast.Choose, scope: Scope) -> None:
        names = []
        for option in s.options:
            name, inner_v = self.src.fresh("_opt"), self.src.fresh("V")
            names.append(name)
            self.emit(f"def {name}({inner_v}):", s.span)
            inner = replace(scope, V=inner_v, comp={}, nested=True, loop=False, hoist=None)
            saved, self.blocks = self.blocks, 0  # a def counts its loops afresh
            self.sub(option, inner, s.span)
            self.blocks = saved
        given = tuple(s.labels[i] if i < len(s.labels) and s.labels[i] else None
                      for i in range(len(s.options)))
        fallback = [g or unparse.block(o) for g, o in zip(given, s.options)]
        nodes = self.src.const(list(s.options), "N")
        options = self.src.fresh("_opts")
        self.emit(f"{options} = ({', '.join(names)},)", s.span)
        picked = self.src.fresh("_i")
        self.emit(f"{picked} = _choose(rt, {scope.V}, {self.frame(scope)}, {given!r}, "
                  f"{fallback!r}, {nodes}, {options})", s.span)
        self._run_nested(f"{options}[{picked}]", scope, s.options, s.span)

    # -------------------------------------------------------- expressions
    def expr(self, e, scope: Scope) -> str:
        self.edepth += 1
        try:
            if self.edepth > _MAX_EXPR_DEPTH:
                return self._outlined_expr(e, scope)
            return self._expr(e, scope)
        finally:
            self.edepth -= 1

    def _outlined_expr(self, e, scope: Scope) -> str:
        """A deeply nested expression as a module-level function of the locals it reads."""
        name = self.src.fresh("_ex")
        params = ["rt", "B", "d", *([scope.V] if scope.args is None else scope.args.values()),
                  *scope.comp.values()]
        saved = (self.buf, self.indent, self.blocks, self.edepth)
        self.buf, self.indent, self.blocks, self.edepth = [], 1, 0, 0
        inner = replace(scope, hoist=None, iterable=False, you=None)
        self.buf.append((0, f"def {name}({', '.join(params)}):", e.span))
        self.emit(f"return {self._expr(e, inner)}", e.span)
        self.deferred.append(self.buf)
        self.buf, self.indent, self.blocks, self.edepth = saved
        return f"{name}({', '.join(params)})"

    def _expr(self, e, scope: Scope) -> str:
        if scope.hoist is not None:
            cached = self._hoisted(e, scope)
            if cached is not None:
                return cached
        if scope.pure_fn is not None and not scope.comp and not scope.iterable:
            memo = self._memo(e, scope)
            if memo is not None:
                return memo
        return getattr(self, "e_" + type(e).__name__)(e, scope)

    def e_Literal(self, e: ast.Literal, scope: Scope) -> str:
        v = e.value
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        return self.src.const(v)

    def e_Name(self, e: ast.Name, scope: Scope) -> str:
        name, binding = e.id, e.binding
        if binding == "local" or binding is None:
            if name in scope.comp:
                return scope.comp[name]
            if scope.args is not None and name in scope.args:
                return scope.args[name]
            return f"{scope.V}[{name!r}]"
        ident = getattr(e, "canonical", name)
        if binding == "track_symbol":
            return repr(ident)
        if binding == "track":  # a global track: the state's own slot for it
            return f"rt.state.tracks[{ident!r}]"
        if binding == "player_track":  # the acting player's slot (the runtime's error for
            you = self._you(scope)        # no one acting)
            return (f"(rt.state.players[{you}].tracks[{ident!r}] if {you} is not None "
                    f"else rt.track({ident!r}, None))")
        if binding == "constant":
            value = self.table.get(name).data
            if value is None or isinstance(value, (bool, int, str)):
                return repr(value)
            return self.src.const(value)
        return repr(ident)  # a declared symbol: its value at run time is its id

    def _get_you(self, scope: Scope) -> str:
        """The acting player, or None when there is none (``V.get('you')``)."""
        if "you" in scope.comp:
            return scope.comp["you"]
        if scope.args is not None:
            return scope.args["you"]
        if scope.you is not None and scope.V == "V":
            self._you_used = True
            return scope.you
        return f"{scope.V}.get('you')"

    def _you(self, scope: Scope) -> str:
        if "you" in scope.comp:
            return scope.comp["you"]
        if scope.args is not None:
            return scope.args["you"]
        return f"{scope.V}['you']"

    def e_Field(self, e: ast.Field, scope: Scope) -> str:
        obj, name, t = self.expr(e.obj, scope), e.name, e.obj.type
        if isinstance(t, T.RecordType):
            return f"{obj}[{name!r}]"
        getter = {T.CARD: "card_field", T.SPACE: "space_field", T.PLAYER: "player_field"}.get(t)
        span = self.src.const(e.span, "S")
        if getter is None:
            return f"_field(rt, {obj}, {name!r}, {getter!r}, {span})"
        if obj[:1] in "'\"0123456789" or obj in ("True", "False"):  # a declared id
            return f"rt.{getter}({obj}, {name!r})"
        if obj == "None":
            return f"_field_of(None, {name!r}, {span})"
        if t is T.SPACE and name in _LIVE_SPACE_FIELDS:
            # what lies on the space now: the state's own record of it
            read = lambda o: f"rt.state.spaces[{o}][{name!r}]"  # noqa: E731
        elif t is T.SPACE and name not in _SPACE_FIELDS_SKIP:
            # what the board declares for the space: one lookup in the game's table
            read = lambda o: f"rt.space_facts[{name!r}][{o}]"  # noqa: E731
        elif t is T.CARD and name in _CARD_FACTS_SKIP:
            read = None
        elif t is T.CARD:
            # a fixed fact of the card (every field but its owner): one lookup in the
            # game's table of them, no method call (see engine.cards.CardFacts); tags are
            # handed out as a copy, a step per tag, as card_field does
            fact = f"rt.card_facts[{name!r}]"
            read = (lambda o: f"_listed(B, {fact}[{o}])") if name == "tags" else (
                lambda o: f"{fact}[{o}]")
        else:
            read = None
        if read is not None:
            if _plain(e.obj) and not isinstance(e.obj, ast.Field):
                return f"({read(obj)} if {obj} is not None else _field_of(None, {name!r}, {span}))"
            if scope.iterable:
                return f"_field(rt, {obj}, {name!r}, {getter!r}, {span})"
            tmp = self.src.fresh("_o")
            return (f"({read(tmp)} if ({tmp} := {obj}) is not None else "
                    f"_field_of(None, {name!r}, {span}))")
        if _plain(e.obj) and not isinstance(e.obj, ast.Field):
            # a name: cheap to read twice
            return (f"(rt.{getter}({obj}, {name!r}) if {obj} is not None else "
                    f"_field_of(None, {name!r}, {span}))")
        if scope.iterable:
            return f"_field(rt, {obj}, {name!r}, {getter!r}, {span})"
        tmp = self.src.fresh("_o")
        return (f"(rt.{getter}({tmp}, {name!r}) if ({tmp} := {obj}) is not None else "
                f"_field_of(None, {name!r}, {span}))")

    def e_ListExpr(self, e: ast.ListExpr, scope: Scope) -> str:
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def e_Unary(self, e: ast.Unary, scope: Scope) -> str:
        operand = self.expr(e.operand, scope)
        if e.op == "-":
            return f"(-{operand})"
        if e.op == "not":
            return f"(not {operand})"
        raise Unwritable(f"the operator {e.op!r}")

    def e_Binary(self, e: ast.Binary, scope: Scope) -> str:
        left, right, op = self.expr(e.left, scope), self.expr(e.right, scope), e.op
        if op in _LOGIC:
            return f"({left} {_LOGIC[op]} {right})"
        if op in ("has", "lacks"):  # a zone looked into at once: its own list
            left = self.live(left) or left
            return f"({right} {'in' if op == 'has' else 'not in'} {left})"
        span = self.src.const(e.span, "S")
        if op in ("//", "%"):
            return f"_div({left}, {right}, {span}, {op == '//'})"
        if op in _COMPARE:
            return f"({left} {_COMPARE[op]} {right})"
        if op not in _ARITHMETIC:
            raise Unwritable(f"the operator {op!r}")
        op = _ARITHMETIC[op]
        if scope.iterable:
            return f"_overflow({left} {op} {right}, {span})"
        tmp = self.src.fresh("_a")
        return (f"({tmp} if _MINI <= ({tmp} := {left} {op} {right}) <= _MAXI "
                f"else _overflow({tmp}, {span}))")

    def e_Conditional(self, e: ast.Conditional, scope: Scope) -> str:
        return (f"({self.expr(e.then, scope)} if {self.expr(e.cond, scope)} "
                f"else {self.expr(e.other, scope)})")

    def e_AnyOf(self, e: ast.AnyOf, scope: Scope) -> str:
        return (f"_any_of(rt, {self.vd(scope)}, {self._asking(e)}, {self.frame(scope)}, "
                f"{e.noun!r})")

    def e_Call(self, e: ast.Call, scope: Scope) -> str:
        target = e.target
        span = self.src.const(e.span, "S")
        if target is None or target.__class__.__name__ == "Callable_":
            decl = self.table.callables[e.func]
            inlined = self._inline(e, decl, scope)
            if inlined is not None:
                return inlined
            names = [p[0] for p in decl.params]
            order = self.args_of(e.func) if decl.kind == "function" else None
            if order is not None and len(e.args) + len(e.kwargs) == len(order) and [
                    names.index(k) for k in e.kwargs] == sorted(names.index(k) for k in e.kwargs):
                # Python arguments, worked out in the order a dict of them was
                you = self._get_you(scope)
                given = dict(zip(names, (self.expr(a, scope) for a in e.args)))
                given.update((k, self.expr(v, scope)) for k, v in e.kwargs.items())
                values = "".join(f", {given[n]}" for n in order)
                return f"{pyname(decl.kind, e.func, True)}(rt, B, d + 1, {span}, {you}{values})"
            parts = [f"'you': {self._get_you(scope)}"]
            parts += [f"{names[i]!r}: {self.expr(a, scope)}" for i, a in enumerate(e.args)]
            parts += [f"{k!r}: {self.expr(v, scope)}" for k, v in e.kwargs.items()]
            fn = pyname(decl.kind, e.func)
            args = "{" + ", ".join(parts) + "}"
            about = next((n for n, t, _ in decl.params if t is T.CARD), None) \
                if decl.kind == "procedure" else None
            own_prompt = decl.prompt if decl.kind == "procedure" else None
            if own_prompt and "{" in own_prompt:  # its arguments' values named in it
                own_prompt = (own_prompt, tuple((n, t is T.PLAYER) for n, t, _ in decl.params
                                                if "{" + n + "}" in own_prompt))
            priced = e.func if decl.kind == "procedure" and decl.price else None
            if about is None and own_prompt is None and priced is None:
                return f"{fn}(rt, B, d + 1, {args}, {span})"
            return (f"_call_asking({fn}, rt, B, d, {args}, {span}, {own_prompt!r}, {about!r}"
                    + (f", {priced!r})" if priced else ")"))
        b = target
        fixed = [p for p in b.params if not p.variadic]
        arg_codes = [self.expr(a, scope) for a in e.args]
        kw = {k: self.expr(v, scope) for k, v in e.kwargs.items()}
        # a zone given to a builtin that reads it at once: its own list, when nothing
        # worked out after it (the other arguments) can change it
        live_ok = b.name in _READS_LISTS and all(
            _pure(a, self.table) and not self.tries(a)
            for a in [*e.args, *e.kwargs.values()])
        slots: list[str] = []
        for i, p in enumerate(fixed):
            if i < len(arg_codes):
                value = arg_codes[i]
            elif p.name in kw:
                value = kw[p.name]
            else:
                value = self._default(p.default, scope)
            if isinstance(p.type, T.ListType) and live_ok:
                value = self.live(value) or value  # read at once: a zone's own list
            if isinstance(p.type, T.ListType) and b.name not in _NO_WALK:
                value = f"_taken(B, {span}, {value})"
            elif b.kind == "effect" and p.name == "count":
                value = f"_counted(B, {span}, {value})"
            slots.append(value)
        extra = arg_codes[len(fixed):]
        if extra and b.params and b.params[-1].variadic and isinstance(b.params[-1].type,
                                                                         T.ListType):
            if live_ok:  # read at once: a zone's own list
                extra = [self.live(x) or x for x in extra]
            extra = [f"_taken(B, {span}, {x})" for x in extra]
        if b.name == "modifier":
            known = {p.name for p in fixed}
            params = {k: v for k, v in kw.items() if k not in known}
            if params:
                values = "(" + "".join(f"{s}, " for s in slots) + ")"
                given = "{" + ", ".join(f"{k!r}: {v}" for k, v in params.items()) + "}"
                return f"_modifier(rt, {span}, {values}, {given})"
        direct = _DIRECT.get(b.name)
        if direct is not None and not extra and b.kind == "function" and (
                _in_order(direct) or all(_pure(a, self.table) for a in e.args)):
            return direct.format(*slots)
        number = next(self.src.counter)
        impl = f"_b{number}"
        self.src.consts[impl] = b.impl
        self.src.calls[number] = (b.name, e.span)
        values = slots + extra
        if b.kind == "choice":
            packed = "(" + "".join(f"{v}, " for v in values) + ")"
            call = (f"{impl}(rt, *_asking(rt, {self._get_you(scope)}, {self._asking(e)}, "
                    f"{self.frame(scope)}, {packed}))")
        elif b.name == "log" and extra:  # the values' types say how each reads
            self.src.consts[impl] = log_typed
            types = self.src.const(tuple(a.type for a in e.args[1:]))
            call = f"{impl}(rt, {values[0]}, {types}{''.join(', ' + v for v in extra)})"
        else:
            call = f"{impl}(rt{''.join(', ' + v for v in values)})"
        if (callable(b.result) or isinstance(b.result, T.ListType)) \
                and b.name not in _BOUNDED_LISTS:
            return f"_made(B, {span}, {call})"
        return call

    def _inline(self, e: ast.Call, decl, scope: Scope) -> str | None:
        """A small declared function written out where it is called.

        Only a function whose value is a short expression of its parameters, with
        no list to go through, called with plain values (names, numbers, fields):
        the arguments are then safe to write out as often as the body uses them."""
        body = self.bodies.get(("function", e.func))
        if body is None or e.func in self._inlining or len(self._inlining) >= 4:
            return None
        params = [p[0] for p in decl.params]
        given = dict(zip(params, e.args))
        given.update(e.kwargs)
        if set(given) != set(params) or not all(_plain(a) for a in given.values()):
            return None
        if not _inlinable(body, self.table, set(params) | {"you"}):
            return None
        # the caller's 'you', unless a parameter has that name: a parameter is bound to
        # its argument, as it is when the function is called rather than written out
        codes = {"you": self._get_you(scope)}
        codes.update((name, self.expr(a, scope)) for name, a in given.items())
        inner = replace(scope, comp=codes, hoist=None, pure_fn=None, bound=frozenset())
        self._inlining.append(e.func)
        try:
            return f"({self.expr(body, inner)})"
        finally:
            self._inlining.pop()

    def zone_only(self, body, seen: frozenset = frozenset()) -> bool:
        """Whether an expression reads nothing that changes but where the cards lie and
        what lies on the board's spaces (their fields, fixed or set by the engine)."""
        if not _pure(body, self.table):
            return False
        for n in ast.walk(body):
            if isinstance(n, ast.Name) and n.binding in ("track", "player_track"):
                return False
            if isinstance(n, ast.Field) and n.obj.type is not T.SPACE and (
                    n.obj.type is not T.CARD or n.name not in _FIXED_CARD_FIELDS):
                return False
            if isinstance(n, ast.Call):
                if n.target is None or n.target.__class__.__name__ == "Callable_":
                    callee = self.bodies.get(("function", n.func))
                    if callee is None or n.func in seen or not self.zone_only(
                            callee, seen | {n.func}):
                        return False
                elif n.func not in _ZONE_READERS and n.func not in _BOARD_READERS:
                    return False
        return True

    def tries(self, body, seen: frozenset = frozenset()) -> bool:
        """Whether a pure expression may try an effect on the game and roll it back
        (``can_run``), itself or in a declared function it calls (one whose body is not
        at hand counts as one that may): while it runs, a zone may be changed and put
        back as another list, so what it goes over must be a copy."""
        for n in ast.walk(body):
            if isinstance(n, ast.Call):
                if n.target is None or n.target.__class__.__name__ == "Callable_":
                    if self._callee_may(n.func, seen, self._tries, self.tries,
                                        self.declared.get(("function", n.func))):
                        return True
                elif n.func in _TRIES:
                    return True
        return False

    def reads_you(self, body, seen: frozenset = frozenset()) -> bool:
        """Whether a pure expression may read the acting player: names ``you`` or one of
        its tracks, gives a builtin no player where the builtin's default is the acting
        player, or calls a declared function that may (one whose value expression is not
        at hand counts as one that may). A part that does not is the same for every
        player, so what :meth:`_memo` keeps of it serves them all."""
        for n in ast.walk(body):
            if isinstance(n, ast.Stmt) and not isinstance(n, _READING_STATEMENTS):
                return True  # (a function's body only reads; anything else: it may)
            if isinstance(n, ast.Name):
                if n.binding == "player_track" or n.id == "you":
                    return True
            elif isinstance(n, ast.Call):
                if n.target is None or n.target.__class__.__name__ == "Callable_":
                    key = ("function", n.func)
                    callee = self.bodies.get(key)  # its value, else its statements
                    if self._callee_may(n.func, seen, self._reads_you, self.reads_you,
                                        self.declared.get(key) if callee is None else callee):
                        return True
                else:
                    b = n.target
                    if b.kind == "choice":
                        return True
                    fixed = [p for p in b.params if not p.variadic]
                    for i, p in enumerate(fixed):
                        if i >= len(n.args) and p.name not in n.kwargs and p.default == "you" \
                                and not self._shared_zone_given(b, n):
                            return True
        return False

    @staticmethod
    def _callee_may(func: str, seen: frozenset, known: dict, test, callee) -> bool:
        """Whether a declared function called in a pure expression may do what ``test``
        looks for (one whose body is not at hand counts as one that may), kept in
        ``known``; a call back into a function being looked at adds nothing."""
        if func in seen:
            return False
        found = known.get(func)
        if found is None:
            found = callee is None or test(callee, seen | {func})
            if not seen:  # (a value found inside a cycle may be partial)
                known[func] = found
        return found

    def _shared_zone_given(self, b, call: ast.Call) -> bool:
        """Whether a builtin whose player may be left out (``cards_in(frame_1)``) is given
        a zone that belongs to no player, by its name: the player is then not read."""
        if not b.player_optional:
            return False
        for i, p in enumerate(b.params):
            if p.type is T.ZONE:
                arg = call.args[i] if i < len(call.args) else call.kwargs.get(p.name)
                if not isinstance(arg, ast.Name):
                    return False
                sym = self.table.get(arg.id, ("zone",))
                data = sym.data if sym is not None else None
                return isinstance(data, dict) and data.get("scope", "shared") == "shared"
        return False

    def _memo_you(self, e, scope: Scope) -> str:
        """The player a kept part is kept for: the acting one, or None when the part
        cannot read it (:meth:`reads_you`)."""
        return self._you(scope) if self.reads_you(e) else "None"

    def reads_zones(self, body, seen: frozenset = frozenset()) -> bool:
        """Whether an expression that :meth:`zone_only` accepts looks at any zone (or calls
        a declared function that does): if not, it reads only the board's spaces."""
        for n in ast.walk(body):
            if isinstance(n, ast.Call):
                if n.target is None or n.target.__class__.__name__ == "Callable_":
                    callee = self.bodies.get(("function", n.func))
                    if callee is None or n.func not in seen and self.reads_zones(
                            callee, seen | {n.func}):
                        return True
                elif n.func in _WHERE_CARDS_LIE:
                    return True
        return False

    def _default(self, text: str | None, scope: Scope) -> str:
        if text == "you":
            return self._get_you(scope)
        if text == "none" or text is None:
            return "None"
        if text.startswith('"'):
            return repr(text.strip('"'))
        return repr(int(text))

    def e_Comprehension(self, e: ast.Comprehension, scope: Scope) -> str:
        agg = e.target
        name = agg.name
        span = self.src.const(e.span, "S")
        per_item = weight([x for x in (e.where, e.value) if x is not None])
        local = self.src.fresh("_c")
        inline = name in _INLINE_AGG and agg.kind != "choice"
        kept = self._kept_filter(e, scope) if inline else None
        if kept is not None:
            return kept
        source = self.expr(e.source, replace(scope, iterable=True))
        live = self.live(source)
        if inline and _pure(e, self.table) and not self.tries(e):
            # gone over at once by a comprehension that changes nothing (nor tries to):
            # no list can change while it runs, so it goes over the list it is given, a
            # zone's own list among them, not a copy (charged the same)
            items = f"_seen(B, {span}, {live or source}, {per_item})"
        else:  # _items copies the list: the zone's own list is copied once, not twice
            items = f"_items(B, {span}, {live or source}, {per_item})"
        # parts that do not depend on the item are worked out once; not inside a lambda
        # (its walrus would bind the lambda's own name) nor in an iterable
        hoist: dict | None = {} if inline and not scope.iterable else None
        inner = replace(scope, comp={**scope.comp, e.var: local}, hoist=hoist,
                        bound=frozenset({e.var}))
        where = self.expr(e.where, inner) if e.where is not None else None
        value = self.expr(e.value, inner) if e.value is not None else None
        if agg.kind == "choice":
            elem = e.source.type.elem if isinstance(e.source.type, T.ListType) else None
            keep = f"(lambda {local}: {where})" if where else "(lambda _x: True)"
            ask = (f"_asking_items(rt, {self._get_you(scope)}, {str(elem) if elem else ''!r}, "
                   f"{self._asking(e)}, {self.frame(scope)})")
            out = f"({ask}, {self.src.const(agg.impl)}(rt, {items}, {keep}, None))[1]"
        elif not inline:
            keep = f"(lambda {local}: {where})" if where else "(lambda _x: True)"
            val = f"(lambda {local}: {value})" if value else "None"
            out = f"{self.src.const(agg.impl)}(rt, {items}, {keep}, {val})"
        else:
            out = _inline_aggregate(name, local, items, where, value, span)
        if hoist:
            # the parts worked out once: unset before the comprehension runs
            resets = ", ".join(f"({h} := [_UNSET])" if iterable else f"({h} := _UNSET)"
                               for (_, iterable), h in hoist.items())
            out = f"({resets}, {out})[-1]"
        return out

    # -------------------------------------------------------------- hoisting
    def _hoisted(self, e, scope: Scope) -> str | None:
        """A costly pure part of a comprehension that does not depend on its variables."""
        if not _costly(e) or not _pure(e, self.table):
            return None
        if _uses(e, scope.bound):
            return None
        # in a comprehension's list Python allows no ':=', so the value goes in a cell
        key = (id(e), scope.iterable)
        h = scope.hoist.get(key)
        if h is None:
            h = scope.hoist[key] = self.src.fresh("_hc" if scope.iterable else "_h")
        outer = replace(scope, hoist=None)
        code = getattr(self, "e_" + type(e).__name__)(e, outer)
        if scope.iterable:
            return f"_cell({h}, lambda: {code})"
        return f"({h} if {h} is not _UNSET else ({h} := {code}))"

    def _kept_filter(self, e: ast.Comprehension, scope: Scope) -> str | None:
        """A comprehension of a pure function whose list and first conditions do not
        depend on the function's parameters, though its value or later conditions do
        (``sum(x in items() where ready(x) : share(x, p))``): while the engine
        only reads, the items that pass those conditions are found once for every
        call (as :meth:`_memo` keeps a whole part), and each call goes over them
        alone. The conditions are pure, so the items, their order and the value are
        the same; finding them is charged once, when they are found, and each call is
        charged for the items it goes over."""
        if scope.pure_fn is None or scope.comp or scope.iterable or e.where is None:
            return None
        if not _pure(e, self.table) or self.tries(e):
            return None
        params = scope.params | {"this"}
        if _uses(e.source, params):
            return None
        conds = _conjuncts(e.where)
        k = 0
        while k < len(conds) and not _uses(conds[k], params):
            k += 1
        if k == 0 or not any(_costly(c) for c in conds[:k]):
            return None  # nothing costly to keep
        agg, name = e.target, e.target.name
        span = self.src.const(e.span, "S")
        local = self.src.fresh("_c")
        source = self.expr(e.source, replace(scope, iterable=True))
        # the items passing the first conditions: worked out in a lambda, hoisting nothing
        first = replace(scope, comp={**scope.comp, e.var: local}, hoist=None,
                        bound=frozenset({e.var}), pure_fn=None)
        test = " and ".join(self.expr(c, first) for c in conds[:k])
        key = self.src.const((scope.pure_fn, id(e), "items"), "M")
        whom = self._memo_you([e.source, *conds[:k]], scope)
        found = (f"_memo(rt, ({key}, {whom}), lambda: [{local} for {local} in "
                 f"_seen(B, {span}, {self.live(source) or source}, {weight(conds[:k])}) "
                 f"if {test}])")
        rest = conds[k:]
        per_item = weight([x for x in (*rest, e.value) if x is not None])
        items = f"_seen(B, {span}, {found}, {per_item})"
        hoist: dict = {}
        inner = replace(scope, comp={**scope.comp, e.var: local}, hoist=hoist,
                        bound=frozenset({e.var}))
        where = " and ".join(f"({self.expr(c, inner)})" for c in rest) or None
        value = self.expr(e.value, inner) if e.value is not None else None
        if name == "all":
            return None  # (the items left out are the ones it tests)
        out = _inline_aggregate(name, local, items, where, value, span)
        if out is None:
            return None
        del agg
        if hoist:
            resets = ", ".join(f"({h} := [_UNSET])" if iterable else f"({h} := _UNSET)"
                               for (_, iterable), h in hoist.items())
            out = f"({resets}, {out})[-1]"
        return out

    def _memo(self, e, scope: Scope) -> str | None:
        """A costly part of a pure function that does not depend on its parameters."""
        if not isinstance(e, ast.Comprehension) or not _pure(e, self.table):
            return None
        used = _free(e) & (scope.params | {"this"})
        if used:
            # a part that reads some of the parameters is kept for their values, when
            # each is a plain value (a card, a player, a number, an id: not a list)
            decl = self.table.callables.get(scope.pure_fn)
            types = {p[0]: p[1] for p in decl.params} if decl is not None else {}
            if "this" in used or len(used) == len(scope.params) or any(
                    isinstance(types.get(n), (T.ListType, T.RecordType)) or
                    types.get(n) in (None, T.ANY) for n in used):
                return None  # (reading every parameter: the whole call, which does not pay)
        key = self.src.const((scope.pure_fn, id(e)), "M")
        code = getattr(self, "e_" + type(e).__name__)(e, replace(scope, pure_fn=None))
        values = "".join(f", {scope.V}[{n!r}]" if scope.args is None else f", {scope.args[n]}"
                         for n in sorted(used))
        return f"_memo(rt, ({key}, {self._memo_you(e, scope)}{values}), lambda: {code})"


_INLINE_NODES = 40
# the statements a body called with Python arguments may hold: none sets a variable,
# makes a block of variables of its own, or names a variable in a dict (a statement of
# an effect: a function's body has none, but a tree may come from elsewhere)
_ARGS_STATEMENTS = (ast.Return, ast.If, ast.Pass, ast.Require, ast.CallStmt)


def _dictless(node, params: list) -> bool:
    """Whether a declared function's body (an expression, or an effect) can run with its
    parameters as Python locals and no dict of variables (see CodeGen.args_of)."""
    body = node.body if isinstance(node, ast.Effect) else node
    items, depth = set(), 0
    for n in ast.walk(body):
        if isinstance(n, ast.Stmt) and not isinstance(n, _ARGS_STATEMENTS):
            return False
        if isinstance(n, ast.Comprehension):
            items.add(n.var)
        depth += isinstance(n, ast.If)
    if depth > 8 or any(asks(x) for x in (body if isinstance(body, list) else [body])):
        return False  # (nested deep enough to be outlined: kept as it was)
    known = set(params) | {"you"} | items
    return not any(isinstance(n, ast.Name) and n.binding in ("local", None)
                   and n.id not in known for n in ast.walk(body))


def _asks_about_each_card(s: ast.For) -> bool:
    """Whether a loop goes over cards and its body may ask a question (a choice, a
    placement, a 'may', a procedure or a card's block): such a question names the card."""
    elem = getattr(s.iterable.type, "elem", None)
    if elem is not T.CARD:
        return False
    for node in ast.walk(s.body):
        if isinstance(node, (ast.May, ast.Choose, ast.Place, ast.Run, ast.AnyOf)):
            return True
        if isinstance(node, ast.Call):
            b = BUILTINS.get(node.func)
            if getattr(node.target, "kind", None) == "procedure" or \
                    (b is not None and node.target is b and b.kind == "choice"):
                return True
        if isinstance(node, ast.Comprehension):
            agg = AGGREGATES.get(node.func)
            if agg is not None and agg.kind == "choice":
                return True
    return False


def _live_zone(code: str) -> str | None:
    """``code`` reading a zone through the runtime (``rt.cards_in(zone, player)``, which
    hands out a copy), made to read the zone's own list (``rt.zone_cards``, charged the
    same), or None when ``code`` is anything else. For a list read at once and let go,
    while no card moves (see ``engine.cards.CardsMixin.zone_cards``)."""
    if "rt.cards_in(" not in code:
        return None
    try:
        tree = pyast.parse(code.strip(), mode="eval").body
    except SyntaxError:
        return None
    func = getattr(tree, "func", None)
    if not (isinstance(tree, pyast.Call) and isinstance(func, pyast.Attribute)
            and isinstance(func.value, pyast.Name) and func.value.id == "rt"
            and func.attr == "cards_in" and func.lineno == func.end_lineno == 1):
        return None
    start = len(code) - len(code.lstrip())  # (code.strip() was parsed)
    return (code[:start + func.col_offset] + "rt.zone_cards"
            + code[start + func.end_col_offset:])


def worth_keeping(e) -> bool:
    """Costs more to work out than to look up: costly, a list built, or three calls."""
    if _costly(e):
        return True
    calls = [n for n in ast.walk(e) if isinstance(n, ast.Call)]
    return len(calls) >= 3 or any(n.func in _MAKES_LISTS for n in calls)


# what is charged a step each time it runs: statements and operations; names and
# literals cost nothing of their own
_OPERATIONS = (ast.Stmt, ast.Call, ast.Binary, ast.Unary, ast.Field, ast.Conditional,
               ast.ListExpr, ast.AnyOf, ast.Comprehension)
_NOT_CHILDREN = frozenset({"span", "type", "target", "purpose"})


def weight(node) -> int:
    """The steps one run of ``node`` (a body, an expression, or a list of them) costs, at
    least 1: a step per statement and per operation (a call, an operator, a field…),
    except in the loops and comprehensions inside it, which pay per turn and per item.
    So a loop whose body is long pays for each statement of it in every turn."""
    n, stack = 0, [node]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, ast.Node):
            n += isinstance(x, _OPERATIONS)
            if isinstance(x, ast.For):
                stack.append(x.iterable)
            elif isinstance(x, ast.Repeat):
                stack.append(x.count)
            elif isinstance(x, ast.Comprehension):
                stack.append(x.source)
            elif not isinstance(x, ast.While):
                stack.extend(v for k, v in vars(x).items() if k not in _NOT_CHILDREN)
    return max(n, 1)


def _plain(e) -> bool:
    """A value that is cheap and safe to work out more than once."""
    if isinstance(e, (ast.Name, ast.Literal)):
        return True
    return isinstance(e, ast.Field) and _plain(e.obj)


def _inlinable(body, table, names: set) -> bool:
    nodes = list(ast.walk(body))
    if len(nodes) > _INLINE_NODES or not _pure(body, table):
        return False
    for n in nodes:
        if isinstance(n, ast.Comprehension):
            return False
        if isinstance(n, ast.Call) and n.func in _MAKES_LISTS:
            return False  # building a list is worth keeping (see zone_only)
        if isinstance(n, ast.Name) and (n.binding == "local" or n.binding is None) \
                and n.id not in names:
            return False
    return True


def _in_order(template: str) -> bool:
    """Whether a template uses its arguments in the order they are written."""
    found = [int(c) for c in template if c.isdigit()]
    return found == sorted(found)


def _own_breaks(body):
    """The 'break' statements that leave a loop outside ``body`` (not one inside it)."""
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack.extend(n)
        elif isinstance(n, (ast.For, ast.Repeat, ast.While)):
            continue
        elif isinstance(n, ast.Break):
            yield n
        elif isinstance(n, ast.If):
            for _, b in n.branches:
                stack.append(b)
            if n.orelse:
                stack.append(n.orelse)
        elif isinstance(n, (ast.May, ast.AsPlayer)):
            stack.append(n.body)
            if getattr(n, "orelse", None):
                stack.append(n.orelse)
        elif isinstance(n, ast.Choose):
            stack.extend(n.options)


def _free(e) -> set:
    """The rule variables an expression reads that it does not bind itself."""
    if isinstance(e, ast.Name):
        return {e.id} if e.binding in ("local", None) else (
            {"you"} if e.binding == "player_track" else set())
    if isinstance(e, ast.Comprehension):
        inner = set()
        for part in (e.where, e.value):
            if part is not None:
                inner |= _free(part)
        return _free(e.source) | (inner - {e.var})
    out = set()
    for k, v in vars(e).items():
        if k in ("span", "type", "target"):
            continue
        for item in (v if isinstance(v, list) else v.values() if isinstance(v, dict) else [v]):
            if isinstance(item, ast.Node):
                out |= _free(item)
    return out


def _conjuncts(e) -> list:
    """``a and b and c`` as ``[a, b, c]`` (in the order they are tested); else ``[e]``."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _uses(e, names) -> bool:
    return bool(_free(e) & set(names))


def _costly(e) -> bool:
    """Worth keeping: it goes over a list, or calls a declared function."""
    for n in ast.walk(e):
        if isinstance(n, ast.Comprehension):
            return True
        if isinstance(n, ast.Call) and (n.target is None
                                        or n.target.__class__.__name__ == "Callable_"):
            return True
    return False


def _pure(e, table) -> bool:
    """Reads the state and changes nothing, asks nothing, draws no chance."""
    for n in ast.walk(e):
        if isinstance(n, ast.AnyOf):
            return False
        if isinstance(n, ast.Comprehension):
            agg = AGGREGATES.get(n.func)
            if agg is None or agg.kind in _IMPURE_KINDS:
                return False
        if isinstance(n, ast.Call):
            target = n.target
            if target is None or target.__class__.__name__ == "Callable_":
                decl = table.callables.get(n.func)
                if decl is None or decl.kind != "function":
                    return False
            else:
                b = BUILTINS.get(n.func)
                if b is None or b.kind in _IMPURE_KINDS:
                    return False
    return True


def _inline_aggregate(name: str, local: str, items: str, where: str | None,
                      value: str | None, span: str) -> str | None:
    """An aggregate over ``items`` written out as a Python expression, the item named
    ``local``, kept when ``where`` holds (None: every item): None for one not written
    out."""
    cond = f" if {where}" if where is not None else ""
    if name == "any":
        return f"any({where} for {local} in {items})" if where else f"bool({items})"
    if name == "all":
        return f"all({where} for {local} in {items})" if where else f"({items} is not None)"
    if name == "count":
        return f"sum(1 for {local} in {items}{cond})" if where else f"len({items})"
    if name == "sum":
        return f"_overflow(sum({value} for {local} in {items}{cond}), {span})"
    if name == "filter":
        return f"[{local} for {local} in {items}{cond}]"
    if name == "map":
        return f"[{value} for {local} in {items}{cond}]"
    if name == "first":
        return f"next(({local} for {local} in {items}{cond}), None)"
    return None

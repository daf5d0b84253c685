"""A condition on one space, worked out for every space of the board at once.

The engine asks a tile's placement rule about each space in turn (where may it
go? may it go anywhere?), and after every tile placed it asks again. Most
placement rules are built from a few kinds of question about a space: what
the board declares for it (``space.type == land``), what lies on it now
(``space.tile == none``, ``space.owner == you``, ``space.claimed_by``), and
the same questions about its neighbours (``any(n in neighbours(space) where
…)``) or about every space (``any(x in spaces() where …)``). Each such
question has one answer per space, which fits in a bitset: bit *i* answers
for the *i*-th space in declared order. ``and``, ``or`` and ``not`` become
``&``, ``|`` and ``~``; "some neighbour of the space is in M" is the union of
the neighbours-of masks of the spaces in M. So the whole rule is answered for
every space with a few dozen integer operations.

:func:`space_set` turns a checked expression with one free space variable
into such a function, or answers None when the expression asks anything
else (a player's stock, a card, a number compared, a builtin other than
``spaces`` and ``neighbours``): the engine then asks the rule space by
space, as before. Declared functions the expression calls are followed into
(their parameters bound to the arguments). The result is exactly what the
rule would answer for each space: the same comparisons (Python's ``==``),
the same truth of ``and``/``or``/``not``, ``any``/``all`` over the same
neighbours. Nothing here knows any game; what the masks are made from is the
``bits`` object the engine passes in (see ``engine/boardbits.py``):

- ``bits.all``: every space;
- ``bits.eq(field, live, value)``: the spaces whose field equals ``value``
  (``live``: what lies on the space now, else what the board declares);
- ``bits.near(mask)``: the spaces with at least one neighbour in ``mask``;
- ``bits.one(space)``: the space itself (0 when it is no space).
"""

from __future__ import annotations

from typing import Callable

from . import ast
from .builtins import Builtin
from .symbols import Callable_

# a space's fields that say what lies on it now: field name -> key in the state's record
LIVE_FIELDS = {"tile": "tile", "owner": "owner", "card": "card", "claimed_by": "claim"}
# declared fields whose value is not read as declared (a copy of a list): asked space by space
_NOT_MASKED = {"bonus"}
_MAX_DEPTH = 12  # declared functions followed into, one inside another


class Unsupported(Exception):
    """The expression asks something a bitset of spaces does not answer."""


class _Var:
    """The free space variable itself."""


class _Hidden:
    """An outer space variable, out of reach inside a comprehension over another."""


VAR, HIDDEN = _Var(), _Hidden()


class _Field:
    __slots__ = ("name", "live")

    def __init__(self, name: str, live: bool):
        self.name, self.live = name, live


class _Term:
    """``f(bits, you)``; ``fixed``: its value depends only on what the board declares
    (no player, nothing lying on a space), so it is worked out once per board."""

    __slots__ = ("f", "fixed")

    def __init__(self, f, fixed: bool = False):
        self.f, self.fixed = (_once(f) if fixed else f), fixed


class _Mask(_Term):
    """A set of spaces: ``f(bits, you) -> int``."""

    __slots__ = ()


class _Value(_Term):
    """A value that is the same for every space: ``f(bits, you) -> value``."""

    __slots__ = ()


def _once(f):
    """``f`` worked out the first time and kept (the board's declarations never change;
    each ruleset's board has functions of its own, see BoardLayout.rule)."""
    kept: list = []

    def first(bits, you):
        if not kept:
            kept.append(f(bits, you))
        return kept[0]
    return first


def _const(value) -> _Value:
    return _Value(lambda bits, you: value, True)


_YOU = _Value(lambda bits, you: you)


def space_set(tree: ast.Expr, var: str, asts: dict, table=None) -> Callable | None:
    """``f(bits, you) -> int``: the spaces (as a bitset, see the module) for which
    ``tree``, with ``var`` bound to the space, is true; or None when it cannot be worked
    out that way. ``asts``: the ruleset's checked trees by key (a declared function's
    value under ``("function", name)``); ``table``: its symbols (declared constants)."""
    try:
        return _mask_of(_Compiler(asts, table).term(tree, {var: VAR}, 0))
    except Unsupported:
        return None


def _mask_of(t) -> Callable:
    if isinstance(t, _Mask):
        return t.f
    if isinstance(t, _Value):
        f = t.f
        return lambda bits, you: bits.all if f(bits, you) else 0
    raise Unsupported("not a condition")


def _fixed(t) -> bool:
    return isinstance(t, _Term) and t.fixed


def _depends(t) -> bool:
    return not isinstance(t, _Value)


class _Compiler:
    def __init__(self, asts: dict, table):
        self.asts, self.table = asts, table

    def term(self, e, env: dict, depth: int):
        method = getattr(self, "t_" + type(e).__name__, None)
        if method is None:
            raise Unsupported(type(e).__name__)
        return method(e, env, depth)

    # ------------------------------------------------------------- leaves
    def t_Literal(self, e: ast.Literal, env, depth):
        v = e.value
        if v is None or isinstance(v, (bool, int, str)):
            return _const(v)
        raise Unsupported("literal")

    def t_Name(self, e: ast.Name, env, depth):
        name, binding = e.id, e.binding
        if binding == "local" or binding is None:
            if name in env:
                found = env[name]
                if found is HIDDEN:
                    raise Unsupported("an outer space inside a comprehension")
                return found
            if name == "you":
                return _YOU
            raise Unsupported(f"variable {name}")
        if binding in ("track", "player_track"):  # the state's tracks: not the board
            raise Unsupported("track")
        if binding == "constant":
            sym = self.table.get(name) if self.table is not None else None
            value = getattr(sym, "data", None) if sym is not None else None
            if sym is None or not (value is None or isinstance(value, (bool, int, str))):
                raise Unsupported("constant")
            return _const(value)
        return _const(getattr(e, "canonical", name))  # a declared symbol: its id

    def t_Field(self, e: ast.Field, env, depth):
        obj = self.term(e.obj, env, depth)
        if obj is not VAR:
            raise Unsupported("field of something other than the space")
        if e.name in LIVE_FIELDS:
            return _Field(LIVE_FIELDS[e.name], True)
        if e.name in _NOT_MASKED:
            raise Unsupported(e.name)
        return _Field(e.name, False)

    # ------------------------------------------------------------- operators
    def t_Unary(self, e: ast.Unary, env, depth):
        if e.op != "not":
            raise Unsupported(e.op)
        t = self.term(e.operand, env, depth)
        if isinstance(t, _Value):
            f = t.f
            return _Value(lambda bits, you: not f(bits, you), t.fixed)
        m = _mask_of(t)
        return _Mask(lambda bits, you: bits.all & ~m(bits, you), _fixed(t))

    def t_Binary(self, e: ast.Binary, env, depth):
        op = e.op
        if op in ("and", "or"):
            left, right = self.term(e.left, env, depth), self.term(e.right, env, depth)
            fixed = _fixed(left) and _fixed(right)
            if isinstance(left, _Value) and isinstance(right, _Value):
                lf, rf = left.f, right.f
                if op == "and":
                    return _Value(lambda bits, you: lf(bits, you) and rf(bits, you), fixed)
                return _Value(lambda bits, you: lf(bits, you) or rf(bits, you), fixed)
            lm, rm = _mask_of(left), _mask_of(right)
            if op == "and":
                return _Mask(lambda bits, you: lm(bits, you) & rm(bits, you), fixed)
            return _Mask(lambda bits, you: lm(bits, you) | rm(bits, you), fixed)
        if op not in ("==", "!="):
            raise Unsupported(op)
        left, right = self.term(e.left, env, depth), self.term(e.right, env, depth)
        if isinstance(left, _Value) and isinstance(right, _Value):
            lf, rf = left.f, right.f
            fixed = left.fixed and right.fixed
            if op == "==":
                return _Value(lambda bits, you: lf(bits, you) == rf(bits, you), fixed)
            return _Value(lambda bits, you: lf(bits, you) != rf(bits, you), fixed)
        if isinstance(left, _Value):
            left, right = right, left
        if not isinstance(right, _Value):
            raise Unsupported("two sides that both depend on the space")
        vf, fixed = right.f, right.fixed
        if isinstance(left, _Field):
            fixed = fixed and not left.live
            name, live = left.name, left.live
            m = lambda bits, you: bits.eq(name, live, vf(bits, you))  # noqa: E731
        elif left is VAR:
            m = lambda bits, you: bits.one(vf(bits, you))  # noqa: E731
        else:
            raise Unsupported("comparison")
        if op == "==":
            return _Mask(m, fixed)
        return _Mask(lambda bits, you: bits.all & ~m(bits, you), fixed)

    # ------------------------------------------------------------- calls
    def t_Call(self, e: ast.Call, env, depth):
        decl = e.target
        if not isinstance(decl, Callable_) or decl.kind != "function":
            raise Unsupported(f"builtin {e.func}")
        body = self.asts.get(("function", e.func))
        if not isinstance(body, ast.Expr) or depth >= _MAX_DEPTH:
            raise Unsupported(f"function {e.func}")
        params = [p[0] for p in decl.params]
        given = dict(zip(params, e.args))
        given.update(e.kwargs)
        if set(given) != set(params):
            raise Unsupported("a parameter left to its default")
        # the caller's 'you', unless a parameter has that name (as when it is called)
        inner = {"you": env.get("you", _YOU)}
        if inner["you"] is HIDDEN:
            raise Unsupported("you")
        for name, arg in given.items():
            inner[name] = self.term(arg, env, depth)
        return self.term(body, inner, depth + 1)

    def t_Comprehension(self, e: ast.Comprehension, env, depth):
        if e.func not in ("any", "all") or e.value is not None \
                or getattr(e.target, "kind", "function") != "function":
            raise Unsupported(e.func)
        src = e.source
        if not isinstance(src, ast.Call) or not isinstance(src.target, Builtin):
            raise Unsupported("a list other than spaces() or neighbours(space)")
        if src.func == "spaces" and not src.args and not src.kwargs:
            around = None
        elif src.func == "neighbours" and len(src.args) == 1 and not src.kwargs \
                and self.term(src.args[0], env, depth) is VAR:
            around = True
        else:
            raise Unsupported("a list other than spaces() or neighbours(space)")
        # inside, the comprehension's variable is the space; the outer one is out of reach
        inner = {k: (HIDDEN if _depends(v) else v) for k, v in env.items()}
        inner[e.var] = VAR
        where = self.term(e.where, inner, depth) if e.where is not None else _const(True)
        cond, fixed = _mask_of(where), _fixed(where)
        if around is None:  # the same answer for every space
            if e.func == "any":
                return _Value(lambda bits, you: cond(bits, you) != 0, fixed)
            return _Value(lambda bits, you: cond(bits, you) == bits.all, fixed)
        if e.func == "any":  # some neighbour meets it
            return _Mask(lambda bits, you: bits.near(cond(bits, you)), fixed)
        # every neighbour meets it: no neighbour fails it
        return _Mask(lambda bits, you: bits.all & ~bits.near(bits.all & ~cond(bits, you)),
                     fixed)

"""What the renderer needs to know about checked trees, in no words of its own.

Whether an expression only reads the state (so its value may stand in for its
words), whether it is a choice, an amount or a count, a call's arguments
bound to its parameter names, and the comparisons turned round or negated.

May import: :mod:`..ast`, :mod:`..types` and :mod:`..builtins`.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..builtins import AGGREGATES, BUILTINS

_COMPARE = ("<", "<=", ">", ">=", "==", "!=")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _rid(s) -> str | None:
    return getattr(s, "resource_id", None)


def ast_with(e: ast.Binary, op: str, left, right) -> ast.Binary:
    b = ast.Binary(e.span, op, left, right)
    b.type = T.BOOL
    return b


def _lit(value, like: ast.Expr) -> ast.Literal:
    lit = ast.Literal(like.span, value)
    lit.type = like.type
    return lit


def _pure(e: ast.Expr) -> bool:
    """Whether the expression only reads the state (so it may be evaluated for words)."""
    if isinstance(e, ast.AnyOf):
        return False
    if isinstance(e, ast.Comprehension):
        agg = AGGREGATES.get(e.func)
        if agg is None or agg.kind == "choice":
            return False
        parts = [e.source, e.where, e.value]
        return all(p is None or _pure(p) for p in parts)
    if isinstance(e, ast.Call):
        b = BUILTINS.get(e.func)
        target = e.target
        if b is not None and target is b and b.kind != "function":
            return False
        if getattr(target, "kind", None) == "procedure":
            return False
        return all(_pure(a) for a in list(e.args) + list(e.kwargs.values()))
    for child in ("obj", "operand", "left", "right", "cond", "then", "other"):
        sub = getattr(e, child, None)
        if isinstance(sub, ast.Expr) and not _pure(sub):
            return False
    if isinstance(e, ast.ListExpr):
        return all(_pure(i) for i in e.items)
    return True


def _is_choice(e: ast.Expr) -> bool:
    """A choice the acting player makes: choose(…), choose_optional(…), any NOUN, a number."""
    if isinstance(e, ast.AnyOf):
        return True
    if isinstance(e, ast.Comprehension):
        return e.func in ("choose", "choose_optional")
    return isinstance(e, ast.Call) and e.func == "choose_number"


def _is_quantity(e: ast.Expr) -> bool:
    if isinstance(e, ast.Name):
        return e.binding in ("track", "player_track")
    if isinstance(e, ast.Call):
        b = BUILTINS.get(e.func)
        return b is not None and bool(b.amount) and e.target is b
    return isinstance(e, ast.Comprehension) and e.func == "count"


def _is_count(e: ast.Expr) -> bool:
    return (isinstance(e, ast.Comprehension) and e.func == "count") or \
        (isinstance(e, ast.Call) and e.func in ("size", "count_tags", "tiles_left"))


def _symbol_id(e) -> str | None:
    if isinstance(e, ast.Name) and e.binding not in (None, "local"):
        return getattr(e, "canonical", e.id)
    return None


def _bind_args(names: list[str], call: ast.Call, defaults: list, variadic: list) -> dict:
    out: dict = {}
    args = list(call.args)
    for i, name in enumerate(names):
        if variadic[i]:
            out[name] = args[i:]
            break
        if i < len(args):
            out[name] = args[i]
        elif name in call.kwargs:
            out[name] = call.kwargs[name]
    for k, v in call.kwargs.items():
        out.setdefault(k, v)
    return out


def _gives_numbers(e: ast.Expr) -> bool:
    """Whether a condition's own refusal would carry numbers (a comparison, or parts of one)."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _gives_numbers(e.left) or _gives_numbers(e.right)
    return isinstance(e, ast.Binary) and e.op in _COMPARE

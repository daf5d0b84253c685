"""Expressions in words: names, fields, arithmetic, conditionals and literals.

Statically an expression reads as what it stands for ("the number of cards in
your hand"); in a running game every expression that only reads the state is
replaced by its value ("3"), evaluated through the ruleset's evaluator. A
failure to evaluate never breaks a game: the static words are used instead.

May import: :mod:`..ast`, :mod:`..types` and the package's modules below the
renderer.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from .context import _NO_VALUE, Ctx, _Deferred, _rt, _Words
from .english import _the, join_and, possessive, words_of_id
from .names import _ELEM_NOUN, _NONE_WORD
from .trees import _COMPARE, _pure

_ARITH = {"+": "plus", "-": "minus", "*": "times"}


def _words_only(e: ast.Expr, ctx: Ctx) -> bool:
    """Whether ``e`` reads a local that stands for words here, not for a value: what
    a choice not yet made picks ('that technology'). Its value would be a guess."""
    bound = ctx.names
    if not bound:
        return False
    return any(isinstance(n, ast.Name) and n.binding in ("local", None) and n.id in bound
               and not isinstance(bound[n.id], _Deferred) for n in ast.walk(e))


class Expressions:
    """Renders expressions; dispatches on the node's class."""

    def expr(self, e: ast.Expr, ctx: Ctx | None = None) -> str:
        ctx = ctx or Ctx()
        if ctx.ask is not None and e is ctx.ask:
            return self.which(e)
        if ctx.frame is not None and not isinstance(e, (ast.Literal, ast.Name)) \
                and e.type is not T.BOOL and not isinstance(e.type, T.ListType) and _pure(e) \
                and not _words_only(e, ctx):
            value = self._value(e, ctx)
            if value is not _NO_VALUE:
                return self.value_words(value, e.type, ctx.frame.rt)
        return getattr(self, "e_" + type(e).__name__)(e, ctx)

    def _value(self, e: ast.Expr, ctx: Ctx):
        if self.evaluate is None or ctx.frame is None:
            return _NO_VALUE
        try:
            return self.evaluate(e, ctx.frame)
        except Exception:  # words must never break a game; static words instead
            return _NO_VALUE

    def e_Literal(self, e: ast.Literal, ctx: Ctx) -> str:
        v = e.value
        if v is None:
            return _NONE_WORD.get(e.type, "none")
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, str):
            return words_of_id(v)
        return str(v)

    def e_Name(self, e: ast.Name, ctx: Ctx) -> str:
        name = e.id
        if e.binding == "local" or e.binding is None:
            if name in ctx.names:
                bound = ctx.names[name]
                if isinstance(bound, _Words):
                    return bound.text
                if isinstance(bound, _Deferred):
                    return self.expr(bound.expr, ctx)
                return self.value_words(bound, e.type, _rt(ctx))
            if ctx.frame is not None and name in ctx.frame.vars:
                value = ctx.frame.vars[name]
                if name == "you":
                    return "you"
                if value is not None and value == ctx.frame.vars.get("you") \
                        and e.type is T.PLAYER:
                    return "you"
                return self.value_words(value, e.type, ctx.frame.rt)
            if name == "you":
                return "you"
            if name == "this":
                return "this card"
            if name == "event":
                return "the event"
            return f"the {_ELEM_NOUN.get(e.type, words_of_id(name))}"
        ident = getattr(e, "canonical", name)
        if e.binding in ("track", "player_track"):
            if ctx.frame is not None:
                value = self._value(e, ctx)
                if value is not _NO_VALUE:
                    return self.track_amount(ident, value)
            name_words = self.thing("track", ident)
            return name_words if e.binding == "track" else f"your {name_words}"
        if e.binding == "track_symbol":
            return _the(self.thing("track", ident))
        if e.binding == "constant":
            value = self.table.get(name).data
            return self.value_words(value) if not isinstance(value, str) else words_of_id(value)
        if e.type is T.SPACE and ident in self.spaces:
            return self.spaces[ident]
        if e.binding == "card":
            return self.thing("card", ident)
        if e.binding in ("space_type", "bonus", "resource", "card_resource", "tag", "tile",
                         "zone", "marker", "card_type", "modifier"):
            if e.binding == "zone":
                return self.zone(ident, "you")
            return self.thing(e.binding, ident)
        return words_of_id(ident)

    def e_Field(self, e: ast.Field, ctx: Ctx, negated: bool = False) -> str:
        obj = self.expr(e.obj, ctx)
        fname = self._field_name(e)
        if e.type is T.BOOL:  # 'it is fundamental', 'it is not fundamental'
            return f"{obj} is {'not ' if negated else ''}{fname}"
        if isinstance(e.obj.type, T.RecordType):
            return f"the {fname}" if obj == "the event" else f"{possessive(obj)} {fname}"
        if len(obj.split()) > 3:  # 'the bonus of the space of the tile …'
            return f"the {fname} of {obj}"
        return f"{possessive(obj)} {fname}"

    def e_ListExpr(self, e: ast.ListExpr, ctx: Ctx) -> str:
        return join_and([self.expr(i, ctx) for i in e.items])

    def e_Unary(self, e: ast.Unary, ctx: Ctx) -> str:
        if e.op == "-":
            inner = self.expr(e.operand, ctx)
            return f"-{inner}" if inner.lstrip("-").isdigit() else f"minus {inner}"
        return self.negative(e.operand, ctx)

    def e_Binary(self, e: ast.Binary, ctx: Ctx) -> str:
        if e.op in ("and", "or"):
            return f"{self.cond(e.left, ctx)} {e.op} {self.cond(e.right, ctx)}"
        if e.op in _COMPARE:
            return self.compare(e, ctx)
        if e.op in ("has", "lacks"):
            verb = "includes" if e.op == "has" else "does not include"
            return f"{self.expr(e.left, ctx)} {verb} {self.expr(e.right, ctx)}"
        left, right = self._side(e.left, ctx), self._side(e.right, ctx)
        if e.op in ("+", "-"):
            if not right:
                return left
            if not left:
                return right if e.op == "+" else f"minus {right}"
        if e.op == "*" and (not left or not right):
            return ""
        if e.op == "//":
            return f"{left} divided by {right}, rounded down"
        if e.op == "%":
            return f"the remainder of {left} divided by {right}"
        return f"{left} {_ARITH[e.op]} {right}"

    def _side(self, e: ast.Expr, ctx: Ctx) -> str:
        """An operand's words; '' for an adjustment card text leaves out."""
        if isinstance(e, ast.Call) and e.func in self.table.callables:
            section = ("procedures" if self.table.callables[e.func].kind == "procedure"
                       else "functions")
            entry = self.rs.sections[section].get(e.func)
            if entry is not None and entry.data.get("phrase") == "" and ctx.frame is None:
                return ""
        if isinstance(e, ast.Binary) and e.op in ("*", "+", "-") and ctx.frame is None:
            inner = self.e_Binary(e, ctx)
            return inner
        return self.expr(e, ctx)

    def e_Conditional(self, e: ast.Conditional, ctx: Ctx) -> str:
        then = self.expr(e.then, ctx)
        other = self.expr(e.other, ctx)
        if other in ("0", "none", "no"):
            return f"{then} if {self.cond(e.cond, ctx)}"
        return f"{then} if {self.cond(e.cond, ctx)}, otherwise {other}"

    def e_AnyOf(self, e: ast.AnyOf, ctx: Ctx) -> str:
        return f"any {e.noun}"

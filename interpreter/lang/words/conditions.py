"""Conditions in words: 'at least 30 % humidity', 'it has no tile'.

A condition reads as a requirement a person checks: a comparison with an
amount reads as that amount ("at least 2 science tags", "no gold"), two
amounts are both said, and a condition that must not hold is turned round
where one verb makes that safe ("it does not have a tile"), else said as
"it is not so that …".

May import: :mod:`..ast`, :mod:`..types` and the package's modules below the
renderer.
"""

from __future__ import annotations

import re

from .. import ast
from .. import types as T
from ..builtins import BUILTINS
from .context import Ctx
from .english import _a, _int_or_none, plural_of
from .names import _NONE_WORD
from .trees import _COMPARE, _FLIP, _NEGATE, _bind_args, _is_quantity, _symbol_id, ast_with


def _one_of(plural: str) -> str:
    """'cards' → 'card', 'technologies' → 'technology', 'boxes' → 'box'."""
    if plural.endswith("ies"):
        return plural[:-3] + "y"
    if plural.endswith(("ches", "shes", "sses", "xes")):
        return plural[:-2]
    return plural[:-1]


def _plural(noun: str) -> str:
    """'tile owned by you' → 'tiles owned by you': the noun before what is said of it."""
    head, sep, rest = noun.partition(" ")
    return plural_of(head) + sep + rest


# what one of the spaces around a space is, said as the thing on it: 'it has a tile'
# is 'a tile', 'its tile is a city' is 'a city' (spaces and tiles are the engine's)
_THING_ON_IT = re.compile(r"(?:it has|its tile is) (?:a|an) ([^,]+)")


class Conditions:
    """Renders conditions, comparisons and the amounts they compare."""

    def near(self, e: ast.Comprehension, ctx: Ctx, lead: str, n: int | None = 1) -> str | None:
        """A condition on how many items of a list meet a condition, for a list whose
        builtin says how being related to them reads (its ``near``) and items that read
        as the thing on them: 'it is next to no tile', 'it is next to at least 2 cities'
        (``lead`` 'a', 'no', 'at least 2'); None where it would not read so."""
        src = e.source
        b = BUILTINS.get(src.func) if isinstance(src, ast.Call) else None
        if b is None or not b.near or not isinstance(src.target, type(b)):
            return None
        if e.where is None:
            return None
        said = self.cond(e.where, self._element_ctx(e, ctx))
        m = _THING_ON_IT.fullmatch(said)
        if m is None or any(w in f" {m.group(1)} " for w in (" and ", " or ", " is ",
                                                             " has ", " it ", " its ")):
            return None
        noun = m.group(1)
        one = n == 1 or lead == "no"  # 'no tile', 'at least 2 tiles'
        some = _a(noun) if lead == "a" else f"{lead} {noun if one else _plural(noun)}"
        args = _bind_args([p.name for p in b.params], src, [p.default for p in b.params],
                          [p.variadic for p in b.params])
        text = self.fill(b.near.replace("{some}", "\x00"), args, ctx,
                         {p.name: p.type for p in b.params})
        return text.replace("\x00", some)

    def cond(self, e: ast.Expr, ctx: Ctx | None = None) -> str:
        """A condition as a requirement a person reads ('at least 30 % humidity')."""
        ctx = ctx or Ctx()
        if isinstance(e, (ast.Name, ast.Literal)):
            return self.expr(e, ctx)
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            both = self._shared_has(e, ctx)
            if both is not None:
                return both
            return f"{self.cond(e.left, ctx)} {e.op} {self.cond(e.right, ctx)}"
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.negative(e.operand, ctx)
        return getattr(self, "e_" + type(e).__name__)(e, ctx)

    def _shared_has(self, e: ast.Binary, ctx: Ctx) -> str | None:
        """'its bonus includes salt or pearls' for two 'has' of the same thing."""
        a, b = e.left, e.right
        if not all(isinstance(x, ast.Binary) and x.op == "has" for x in (a, b)):
            return None
        subject = self.expr(a.left, ctx)
        if subject != self.expr(b.left, ctx):
            return None
        return f"{subject} includes {self.expr(a.right, ctx)} {e.op} {self.expr(b.right, ctx)}"

    def negative(self, e: ast.Expr, ctx: Ctx) -> str:
        """A condition that must not hold, said so that it cannot be misread."""
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.cond(e.operand, ctx)
        unmarked = self.marked(e, ctx, negated=True)
        if unmarked is not None:  # 'this card is unlocked'
            return unmarked
        if isinstance(e, ast.Binary) and e.op in _COMPARE:
            return self.compare(ast_with(e, _NEGATE[e.op], e.left, e.right), ctx)
        if isinstance(e, ast.Binary) and e.op in ("has", "lacks"):
            return self.e_Binary(ast_with(e, "lacks" if e.op == "has" else "has", e.left,
                                          e.right), ctx)
        if isinstance(e, ast.Comprehension) and e.func in ("any", "all"):
            near = self.near(e, ctx, "no") if e.func == "any" else None
            if near is not None:  # 'it is next to no tile'
                return near
            source = self.expr(e.source, ctx)
            where = self.where(e, ctx)
            if e.func == "any":  # 'none of the spaces next to it has a tile'
                rest = " " + where[6:] if where.startswith(" that ") else where
                return f"none of {source}{rest}"
            return f"not every one of {source}{where}"
        if isinstance(e, ast.Field) and e.type is T.BOOL:
            return self.e_Field(e, ctx, negated=True)
        text = f" {self.cond(e, ctx)} "
        # one clause with one verb ('it has a tile') can be turned round safely
        one_clause = not any(w in text for w in (" where ", " that ", " whose ", " and ",
                                                 " or ", " if "))
        verbs = sum(text.count(v) for v in (" is ", " has ", " can "))
        if one_clause and verbs == 1:
            for a, b in ((" is not ", " is "), (" is ", " is not "), (" has ", " does not have "),
                         (" can ", " cannot ")):
                if a in text:
                    return text.replace(a, b, 1).strip()
        return f"it is not so that {text.strip()}"

    def compare(self, e: ast.Binary, ctx: Ctx) -> str:
        op, left, right = e.op, e.left, e.right
        if _is_quantity(right) and not _is_quantity(left):
            left, right, op = right, left, _FLIP[op]
        if isinstance(right, ast.Literal) and right.value is None:
            if isinstance(left, ast.Field) and left.name == "holds":  # 'it collects resources'
                obj = self.expr(left.obj, ctx)
                verb = "collect" if obj in ("you", "they") else "collects"
                return f"{obj} {verb} {'no ' if op == '==' else ''}resources"
            if isinstance(left, ast.Field):  # 'it has no tile', 'it has an owner'
                obj = self.expr(left.obj, ctx)
                fname = self._field_name(left)
                verb = "have" if obj in ("you", "they") else "has"
                return f"{obj} {verb} {'no ' + fname if op == '==' else _a(fname)}"
            noun = self.expr(left, ctx)
            return f"{noun} is {'not ' if op == '!=' else ''}{_NONE_WORD.get(left.type, 'none')}"
        ident = _symbol_id(right) if isinstance(left, ast.Field) and left.name == "holds" \
            and op in ("==", "!=") else None
        if ident is None and isinstance(left, ast.Field) and left.name == "holds" and \
                op in ("==", "!=") and not isinstance(right, ast.Literal):
            value = self._value(right, ctx)  # a parameter: its value now, in a game
            ident = value if isinstance(value, str) and self.table.get(
                value, ("card_resource", "resource")) is not None else None
        if ident is not None:  # 'it collects beads'
            obj = self.expr(left.obj, ctx)
            kind = "card_resource" if self.table.get(ident, ("card_resource",)) else "resource"
            things = self.thing(kind, ident, 2)
            plural = obj in ("you", "they")
            verb = ("collect" if plural else "collects") if op == "==" else \
                ("do not collect" if plural else "does not collect")
            return f"{obj} {verb} {things}"
        if isinstance(left, ast.Call) and left.func == "zone_of" and left.args \
                and op in ("==", "!="):  # 'this card is in your timeline'
            zone = self.expr(right, ctx)
            return f"{self.expr(left.args[0], ctx)} is {'not ' if op == '!=' else ''}in {zone}"
        if _is_quantity(right) and _is_quantity(left):  # two amounts: say both
            verb = {">=": "is at least", "<=": "is at most", "==": "is", "!=": "is not",
                    ">": "is more than", "<": "is less than"}[op]
            return f"{self.expr(left, ctx)} {verb} {self.expr(right, ctx)}"
        threshold = self._side(right, ctx) or self.expr(right, ctx)
        n = _int_or_none(threshold)
        if op == ">" and n is not None:
            op, threshold, n = ">=", str(n + 1), n + 1
        if op == "<" and n is not None:
            op, threshold, n = "<=", str(n - 1), n - 1
        if isinstance(left, ast.Comprehension) and left.func == "count" and n is not None:
            lead = "no" if n == 0 and op in ("==", "<=") else {
                ">=": "at least", "<=": "at most", "==": "exactly"}.get(op)
            near = self.near(left, ctx, lead if n == 0 else f"{lead} {n}", n) \
                if lead else None
            if near is not None:  # 'it is next to at least 2 cities'
                return near
        amount = self.amount(left, threshold, n, ctx)
        if amount is not None:
            lead = {">=": "at least ", "<=": "at most ", "==": "exactly ", "!=": "not exactly ",
                    ">": "more than ", "<": "fewer than "}[op]
            if op == ">=" and n == 1 and amount.startswith("1 of the "):
                noun, _, rest = amount[len("1 of the "):].partition(" ")
                if noun.endswith("s") and rest.startswith(("in ", "on ")) and not any(
                        w in f" {rest} " for w in (" where ", " that ", " whose ", " with ")):
                    return f"at least one {_one_of(noun)} {rest}"  # 'one card in your hand'
            if op == ">=" and n == 1 and amount.startswith("1 of "):
                return "at least one of " + amount[5:]
            if op in ("==", "<=") and n == 0:  # 'none of your pieces on it', 'no gold'
                return "none of " + amount[5:] if amount.startswith("0 of ") else \
                    "no " + amount[2:] if amount.startswith("0 ") else lead + amount
            return lead + amount
        subject = self.expr(left, ctx)
        verb = {">=": "is at least", "<=": "is at most", "==": "is", "!=": "is not",
                ">": "is more than", "<": "is less than"}[op]
        return f"{subject} {verb} {threshold}"

    def _symbol_named(self, e, ctx: Ctx) -> str | None:
        """The declared thing ``e`` names: a symbol, or a resource a local of the reason is
        bound to ('r' of 'all(r in price …)'), so it is said as that resource, singular or
        plural by the count ('1 coin', '2 coins'); None otherwise."""
        ident = _symbol_id(e)
        if ident is None and isinstance(e, ast.Name) and e.binding in ("local", None):
            bound = ctx.names.get(e.id)
            if isinstance(bound, str) and self.table.get(bound, ("resource",)) is not None:
                return bound
        return ident

    def amount(self, q: ast.Expr, n_text: str, n: int | None, ctx: Ctx) -> str | None:
        """'30 % humidity', '2 gold production', '3 of the cards in your hand'."""
        plural = "" if n == 1 else "s"
        if isinstance(q, ast.Name) and q.binding in ("track", "player_track"):
            ident = getattr(q, "canonical", q.id)
            decl = self.decl("track", ident)
            if decl.get("amount"):
                return str(decl["amount"]).replace("{n}", n_text).replace("{s}", plural)
            unit = decl.get("unit")
            if not unit:
                return None  # 'your marker is at least 2' reads better than '2 marker'
            return f"{n_text} {unit} {self.thing('track', ident)}"
        if isinstance(q, ast.Call) and q.func in self.table.callables:
            entry = self.rs.sections["functions"].get(q.func)
            template = entry.data.get("amount") if entry is not None else None
            if not template:
                return None
            decl = self.table.callables[q.func]
            names = [nm for nm, _, _ in decl.params]
            args = _bind_args(names, q, [None] * len(names), [False] * len(names))
            # {n} and {s} are the amount's own, whatever the parameters are called
            text = str(template).replace("{n}", "\x00n").replace("{s}", "\x00s")
            for nm in names:  # a resource parameter agrees with the count: '1 coin'
                ident = self._symbol_named(args.get(nm), ctx)
                if ident is not None and "{" + nm + "}" in text and n is not None \
                        and self.table.get(ident, ("resource",)) is not None:
                    text = text.replace("{" + nm + "}", self.thing("resource", ident, n))
            text = self.fill(text, args, ctx, {})
            return text.replace("\x00n", n_text).replace("\x00s", plural)
        if isinstance(q, ast.Call) and q.func in BUILTINS and BUILTINS[q.func].amount \
                and isinstance(q.target, type(BUILTINS[q.func])):
            b = BUILTINS[q.func]
            args = _bind_args([p.name for p in b.params], q, [p.default for p in b.params],
                              [p.variadic for p in b.params])
            text = self.fill(b.amount, args, ctx, {})
            ident = self._symbol_named(args.get("resource"), ctx)
            if ident is not None and n is not None:
                kind = "card_resource" if q.func == "resources_on" else "resource"
                text = text.replace("{noun}", self.thing(kind, ident, n))
            elif ident is not None:
                text = text.replace("{noun}", self.thing("resource", ident, 2))
            held = args.get("resource")
            if "{noun}" in text and isinstance(held, ast.Field) and held.name == "holds":
                text = text.replace("{noun}", "resource" if n == 1 else "resources")
            if "{noun}" in text:
                text = text.replace("{noun}", self._arg(args, "resource", ctx))
            return text.replace("{n}", n_text).replace("{s}", plural)
        if isinstance(q, ast.Comprehension) and q.func == "count":
            return f"{n_text} of {self.e_Comprehension(q, ctx)[len('the number of '):]}"
        return None

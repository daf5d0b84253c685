"""Statements in words: 'gain 2 gold; raise the humidity 1 step'.

A block's statements become clauses joined with semicolons. A ``let`` bound
to a choice is a step of its own ("choose a card …") and later uses say
"that card"; bookkeeping (set, return, emit, pass) says nothing to a player;
``run … of this`` is told through the card's own block. Amounts are numbers
where they are known here (a literal, or a live value in a running game).

May import: :mod:`..ast` and the package's modules below the renderer.
"""

from __future__ import annotations

from .. import ast
from .context import ASK, HELD, MAX_INLINE, Ctx, _Deferred, _HeldKind, _Words
from .english import _a, _int_or_none, _the, join_clauses, relative, there_is, words_of_id
from .choices import _conjuncts
from .trees import _is_choice, _pure, _rid, _symbol_id, ast_with


def _reduced(where: str) -> str:
    """A placement's one clause said short: ' that has no tile' → ' with no tile',
    ' that is next to a city' → ' next to a city'."""
    if " and " in where or "," in where:
        return where
    for long, short in ((" that has ", " with "), (" that is next to ", " next to ")):
        if where.startswith(long):
            return short + where[len(long):]
    return where


class Statements:
    """Renders statements and blocks of them."""

    def block(self, stmts: list[ast.Stmt], ctx: Ctx | None = None) -> str:
        ctx = ctx or Ctx()
        parts = []
        for s in stmts:
            if isinstance(s, ast.Let) and _is_choice(s.value):
                # 'let x = choose(…)' is a step of its own; later uses say 'that card'
                parts.append(self._choose_clause(s.value, ctx))
                ctx.names[s.name] = self.chosen(s.value)
                continue
            if isinstance(s, ast.Let) and ctx.frame is None and isinstance(s.value, ast.Field) \
                    and s.value.name == "holds":
                ctx.names[s.name] = HELD  # 'add 1 resource to that card'
                continue
            if isinstance(s, ast.Let):
                ctx.names[s.name] = self._local_value(s.value, ctx)
                continue
            text = self.stmt(s, ctx)
            if text:
                parts.append(text)
        return join_clauses(parts)

    def _local_value(self, e: ast.Expr, ctx: Ctx):
        if ctx.frame is not None:
            return _Deferred(e)
        return _Words(self.expr(e, ctx))

    def stmt(self, s: ast.Stmt, ctx: Ctx) -> str:
        fn = getattr(self, "s_" + type(s).__name__, None)
        return fn(s, ctx) if fn is not None else ""

    def resource(self, name: str, ctx: Ctx, count=None, kind: str = "resource",
                 ident: str | None = None) -> str:
        """A resource named in a statement: declared, or a variable holding one."""
        if ident is not None:
            return self.thing(kind, ident, count)
        if self.table.get(name, (kind, "bonus")) is None:
            if name in ctx.names:
                bound = ctx.names[name]
                if isinstance(bound, _HeldKind):
                    return "resource" if count == 1 else "resources"
                if isinstance(bound, _Words):
                    return bound.text
                if isinstance(bound, str):
                    return self.thing(kind, bound, count)
            if ctx.frame is not None and isinstance(ctx.frame.vars.get(name), str):
                return self.thing(kind, ctx.frame.vars[name], count)
            return "resources"
        return self.thing(kind, self.table.canonical(name, (kind, "bonus")), count)

    def _asked(self, e, ctx: Ctx) -> bool:
        return isinstance(e, ast.Name) and ctx.names.get(e.id) is ASK

    def s_Gain(self, s: ast.Gain, ctx: Ctx) -> str:
        who = "" if s.player is None else self._for_player(s.player, ctx)
        if self._asked(s.amount, ctx):
            noun = self.resource(s.resource, ctx, 2, ident=_rid(s))
            return f"{s.verb} how many {noun}{' production' if s.production else ''}{who}"
        amount = self._count(s.amount, ctx)
        if s.production:
            noun = f"{self.resource(s.resource, ctx, 1, ident=_rid(s))} production"
        else:
            noun = self.resource(s.resource, ctx, amount, ident=_rid(s))
        if amount is None:
            return f"{s.verb} {noun} equal to {self.expr(s.amount, ctx)}{who}"
        return f"{s.verb} {amount} {noun}{who}"

    def s_Raise(self, s: ast.Raise, ctx: Ctx) -> str:
        who = "" if s.player is None else self._for_player(s.player, ctx)
        name = self.thing("track", s.track)
        if s.steps is None:
            return f"{s.verb} {_the(name)} 1 step{who}"
        n = self._count(s.steps, ctx)
        if n is None:
            return f"{s.verb} {_the(name)} by {self.expr(s.steps, ctx)}{who}"
        return f"{s.verb} {_the(name)} {n} step{'s' if n != 1 else ''}{who}"

    def s_Place(self, s: ast.Place, ctx: Ctx) -> str:
        tile = self.thing("tile", s.tile)
        text = f"place {_a(tile)}"
        if s.mode == "on" and s.target is not None:
            text += f" on {self.expr(s.target, ctx)}"
        elif s.mode in ("where", "anywhere") and s.target is not None:
            # 'on a marsh', 'on any hill with no tile' (anywhere: the tile's own
            # rule set aside), 'on a space next to no tile'
            inner = ctx.bind(space=_Words("it"))
            noun, rest = self._space_kind(s.target)
            where = _reduced(self.clauses(rest, "space", inner)) if rest is not None else ""
            text += f" on any {noun}{where}" if s.mode == "anywhere" else \
                f" on {_a(noun)}{where}"
        elif s.mode == "anywhere":
            text += " anywhere"
        if s.player is not None:
            text += self._for_player(s.player, ctx)
        return text

    def _space_kind(self, where: ast.Expr) -> tuple[str, ast.Expr | None]:
        """The kind of space a placement's condition asks for, as its noun ('marsh'
        for ``space.type == marsh``; else 'space'), and the rest of the
        condition (None: nothing more)."""
        parts = _conjuncts(where)
        for i, part in enumerate(parts):
            if isinstance(part, ast.Binary) and part.op == "==" and \
                    isinstance(part.left, ast.Field) and part.left.name == "type" and \
                    isinstance(part.left.obj, ast.Name) and part.left.obj.id == "space":
                ident = _symbol_id(part.right)
                if ident is None or self.table.get(ident, ("space_type",)) is None:
                    continue
                rest = parts[:i] + parts[i + 1:]
                tree = None
                for p in rest:
                    tree = p if tree is None else ast_with(where, "and", tree, p)
                return self.thing("space_type", ident), tree
        return "space", where

    def s_Transfer(self, s: ast.Transfer, ctx: Ctx) -> str:
        up = "up to " if s.up_to else ""
        n = self._count(s.amount, ctx)
        amount = str(n) if n is not None else self.expr(s.amount, ctx)
        if self._asked(s.amount, ctx):
            up, n = "", 2
        noun = self.resource(s.resource, ctx, n, "card_resource", _rid(s))
        if n is None and not self._asked(s.amount, ctx):
            many = self.resource(s.resource, ctx, 2, "card_resource", _rid(s))
            where = {"add": f" to {self.expr(s.dest, ctx)}" if s.dest is not None else "",
                     "move": f" from {self.expr(s.source, ctx)} to {self.expr(s.dest, ctx)}"
                     if s.source is not None and s.dest is not None else ""}.get(
                s.verb, f" from {self.expr(s.source, ctx)}" if s.source is not None else "")
            return f"{s.verb} {up}{many}{where}, as many as {self.expr(s.amount, ctx)}"
        if s.verb == "add":
            return f"add {up}{amount} {noun} to {self.expr(s.dest, ctx)}"
        if s.verb == "move":
            return (f"move {up}{amount} {noun} from {self.expr(s.source, ctx)} "
                    f"to {self.expr(s.dest, ctx)}")
        return f"{s.verb} {up}{amount} {noun} from {self.expr(s.source, ctx)}"

    def s_Set(self, s, ctx) -> str:
        return ""  # bookkeeping inside a procedure says nothing to a player

    def s_Return(self, s, ctx) -> str:
        return ""

    def s_Emit(self, s, ctx) -> str:
        return ""

    def s_Pass(self, s, ctx) -> str:
        return ""

    def s_Require(self, s: ast.Require, ctx: Ctx) -> str:
        return f"only if {self.cond(s.cond, ctx)}"

    def s_Run(self, s: ast.Run, ctx: Ctx) -> str:
        block = self.table.canonical(s.block)
        card = s.card
        if isinstance(card, ast.Name) and card.id == "this" and ctx.this_card is not None \
                and ctx.depth < MAX_INLINE:
            key = ("card", ctx.this_card) + (("play",) if block == "play" else ("block", block))
            tree = self.rs.asts.get(key)
            if tree is not None:
                return self.block(tree.body, ctx.bind())
        what = "effect" if block == "play" else words_of_id(block)
        return f"carry out the {what} of {self.expr(card, ctx)}"

    def s_CallStmt(self, s: ast.CallStmt, ctx: Ctx) -> str:
        return self.call(s.call, ctx)

    def s_If(self, s: ast.If, ctx: Ctx) -> str:
        parts = []
        for i, (cond, body) in enumerate(s.branches):
            lead = "if" if i == 0 else "otherwise, if"
            parts.append(f"{lead} {there_is(self.cond(cond, ctx))}, "
                         f"{self.block(body, ctx.bind())}")
        if s.orelse:
            parts.append(f"otherwise {self.block(s.orelse, ctx.bind())}")
        return "; ".join(p for p in parts if not p.endswith(", "))

    def s_For(self, s: ast.For, ctx: Ctx) -> str:
        noun = self.noun_of(s.iterable)
        source = self.expr(s.iterable, ctx.bind())
        body = self.block(s.body, ctx.bind(**{s.var: _Words(f"that {noun}")}))
        if not body:
            return ""
        return f"for each {noun} among {source}: {body}"

    def s_Repeat(self, s: ast.Repeat, ctx: Ctx) -> str:
        body = self.block(s.body, ctx.bind())
        if self._asked(s.count, ctx):
            return f"{body}: how many times" if body else ""
        n = self._count(s.count, ctx)
        if n == 1:
            return body
        times = f"{n} times" if n is not None else f"as many times as {self.expr(s.count, ctx)}"
        return f"{body}, {times}" if body else ""

    def s_While(self, s: ast.While, ctx: Ctx) -> str:
        body = self.block(s.body, ctx.bind())
        return f"as long as {there_is(self.cond(s.cond, ctx))}: {body}" if body else ""

    def s_Break(self, s, ctx) -> str:
        return "stop"

    def s_May(self, s: ast.May, ctx: Ctx) -> str:
        body = self.block(s.body, ctx.bind())  # one choice: 'you may pay 3 coins and put …'
        if not body:
            return ""
        out = f"you may {body.replace('; ', ' and ')}"
        if s.orelse:
            orelse = self.block(s.orelse, ctx.bind())
            if orelse:
                out += f"; if you do not, {orelse}"
        return out

    def s_Choose(self, s: ast.Choose, ctx: Ctx) -> str:
        labels = [label.replace("; ", " and ") for label in self.option_labels(s, ctx)]
        if len(labels) == 2:
            return f"either {labels[0]}, or {labels[1]}"
        return "choose one: " + "; or ".join(labels)

    def option_labels(self, s: ast.Choose, ctx: Ctx) -> list[str]:
        return [(s.labels[i] if i < len(s.labels) and s.labels[i]
                 else self.block(o, ctx.bind()) or "nothing")
                for i, o in enumerate(s.options)]

    def s_AsPlayer(self, s: ast.AsPlayer, ctx: Ctx) -> str:
        who = self.expr(s.player, ctx)
        body = self.block(s.body, ctx.bind(you=_Words(who)))
        return f"{who}: {body}" if body else ""

    def _count(self, e, ctx: Ctx) -> int | None:
        """The number an amount stands for, when it is known here (a literal or a live value)."""
        if isinstance(e, ast.Literal) and isinstance(e.value, int) \
                and not isinstance(e.value, bool):
            return e.value
        if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.Literal):
            return -e.operand.value
        if ctx.frame is not None and isinstance(e, ast.Expr) and _pure(e):
            v = self._value(e, ctx)
            if isinstance(v, int) and not isinstance(v, bool):
                return v
        if isinstance(e, ast.Name) and e.id in ctx.names:
            bound = ctx.names[e.id]
            if isinstance(bound, _Words):
                bound = _int_or_none(bound.text)
            if isinstance(bound, int) and not isinstance(bound, bool):
                return bound
        return None

    def _for_player(self, player: ast.Expr, ctx: Ctx) -> str:
        who = self.expr(player, ctx)
        return "" if who == "you" else f" for {who}"

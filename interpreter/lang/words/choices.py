"""Lists and the choices among them: 'a card among your hand that is playable'.

A comprehension reads by its aggregate's phrase, with its element called "it"
in the condition; a choice reads as what it picks from in its prompt, as
"which card" inside the statement a prompt asks about, and as "that card" in
the statements after it.

May import: :mod:`..ast`, :mod:`..types`, :mod:`..builtins` and the
package's modules below the renderer.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..builtins import AGGREGATES
from .context import Ctx, _rt, _Words
from .english import _a, _bare, join_and, relative, words_of_id
from .trees import _bind_args, _symbol_id


def _counts_each(e: ast.Comprehension) -> bool:
    """Whether the condition of ``e`` compares an amount of its element with a number."""
    w = e.where
    if not (isinstance(w, ast.Binary) and w.op in (">=", ">", "<=", "<", "==")):
        return False
    amount, number = (w.left, w.right) if isinstance(w.right, ast.Literal) else \
        (w.right, w.left)
    return isinstance(number, ast.Literal) and isinstance(amount, ast.Call) and \
        any(isinstance(a, ast.Name) and a.id == e.var for a in amount.args)


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    """The parts of a condition joined by 'and'."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


class Choices:
    """Renders comprehensions and the choices a player makes."""

    def where(self, e: ast.Comprehension, ctx: Ctx) -> str:
        """The condition of a comprehension as a relative clause: ' that is playable'.

        A condition of several parts ('and') reads part by part where each is a
        clause of its own (' that collects resources, with at least 1 resource on
        it'), and a part that keeps one thing out reads 'other than' it (' other
        than this card that collects beads'); else as one clause (' where …')."""
        if e.where is None:
            return ""
        return self.clauses(e.where, e.var, self._element_ctx(e, ctx))

    def clauses(self, where: ast.Expr, var: str, inner: Ctx) -> str:
        """A condition on ``var`` (read 'it' in ``inner``) as relative clauses (see where)."""
        whole = relative(self.cond(where, inner))
        parts = _conjuncts(where)
        if len(parts) < 2:
            return whole
        other, clauses = [], []
        for part in parts:
            if isinstance(part, ast.Binary) and part.op == "!=" and \
                    isinstance(part.left, ast.Name) and part.left.id == var and \
                    not (isinstance(part.right, ast.Literal) and part.right.value is None):
                other.append(self.expr(part.right, inner))
                continue
            clause = relative(self.cond(part, inner))
            if clause.startswith(" where "):
                return whole  # (a part that names the element twice: one clause)
            clauses.append(clause)
        groups: list[list] = []  # in the order written; 'that' clauses next to each other
        for clause in clauses:  # share their 'that' (' that is a land area, has no tile
            if clause.startswith(" that ") and groups and groups[-1][0] == "that":
                groups[-1][1].append(clause[len(" that "):])  # and has no claimant')
            elif clause.startswith(" that "):
                groups.append(["that", [clause[len(" that "):]]])
            else:
                groups.append([clause.split()[0], [clause]])
        out = f" other than {join_and(other)}" if other else ""
        for i, (kind, texts) in enumerate(groups):
            piece = " that " + join_and(texts) if kind == "that" else texts[0]
            out += piece if i == 0 else ("," + piece) if kind == "with" else " and" + piece
        return out

    def _element_ctx(self, e: ast.Comprehension, ctx: Ctx) -> Ctx:
        """Inside a comprehension: the element is 'it'; other names keep their values."""
        inner = ctx.bind(**{e.var: _Words("it")})
        for name, bound in list(inner.names.items()):  # an outer element is 'it' no more
            if name != e.var and bound == _Words("it"):
                inner.names[name] = _Words("that one")
        if ctx.frame is not None:  # the element itself has no value outside the loop
            inner.frame = ctx.frame.child()
            inner.frame.vars.pop(e.var, None)
        return inner

    def e_Comprehension(self, e: ast.Comprehension, ctx: Ctx) -> str:
        if e.func == "choose" and ctx.frame is not None:  # a choice of one: that one, named
            only = self._only_choice(e, ctx)
            if only is not None:
                return only
        if e.func == "any":  # 'it is next to a city'
            near = self.near(e, ctx, "a")
            if near is not None:
                return near
        agg = AGGREGATES.get(e.func)
        if e.func in ("choose", "choose_optional") and e.where is None:
            chosen = self._choice_words(e.source, ctx)  # 'any player'
            if chosen is not None:
                return chosen
        if e.func == "all" and isinstance(e.source, ast.ListExpr) and e.where is not None \
                and _counts_each(e):
            # 'all(r in [food, wood] where stock(r) >= 3)': 'at least 3 each of food and
            # wood' (not 'every one of food and wood with at least 3 it')
            return self.cond(e.where, ctx.bind(**{e.var: _Words(
                "each of " + self.expr(e.source, ctx))}))
        noun = self.noun_of(e.source)
        inner = self._element_ctx(e, ctx)
        where = self.where(e, ctx)
        value = self.expr(e.value, inner) if e.value is not None else ""
        source = self.expr(e.source, ctx)
        if agg is None or not agg.phrase:
            return f"{words_of_id(e.func)} of {source}{where}"
        return agg.phrase.format(source=source, bare=_bare(source), where=where, value=value,
                                 one=_a(noun), noun=noun)

    def _choice_words(self, source: ast.Expr, ctx: Ctx) -> str | None:
        """How a free choice from a function's list reads, when it says (``choice:``)."""
        if not isinstance(source, ast.Call) or source.func not in self.table.callables:
            return None
        entry = self.rs.sections["functions"].get(source.func)
        text = entry.data.get("choice") if entry is not None else None
        if not text:
            return None
        names = [nm for nm, _, _ in self.table.callables[source.func].params]
        args = _bind_args(names, source, [None] * len(names), [False] * len(names))
        return self.fill(str(text), args, ctx, {})

    def _only_choice(self, e: ast.Comprehension, ctx: Ctx) -> str | None:
        """In a game, the one item a choice can pick now, by name (None: not one)."""
        items = self._filters.get(id(e))
        if items is None:
            items = ast.Comprehension(e.span, "filter", e.var, e.source, e.where, None)
            items.type = e.source.type
            items.target = AGGREGATES["filter"]  # (as the checker marks a comprehension)
            self._filters[id(e)] = items
            self._keep.append(e)  # (ids stay valid while the node lives)
        value = self._value(items, ctx)
        if not isinstance(value, list) or len(value) != 1:
            return None
        rt = _rt(ctx)
        seen = getattr(rt, "card_visible_to", None)
        if isinstance(value[0], int) and getattr(e.source.type, "elem", None) is T.CARD and \
                (seen is None or not seen(value[0], rt._acting())):
            return None  # (a card the chooser may not see keeps its general words)
        return self.value_words(value[0], getattr(e.source.type, "elem", None), rt)

    def choice(self, e: ast.Expr, ctx: Ctx) -> str:
        """What a choice picks from, for its prompt: 'a card from your hand where it …'."""
        if isinstance(e, ast.AnyOf):
            return _a(e.noun)
        if isinstance(e, ast.Comprehension):
            chosen = self._choice_words(e.source, ctx) if e.where is None else None
            if chosen is not None:  # 'any player' (the prompt lists who)
                return chosen
            noun = self.noun_of(e.source)
            return f"{_a(noun)} among {self.expr(e.source, ctx)}{self.where(e, ctx)}"
        return self.expr(e, ctx)

    def source(self, e: ast.Expr, ctx: Ctx) -> str | None:
        """The place a choice with no condition picks from, as a place ('your hand');
        None for any other choice."""
        src = getattr(e, "source", None)
        if not isinstance(e, ast.Comprehension) or e.where is not None or \
                not isinstance(src, ast.Call) or src.func != "cards_in" or not src.args:
            return None
        ident = _symbol_id(src.args[0])
        if ident is None:
            return None
        who = self.expr(src.args[1], ctx) if len(src.args) > 1 else \
            self.expr(src.kwargs["player"], ctx) if "player" in src.kwargs else "you"
        return self.zone(ident, who)

    def which(self, e: ast.Expr) -> str:
        """The choice a prompt asks about, inside its statement: 'which card'."""
        if isinstance(e, ast.AnyOf):
            return f"which {e.noun}"
        if isinstance(e, ast.Comprehension):
            return f"which {self.noun_of(e.source)}"
        return "how many" if e.type is T.INT else "which one"

    def _choose_clause(self, e: ast.Expr, ctx: Ctx) -> str:
        if isinstance(e, ast.Call) and e.func == "choose_number":
            args = _bind_args(["low", "high"], e, [None, None], [False, False])
            return (f"choose a number from {self._arg(args, 'low', ctx)} to "
                    f"{self._arg(args, 'high', ctx)}")
        return "choose " + self.choice(e, ctx)

    def chosen(self, e: ast.Expr) -> "_Words":
        """How a later statement refers to what a choice picked ('that card')."""
        if isinstance(e, ast.AnyOf):
            return _Words(f"that {e.noun}")
        if isinstance(e, ast.Comprehension):
            return _Words(f"that {self.noun_of(e.source)}")
        return _Words("that number")

"""Calls in words: builtins by their phrase, a ruleset's own by its phrase or body.

Each builtin carries a phrase template next to its doc (:mod:`..builtins`);
a ruleset's procedures, functions and events may declare a ``phrase`` of
their own. A call without a phrase is told through its body, up to
:data:`.context.MAX_INLINE` calls deep, then by its name.

Templates fill ``{param}`` with the argument's words. Forms:
``{p:poss}`` a possessive ("your", "Ann's"), ``{p:bare}`` without a leading
"the", ``{z@p}`` a zone as seen by a player ("your hand", "the discard
pile"), ``{z@all}`` a zone of every player, ``{n#card}`` a count with its
noun ("1 card", "3 cards"), and ``{round}`` the ruleset's name for a round.
A procedure or function whose phrase is empty (``phrase: ""``) is an
adjustment that card text leaves out, e.g. a requirement's personal slack.

May import: :mod:`..ast`, :mod:`..builtins` and the package's modules below
the renderer.
"""

from __future__ import annotations

import re

from .. import ast
from ..builtins import BUILTINS
from .context import MAX_INLINE, Ctx, _Words
from .english import _a, _bare, event_phrase, join_and, join_with, possessive, words_of_id
from .trees import _bind_args, _pure, _symbol_id


class Calls:
    """Renders calls, and fills phrase templates with their arguments."""

    def e_Call(self, e: ast.Call, ctx: Ctx) -> str:
        return self.call(e, ctx)

    def call(self, e: ast.Call, ctx: Ctx) -> str:
        target = e.target
        if target is not None and e.func in self.table.callables:
            return self._user_call(e, ctx)
        b = BUILTINS.get(e.func)
        if b is None:
            return words_of_id(e.func)
        if e.func == "count_history" and e.args and isinstance(e.args[0], ast.Literal):
            told = self.event_words(str(e.args[0].value), e, ctx)
            if told is not None:
                return told
        if e.func in ("cards_in", "all_cards_in") and e.args:
            ident = _symbol_id(e.args[0])
            name = str(self.decl("zone", ident).get("name") or "") if ident else ""
            if " cards " in f" {name.lower()} ":
                # 'your cards on offer', 'your played cards', 'your spell cards not yet
                # cast', not 'the cards in …'
                who = None if e.func == "all_cards_in" else (
                    self.expr(e.args[1], ctx) if len(e.args) > 1 else
                    self.expr(e.kwargs["player"], ctx) if "player" in e.kwargs else "you")
                return self.zone(ident, who)
        marked = self.marked(e, ctx)
        if marked is not None:  # 'Philosophy is locked', not 'is marked locked'
            return marked
        if e.func == "min":  # (in a game, only when it could not be worked out)
            up_to = self._min_amount(e, ctx)
            if up_to is not None:
                return up_to
        args = _bind_args([p.name for p in b.params], e, [p.default for p in b.params],
                          [p.variadic for p in b.params])
        return self.fill(b.phrase, args, ctx, {p.name: p.type for p in b.params})

    def marked(self, e: ast.Expr, ctx: Ctx, negated: bool = False,
               already: bool = False) -> str | None:
        """A marker test in the words its declaration gives ('adjective', 'opposite'):
        'Philosophy is locked'; negated, 'this card is unlocked'; ``already``, as a reason
        ('Philosophy is already unlocked'); None when it declares none."""
        if not (isinstance(e, ast.Call) and e.func == "is_marked" and len(e.args) == 2):
            return None
        ident = _symbol_id(e.args[1])
        data = self.decl("marker", ident) if ident else {}
        word = data.get("opposite" if negated else "adjective")
        if not word:
            return None
        return f"{self.expr(e.args[0], ctx)} is {'already ' if already else ''}{word}"

    def _user_call(self, e: ast.Call, ctx: Ctx) -> str:
        section = "procedures" if self.table.callables[e.func].kind == "procedure" else "functions"
        entry = self.rs.sections[section].get(e.func)
        data = entry.data if entry is not None else {}
        decl = self.table.callables[e.func]
        names = [n for n, _, _ in decl.params]
        args = _bind_args(names, e, [None] * len(names), [False] * len(names))
        phrase = data.get("phrase")
        if phrase is not None:
            return self.fill(str(phrase), args, ctx, {n: t for n, t, _ in decl.params})
        key = ("procedure" if section == "procedures" else "function", e.func)
        tree = self.rs.asts.get(key)
        if tree is not None and ctx.depth < MAX_INLINE:
            inner = Ctx(ctx.frame, {}, ctx.this_card, ctx.depth + 1)
            for n in names:
                a = args.get(n)
                inner.names[n] = _Words(self.expr(a, ctx)) if isinstance(a, ast.Expr) \
                    else _Words("you")
            if ctx.frame is not None:
                inner.frame = None  # the body's locals are not in this frame
            if isinstance(tree, ast.Effect) and section == "procedures":
                return self.block(tree.body, inner)
            if not isinstance(tree, ast.Effect):
                return self.expr(tree, inner)
        # a function written as statements: its name, and what it is asked about
        about = [self._arg(args, n, ctx) for n in names if args.get(n) is not None]
        return words_of_id(e.func) + (f" ({join_and(about)})" if about else "")

    def fill(self, template: str, args: dict, ctx: Ctx, types: dict) -> str:
        def one(m: re.Match) -> str:
            spec = m.group(1)
            if spec == "round":
                return self.rounds
            if spec == "pieces":  # a player's pieces on cards, in the game's word
                return self.pieces(2)
            if "?" in spec:  # '{arg?text}': the text when the argument is given ('%' = it)
                name, text = spec.split("?", 1)
                a = args.get(name)
                if a is None or (isinstance(a, ast.Literal) and a.value in (None, False)):
                    return ""
                if ctx.frame is not None and isinstance(a, ast.Expr) and _pure(a):
                    v = self._value(a, ctx)
                    if v is None or v is False:
                        return ""
                return text.replace("%", self._arg(args, name, ctx))
            if "#" in spec:
                name, noun = spec.split("#", 1)
                a = args.get(name)
                n = self._count(a, ctx) if isinstance(a, ast.Expr) else None
                if noun in args:  # '{n#r}': counted with the noun another argument names
                    ident = _symbol_id(args.get(noun))
                    kind = "card_resource" if ident and self.table.get(
                        ident, ("card_resource",)) else "resource"
                    word = self.thing(kind, ident, 2 if n is None else n) if ident \
                        else self._arg(args, noun, ctx)
                    return f"{n if n is not None else self._arg(args, name, ctx)} {word}"
                if n is None:
                    return f"{self._arg(args, name, ctx)} {noun}s"
                return f"{n} {noun}{'' if n == 1 else 's'}"
            if "@" in spec:
                zname, who = spec.split("@", 1)
                z = args.get(zname)
                ident = _symbol_id(z)
                if ident is None:
                    return self._arg(args, zname, ctx)
                if who == "all":
                    return self.zone(ident, None)
                return self.zone(ident, self._arg(args, who, ctx))
            if "|" in spec:  # '{tags|or}': a list of arguments joined with 'or'
                name, joiner = spec.split("|", 1)
                a = args.get(name)
                items = [self.expr(x, ctx) for x in a] if isinstance(a, list) else \
                    [self._arg(args, name, ctx)]
                return join_with(items, joiner)
            name, _, form = spec.partition(":")
            if name not in args and name in ("n", "noun", "s"):
                return m.group(0)  # filled in by the caller (amount forms)
            text = self._arg(args, name, ctx)
            if form == "poss":
                return possessive(text)
            if form == "a":
                return _a(text)
            if form == "one":
                ident = _symbol_id(args.get(name))
                if ident is None and getattr(ctx, "frame", None) is not None \
                        and isinstance(args.get(name), ast.Expr):
                    value = self._value(args[name], ctx)  # a variable holding a resource
                    if isinstance(value, str) and self.table.get(value) is not None:
                        ident = value
                if ident is not None:
                    sym = self.table.get(ident)
                    kind = sym.kind if sym is not None else "resource"
                    return self.thing(kind, ident, 1)
                return text
            if form == "bare":
                return _bare(text)
            if form == "plural":
                a = args.get(name)
                ident = _symbol_id(a)
                return self.thing("card_resource", ident, 2) if ident else text
            return text
        return re.sub(r"\{([^{}]+)\}", one, template)

    def event_words(self, event: str, e: ast.Call, ctx: Ctx) -> str | None:
        """count_history("tr_raised") by the event's phrase: 'the number of times …'."""
        entry = self.rs.sections.get("events", {}).get(event)
        phrase = entry.data.get("phrase") if entry is not None and isinstance(entry.data,
                                                                                dict) else None
        if not phrase:
            return None
        args = _bind_args(["event", "player", "scope"], e, [None, None, None],
                          [False, False, False])
        who = self._arg(args, "player", ctx) if args.get("player") is not None else "you"
        scope = args.get("scope")
        period = scope.value if isinstance(scope, ast.Literal) else "round"
        period = self.rounds if period == "round" else words_of_id(period)
        return f"the number of times {event_phrase(str(phrase), who)} this {period}"

    def _min_amount(self, e: ast.Call, ctx: Ctx) -> str | None:
        """'min(2, stock(cubes))' where an amount goes: 'up to 2'."""
        if len(e.args) == 2 and not e.kwargs:
            a, b = e.args
            for lit, other in ((a, b), (b, a)):
                if isinstance(lit, ast.Literal) and isinstance(lit.value, int) and \
                        not isinstance(other, ast.Literal):
                    return f"up to {lit.value}"
        return None

    def _arg(self, args: dict, name: str, ctx: Ctx) -> str:
        a = args.get(name)
        if a is None:
            return "you" if name == "player" else "none"
        if isinstance(a, list):
            return join_and([self.expr(x, ctx) for x in a])
        if isinstance(a, str):
            return a
        return self.expr(a, ctx)

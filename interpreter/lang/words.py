"""Words for people: the one renderer from checked effect trees to English.

Card text, option labels, prompts, refusal reasons and the docs all come from
here, so a person never reads effect code. Each builtin carries a phrase
template next to its doc (:mod:`.builtins`); a ruleset's procedures,
functions, events and modifiers may declare a ``phrase`` of their own, and
every resource, track, tag, zone, tile and card is called by its declared
``name``. Rendering is *static* (no game: "gain 1 coin for each tower") or
*dynamic* (a frame of a running game: "gain 3 coins"), where every expression
that reads the state without asking anyone is replaced by its value.

Templates fill ``{param}`` with the argument's words. Forms:
``{p:poss}`` a possessive ("your", "Ann's"), ``{p:bare}`` without a leading
"the", ``{z@p}`` a zone as seen by a player ("your hand", "the discard
pile"), ``{z@all}`` a zone of every player, ``{n#card}`` a count with its
noun ("1 card", "3 cards"), and ``{round}`` the ruleset's name for a round.
A procedure or function whose phrase is empty (``phrase: ""``) is an
adjustment that card text leaves out, e.g. a requirement's personal slack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from . import ast
from . import types as T
from .builtins import AGGREGATES, BUILTINS

MAX_INLINE = 3  # how deep a call without a phrase is rendered through its body
_COMPARE = ("<", "<=", ">", ">=", "==", "!=")
_ARITH = {"+": "plus", "-": "minus", "*": "times"}
_SECTION_OF_KIND = {
    "resource": "resources", "card_resource": "card_resources", "tag": "tags",
    "card_type": "card_types", "zone": "zones", "tile": "tiles", "marker": "markers",
    "track": "tracks", "player_track": "tracks", "modifier": "modifiers",
}
_NONE_WORD = {T.PLAYER: "nobody", T.CARD: "no card", T.SPACE: "no space", T.TILE: "no tile"}
_ELEM_NOUN = {T.CARD: "card", T.PLAYER: "player", T.SPACE: "space", T.TILE: "tile",
              T.INT: "number", T.TAG: "tag", T.RESOURCE: "resource", T.ZONE: "zone"}


def lower_name(name: str) -> str:
    """'Gold' → 'gold' in running text; 'VP' and 'TR' stay; 'Gold mine' → 'gold mine'."""
    if len(name) > 1 and name[0].isupper() and name[1].islower():
        return name[0].lower() + name[1:]
    return name


def words_of_id(ident: str) -> str:
    """The last resort for a thing with no name: its id as words."""
    return str(ident).replace("_", " ")


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


@dataclass
class Ctx:
    """Where words are rendered: static (no frame) or inside a running game."""

    frame: Any = None
    names: dict = field(default_factory=dict)  # local name -> words (static) or value
    this_card: str | None = None  # the card id of 'this', for card text
    depth: int = 0
    ask: Any = None  # the choice a prompt asks about: it reads 'which card'

    def bind(self, **names) -> "Ctx":
        out = Ctx(self.frame, dict(self.names), self.this_card, self.depth, self.ask)
        out.names.update(names)
        return out


class Words:
    """Renders a checked ruleset's effects; one per ruleset (see Ruleset.words)."""

    def __init__(self, rs, evaluate: Callable | None = None):
        self.rs = rs
        self.table = rs.table
        self.evaluate = evaluate  # (expr node, frame) -> value, for dynamic words
        self.rounds = words_of_id("round")
        rounds = rs.singles.get("rounds")
        if rounds is not None and isinstance(rounds.data, dict) and rounds.data.get("name"):
            self.rounds = lower_name(str(rounds.data["name"]))
        self.spaces: dict[str, str] = {}  # space id -> how a person calls it
        for board in rs.sections.get("boards", {}).values():
            for i, space in enumerate(board.data.get("spaces", []) or [], 1):
                label = space.get("label")
                name = space.get("name")
                self.spaces[space["id"]] = (f"{name} #{label}" if name and label is not None
                                            else name or f"#{label if label is not None else i}")
        self.board_items: dict[str, str] = {}  # space types and bonuses, by id
        for board in rs.sections.get("boards", {}).values():
            for key in ("space_types", "bonuses"):
                for item in board.data.get(key, []) or []:
                    if isinstance(item, dict):
                        self.board_items.setdefault(item["id"], item.get("name") or item["id"])

    # ----------------------------------------------------------------- names
    def decl(self, kind: str, ident: str) -> dict:
        section = _SECTION_OF_KIND.get(kind)
        if kind == "card":
            entry = self.rs.sections["cards"].get(ident)
            return entry.data if entry is not None else {}
        if section is None:
            sym = self.table.get(ident, (kind,))
            return sym.data if sym is not None and isinstance(sym.data, dict) else {}
        entry = self.rs.sections.get(section, {}).get(ident)
        if entry is None and kind in ("resource", "card_resource"):
            other = "card_resources" if kind == "resource" else "resources"
            entry = self.rs.sections.get(other, {}).get(ident)
        return entry.data if entry is not None and isinstance(entry.data, dict) else {}

    def thing(self, kind: str, ident: str, count: Any = None) -> str:
        """How a declared thing is called in running text."""
        if kind in ("space_type", "bonus"):
            if kind == "bonus" and self.table.get(ident, ("resource",)) is not None:
                return self.thing("resource", ident, count)
            return lower_name(str(self.board_items.get(ident, words_of_id(ident))))
        d = self.decl(kind, ident)
        if kind == "card":
            return d.get("name") or words_of_id(ident)
        name = d.get("name")
        if name is None:
            return words_of_id(ident)
        name = lower_name(str(name))
        plural = d.get("plural")
        if count == 1 and plural and name.lower() == str(plural).lower().replace("_", " "):
            return words_of_id(ident)
        if count not in (None, 1) and plural and "_" not in str(plural) \
                and not name.endswith("s") and name.lower() == ident.lower():
            return str(plural)
        return name

    def zone(self, ident: str, player_words: str | None) -> str:
        d = self.decl("zone", ident)
        name = lower_name(str(d.get("name") or words_of_id(ident)))
        if d.get("scope", "shared") != "player":
            return f"the {name}"
        if player_words is None:
            return f"every player's {name}"
        return f"{possessive(player_words)} {name}"

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[ast.Stmt], ctx: Ctx | None = None) -> str:
        ctx = ctx or Ctx()
        parts = []
        for s in stmts:
            if isinstance(s, ast.Let) and _is_choice(s.value):
                # 'let x = choose(…)' is a step of its own; later uses say 'that card'
                parts.append(self._choose_clause(s.value, ctx))
                ctx.names[s.name] = self.chosen(s.value)
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
            inner = ctx.bind(space=_Words("it"))
            if s.mode == "anywhere":
                text += " anywhere"
            text += f" on a space{relative(self.cond(s.target, inner))}"
        elif s.mode == "anywhere":
            text += " anywhere"
        if s.player is not None:
            text += self._for_player(s.player, ctx)
        return text

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

    # ----------------------------------------------------------- expressions
    def expr(self, e: ast.Expr, ctx: Ctx | None = None) -> str:
        ctx = ctx or Ctx()
        if ctx.ask is not None and e is ctx.ask:
            return self.which(e)
        if ctx.frame is not None and not isinstance(e, (ast.Literal, ast.Name)) \
                and e.type is not T.BOOL and not isinstance(e.type, T.ListType) and _pure(e):
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

    def value_words(self, value: Any, typ: Any = None, rt=None) -> str:
        """A runtime value as a person calls it (``rt``, the game, names cards and spaces)."""
        if value is None:
            return _NONE_WORD.get(typ, "none")
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            elem = getattr(typ, "elem", None)
            return join_and([self.value_words(v, elem, rt) for v in value]) or "none"
        if rt is not None:
            from_rt = rt.value_name(value, typ)
            if from_rt is not None:
                return from_rt
        if isinstance(value, str):
            for kind in ("resource", "card_resource", "tag", "tile", "zone", "track", "card"):
                if self.table.get(value, (kind,)) is not None:
                    return self.thing(kind, value)
            return words_of_id(value)
        return str(value)

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

    def track_amount(self, track: str, value: Any) -> str:
        unit = self.decl("track", track).get("unit")
        return f"{value} {unit}" if unit else str(value)

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

    def _field_name(self, e: ast.Field) -> str:
        entry = self.rs.sections.get("card_fields", {}).get(e.name)
        if entry is not None and isinstance(entry.data, dict) and entry.data.get("name"):
            return lower_name(str(entry.data["name"]))
        return {"holds": "resource kind", "claimed_by": "claimant", "id": "card",
                "tile": "tile"}.get(e.name, words_of_id(e.name))

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
            if name.lower().startswith("cards "):  # 'your cards on offer', not 'the cards in …'
                who = None if e.func == "all_cards_in" else (
                    self.expr(e.args[1], ctx) if len(e.args) > 1 else
                    self.expr(e.kwargs["player"], ctx) if "player" in e.kwargs else "you")
                return self.zone(ident, who)
        if e.func == "min" and ctx.frame is None:
            up_to = self._min_amount(e, ctx)
            if up_to is not None:
                return up_to
        args = _bind_args([p.name for p in b.params], e, [p.default for p in b.params],
                          [p.variadic for p in b.params])
        return self.fill(b.phrase, args, ctx, {p.name: p.type for p in b.params})

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

    def where(self, e: ast.Comprehension, ctx: Ctx) -> str:
        """The condition of a comprehension as a relative clause: ' that is playable'."""
        if e.where is None:
            return ""
        return relative(self.cond(e.where, self._element_ctx(e, ctx)))

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

    def noun_of(self, source: ast.Expr) -> str:
        """What a list holds, for 'a card', 'each player': a function may name it (noun:)."""
        if isinstance(source, ast.Call) and source.func in self.table.callables:
            entry = self.rs.sections["functions"].get(source.func)
            if entry is not None and entry.data.get("noun"):
                return str(entry.data["noun"])
        return _ELEM_NOUN.get(getattr(source.type, "elem", None), "one")

    def e_Comprehension(self, e: ast.Comprehension, ctx: Ctx) -> str:
        agg = AGGREGATES.get(e.func)
        noun = self.noun_of(e.source)
        inner = self._element_ctx(e, ctx)
        where = self.where(e, ctx)
        value = self.expr(e.value, inner) if e.value is not None else ""
        source = self.expr(e.source, ctx)
        if agg is None or not agg.phrase:
            return f"{words_of_id(e.func)} of {source}{where}"
        return agg.phrase.format(source=source, bare=_bare(source), where=where, value=value,
                                 one=_a(noun), noun=noun)

    def choice(self, e: ast.Expr, ctx: Ctx) -> str:
        """What a choice picks from, for its prompt: 'a card from your hand where it …'."""
        if isinstance(e, ast.AnyOf):
            return _a(e.noun)
        if isinstance(e, ast.Comprehension):
            noun = self.noun_of(e.source)
            return f"{_a(noun)} among {self.expr(e.source, ctx)}{self.where(e, ctx)}"
        return self.expr(e, ctx)

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

    # ------------------------------------------------------------ conditions
    def cond(self, e: ast.Expr, ctx: Ctx | None = None) -> str:
        """A condition as a requirement a person reads ('at least 30 % humidity')."""
        ctx = ctx or Ctx()
        if isinstance(e, (ast.Name, ast.Literal)):
            return self.expr(e, ctx)
        if isinstance(e, ast.Binary) and e.op in ("and", "or"):
            return f"{self.cond(e.left, ctx)} {e.op} {self.cond(e.right, ctx)}"
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.negative(e.operand, ctx)
        return getattr(self, "e_" + type(e).__name__)(e, ctx)

    def negative(self, e: ast.Expr, ctx: Ctx) -> str:
        """A condition that must not hold, said so that it cannot be misread."""
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.cond(e.operand, ctx)
        if isinstance(e, ast.Binary) and e.op in _COMPARE:
            return self.compare(ast_with(e, _NEGATE[e.op], e.left, e.right), ctx)
        if isinstance(e, ast.Binary) and e.op in ("has", "lacks"):
            return self.e_Binary(ast_with(e, "lacks" if e.op == "has" else "has", e.left,
                                          e.right), ctx)
        if isinstance(e, ast.Comprehension) and e.func in ("any", "all"):
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
            if isinstance(left, ast.Field):  # 'it has no tile', 'it has an owner'
                obj = self.expr(left.obj, ctx)
                fname = self._field_name(left)
                verb = "have" if obj in ("you", "they") else "has"
                return f"{obj} {verb} {'no ' + fname if op == '==' else _a(fname)}"
            noun = self.expr(left, ctx)
            return f"{noun} is {'not ' if op == '!=' else ''}{_NONE_WORD.get(left.type, 'none')}"
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
        amount = self.amount(left, threshold, n, ctx)
        if amount is not None:
            lead = {">=": "at least ", "<=": "at most ", "==": "exactly ", "!=": "not exactly ",
                    ">": "more than ", "<": "fewer than "}[op]
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
            text = self.fill(text, args, ctx, {})
            return text.replace("\x00n", n_text).replace("\x00s", plural)
        if isinstance(q, ast.Call) and q.func in BUILTINS and BUILTINS[q.func].amount \
                and isinstance(q.target, type(BUILTINS[q.func])):
            b = BUILTINS[q.func]
            args = _bind_args([p.name for p in b.params], q, [p.default for p in b.params],
                              [p.variadic for p in b.params])
            text = self.fill(b.amount, args, ctx, {})
            ident = _symbol_id(args.get("resource"))
            if ident is not None and n is not None:
                kind = "card_resource" if q.func == "resources_on" else "resource"
                text = text.replace("{noun}", self.thing(kind, ident, n))
            elif ident is not None:
                text = text.replace("{noun}", self.thing("resource", ident, 2))
            if "{noun}" in text:
                text = text.replace("{noun}", self._arg(args, "resource", ctx))
            return text.replace("{n}", n_text).replace("{s}", plural)
        if isinstance(q, ast.Comprehension) and q.func == "count":
            return f"{n_text} of {self.e_Comprehension(q, ctx)[len('the number of '):]}"
        return None

    # ------------------------------------------------------------- refusals
    def why_not(self, e: ast.Expr, frame, depth: int = 0) -> str:
        """Why a condition does not hold now, in words and with the numbers."""
        ctx = Ctx(frame)
        if isinstance(e, ast.Binary) and e.op == "and":
            if not self._truth(e.left, frame):
                return self.why_not(e.left, frame, depth)
            return self.why_not(e.right, frame, depth)
        if isinstance(e, ast.Binary) and e.op in _COMPARE:
            return self._why_compare(e, frame)
        if isinstance(e, ast.Unary) and e.op == "not":
            inner_e = e.operand
            if isinstance(inner_e, ast.Call) and inner_e.func in self.table.callables \
                    and depth < MAX_INLINE:
                entry = self.rs.sections["functions"].get(inner_e.func)
                tree = self.rs.asts.get(("function", inner_e.func))
                inner = self._inner_frame(inner_e, frame)
                if entry is not None and entry.data.get("reason"):
                    return str(entry.data["reason"])
                if inner is not None and isinstance(tree, ast.Expr) \
                        and entry.data.get("phrase") is None:
                    return self.why_not(ast.Unary(e.span, "not", tree), inner, depth + 1)
            return needs(self.negative(inner_e, ctx))
        if isinstance(e, ast.Call) and e.func in self.table.callables and depth < MAX_INLINE:
            inner = self._inner_frame(e, frame)
            tree = self.rs.asts.get(("function", e.func))
            entry = self.rs.sections["functions"].get(e.func)
            if inner is not None and isinstance(tree, ast.Expr):
                if entry is not None and entry.data.get("reason"):
                    return str(entry.data["reason"])
                if entry is None or entry.data.get("phrase") is None or _gives_numbers(tree):
                    return self.why_not(tree, inner, depth + 1)
                # a condition's phrase is a clause ('you meet the goal'): told as it is
                return "only when " + self.cond(e, ctx)
        if isinstance(e, ast.Call) and e.func == "meets_requirements" and frame is not None:
            card = self._value(e.args[0], ctx) if e.args else _NO_VALUE
            if card not in (_NO_VALUE, None):
                return frame.rt.explain_requirements(card, frame.vars.get("you"))
        return needs(self.cond(e, Ctx(frame)))

    def _why_compare(self, e: ast.Binary, frame) -> str:
        ctx = Ctx(frame)
        left, right, op = e.left, e.right, e.op
        if _is_quantity(right) and not _is_quantity(left):
            left, right, op = right, left, _FLIP[op]
        need = self.compare(ast_with(e, op, left, right), Ctx(None))
        have = self._value(left, ctx)
        want = self._value(right, ctx)
        if have is _NO_VALUE or isinstance(have, (list, dict)):
            return "needs " + self.compare(e, ctx)
        if want is not _NO_VALUE and not isinstance(want, (list, dict, bool)) and want is not None:
            need = self.compare(ast_with(e, op, left, _lit(want, right)), Ctx(None))
        if have is None or isinstance(have, bool):
            return "needs " + self.compare(e, ctx)
        subject = self.expr(left, Ctx(None))
        if isinstance(left, ast.Name) and left.binding in ("track", "player_track"):
            now = self.track_amount(getattr(left, "canonical", left.id), have)
            if self.decl("track", left.canonical).get("unit"):
                return f"needs {need}; {self.thing('track', left.canonical)} is {now}"
        if isinstance(have, int) and not need.startswith(subject) and not _is_count(left):
            # an amount says what there is in its own words: 'you have 2 science tags'
            now_amount = self.amount(left, str(have), have, Ctx(None))
            if now_amount is not None:
                if " your " in f" {subject} " or subject.startswith("you"):
                    return f"needs {need}; you have {now_amount}"
                return f"needs {need}; there {'is' if have == 1 else 'are'} {now_amount}"
        if isinstance(left, ast.Name) and left.binding in ("track", "player_track"):
            now = self.track_amount(getattr(left, "canonical", left.id), have)
            return f"needs {_to_be(need)}; it is {now}"
        now = self.value_words(have, left.type, frame.rt)
        if subject.startswith("your "):
            return f"needs {need}; you have {now}"
        if _is_count(left):
            return f"needs {need}; there {'is' if now == '1' else 'are'} {now}"
        return f"needs {_to_be(need)}; it is {now}"

    def _truth(self, e: ast.Expr, frame) -> bool:
        v = self._value(e, Ctx(frame))
        return True if v is _NO_VALUE else bool(v)

    def _inner_frame(self, e: ast.Call, frame):
        decl = self.table.callables[e.func]
        names = [n for n, _, _ in decl.params]
        args = _bind_args(names, e, [None] * len(names), [False] * len(names))
        values = {}
        for n in names:
            a = args.get(n)
            if a is None:
                continue
            v = self._value(a, Ctx(frame))
            if v is _NO_VALUE:
                return None
            values[n] = v
        inner = frame.child()
        inner.vars = {"you": frame.vars.get("you"), **values}
        return inner


# -------------------------------------------------------------------- helpers
_NO_VALUE = object()


def _rid(s) -> str | None:
    return getattr(s, "resource_id", None)


def _rt(ctx: Ctx):
    return ctx.frame.rt if ctx.frame is not None else None
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


@dataclass
class _Words:
    text: str


ASK = _Words("how many")  # the number a prompt asks for ('pay how many gold?')


@dataclass
class _Deferred:
    expr: ast.Expr


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


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


_SECOND_PERSON = re.compile(r"\b(your|yours|yourself)\b", re.IGNORECASE)
_THIRD = {"your": "their", "yours": "theirs", "yourself": "themselves"}


def told(label: str) -> str:
    """An option's words, said to the chooser ('Move your token'), as the log tells
    everyone what a player did ('Player 2: Move their token')."""
    def swap(m: re.Match) -> str:
        word = _THIRD[m.group(1).lower()]
        return word[0].upper() + word[1:] if m.group(1)[0].isupper() else word
    return _SECOND_PERSON.sub(swap, label)


def _gives_numbers(e: ast.Expr) -> bool:
    """Whether a condition's own refusal would carry numbers (a comparison, or parts of one)."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _gives_numbers(e.left) or _gives_numbers(e.right)
    return isinstance(e, ast.Binary) and e.op in _COMPARE


def needs(cond: str) -> str:
    """A failed condition as a reason: 'needs at least 8 heat', 'only when it has a tile'."""
    if cond.startswith(("at least ", "at most ", "exactly ", "more than ", "fewer than ",
                        "none of ", "no ")):
        return "needs " + cond  # an amount
    if cond.startswith(("a ", "an ", "the ")) and not any(
            v in f" {cond} " for v in (" is ", " has ", " can ", " does ")):
        return "needs " + cond  # a thing
    return "only when " + cond  # a clause: 'only when your token does not have …'


def relative(cond: str) -> str:
    """'it is playable' → ' that is playable'; 'its cost is 3' → ' whose cost is 3'."""
    def once(rest: str) -> bool:  # the element is named once: a relative clause holds it
        return " it " not in f" {rest} " and " its " not in f" {rest} "
    if cond.startswith(("at least ", "at most ", "exactly ", "more than ", "fewer than ")):
        return " with " + cond  # 'your opponents with at least 1 cube on it'
    if cond.startswith("it ") and once(cond[3:]):
        return " that " + cond[3:]
    if cond.startswith("its ") and once(cond[4:]):
        return " whose " + cond[4:]
    return f" where {cond}"


def _to_be(need: str) -> str:
    """'your marker is at least 2' → 'your marker to be at least 2' (after 'needs')."""
    if " is " in need:  # the comparison's own verb is the last one
        head, tail = need.rsplit(" is ", 1)
        return f"{head} to be {tail}"
    return need


def possessive(who: str) -> str:
    if who == "you":
        return "your"
    if who in ("it", "this card"):
        return "its" if who == "it" else "this card's"
    return who + ("'" if who.endswith("s") else "'s")


def _the(name: str) -> str:
    return name if name[:1].isupper() or name.startswith("the ") else f"the {name}"


def _a(noun: str) -> str:
    if noun[:1].isupper() or noun.startswith(("the ", "a ", "an ")) or noun == "one":
        return noun
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _bare(text: str) -> str:
    return text[4:] if text.startswith("the ") else text


def event_phrase(phrase: str, who: str) -> str:
    """An event's phrase with the one it happens to: {player} and {player:poss}."""
    return phrase.replace("{player:poss}", possessive(who)).replace("{player}", who)


def join_with(items: list[str], word: str) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def there_is(cond: str) -> str:
    """'if at least 2 towers' → 'if there are at least 2 towers'."""
    for lead in ("at least ", "at most ", "exactly ", "more than ", "fewer than ",
                 "none of ", "at least one of "):
        if cond.startswith(lead):
            rest = cond[len(lead):]
            number = rest.split(" ", 1)[0]
            verb = "is" if number in ("1", "one") or lead in ("at least one of ", "none of ") \
                else "are"
            return f"there {verb} {cond}"
    return cond


def join_and(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def join_clauses(parts: list[str]) -> str:
    """Clauses of one effect: 'gain 2 gold; raise the humidity 1 step'."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return "; ".join(parts)

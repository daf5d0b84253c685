"""Stage 4: check names and types of parsed effects before anything runs.

Every name must resolve to a local variable, a context variable (``you``,
``this``, ``event``…), a builtin, or something the ruleset declares; unknown
names get a "did you mean". Every builtin call is checked for arity and
argument types against the registry. The checker annotates expressions with
their types and statements with the canonical ids they refer to, which the
compiler relies on without checking again.

The checker also knows where there is an acting player (``you``): a card's
play, an action, a scoring rule have one; setup, phases and the end of the
game do not. Procedures, functions and track rewards may be run from either,
so their bodies only record that they need one; :meth:`Checker.finish` then
reports each call, from a place where nobody acts, to one that needs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Diagnostics, suggest
from ..span import Span
from . import ast
from . import types as T
from .builtins import AGGREGATES, ANY_NOUNS, BUILTINS
from .symbols import PLAYER_FIELDS, SPACE_FIELDS, SymbolTable

# symbol kinds whose bare name is a value of the game state, not a symbol
VALUE_KINDS = {"track", "player_track", "constant"}
RESERVED = {"you", "this", "event", "space"}


@dataclass
class Context:
    """What an effect may do and which names it sees."""

    label: str  # e.g. "card 'comet', play"
    allow_effects: bool = True
    allow_choices: bool = True
    variables: dict[str, T.Type] = field(default_factory=dict)
    returns: T.Type | None = None  # functions: the declared result type
    # in a procedure, function or track reward: its name (or 'track:<id>'); whether
    # there is an acting player depends on where it is run from, so uses are recorded
    needs: str | None = None
    in_loop: bool = False  # inside a for, repeat or while of this body: 'break' is allowed

    def child(self, **extra: T.Type) -> "Context":
        out = Context(self.label, self.allow_effects, self.allow_choices,
                      dict(self.variables), self.returns, self.needs, self.in_loop)
        out.variables.update(extra)
        return out


class Checker:
    def __init__(self, table: SymbolTable, diags: Diagnostics):
        self.table = table
        self.diags = diags
        # acting player: what each procedure, function or reward uses it for first,
        # whom each of them calls, and the calls made where nobody acts
        self.uses_you: dict[str, tuple[Span, str]] = {}
        self.calls: dict[str, set[str]] = {}
        self.calls_without_you: list[tuple[str, str, Span, str]] = []

    # --------------------------------------------------------------- helpers
    def error(self, code: str, message: str, span: Span, ctx: Context, hint: str | None = None):
        self.diags.error(code, message, span, hint=hint, context=ctx.label)

    def _symbol(self, name: str, kinds: tuple[str, ...], span: Span, ctx: Context,
                what: str) -> str | None:
        """Resolve a name that must be a declared symbol of one of ``kinds``."""
        local = ctx.variables.get(name)
        if local is not None:
            return None  # a variable holding a symbol; the caller checks its type
        sym = self.table.get(name, kinds)
        if sym is not None:
            return sym.canonical or name
        sym = self.table.get(name)
        pool = self.table.of_kind(*kinds)
        if sym is not None:
            self.error("RB302", f"'{name}' is a {sym.kind.replace('_', ' ')}, not a {what}",
                       span, ctx, suggest(name, pool))
        else:
            self.error("RB301", f"unknown {what} '{name}'", span, ctx, suggest(name, pool))
        return "?"

    def _dynamic_symbol(self, name: str, expected: T.Type, span: Span, ctx: Context) -> None:
        actual = ctx.variables[name]
        if not T.assignable(actual, expected):
            self.error("RB302", f"'{name}' is a {actual}, but a {expected} is needed here",
                       span, ctx)

    def expect(self, expr: ast.Expr, expected, ctx: Context, what: str = "value") -> T.Type:
        actual = self.expr(expr, ctx, expected)
        if not T.assignable(actual, expected):
            self.error("RB302", f"{what} must be a {T.describe(expected)}, "
                       f"but this is a {actual}", expr.span, ctx)
        return actual

    # ------------------------------------------------------------ statements
    def effect(self, effect: ast.Effect, ctx: Context) -> None:
        self.block(effect.body, ctx.child())

    def block(self, stmts: list[ast.Stmt], ctx: Context) -> None:
        for s in stmts:
            self.stmt(s, ctx)

    def stmt(self, s: ast.Stmt, ctx: Context) -> None:
        method = getattr(self, "s_" + type(s).__name__)
        if not ctx.allow_effects and not isinstance(s, (ast.Let, ast.Set, ast.Return, ast.If,
                                                           ast.For, ast.Repeat, ast.While,
                                                           ast.Break, ast.Pass, ast.Require)):
            self.error("RB304", "this statement changes the game, which is not allowed in "
                       f"{ctx.label}", s.span, ctx)
        method(s, ctx)

    def _player(self, expr, ctx, span=None, what="this statement"):
        if expr is not None:
            self.expect(expr, T.PLAYER, ctx, "the player")
        elif span is not None:
            self._need_you(span, ctx, what)

    def _need_you(self, span, ctx, what):
        """``what`` (e.g. "'gain'") is done by or for the acting player."""
        if ctx.needs is not None:
            self.uses_you.setdefault(ctx.needs, (span, what))
        elif "you" not in ctx.variables:
            self._no_you(span, ctx, what)

    def _no_you(self, span, ctx, what="this"):
        self.error("RB304", f"{what} needs an acting player, but there is none in "
                   f"{ctx.label}; say which player, e.g. 'for p in players(): gain 1 x for p', "
                   "or run it 'as p:'", span, ctx)

    def _runs(self, callee: str, what: str, span, ctx):
        """Code here runs ``callee`` (a procedure, function or track reward)."""
        if ctx.needs is not None:
            self.calls.setdefault(ctx.needs, set()).add(callee)
        elif "you" not in ctx.variables:
            known = self.table.needs_acting
            if known is None:  # the ruleset is still being checked: report in finish()
                self.calls_without_you.append((callee, what, span, ctx.label))
            elif callee in known:  # code checked later, e.g. a scenario's setup
                self._report_needs(callee, what, span, ctx.label, known)

    def finish(self) -> None:
        """Report what is run where nobody acts but needs an acting player, with the reason."""
        why: dict[str, tuple] = {k: (v, None) for k, v in self.uses_you.items()}
        changed = True
        while changed:  # a caller needs one when something it runs does
            changed = False
            for caller, callees in self.calls.items():
                if caller in why:
                    continue
                for callee in sorted(callees):
                    if callee in why:
                        why[caller] = (None, callee)
                        changed = True
                        break
        self.table.needs_acting = why
        for callee, what, span, label in self.calls_without_you:
            if callee in why:
                self._report_needs(callee, what, span, label, why)

    def _report_needs(self, callee, what, span, label, why) -> None:
        chain, name = [], callee
        while why[name][1] is not None:
            name = why[name][1]
            chain.append(self._runnable(name))
        (use_span, use), _ = why[name]
        through = "".join(f", which runs {c}" for c in chain) + ("," if chain else "")
        self.diags.error(
            "RB304", f"{what} needs an acting player, but there is none in {label}: "
            f"{self._runnable(callee)}{through} uses {use} (at {use_span}); say which "
            "player, e.g. 'for p in players(): …' with 'as p:', or give it a player",
            span, context=label)

    @staticmethod
    def _runnable(key: str) -> str:
        if key.startswith("track:"):
            return f"the reward of track '{key[6:]}'"
        if key.startswith("tile:"):
            return f"the on_place of tile '{key[5:]}'"
        return f"'{key}'"

    # ------------------------------------------------ amounts written out negative
    _OTHER_WAY = {"gain": "lose", "lose": "gain", "raise": "lower", "lower": "raise"}

    def _not_negative(self, amount: ast.Expr, s: ast.Stmt, ctx) -> None:
        """An amount written out below zero (a number, a constant, or + - * of those)
        would turn 'gain', 'pay', 'add', 'raise'… around: refused, at the amount."""
        value = self._written_int(amount)
        if value is None or value >= 0:
            return
        what = f"'{amount.id}' is {value}" if isinstance(amount, ast.Name) else \
            f"this is {value}"
        other, hint = self._OTHER_WAY.get(s.verb), None
        if other and isinstance(s, ast.Gain):
            hint = f"write '{other} {-value} {s.resource}" + \
                   (" production'" if s.production else "'") + " instead"
        elif other:
            hint = f"write '{other} {s.track} by {-value}' instead"
        self.error("RB307", f"'{s.verb}' needs an amount of 0 or more, but {what}",
                   amount.span, ctx, hint)

    def _written_int(self, e: ast.Expr) -> int | None:
        """The value of a number written out in the rule; None when it is worked out as
        the game runs."""
        if isinstance(e, ast.Literal):
            v = e.value
        elif isinstance(e, ast.Name) and e.binding == "constant":
            sym = self.table.get(e.id, ("constant",))
            v = sym.data if sym is not None else None
        elif isinstance(e, ast.Unary) and e.op == "-":
            v = self._written_int(e.operand)
            v = None if v is None else -v
        elif isinstance(e, ast.Binary) and e.op in ("+", "-", "*"):
            a, b = self._written_int(e.left), self._written_int(e.right)
            if a is None or b is None:
                return None
            v = a + b if e.op == "+" else a - b if e.op == "-" else a * b
        else:
            return None
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def s_Gain(self, s: ast.Gain, ctx):
        self.expect(s.amount, T.INT, ctx, "the amount")
        self._not_negative(s.amount, s, ctx)
        kinds = ("resource",)
        rid = self._symbol(s.resource, kinds, s.resource_span, ctx, "resource")
        if rid is None:
            self._dynamic_symbol(s.resource, (T.RESOURCE, T.BONUS), s.resource_span, ctx)
        elif s.production and rid != "?":
            decl = self.table.get(rid).data or {}
            if not decl.get("production"):
                self.error("RB302", f"resource '{rid}' has no production; declare "
                           "'production:' for it in the components", s.resource_span, ctx)
        s.resource_id = rid
        self._player(s.player, ctx, s.span, f"'{s.verb}'")

    def s_Raise(self, s: ast.Raise, ctx):
        tid = self._symbol(s.track, ("track", "player_track"), s.track_span, ctx, "track")
        if tid is None:
            self._dynamic_symbol(s.track, T.TRACK, s.track_span, ctx)
        s.track_id = tid
        if s.steps is not None:
            self.expect(s.steps, T.INT, ctx, "the number of steps")
            self._not_negative(s.steps, s, ctx)
        sym = self.table.get(s.track, ("track", "player_track"))
        needs_player = sym is None or sym.kind == "player_track"
        self._player(s.player, ctx, s.span if needs_player else None, f"'{s.verb}'")
        if sym is not None and sym.kind == "track" and s.verb == "raise" and s.player is None:
            # raising a global track may hand out its rewards to the acting player
            self._runs("track:" + (sym.canonical or sym.name), f"'raise {s.track}'", s.span,
                       ctx)

    def s_Place(self, s: ast.Place, ctx):
        tid = self._symbol(s.tile, ("tile",), s.tile_span, ctx, "tile type")
        if tid is None:
            self._dynamic_symbol(s.tile, T.TILE, s.tile_span, ctx)
        s.tile_id = tid
        if s.mode == "on":
            self.expect(s.target, T.SPACE, ctx, "the space")
        elif s.target is not None:
            self.expect(s.target, T.BOOL, ctx.child(space=T.SPACE), "the placement condition")
        # the game itself may put a tile on a given space (a neutral tile at setup);
        # finding a legal space asks, and may reward, the acting player
        self._player(s.player, ctx, s.span if s.mode != "on" else None, "'place'")
        if s.player is None and tid not in (None, "?"):
            self._runs("tile:" + tid, f"'place {s.tile}'", s.span, ctx)
        if s.bind:
            self._bind(s.bind, T.SPACE, s.span, ctx)

    def s_Transfer(self, s: ast.Transfer, ctx):
        self.expect(s.amount, T.INT, ctx, "the amount")
        self._not_negative(s.amount, s, ctx)
        # stealing needs someone to receive, "up to" someone to decide; adding does not
        if s.verb == "steal" or s.up_to:
            self._need_you(s.span, ctx, "'steal'" if s.verb == "steal" else f"'{s.verb} up to'")
        if s.verb == "add":
            rid = self._symbol(s.resource, ("card_resource",), s.resource_span, ctx,
                               "card resource")
            if rid is None:
                self._dynamic_symbol(s.resource, T.CARD_RESOURCE, s.resource_span, ctx)
            self.expect(s.dest, T.CARD, ctx, "the card to add to")
            s.resource_id = rid
            return
        if s.verb == "steal":
            rid = self._symbol(s.resource, ("resource",), s.resource_span, ctx, "resource")
            self.expect(s.source, T.PLAYER, ctx, "the player to steal from")
            s.resource_id = rid
            return
        # remove / move: players hold resources, cards hold card resources
        src = self.expr(s.source, ctx)
        if s.dest is not None:
            dst = self.expr(s.dest, ctx)
            if T.assignable(src, T.CARD) and not T.assignable(dst, T.CARD) or \
               T.assignable(src, T.PLAYER) and not T.assignable(dst, T.PLAYER):
                self.error("RB302", f"cannot move from a {src} to a {dst}", s.dest.span, ctx)
        if T.assignable(src, T.CARD) and src is not T.ANY:
            kinds, what = ("card_resource",), "card resource"
        elif T.assignable(src, T.PLAYER):
            kinds, what = ("resource",), "resource"
        else:
            self.error("RB302", f"can only take resources from a player or a card, "
                       f"not a {src}", s.source.span, ctx)
            kinds, what = ("resource", "card_resource"), "resource"
        rid = self._symbol(s.resource, kinds, s.resource_span, ctx, what)
        s.resource_id = rid

    def s_Let(self, s: ast.Let, ctx):
        t = self.expr(s.value, ctx)
        if t is T.NONE:
            self.error("RB302", "this expression gives nothing to keep", s.value.span, ctx)
        self._bind(s.name, t, s.span, ctx)

    def _bind(self, name, t, span, ctx):
        if name in RESERVED or self.table.get(name) is not None and \
                self.table.get(name).kind not in ("procedure", "function"):
            existing = self.table.get(name)
            what = f"a declared {existing.kind.replace('_', ' ')}" if existing else "reserved"
            self.error("RB305", f"'{name}' is {what}; choose another variable name", span, ctx)
        ctx.variables[name] = t

    def s_AsPlayer(self, s: ast.AsPlayer, ctx):
        self.expect(s.player, T.PLAYER, ctx, "the player")
        inner = ctx.child()
        inner.variables["you"] = T.PLAYER
        inner.needs = None  # the block names its acting player
        self.block(s.body, inner)

    def s_Set(self, s: ast.Set, ctx):
        if s.name in ctx.variables:
            if s.player is not None:
                self.error("RB302", f"'{s.name}' is a variable; it has no 'for' player",
                           s.player.span, ctx)
            self.expect(s.value, ctx.variables[s.name], ctx, f"the new value of '{s.name}'")
            s.target_kind = "local"
            return
        sym = self.table.get(s.name, ("track", "player_track"))
        if sym is not None:
            if not ctx.allow_effects:
                self.error("RB304", "setting a track changes the game", s.span, ctx)
            self.expect(s.value, T.INT, ctx, "the track value")
            s.target_kind = "track"
            if sym.kind == "player_track":
                self._player(s.player, ctx, s.span, "'set'")
            elif s.player is not None:
                self.error("RB302", f"'{s.name}' is a global track; it has no 'for' player",
                           s.player.span, ctx)
            return
        self.error("RB301", f"unknown variable or track '{s.name}'", s.span, ctx,
                   suggest(s.name, ctx.variables, self.table.of_kind("track", "player_track")))
        self.expr(s.value, ctx)

    def s_Return(self, s: ast.Return, ctx):
        if ctx.returns is None:
            self.error("RB304", "'return' is only allowed in functions", s.span, ctx)
            if s.value is not None:
                self.expr(s.value, ctx)
            return
        if s.value is None:
            if ctx.returns is not T.NONE:
                self.error("RB302", f"this function must return a {ctx.returns}", s.span, ctx)
            return
        self.expect(s.value, ctx.returns, ctx, "the returned value")

    def s_Require(self, s: ast.Require, ctx):
        self.expect(s.cond, T.BOOL, ctx, "the requirement")

    def s_Emit(self, s: ast.Emit, ctx):
        record = self.table.events.get(s.event)
        if record is None:
            self.error("RB301", f"unknown event '{s.event}'", s.event_span, ctx,
                       suggest(s.event, self.table.events))
            for a in list(s.args) + list(s.kwargs.values()):
                self.expr(a, ctx)
            return
        params = [(n, t, None) for n, t in record.fields]
        self._arguments(f"event '{s.event}'", params, s.args, s.kwargs, s.span, ctx)

    def s_Run(self, s: ast.Run, ctx):
        self._symbol(s.block, ("block",), s.block_span, ctx, "effect block")
        self._need_you(s.span, ctx, "'run'")
        self.expect(s.card, T.CARD, ctx, "the card")

    def s_CallStmt(self, s: ast.CallStmt, ctx):
        self.call(s.call, ctx, statement=True)

    def s_Pass(self, s, ctx):
        pass

    def s_If(self, s: ast.If, ctx):
        for cond, body in s.branches:
            self.expect(cond, T.BOOL, ctx, "the condition")
            self.block(body, ctx.child())
        if s.orelse is not None:
            self.block(s.orelse, ctx.child())

    def s_For(self, s: ast.For, ctx):
        t = self.expr(s.iterable, ctx)
        if not isinstance(t, T.ListType) and t is not T.ANY:
            self.error("RB302", f"'for' needs a list, but this is a {t}", s.iterable.span, ctx)
        inner = ctx.child()
        inner.in_loop = True
        self._bind(s.var, t.elem if isinstance(t, T.ListType) else T.ANY, s.span, inner)
        self.block(s.body, inner)

    def s_Repeat(self, s: ast.Repeat, ctx):
        self.expect(s.count, T.INT, ctx, "the repeat count")
        inner = ctx.child()
        inner.in_loop = True
        self.block(s.body, inner)

    def s_While(self, s: ast.While, ctx):
        self.expect(s.cond, T.BOOL, ctx, "the condition")
        inner = ctx.child()
        inner.in_loop = True
        self.block(s.body, inner)

    def s_Break(self, s: ast.Break, ctx):
        if not ctx.in_loop:
            self.error("RB304", "'break' leaves a for, repeat or while loop, and this one is "
                       "not inside one", s.span, ctx)

    def s_May(self, s: ast.May, ctx):
        self._need_choices(s.span, ctx, "'may'")
        self.block(s.body, ctx.child())
        if s.orelse is not None:
            self.block(s.orelse, ctx.child())

    def s_Choose(self, s: ast.Choose, ctx):
        self._need_choices(s.span, ctx, "'choose one'")
        if len(s.options) < 2:
            self.error("RB303", "'choose one' needs at least two options", s.span, ctx)
        for option in s.options:
            self.block(option, ctx.child())

    def _need_choices(self, span, ctx, what):
        if not ctx.allow_choices:
            self.error("RB304", f"{what} asks a player to decide, which is not allowed in "
                       f"{ctx.label}", span, ctx)

    # ----------------------------------------------------------- expressions
    def expr(self, e: ast.Expr, ctx: Context, expected=None) -> T.Type:
        if isinstance(e, ast.Name):
            t = self.e_Name(e, ctx, expected)
        elif isinstance(e, ast.ListExpr):
            t = self.e_ListExpr(e, ctx, expected)
        else:
            t = getattr(self, "e_" + type(e).__name__)(e, ctx)
        e.type = t
        return t

    def e_Literal(self, e: ast.Literal, ctx):
        v = e.value
        if v is None:
            return T.NONE
        if isinstance(v, bool):
            return T.BOOL
        if isinstance(v, int):
            return T.INT
        return T.STR

    def e_Name(self, e: ast.Name, ctx, expected=None):
        if e.id in ctx.variables:
            e.binding = "local"
            if e.id == "you" and ctx.needs is not None:
                self.uses_you.setdefault(ctx.needs, (e.span, "'you'"))
            return ctx.variables[e.id]
        candidates = self.table.candidates(e.id)
        sym = candidates[0] if candidates else None
        if len(candidates) > 1:
            fitting = [c for c in candidates if expected is not None
                       and T.assignable(c.type, expected)]
            if len(fitting) == 1:
                sym = fitting[0]
            else:
                kinds = " and a ".join(c.kind.replace("_", " ") for c in candidates)
                self.error("RB302", f"'{e.id}' is both a {kinds}; use it where only one "
                           "kind fits, e.g. has_tag(card, tag) or stock(resource)", e.span, ctx)
                return T.ANY
        if sym is not None and sym.kind in ("track", "player_track") and expected is not None \
                and T.assignable(T.TRACK, expected) and expected is not T.ANY:
            e.binding = "track_symbol"
            e.canonical = sym.canonical or e.id
            return T.TRACK
        if sym is not None and sym.kind == "player_track":
            self._need_you(e.span, ctx, f"'{e.id}' (a track of each player)")
        if sym is not None:
            if sym.kind in ("procedure", "function"):
                self.error("RB302", f"'{e.id}' is a {sym.kind}; call it with "
                           f"{e.id}(…)", e.span, ctx)
                return T.ANY
            e.binding = sym.kind
            e.canonical = sym.canonical or e.id
            return sym.type
        if e.id in BUILTINS:
            self.error("RB302", f"'{e.id}' is a builtin; call it with {e.id}(…)", e.span, ctx)
            return T.ANY
        hint = suggest(e.id, ctx.variables, self.table.symbols)
        if e.id in ("this", "event", "space") and hint is None:
            hint = f"'{e.id}' exists only in " + {"this": "cards", "event": "triggers",
                                                  "space": "placement conditions"}[e.id]
        self.error("RB301", f"unknown name '{e.id}'", e.span, ctx, hint)
        return T.ANY

    def e_Field(self, e: ast.Field, ctx):
        t = self.expr(e.obj, ctx)
        if t is T.ANY:
            return T.ANY
        if t is T.CARD:
            fields = self.table.card_fields
        elif t is T.SPACE:
            fields = SPACE_FIELDS
        elif t is T.PLAYER:
            fields = PLAYER_FIELDS
        elif isinstance(t, T.RecordType):
            fields = dict(t.fields)
        else:
            self.error("RB302", f"a {t} has no fields", e.name_span or e.span, ctx)
            return T.ANY
        if e.name not in fields:
            self.error("RB301", f"a {t} has no field '{e.name}'", e.name_span or e.span, ctx,
                       suggest(e.name, fields) or "fields: " + ", ".join(sorted(fields)))
            return T.ANY
        return fields[e.name]

    def e_ListExpr(self, e: ast.ListExpr, ctx, expected=None):
        elem = None
        want = expected.elem if isinstance(expected, T.ListType) else None
        for item in e.items:
            t = self.expr(item, ctx, want or elem)
            if elem is None or elem is T.NONE:
                elem = t
            elif not T.assignable(t, elem) and not T.assignable(elem, t):
                self.error("RB302", f"a list holds one kind of value: this is a {t}, the "
                           f"items before it are {elem}", item.span, ctx)
        return T.list_of(elem or T.ANY)

    def e_Unary(self, e: ast.Unary, ctx):
        if e.op == "-":
            self.expect(e.operand, T.INT, ctx, "the number")
            return T.INT
        self.expect(e.operand, T.BOOL, ctx, "the operand of 'not'")
        return T.BOOL

    def e_Binary(self, e: ast.Binary, ctx):
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, T.BOOL, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.BOOL, ctx, f"the right side of '{op}'")
            return T.BOOL
        if op in ("+", "-", "*", "//", "%"):
            self.expect(e.left, T.INT, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.INT, ctx, f"the right side of '{op}'")
            return T.INT
        if op in ("<", "<=", ">", ">="):
            self.expect(e.left, T.INT, ctx, f"the left side of '{op}'")
            self.expect(e.right, T.INT, ctx, f"the right side of '{op}'")
            return T.BOOL
        if op in ("==", "!="):
            lt = self.expr(e.left, ctx)
            rt = self.expr(e.right, ctx, lt)
            if not (T.assignable(lt, rt) or T.assignable(rt, lt)):
                self.error("RB302", f"cannot compare a {lt} with a {rt}", e.span, ctx)
            return T.BOOL
        if op in ("has", "lacks"):
            lt = self.expr(e.left, ctx)
            rt = self.expr(e.right, ctx, lt.elem if isinstance(lt, T.ListType) else None)
            if isinstance(lt, T.ListType):
                if not (T.assignable(rt, lt.elem) or T.assignable(lt.elem, rt)):
                    self.error("RB302", f"a list of {lt.elem} never holds a {rt}", e.right.span,
                               ctx)
            elif lt is not T.ANY:
                self.error("RB302", f"'{op}' needs a list on its left, but this is a {lt}",
                           e.left.span, ctx)
            return T.BOOL
        raise AssertionError(op)  # pragma: no cover

    def e_Conditional(self, e: ast.Conditional, ctx):
        self.expect(e.cond, T.BOOL, ctx, "the condition")
        a, b = self.expr(e.then, ctx), self.expr(e.other, ctx)
        if T.assignable(b, a):
            return a if a is not T.NONE else b
        if T.assignable(a, b):
            return b
        self.error("RB302", f"both branches must give the same kind of value: {a} and {b}",
                   e.span, ctx)
        return a

    def e_AnyOf(self, e: ast.AnyOf, ctx):
        self._need_choices(e.span, ctx, f"'any {e.noun}'")
        self._need_you(e.span, ctx, f"'any {e.noun}'")
        if e.noun not in ANY_NOUNS:
            self.error("RB301", f"'any {e.noun}' is not a known choice", e.span, ctx,
                       suggest(e.noun, ANY_NOUNS) or
                       "use choose(x in list where …) to pick from any list")
            return T.ANY
        return ANY_NOUNS[e.noun][0]

    def e_Call(self, e: ast.Call, ctx):
        return self.call(e, ctx, statement=False)

    def call(self, e: ast.Call, ctx, statement: bool) -> T.Type:
        name = e.func
        decl = self.table.callables.get(name)
        if decl is not None:
            e.target = decl
            self._runs(name, f"'{name}'", e.span, ctx)
            if decl.kind == "procedure":
                self._changes_game(f"procedure '{name}'", statement, e.span, ctx)
            self._arguments(f"{decl.kind} '{name}'", decl.params, e.args, e.kwargs, e.span, ctx)
            return decl.returns
        b = BUILTINS.get(name)
        if b is None:
            if name in AGGREGATES:
                self.error("RB303", f"'{name}' takes the form {name}(x in list …)", e.span, ctx)
            else:
                self.error("RB301", f"unknown function or procedure '{name}'",
                           e.func_span or e.span, ctx,
                           suggest(name, list(BUILTINS) + list(self.table.callables)))
            for a in list(e.args) + list(e.kwargs.values()):
                self.expr(a, ctx)
            return T.ANY
        e.target = b
        if b.kind == "effect":
            self._changes_game(f"'{name}'", statement, e.span, ctx)
        if b.kind == "choice":
            self._need_choices(e.span, ctx, f"'{name}'")
        if b.kind == "random" and not ctx.allow_effects:
            self.error("RB304", f"'{name}' draws from the random source, which changes the "
                       f"game and is not allowed in {ctx.label}", e.span, ctx)
        params = [(p.name, p.type, p.default, p.variadic) for p in b.params]
        if name == "modifier" and e.args and isinstance(e.args[0], ast.Name):
            # the modifier's own declared parameters may be passed by keyword
            extra = self.table.modifier_params.get(e.args[0].id, [])
            params += [(n, t, "none", False) for n, t in extra
                       if n not in {p[0] for p in params}]
        if any(p.default == "you" and p.type is T.PLAYER and i >= len(e.args)
               and p.name not in e.kwargs and not b.player_optional
               for i, p in enumerate(b.params)):
            self._need_you(e.span, ctx, f"'{name}' without a player")
        arg_types = self._arguments(f"'{name}'", params, e.args, e.kwargs, e.span, ctx)
        if name == "log" and e.args:
            self._log_places(e, ctx)
        if statement and b.kind != "effect" and b.result is not T.NONE:
            self.error("RB304", f"'{name}' only computes a value; a statement must do "
                       "something (use 'let x = …' to keep it)", e.span, ctx)
        return b.result_type(arg_types)

    def _log_places(self, e: ast.Call, ctx) -> None:
        """'log' fills each {} of its message with one value: as many of each."""
        message, values = e.args[0], len(e.args) - 1
        if not (isinstance(message, ast.Literal) and isinstance(message.value, str)):
            if values:
                self.error("RB303", "'log' with values needs its message written out in "
                           "quotes, with a {} for each value", message.span, ctx)
            return
        places = message.value.count("{}")
        if places != values:
            self.error("RB303", f"the message of 'log' has {places} {{}} to fill but "
                       f"{values} value{'s' if values != 1 else ''} follow it: one {{}} "
                       "for each value, in order", message.span, ctx)

    def _changes_game(self, what: str, statement: bool, span, ctx) -> None:
        """A call that changes the game must be a statement, where effects are allowed."""
        if not statement:
            self.error("RB304", f"{what} changes the game and gives no value; use it as a "
                       "statement", span, ctx)
        elif not ctx.allow_effects:
            self.error("RB304", f"{what} changes the game, which is not allowed in {ctx.label}",
                       span, ctx)

    def _arguments(self, what, params, args, kwargs, span, ctx) -> list[T.Type]:
        """Check arguments against ``params`` [(name, type, default[, variadic])]."""
        types: list[T.Type] = []
        variadic = params and len(params[-1]) > 3 and params[-1][3]
        fixed = params[:-1] if variadic else params
        if len(args) > len(fixed) and not variadic:
            self.error("RB303", f"{what} takes at most {len(fixed)} argument(s), "
                       f"got {len(args)}", span, ctx)
        for i, a in enumerate(args):
            if i < len(fixed):
                types.append(self.expect(a, fixed[i][1], ctx, f"argument '{fixed[i][0]}'"))
            elif variadic:
                types.append(self.expect(a, params[-1][1], ctx, f"argument '{params[-1][0]}'"))
            else:
                self.expr(a, ctx)
        names = [p[0] for p in fixed]
        for key, a in kwargs.items():
            if key not in names:
                self.error("RB303", f"{what} has no parameter '{key}'", a.span, ctx,
                           suggest(key, names))
                self.expr(a, ctx)
                continue
            idx = names.index(key)
            if idx < len(args):
                self.error("RB303", f"argument '{key}' given twice", a.span, ctx)
            self.expect(a, fixed[idx][1], ctx, f"argument '{key}'")
        for idx, p in enumerate(fixed):
            if idx >= len(args) and p[0] not in kwargs and p[2] is None:
                self.error("RB303", f"{what} needs argument '{p[0]}' ({T.describe(p[1])})",
                           span, ctx)
        if variadic and len(args) <= len(fixed) and not fixed:
            self.error("RB303", f"{what} needs at least one argument", span, ctx)
        return types

    def e_Comprehension(self, e: ast.Comprehension, ctx):
        agg = AGGREGATES.get(e.func)
        src = self.expr(e.source, ctx)
        elem = src.elem if isinstance(src, T.ListType) else T.ANY
        if not isinstance(src, T.ListType) and src is not T.ANY:
            self.error("RB302", f"'{e.var} in …' needs a list, but this is a {src}",
                       e.source.span, ctx)
        inner = ctx.child()
        self._bind(e.var, elem, e.span, inner)
        if e.where is not None:
            self.expect(e.where, T.BOOL, inner, "the 'where' condition")
        vt = None
        if e.value is not None:
            vt = self.expr(e.value, inner)
        if agg is None:
            self.error("RB301", f"unknown aggregate '{e.func}'", e.func_span or e.span, ctx,
                       suggest(e.func, AGGREGATES) or "aggregates: " + ", ".join(sorted(AGGREGATES)))
            return T.ANY
        e.target = agg
        if agg.kind == "choice":
            self._need_choices(e.span, ctx, f"'{e.func}'")
        if agg.value == "required" and e.value is None:
            self.error("RB303", f"'{e.func}' needs a value: {e.func}({e.var} in … : value)",
                       e.span, ctx)
        elif agg.value == "none" and e.value is not None:
            self.error("RB303", f"'{e.func}' takes no ': value' part", e.value.span, ctx)
        if agg.value_type is not None and vt is not None and not T.assignable(vt, agg.value_type):
            self.error("RB302", f"the value of '{e.func}' must be a {agg.value_type}, "
                       f"but this is a {vt}", e.value.span, ctx)
        return agg.result(elem, vt)

"""Stage 5: compile checked AST into closures the runtime executes.

Each node becomes a Python closure taking a :class:`Frame`. Nothing is parsed
or checked here: the checker has resolved every name and recorded canonical
ids on the nodes. Closures are built once per ruleset load and never cross a
process boundary; workers rebuild them from the ruleset source.

The closures keep the language a sandbox: each run of an effect or expression,
each loop iteration and comprehension item, and each builtin call (plus the
length of the lists it takes or makes) is charged to the frame's work
:class:`~.runtime.Budget`, and arithmetic results stay within ``MAX_INT``.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from . import ast
from . import types as T
from . import unparse
from .runtime import (MAX_CALL_DEPTH, MAX_INT, MAX_REPEAT, Frame, RequirementFailed,
                      RuleRuntimeError, check_int)
from .symbols import SymbolTable

Code = Callable[[Frame], Any]


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    """'break': leaves the innermost loop (the checker allows it only inside one)."""


_OPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


def _asks(e: ast.Node) -> bool:
    """Whether evaluating the node asks a player something."""
    for n in ast.walk(e):
        if isinstance(n, ast.AnyOf):
            return True
        if isinstance(n, ast.Comprehension) and n.func in ("choose", "choose_optional"):
            return True
        if isinstance(n, ast.Call) and n.func in ("choose_number", "choose_order"):
            return True
    return False


class Compiler:
    def __init__(self, table: SymbolTable, code: dict | None = None):
        self.table = table
        self._stmts: list[ast.Stmt] = []  # the statements being compiled, for prompts
        # compiled procedures and functions, filled as the ruleset compiles; calls look
        # them up when they run, so order of declaration and recursion both work
        self.code = code if code is not None else {}

    # ------------------------------------------------------------- entry points
    # effect() and expression() open their budget allowance inline, not through a shared
    # wrapper: one more Python frame per nested run would reach Python's recursion
    # limit before MAX_CALL_DEPTH, and cost a call on the hottest path.
    def effect(self, effect: ast.Effect) -> Code:
        body, span = self.block(effect.body), effect.span

        def run(frame: Frame):
            budget = frame.budget
            depth = budget.active
            if depth == 0:  # a top-level run: one step, and a fresh allowance
                budget.effect_start = used = budget.used
                budget.limit = limit = min(used + budget.effect_steps,
                                           budget.decision_start + budget.decision_steps)
                budget.used = used = used + 1
                if used > limit:
                    raise budget.exceeded(span)
            elif depth > MAX_CALL_DEPTH:
                raise budget.too_deep(span)
            budget.active = depth + 1
            try:
                body(frame)
            except _Return as r:
                return r.value
            except RecursionError:
                raise _too_deep(span) from None
            except RuleRuntimeError as exc:
                if exc.span is not None:
                    raise
                # the runtime found the problem; point at the effect that asked for it
                raise RuleRuntimeError(exc.message, span) from None
            finally:
                budget.active = depth
            return None

        def plain(frame: Frame):
            try:
                body(frame)
            except _Return as r:
                return r.value
            return None
        run.plain = plain  # the body alone, for calls (which do their own bookkeeping)
        return run

    def expression(self, e: ast.Expr) -> Code:
        value, span = self.expr(e), e.span

        def run(frame: Frame):
            budget = frame.budget
            depth = budget.active
            if depth == 0:  # a top-level run: one step, and a fresh allowance
                budget.effect_start = used = budget.used
                budget.limit = limit = min(used + budget.effect_steps,
                                           budget.decision_start + budget.decision_steps)
                budget.used = used = used + 1
                if used > limit:
                    raise budget.exceeded(span)
            elif depth > MAX_CALL_DEPTH:
                raise budget.too_deep(span)
            budget.active = depth + 1
            try:
                return value(frame)
            except RecursionError:
                raise _too_deep(span) from None
            finally:
                budget.active = depth
        run.plain = value
        return run

    # ----------------------------------------------------------------- blocks
    def block(self, stmts: list[ast.Stmt]) -> Code:
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Let) and _asks(s.value):
                # a prompt for 'let n = choose_number(…)' says what n is for: the first
                # later statement of the block that uses it ('pay n gold')
                s.purpose = next((t for t in stmts[i + 1:] if any(
                    isinstance(n, ast.Name) and n.id == s.name for n in ast.walk(t))), None)
        codes = [self.stmt(s) for s in stmts]
        if len(codes) == 1:
            return codes[0]

        def run(frame):
            for c in codes:
                c(frame)
        return run

    def stmt(self, s: ast.Stmt) -> Code:
        self._stmts.append(s)
        try:
            return getattr(self, "s_" + type(s).__name__)(s)
        finally:
            self._stmts.pop()

    def _asking(self, node: ast.Expr):
        """What a choice inside the current statement hands the runtime for its prompt."""
        return (self._stmts[-1] if self._stmts else None, node)

    def _player(self, e, span) -> Code:
        """Who a statement is for: the named player, else the acting one; never nobody."""
        message = ("there is no player here for this statement (no one is acting, or the "
                   "player given is none)")
        if e is None:
            def you(f):
                p = f.vars.get("you")
                if p is None:
                    raise RuleRuntimeError(message, span)
                return p
            return you
        get = self.expr(e)

        def player(f):
            p = get(f)
            if p is None:
                raise RuleRuntimeError(message, span)
            return p
        return player

    def s_Gain(self, s: ast.Gain) -> Code:
        amount, player = self.expr(s.amount), self._player(s.player, s.span)
        verb, res_name = s.verb, s.resource_id
        dynamic = res_name is None
        local = s.resource

        def resource(f):
            return f.vars[local] if dynamic else res_name
        if s.production:
            sign = 1 if verb == "gain" else -1
            return lambda f: f.rt.change_production(player(f), resource(f), sign * amount(f))
        return lambda f: f.rt.change_stock(player(f), resource(f), amount(f), verb)

    def s_Raise(self, s: ast.Raise) -> Code:
        steps = self.expr(s.steps) if s.steps is not None else (lambda f: 1)
        # a global track needs no player; a per-player one is checked by the runtime
        player = self.expr(s.player) if s.player is not None else (lambda f: f.vars.get("you"))
        sign = 1 if s.verb == "raise" else -1
        track, local, span = s.track_id, s.track, s.span

        def run(f):
            n = steps(f)
            f.budget.charge(abs(n), span)  # the track moves, and may reward, step by step
            return f.rt.move_track(track if track is not None else f.vars[local], sign * n,
                                   player(f))
        return run

    def s_Place(self, s: ast.Place) -> Code:
        if s.mode == "on" and s.player is None:
            player = lambda f: f.vars.get("you")  # noqa: E731 (none: the game places it)
        else:
            player = self._player(s.player, s.span)
        tile, local, mode, bind = s.tile_id, s.tile, s.mode, s.bind
        if s.target is None:
            target = None
        elif mode == "on":
            target = self.expr(s.target)
        else:
            cond = self.expr(s.target)

            def target(f, cond=cond):
                def accepts(space):
                    inner = f.child()
                    inner.vars["space"] = space
                    return cond(inner)
                return accepts

        def run(f):
            t = tile if tile is not None else f.vars[local]
            where = None
            if target is not None:
                where = target(f)
            placed = f.rt.place_tile(t, player(f), mode, where, f.vars.get("this"))
            if bind:
                f.vars[bind] = placed
        return run

    def s_Transfer(self, s: ast.Transfer) -> Code:
        amount = self.expr(s.amount)
        src = self.expr(s.source) if s.source is not None else (lambda f: None)
        dst = self.expr(s.dest) if s.dest is not None else (lambda f: None)
        verb, up_to, res, local = s.verb, s.up_to, s.resource_id, s.resource

        def run(f):
            f.rt.decider = f.vars.get("you")
            return f.rt.transfer(verb, res if res is not None else f.vars[local],
                                 amount(f), up_to, src(f), dst(f), f.vars["you"])
        return run

    def s_Let(self, s: ast.Let) -> Code:
        value, name = self.expr(s.value), s.name

        def run(f):
            f.vars[name] = value(f)
        return run

    def s_AsPlayer(self, s: ast.AsPlayer) -> Code:
        who, body = self.expr(s.player), self.block(s.body)

        def run(f):
            inner = f.child()
            inner.vars["you"] = who(f)
            body(inner)
            # variables set inside stay local to the block, as in any other block
        return run

    def s_Set(self, s: ast.Set) -> Code:
        value, name = self.expr(s.value), s.name
        if getattr(s, "target_kind", "local") == "track":
            player = self.expr(s.player) if s.player is not None else (
                lambda f: f.vars.get("you"))
            return lambda f: f.rt.set_track(name, value(f), player(f))

        def run(f):
            f.vars[name] = value(f)
        return run

    def s_Return(self, s: ast.Return) -> Code:
        value = self.expr(s.value) if s.value is not None else (lambda f: None)

        def run(f):
            raise _Return(value(f))
        return run

    def s_Require(self, s: ast.Require) -> Code:
        cond = self.expr(s.cond)
        explain = self._explainer(s.cond)
        message, span, node = s.message, s.span, s.cond

        def run(f):
            if not cond(f):
                words = getattr(f.rt, "why_not", None)  # the game says it in words
                raise RequirementFailed(message or (words(node, f) if words else explain(f)),
                                        span)
        return run

    def _explainer(self, e: ast.Expr) -> Callable[[Frame], str]:
        """'needs level >= 9, but level is 7' for comparisons; the rule text otherwise."""
        text = unparse.expr(e)
        if isinstance(e, ast.Call) and e.func == "meets_requirements" and e.args:
            card = self.expr(e.args[0])
            who = self.expr(e.args[1]) if len(e.args) > 1 else (lambda f: f.vars.get("you"))
            return lambda f: f.rt.explain_requirements(card(f), who(f))
        if isinstance(e, ast.Binary) and e.op in ("<", "<=", ">", ">=", "==", "!="):
            left = self.expr(e.left)
            left_text = unparse.expr(e.left)
            return lambda f: f"needs {text}, but {left_text} is {left(f)}"
        if isinstance(e, ast.Binary) and e.op == "and":
            a, b = self.expr(e.left), self._explainer(e.left)
            c = self._explainer(e.right)
            return lambda f: b(f) if not a(f) else c(f)
        return lambda f: f"needs {text}"

    def explainer(self, e: ast.Expr) -> Callable[[Frame], str]:
        return self._explainer(e)

    def s_Emit(self, s: ast.Emit) -> Code:
        record = self.table.events[s.event]
        names = [n for n, _ in record.fields]
        args = [(names[i], self.expr(a)) for i, a in enumerate(s.args)]
        args += [(k, self.expr(v)) for k, v in s.kwargs.items()]
        event, span = s.event, s.span

        def run(f):
            payload = {n: None for n in names}
            for n, a in args:
                payload[n] = a(f)
            try:
                f.rt.emit(event, payload)
            except RuleRuntimeError as exc:
                if exc.span is not None:
                    raise
                raise RuleRuntimeError(exc.message, span) from None
        return run

    def s_Run(self, s: ast.Run) -> Code:
        card, block = self.expr(s.card), self.table.canonical(s.block)
        return lambda f: f.rt.run_block(card(f), block, f.vars["you"])

    def s_CallStmt(self, s: ast.CallStmt) -> Code:
        return self.expr(s.call)

    def s_Pass(self, s) -> Code:
        return lambda f: None

    def s_If(self, s: ast.If) -> Code:
        branches = [(self.expr(c), self.block(b)) for c, b in s.branches]
        orelse = self.block(s.orelse) if s.orelse is not None else None

        def run(f):
            for cond, body in branches:
                if cond(f):
                    return body(f)
            if orelse is not None:
                return orelse(f)
        return run

    def s_For(self, s: ast.For) -> Code:
        items, body, var, span = self.expr(s.iterable), self.block(s.body), s.var, s.span

        def run(f):
            todo = list(items(f))
            budget = f.budget
            budget.used += len(todo)
            if budget.used > budget.limit:
                raise budget.exceeded(span)
            try:
                for item in todo:
                    f.vars[var] = item
                    body(f)
            except _Break:
                pass
        return run

    def s_Repeat(self, s: ast.Repeat) -> Code:
        count, body, span = self.expr(s.count), self.block(s.body), s.span

        def run(f):
            n = count(f)
            if n > MAX_REPEAT:
                raise RuleRuntimeError(f"repeat {n} is more than the limit of {MAX_REPEAT}", span)
            n = max(n, 0)
            budget = f.budget
            budget.used += n
            if budget.used > budget.limit:
                raise budget.exceeded(span)
            try:
                for _ in range(n):
                    body(f)
            except _Break:
                pass
        return run

    def s_While(self, s: ast.While) -> Code:
        cond, body, span = self.expr(s.cond), self.block(s.body), s.span

        def run(f):
            budget = f.budget
            turns = 0
            try:
                while cond(f):
                    turns += 1
                    if turns > MAX_REPEAT:
                        raise RuleRuntimeError(f"this loop ran {MAX_REPEAT} times and its "
                                               "condition still holds", span)
                    budget.used += 1
                    if budget.used > budget.limit:
                        raise budget.exceeded(span)
                    body(f)
            except _Break:
                pass
        return run

    def s_Break(self, s: ast.Break) -> Code:
        def run(f):
            raise _Break()
        return run

    def s_May(self, s: ast.May) -> Code:
        body, node = self.block(s.body), s.body
        orelse = self.block(s.orelse) if s.orelse is not None else None
        fallback = unparse.block(s.body)
        # the names the body uses, so the question can show the cards it is about
        used = sorted({n.id for n in ast.walk(s.body) if isinstance(n, ast.Name)
                       and n.binding == "local" and n.id not in ("you",)})

        def run(f):
            f.rt.decider = f.vars.get("you")
            say = getattr(f.rt, "say", None)  # the game puts it in words, when it is read
            if say is None:
                asked = f.rt.confirm(fallback)
            else:
                asked = f.rt.confirm(lambda: say(node, f), [f.vars.get(n) for n in used])
            if asked:
                body(f)
            elif orelse is not None:
                orelse(f)
        return run

    def s_Choose(self, s: ast.Choose) -> Code:
        options = [self.block(o) for o in s.options]
        given = [s.labels[i] if i < len(s.labels) and s.labels[i] else None
                 for i in range(len(s.options))]
        fallback = [g or unparse.block(o) for g, o in zip(given, s.options)]
        nodes = s.options

        def run(f):
            f.rt.decider = f.vars.get("you")
            say = getattr(f.rt, "say", None)
            labels = fallback if say is None else [
                g if g else (lambda o=o: say(o, f)) for g, o in zip(given, nodes)]
            # the runtime may try each option on a copy to offer only those that work
            probes = [(lambda o=o: o(f.child())) for o in options]
            options[f.rt.choose_option(labels, probes)](f)
        return run

    # ------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr) -> Code:
        return getattr(self, "e_" + type(e).__name__)(e)

    def e_Literal(self, e: ast.Literal) -> Code:
        v = e.value
        return lambda f: v

    def e_Name(self, e: ast.Name) -> Code:
        name, binding = e.id, e.binding
        if binding == "local" or binding is None:
            return lambda f: f.vars[name]
        ident = getattr(e, "canonical", name)
        if binding == "track_symbol":
            return lambda f: ident
        if binding == "track":
            return lambda f: f.rt.track(ident, None)
        if binding == "player_track":
            return lambda f: f.rt.track(ident, f.vars["you"])
        if binding == "constant":
            value = self.table.get(name).data
            return lambda f: value
        # a declared symbol: its value at run time is its id
        return lambda f: ident

    def e_Field(self, e: ast.Field) -> Code:
        obj, name, t = self.expr(e.obj), e.name, e.obj.type
        if isinstance(t, T.RecordType):
            return lambda f: obj(f)[name]
        getter = {T.CARD: "card_field", T.SPACE: "space_field", T.PLAYER: "player_field"}.get(t)
        span = e.span

        def run(f):
            o = obj(f)
            if o is None:
                raise RuleRuntimeError(f"cannot read '.{name}' of none", span)
            if isinstance(o, dict):
                return o[name]
            return getattr(f.rt, getter)(o, name)
        return run

    def e_ListExpr(self, e: ast.ListExpr) -> Code:
        items = [self.expr(i) for i in e.items]
        return lambda f: [i(f) for i in items]

    def e_Unary(self, e: ast.Unary) -> Code:
        operand = self.expr(e.operand)
        if e.op == "-":
            return lambda f: -operand(f)
        return lambda f: not operand(f)

    def e_Binary(self, e: ast.Binary) -> Code:
        left, right, op, span = self.expr(e.left), self.expr(e.right), e.op, e.span
        if op == "and":
            return lambda f: left(f) and right(f)
        if op == "or":
            return lambda f: left(f) or right(f)
        if op == "has":
            return lambda f: right(f) in left(f)
        if op == "lacks":
            return lambda f: right(f) not in left(f)
        if op in ("//", "%"):
            def div(f):
                b = right(f)
                if b == 0:
                    raise RuleRuntimeError("division by zero", span)
                a = left(f)
                return a // b if op == "//" else a % b
            return div
        fn = _OPS[op]
        if op not in ("+", "-", "*"):
            return lambda f: fn(left(f), right(f))
        low = -MAX_INT

        def arith(f):
            a, b = left(f), right(f)
            try:
                value = fn(a, b)
                if low <= value <= MAX_INT:
                    return value
            except TypeError:
                raise RuleRuntimeError(f"'{op}' needs two numbers, got {a!r} and {b!r}",
                                       span) from None
            return check_int(value, span)
        return arith

    def e_Conditional(self, e: ast.Conditional) -> Code:
        cond, then, other = self.expr(e.cond), self.expr(e.then), self.expr(e.other)
        return lambda f: then(f) if cond(f) else other(f)

    def e_AnyOf(self, e: ast.AnyOf) -> Code:
        noun, asking = e.noun, self._asking(e)

        def run(f):
            f.rt.decider = f.vars.get("you")
            f.rt.asking = asking + (f,)
            return f.rt.choose_from(noun, f.vars["you"])
        return run

    def e_Call(self, e: ast.Call) -> Code:
        target = e.target
        span = e.span
        if target is None or target.__class__.__name__ == "Callable_":
            decl = self.table.callables[e.func]
            names = [p[0] for p in decl.params]
            args = [(names[i], self.expr(a)) for i, a in enumerate(e.args)]
            args += [(k, self.expr(v)) for k, v in e.kwargs.items()]
            func, key, code = e.func, (decl.kind, e.func), self.code
            found: list[Code] = []  # the callee's body, looked up on the first call
            # a procedure about a card ('play_card(c)') names it in the prompts it asks
            about = next((n for n, t, _ in decl.params if t is T.CARD), None) \
                if decl.kind == "procedure" else None
            own_prompt = decl.prompt if decl.kind == "procedure" else None

            def call(f):
                budget = f.budget
                budget.used += 1
                if budget.used > budget.limit:
                    raise budget.exceeded(span)
                if f.depth >= MAX_CALL_DEPTH:
                    raise RuleRuntimeError(
                        f"calls nested deeper than {MAX_CALL_DEPTH} (unbounded recursion in "
                        f"'{func}'?)", span)
                inner = Frame(f.rt, {"you": f.vars.get("you")}, f.depth + 1, f.budget)
                for n, a in args:
                    inner.vars[n] = a(f)
                if not found:
                    body = code.get(key)
                    if body is None:
                        raise RuleRuntimeError(f"'{func}' has errors and was not compiled",
                                               span)
                    found.append(getattr(body, "plain", body))
                rt = f.rt
                # its words for the first question it asks, unless the action that called
                # it has words of its own still waiting for that question
                mine = own_prompt is not None and getattr(rt, "hand_prompt", None) is None
                if mine:
                    rt.hand_prompt = own_prompt
                try:
                    if about is not None and inner.vars.get(about) is not None \
                            and hasattr(rt, "about_card"):
                        return rt.about_card(inner.vars[about], found[0], inner)
                    return found[0](inner)
                except RecursionError:
                    raise _too_deep(span) from None
                finally:
                    if mine and rt.hand_prompt is own_prompt:
                        rt.hand_prompt = None  # it asked nothing: the words are not used
            return call
        b = target
        params = b.params
        fixed = [p for p in params if not p.variadic]
        arg_codes: list[Code] = [self.expr(a) for a in e.args]
        kw = {k: self.expr(v) for k, v in e.kwargs.items()}
        slots: list[Code] = []
        for i, p in enumerate(fixed):
            if i < len(arg_codes):
                slots.append(arg_codes[i])
            elif p.name in kw:
                slots.append(kw[p.name])
            else:
                slots.append(_default(p.default))
        extra = arg_codes[len(fixed):]
        impl = b.impl
        if b.name == "modifier":
            # keyword arguments beyond the builtin's own are the modifier's parameters
            known = {p.name for p in fixed}
            params = {k: v for k, v in kw.items() if k not in known}
            if params:
                def call(f, slots=slots, params=params):
                    try:
                        return f.rt.modifier(*[s(f) for s in slots],
                                             {k: v(f) for k, v in params.items()})
                    except (TypeError, KeyError) as exc:
                        raise RuleRuntimeError(f"modifier: {exc}", span) from None
                return call
        # a call is a step; lists cost their length, both those a builtin takes and
        # those it makes; an effect done 'count' times (drawing cards) costs that many
        takes_lists = any(isinstance(p.type, T.ListType) for p in b.params)
        list_slots = [i for i, p in enumerate(fixed) if isinstance(p.type, T.ListType)]
        lists_extra = bool(b.params) and b.params[-1].variadic and isinstance(
            b.params[-1].type, T.ListType)
        may_make_list = callable(b.result) or isinstance(b.result, T.ListType)
        counted = next((i for i, p in enumerate(fixed)
                        if b.kind == "effect" and p.name == "count"), None)
        choice = b.kind == "choice"
        if not (takes_lists or may_make_list or counted is not None or choice):
            return self._plain_call(impl, slots, extra, b.name, span)
        asking = self._asking(e) if choice else None

        def call(f):
            budget = f.budget
            if choice:
                f.rt.decider = f.vars.get("you")
            try:
                values = [s(f) for s in slots]
                if extra:
                    values += [x(f) for x in extra]
                steps = 1
                for i in list_slots:
                    if values[i] is not None:
                        steps += len(values[i])
                if lists_extra:
                    steps += sum(len(v) for v in values[len(slots):])
                if counted is not None:
                    steps += max(0, values[counted])
                budget.used += steps
                if budget.used > budget.limit:
                    raise budget.exceeded(span)
                if choice:
                    f.rt.asking = asking + (f,)
                out = impl(f.rt, *values)
            except (RuleRuntimeError, RequirementFailed, _Return):
                raise
            except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
                raise RuleRuntimeError(f"{b.name}: {exc}", span) from None
            if may_make_list and out.__class__ is list:
                budget.used += len(out)
                if budget.used > budget.limit:
                    raise budget.exceeded(span)
            return out
        return call

    @staticmethod
    def _plain_call(impl, slots: list[Code], extra: list[Code], name: str, span) -> Code:
        """A builtin that reads a number or a truth: one step, and kept lean (most calls)."""
        n = len(slots)
        if extra or n > 2:
            def values(f):
                return [s(f) for s in slots] + [x(f) for x in extra]
        elif n == 2:
            first, second = slots
            values = lambda f: (first(f), second(f))  # noqa: E731
        elif n == 1:
            only = slots[0]
            values = lambda f: (only(f),)  # noqa: E731
        else:
            values = lambda f: ()  # noqa: E731

        def call(f):
            budget = f.budget
            budget.used += 1
            if budget.used > budget.limit:
                raise budget.exceeded(span)
            try:
                return impl(f.rt, *values(f))
            except (RuleRuntimeError, RequirementFailed, _Return):
                raise
            except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
                raise RuleRuntimeError(f"{name}: {exc}", span) from None
        return call

    def e_Comprehension(self, e: ast.Comprehension) -> Code:
        agg = e.target
        source = self.expr(e.source)
        where = self.expr(e.where) if e.where is not None else None
        value = self.expr(e.value) if e.value is not None else None
        var, impl, span = e.var, agg.impl, e.span
        bounded = agg.name == "sum"

        elem = e.source.type.elem if isinstance(e.source.type, T.ListType) else None
        elem_name = str(elem) if elem is not None else ""

        asking = self._asking(e)

        def run(f):
            inner = f.child()
            if agg.kind == "choice":
                f.rt.decider = f.vars.get("you")
                f.rt.choice_kind = elem_name
                f.rt.asking = asking + (f,)

            def bind(x):
                inner.vars[var] = x
                return inner

            keep = (lambda x: where(bind(x))) if where is not None else (lambda x: True)
            val = (lambda x: value(bind(x))) if value is not None else None
            items = list(source(f))
            budget = f.budget
            budget.used += len(items)
            if budget.used > budget.limit:
                raise budget.exceeded(span)
            out = impl(f.rt, items, keep, val)
            return check_int(out, span) if bounded else out
        return run


def _too_deep(span) -> RuleRuntimeError:
    """Python's own stack ran out: recursion the depth counters did not catch first."""
    return RuleRuntimeError("rules nested too deeply while running (recursion without an "
                            "end?)", span)


def _default(text: str | None) -> Code:
    if text == "you":
        return lambda f: f.vars.get("you")
    if text == "none" or text is None:
        return lambda f: None
    if text.startswith('"'):
        v = text.strip('"')
        return lambda f: v
    n = int(text)
    return lambda f: n

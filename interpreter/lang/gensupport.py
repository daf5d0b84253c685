"""What the Python generated from rules calls: entry wrappers, budget charges, errors.

:mod:`.codegen` turns checked effects into Python source; the source is plain
code on locals and dicts, and calls back here only for the few things that
would be long to write inline: charging the work budget for lists, calling a
declared procedure or function (a step, and a depth check), asking a player,
and turning a Python error raised inside generated code into a rule error
positioned in the YAML. Nothing here knows any game.

Calling convention of a generated body: ``body(rt, B, d, V)``: the runtime,
the work budget, the call depth and the dict of the rule's variables. An
entry (one effect, condition or expression of the ruleset) is wrapped by
:func:`entry` into a function of a frame (the runtime's :class:`Frame`), as
the engine calls it.
"""

from __future__ import annotations

import re
from typing import Any

from .runtime import MAX_CALL_DEPTH, MAX_INT, REPEAT, Frame, RequirementFailed, RuleRuntimeError, check_int

# the Python errors a rule can cause (a builtin given a bad value, a missing key…);
# anything else is the engine's own and is not dressed up as a rule error
MAPPED = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError)

# generated modules by file name, for mapping errors back to rule positions
MODULES: dict[str, "ModuleInfo"] = {}


class Return(Exception):
    """'return' from inside a nested generated function (an option of 'choose one')."""

    def __init__(self, value):
        self.value = value


class Break(Exception):
    """'break' from inside a nested generated function, out to the loop around it."""


class ModuleInfo:
    """Where each line of a generated module came from, and which builtin each call is."""

    def __init__(self, filename: str, lines: list[str], spans: list, calls: dict):
        self.filename = filename
        self.lines = lines          # the source, one string per line
        self.spans = spans          # the rule position of each line (index = line - 1)
        self.calls = calls          # builtin call number -> (builtin name, span)


def too_deep(span) -> RuleRuntimeError:
    """Python's own stack ran out: recursion the depth counters did not catch first."""
    return RuleRuntimeError("rules nested too deeply while running (recursion without an "
                            "end?)", span)


def entry(body, span, effect: bool):
    """A generated body as the engine calls it: ``run(frame)``, with its budget allowance."""

    def run(frame: Frame):
        budget = frame.budget
        depth = budget.active
        if effect and getattr(frame.rt, "memo", None) is not None:
            frame.rt.memo = None  # the state may change: what was read is not kept
        if depth == 0:  # a top-level run: one step, and a fresh allowance
            budget.effect_start = used = budget.used
            budget.limit = limit = min(used + budget.effect_steps, budget.cap)
            budget.used = used = used + 1
            if used > limit:
                raise budget.exceeded(span)
        elif depth > MAX_CALL_DEPTH:
            raise budget.too_deep(span)
        budget.active = depth + 1
        try:
            return body(frame.rt, budget, frame.depth, frame.vars)
        except RecursionError:
            raise too_deep(span) from None
        except RuleRuntimeError as exc:
            if exc.span is not None:
                raise
            # the runtime found the problem (a limit, a bad value): point at the rule
            # that asked for it, or at this effect or expression as a whole
            raise RuleRuntimeError(exc.message, asked_at(exc) or span) from None
        except MAPPED as exc:
            raise rule_error(exc, span) from None
        finally:
            budget.active = depth

    def call(rt, V: dict):
        """``run(Frame(rt, V, 0, rt.budget))``, without making the frame: how the engine's
        own reads (a tile's placement test for each space, a card's requirement) call."""
        budget = rt.budget
        depth = budget.active
        if effect and rt.memo is not None:
            rt.memo = None
        if depth == 0:
            budget.effect_start = used = budget.used
            budget.limit = limit = min(used + budget.effect_steps, budget.cap)
            budget.used = used = used + 1
            if used > limit:
                raise budget.exceeded(span)
        elif depth > MAX_CALL_DEPTH:
            raise budget.too_deep(span)
        budget.active = depth + 1
        try:
            return body(rt, budget, 0, V)
        except RecursionError:
            raise too_deep(span) from None
        except RuleRuntimeError as exc:
            if exc.span is not None:
                raise
            raise RuleRuntimeError(exc.message, asked_at(exc) or span) from None
        except MAPPED as exc:
            raise rule_error(exc, span) from None
        finally:
            budget.active = depth

    def plain(frame: Frame):
        return body(frame.rt, frame.budget, frame.depth, frame.vars)
    run.call = call
    run.args = run.live = None  # the body called with Python arguments, and its twin
    # that hands out its list itself, if it has them (compiler)
    run.plain = plain  # the body alone, without the bookkeeping of a top-level run
    run.direct = body
    run.span = span
    return run


def _innermost(exc: BaseException):
    """The traceback entry of the innermost generated line an error passed through, or None."""
    tb, last = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in MODULES:
            last = tb
        tb = tb.tb_next
    return last


def asked_at(exc: BaseException):
    """The rule position of the innermost generated line an error passed through, or None."""
    last = _innermost(exc)
    if last is None:
        return None
    spans = MODULES[last.tb_frame.f_code.co_filename].spans
    return spans[last.tb_lineno - 1] if 0 < last.tb_lineno <= len(spans) else None


_CALL = re.compile(r"_b(\d+)\(")
_ARITH = re.compile(r".*\s([-+*])\s")


def rule_error(exc: BaseException, span) -> RuleRuntimeError:
    """A Python error raised in generated code, as a rule error at the rule's position."""
    last = _innermost(exc)
    if last is None:
        return RuleRuntimeError(str(exc), span)
    info = MODULES[last.tb_frame.f_code.co_filename]
    line = last.tb_lineno
    text = ""
    try:
        positions = list(last.tb_frame.f_code.co_positions())[last.tb_lasti // 2]
        l1, l2, c1, c2 = positions
        if l1 is not None and l1 == l2 and c1 is not None and c2 is not None:
            line, text = l1, info.lines[l1 - 1][c1:c2]
    except (IndexError, ValueError):  # no positions (python -X no_debug_ranges)
        pass
    where = info.spans[line - 1] if 0 < line <= len(info.spans) else None
    match = _CALL.match(text)
    detail = str(exc) if not isinstance(exc, KeyError) else f"no {exc}"
    if match and int(match.group(1)) in info.calls:
        name, call_span = info.calls[int(match.group(1))]
        return RuleRuntimeError(f"{name}: {detail}", call_span or where or span)
    arith = _ARITH.match(text)
    if isinstance(exc, TypeError) and arith:
        return RuleRuntimeError(f"'{arith.group(1)}' needs two numbers", where or span)
    return RuleRuntimeError(detail, where or span)


def number(value, span):
    """The value of an expression the engine counts with (points, a capacity, an amount):
    a number, or a rule error at the expression (the types let 'none' stand for one)."""
    if value.__class__ is int:
        return value
    what = "none" if value is None else "not a number"
    raise RuleRuntimeError(f"this should be a number, but it is {what}", span)


# ------------------------------------------------------------------ budget
def items(B, span, source, weight=1) -> list:
    """The items a comprehension or loop goes over, each ``weight`` steps: what the loop's
    body or the comprehension's condition and value cost in one turn."""
    out = list(source)
    B.used += len(out) * weight
    if B.used > B.limit:
        raise B.exceeded(span)
    return out


def seen(B, span, source, weight=1):
    """As :func:`items`, for a list read at once while nothing changes it (a zone's own
    list, gone over by a comprehension that changes nothing): charged the same, not
    copied. Anything but a list goes through :func:`items` (and its errors)."""
    if source.__class__ is not list:
        return items(B, span, source, weight)
    B.used += len(source) * weight
    if B.used > B.limit:
        raise B.exceeded(span)
    return source


def made(B, span, out):
    """A builtin's result: one step, and a step per item of a list it made."""
    B.used += len(out) + 1 if out.__class__ is list else 1
    if B.used > B.limit:
        raise B.exceeded(span)
    return out


def taken(B, span, value):
    """A list given to a builtin: a step per item."""
    if value is not None:
        B.used += len(value)
        if B.used > B.limit:
            raise B.exceeded(span)
    return value


def listed(B, value):
    """A card's tags as rules get them: a copy, a step per tag (as ``card_field`` hands
    them out; the error is positioned at the rule's line, as the runtime's are)."""
    B.used += len(value)
    if B.used > B.limit:
        raise B.exceeded(None)
    return list(value)


def counted(B, span, n):
    """An effect done ``n`` times (drawing ``n`` cards): ``n`` steps."""
    if n.__class__ is int and n > 0:
        B.used += n
        if B.used > B.limit:
            raise B.exceeded(span)
    return n


def overflow(value, span):
    """An arithmetic result outside the integer bound (or not a number at all)."""
    return check_int(value, span)


def div(a, b, span, floor: bool):
    if b == 0:
        raise RuleRuntimeError("division by zero", span)
    return a // b if floor else a % b


def no_player(span):
    return RuleRuntimeError("there is no player here for this statement (no one is acting, "
                            "or the player given is none)", span)


def field_of(obj, name, span):
    """'.name' of a record (a dict), or the error for none."""
    if obj is None:
        raise RuleRuntimeError(f"cannot read '.{name}' of none", span)
    return obj[name]


def field(rt, obj, name, getter, span):
    """'.name' of a card, space or player (through the runtime) or of a record."""
    if obj is None:
        raise RuleRuntimeError(f"cannot read '.{name}' of none", span)
    if obj.__class__ is dict or getter is None:
        return obj[name]
    return getattr(rt, getter)(obj, name)


# ------------------------------------------------------------------ calls
def too_deep_calls(name, span):
    return RuleRuntimeError(f"calls nested deeper than {MAX_CALL_DEPTH} (unbounded "
                            f"recursion in '{name}'?)", span)


class FilledPrompt:
    """A procedure's own words with its arguments' values, named as a person calls them
    ('Which card in {z} goes?' → 'Which card in the market goes?'), made when read (a
    trial that asks nothing never reads them)."""

    __slots__ = ("rt", "text", "names", "values")

    def __init__(self, rt, text: str, names: tuple, values: dict):
        self.rt, self.text, self.names = rt, text, names
        self.values = {n: values.get(n) for n, _ in names}

    def __str__(self) -> str:
        from . import types as T
        said = {}
        for name, player in self.names:
            try:
                said[name] = self.rt.rs.words.value_words(self.values[name],
                                                          T.PLAYER if player else None, self.rt)
            except Exception:  # words must never stop a game
                said[name] = str(self.values[name])
        # one pass: a name that reads like a placeholder ('{z}') stays as it is
        return re.sub(r"\{(\w+)\}", lambda m: said.get(m.group(1), m.group(0)), self.text)


def call_asking(fn, rt, B, d, V, at, own_prompt, about, priced=None):
    """A procedure with words for its first question, or about a card it names, or that
    says what each card its questions offer costs (``priced``: its name)."""
    if isinstance(own_prompt, tuple):  # (its words, the parameters they name)
        own_prompt = FilledPrompt(rt, own_prompt[0], own_prompt[1], V)
    # its words for the first question it asks, unless the action that called it has
    # words of its own still waiting for that question
    mine = own_prompt is not None and getattr(rt, "hand_prompt", None) is None
    if mine:
        rt.hand_prompt = own_prompt
    pricing = getattr(rt, "pricing", None) if priced is not None else None
    if pricing is not None:
        pricing.append((priced, V))
    try:
        if about is not None and V.get(about) is not None and hasattr(rt, "about_card"):
            return rt.about_card(V[about], lambda fr: fn(rt, B, d + 1, fr.vars, at),
                                 Frame(rt, V, d + 1, B))
        return fn(rt, B, d + 1, V, at)
    finally:
        if mine and rt.hand_prompt is own_prompt:
            rt.hand_prompt = None  # it asked nothing: the words are not used
        if pricing is not None:
            pricing.pop()


def missing(name):
    def fail(rt, B, d, V):
        raise RuleRuntimeError(f"'{name}' has errors and was not compiled")
    return fail


def missing_args(name):
    """As :func:`missing`, for calls with Python arguments."""
    def fail(rt, B, d, at, *values):
        raise RuleRuntimeError(f"'{name}' has errors and was not compiled")
    return fail


# ------------------------------------------------------------------ asking
def asking(rt, you, about, frame, values):
    """Before a builtin that asks: who decides and what the question is about (its
    frame as it is now: inside a 'repeat', which time it is stays what it was when the
    words are made later)."""
    rt.decider = you
    rt.asking = about + ((frame.child() if REPEAT in frame.vars else frame),)
    return values


def asking_items(rt, you, kind, about, frame):
    rt.decider = you
    rt.choice_kind = kind
    rt.asking = about + ((frame.child() if REPEAT in frame.vars else frame),)


def any_of(rt, V, about, frame, noun):
    rt.decider = V.get("you")
    rt.asking = about + ((frame.child() if REPEAT in frame.vars else frame),)
    return rt.choose_from(noun, V["you"])


def may(rt, V, frame, node, fallback, used) -> bool:
    rt.decider = V.get("you")
    say = getattr(rt, "say", None)  # the game puts it in words, when it is read
    if say is None:
        return rt.confirm(fallback)
    return rt.confirm(lambda: say(node, frame), [V.get(n) for n in used])


def choose(rt, V, frame, given, fallback, nodes, options) -> int:
    rt.decider = V.get("you")
    say = getattr(rt, "say", None)
    labels = fallback if say is None else [
        g if g else (lambda o=o: say(o, frame)) for g, o in zip(given, nodes)]
    # the runtime may try each option on a copy to offer only those that work
    probes = [(lambda o=o: _probe(o, V)) for o in options]
    return rt.choose_option(labels, probes)


def _probe(option, V) -> None:
    """Try an option: a 'break' or 'return' in it ends it as carrying it out would."""
    try:
        option(dict(V))
    except (Break, Return):
        pass


def modifier(rt, span, values, params):
    try:
        return rt.modifier(*values, params)
    except (TypeError, KeyError) as exc:
        raise RuleRuntimeError(f"modifier: {exc}", span) from None


def require_failed(rt, message, node, frame, explain, span):
    if message:
        return RequirementFailed(message, span)
    words = getattr(rt, "why_not", None)  # the game says it in words
    return RequirementFailed(words(node, frame) if words else explain(frame), span)


def cell(box, compute):
    """A value worked out once per comprehension, kept in ``box`` (a one-item list)."""
    value = box[0]
    if value is UNSET:
        value = box[0] = compute()
    return value


def memo(rt, key, compute):
    """A value that depends on nothing that changes while the game only reads its state.

    While the engine only reads (``rt.memo`` is ``(state, table)``: building a
    decision's options, listing where a tile may go), the value is worked out
    once per key; at any other time, every time. Running any effect ends the
    reading (see :func:`entry`), and so does a different state object (a copy,
    or a state put back)."""
    found = getattr(rt, "memo", None)
    if found is None or found[0] is not rt.state:
        return compute()
    table = found[1]
    value = table.get(key, UNSET)  # (a miss raises nothing: misses are common)
    if value is UNSET:
        value = table[key] = compute()
    return value


def by_zones(rt, key, compute):
    """A function's value that depends only on where the cards lie and on the board's
    spaces, kept until a card moves or a space changes.

    The runtime forgets what it keeps (``rt.zmemo = None``) whenever a card
    changes zone, a zone is shuffled, a tile is placed or a space claimed, and
    whenever the state is rolled back; a different state object (a copy, a
    state put back) never sees another state's values. A list is handed out
    as a copy, so no caller can change what is kept; the copy costs a step per
    item, as a list read from the game does."""
    # a value found kept is most calls (a function asked again while no card moves):
    # found here at once, charged and copied as _kept does; the rest goes through _kept
    found = getattr(rt, "zmemo", None)
    if found is not None and found[0] is getattr(rt, "state", None):
        try:
            value = found[1].get(key, UNSET)
        except TypeError:  # an argument that cannot be a key (a list)
            return compute()
        if value is not UNSET:
            if value.__class__ is list:
                B = rt.budget
                B.used += len(value)
                if B.used > B.limit:
                    raise B.exceeded(None)
                return list(value)
            return value
    return _kept(rt, "zmemo", key, compute)


def by_zones_seen(rt, key, compute):
    """As :func:`by_zones`, for a caller that reads the list at once and lets it go while
    no card moves (a comprehension that changes nothing, a loop's copy, its size): the
    list kept, not a copy of it, charged the same (a step per item)."""
    found = getattr(rt, "zmemo", None)
    if found is not None and found[0] is getattr(rt, "state", None):
        try:
            value = found[1].get(key, UNSET)
        except TypeError:  # an argument that cannot be a key (a list)
            return compute()
        if value is not UNSET:
            if value.__class__ is list:
                B = rt.budget
                B.used += len(value)
                if B.used > B.limit:
                    raise B.exceeded(None)
            return value
    return _kept(rt, "zmemo", key, compute)


def by_board(rt, key, compute):
    """A function's value that depends only on the board's spaces (no zone), kept until
    a space changes: as :func:`by_zones`, but in ``rt.bmemo``, which the runtime
    forgets only when a tile is placed, a space claimed or the state rolled back, so
    that what is read from the board outlives the cards moving between turns."""
    return _kept(rt, "bmemo", key, compute)


def by_board_seen(rt, key, compute):
    """As :func:`by_board`, for a caller that reads the list at once (see
    :func:`by_zones_seen`)."""
    return _kept(rt, "bmemo", key, compute, copy=False)


def _kept(rt, memo: str, key, compute, copy: bool = True):
    """The value kept under ``key`` in the runtime's memo ``memo`` (``zmemo`` or
    ``bmemo``) for the state it was worked out on, else worked out and kept."""
    state = getattr(rt, "state", None)
    found = getattr(rt, memo, None)
    if found is None or found[0] is not state:
        if state is None:
            return compute()
        found = (state, {})
        setattr(rt, memo, found)
    table = found[1]
    try:
        value = table.get(key, UNSET)  # (a miss raises nothing: misses are common)
    except TypeError:  # an argument that cannot be a key (a list)
        return compute()
    if value is UNSET:
        across = getattr(rt, "kept_across", None)
        if across is None or across.state is not state or key.__class__ is not tuple \
                or across.usable(key[0]) is None:
            value = table[key] = compute()
            return list(value) if value.__class__ is list else value  # computing it was charged
        # a copy of a position a search plays, whose copies share what this function
        # read (agents/across.py): the value worked out in another copy, charged as kept
        shared = across.kept.table
        value = shared.get(key, UNSET)
        if value is UNSET:
            value = shared[key] = table[key] = compute()
            return list(value) if value.__class__ is list else value
        table[key] = value
    if value.__class__ is list:
        B = rt.budget
        B.used += len(value)
        if B.used > B.limit:
            raise B.exceeded(None)
        return list(value) if copy else value
    return value


class reading:
    """``with reading(game):`` the engine only reads the state inside (see memo)."""

    __slots__ = ("rt", "before")

    def __init__(self, rt):
        self.rt = rt

    def __enter__(self):
        self.before = getattr(self.rt, "memo", None)
        if self.before is None or self.before[0] is not self.rt.state:
            self.rt.memo = (self.rt.state, {})
        return self

    def __exit__(self, *exc):
        self.rt.memo = self.before if self.before is not None and \
            self.before[0] is self.rt.state and self.rt.memo is not None else None
        return False


MAXI, MINI = MAX_INT, -MAX_INT
UNSET: Any = object()

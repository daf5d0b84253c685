"""Why a requirement does not hold now, in words and with the numbers.

A refusal names the part of a condition that fails ("needs at least 8 heat;
you have 5"), looks through a ruleset's own functions into their bodies (up
to :data:`.context.MAX_INLINE` deep) unless they declare a ``reason``, and
asks the game to explain a card's requirements.

May import: :mod:`..ast`, :mod:`..types` and the package's modules below the
renderer.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from .context import _NO_VALUE, MAX_INLINE, Ctx, _Words
from .english import _to_be, needs, plural_of
from .trees import (_COMPARE, _FLIP, _bind_args, _gives_numbers, _is_count, _is_quantity, _lit,
                    ast_with)


class Reasons:
    """Explains refusals: why a condition is false in a running game."""

    def why_not(self, e: ast.Expr, frame, depth: int = 0) -> str:
        """Why a condition does not hold now, in words and with the numbers."""
        ctx = Ctx(frame)
        if isinstance(e, ast.Binary) and e.op == "and":
            if not self._truth(e.left, frame):
                return self.why_not(e.left, frame, depth)
            return self.why_not(e.right, frame, depth)
        if isinstance(e, ast.Binary) and e.op in _COMPARE:
            return self._why_compare(e, frame)
        # a marker test: what the card is instead ('Philosophy is already unlocked')
        said = self.marked(e.operand, ctx, already=True) if isinstance(e, ast.Unary) and \
            e.op == "not" else self.marked(e, ctx, negated=True, already=True)
        if said is not None:
            return said
        if isinstance(e, ast.Unary) and e.op == "not":
            inner_e = e.operand
            if isinstance(inner_e, ast.Call) and inner_e.func in self.table.callables \
                    and depth < MAX_INLINE:
                entry = self.rs.sections["functions"].get(inner_e.func)
                tree = self.rs.asts.get(("function", inner_e.func))
                inner = self._inner_frame(inner_e, frame)
                if entry is not None and entry.data.get("reason"):
                    return self._declared(entry, tree, inner)
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
                    return self._declared(entry, tree, inner)
                # a condition of several parts: the part that fails (its phrase would
                # only say the option again: 'only when you can play X')
                if entry is None or entry.data.get("phrase") is None or _gives_numbers(tree) \
                        or isinstance(tree, ast.Binary) and tree.op == "and" \
                        or isinstance(tree, ast.Comprehension) and tree.func == "all" \
                        and tree.where is not None and tree.value is None:
                    return self.why_not(tree, inner, depth + 1)
                # a condition's phrase is a clause ('you meet the goal'): told as it is
                return "only when " + self.cond(e, ctx)
        if isinstance(e, ast.Comprehension) and e.func == "any" and e.where is not None \
                and frame is not None and depth < MAX_INLINE:
            nearest = self._nearest(e, frame, depth)
            if nearest is not None:
                return nearest
        if isinstance(e, ast.Comprehension) and e.func == "all" and e.where is not None \
                and e.value is None and frame is not None and depth <= MAX_INLINE:
            first = self._first_failing(e, frame, depth)
            if first is not None:
                return first
        if isinstance(e, ast.Call) and e.func == "meets_requirements" and frame is not None:
            card = self._value(e.args[0], ctx) if e.args else _NO_VALUE
            if card not in (_NO_VALUE, None):
                return frame.rt.explain_requirements(card, frame.vars.get("you"))
        return needs(self.cond(e, Ctx(frame)))

    def _declared(self, entry, tree, frame) -> str:
        """A function's own ``reason``, its ``{left}`` and ``{right}`` said as the two sides
        of the comparison its value is stand now ('you have {left} gold, and it takes
        {right}'); a side that is no number is said in words."""
        text = str(entry.data["reason"])
        if "{" not in text or frame is None or not isinstance(tree, ast.Binary):
            return text
        ctx = Ctx(frame)
        sides = {}
        for name, side in (("left", tree.left), ("right", tree.right)):
            value = self._value(side, ctx)
            sides[name] = str(value) if type(value) is int else self.expr(side, ctx)
        return text.replace("{left}", sides["left"]).replace("{right}", sides["right"])

    def _why_compare(self, e: ast.Binary, frame) -> str:
        ctx = Ctx(frame)
        left, right, op = e.left, e.right, e.op
        if _is_quantity(right) and not _is_quantity(left):
            flipped = _FLIP[op]
            want = self._value(left, ctx)
            # a quantity is never below 0: 'at most -1' is no reason; say the other side
            if not (isinstance(want, int) and not isinstance(want, bool)
                    and (want < 0 or want == 0 and flipped == "<")):
                left, right, op = right, left, flipped
        # what it needs, in words that do not change (the rule, not its values), with
        # the names the frame binds (a function's parameters: 'gold') said as their values
        words = self._static(frame, e)
        need = self.compare(ast_with(e, op, left, right), words)
        have = self._value(left, ctx)
        want = self._value(right, ctx)
        if have is _NO_VALUE or isinstance(have, (list, dict)):
            return "needs " + self.compare(e, ctx)
        if want is not _NO_VALUE and not isinstance(want, (list, dict, bool)) and want is not None:
            need = self.compare(ast_with(e, op, left, _lit(want, right)), words)
        if have is None or isinstance(have, bool):
            return "needs " + self.compare(e, ctx)
        if type(have) is int and type(want) is int and op in _FAILED_AS:
            # two amounts in the ruleset's own words: say both, as they stand now ('a
            # price of 12 coins is more than the 9 coins you can pay for it')
            said = [self.amount(x, str(v), v, ctx) if _own_amount(self, x) else None
                    for x, v in ((left, have), (right, want))]
            if None not in said:
                return f"{said[0]} {_FAILED_AS[op]} {said[1]}"
        subject = self.expr(left, words)
        if isinstance(left, ast.Name) and left.binding in ("track", "player_track"):
            now = self.track_amount(getattr(left, "canonical", left.id), have)
            if self.decl("track", left.canonical).get("unit"):
                return f"needs {need}; {self.thing('track', left.canonical)} is {now}"
        if isinstance(have, int) and not need.startswith(subject) and not _is_count(left):
            # an amount says what there is in its own words: 'you have 2 science tags'
            now_amount = self.amount(left, str(have), have, words)
            if now_amount is not None:
                if now_amount.startswith(f"{have} of "):  # '0 of your pieces on Oak Mill': the
                    now_amount = "none" if have == 0 else str(have)  # need said whose
                    need = need[len("at least "):] if need.startswith("at least one ") \
                        else need
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

    def _static(self, frame, e: ast.Expr | None = None) -> Ctx:
        """Words without a frame, the frame's cards and symbols (a resource, a zone) bound
        to the words for them: 'Lamp', 'gold' where a parameter stands for one; and each
        player ``e`` names by a local (the one a card is aimed at): 'Player 2', 'you'."""
        if frame is None:
            return Ctx(None)
        names: dict = {}
        you = frame.vars.get("you")
        for n in ast.walk(e) if e is not None else ():
            if isinstance(n, ast.Name) and n.binding in ("local", None) \
                    and n.type is T.PLAYER and n.id != "you" and n.id in frame.vars:
                v = frame.vars[n.id]
                if isinstance(v, int) and not isinstance(v, bool):
                    names[n.id] = _Words("you" if v == you else
                                         self.value_words(v, T.PLAYER, frame.rt))
        for k, v in frame.vars.items():
            if k == "you" or k in names or isinstance(v, bool):
                continue
            said = frame.rt.value_name(v, None)  # a card, a space: its name
            if said is not None:
                names[k] = _Words(said)
            elif isinstance(v, str):  # a resource, a tag, a zone…: said by its type
                names[k] = v
        return Ctx(None, names)

    def _truth(self, e: ast.Expr, frame) -> bool:
        v = self._value(e, Ctx(frame))
        return True if v is _NO_VALUE else bool(v)

    def _nearest(self, e: ast.Comprehension, frame, depth: int) -> str | None:
        """Why no item of ``any(x in … where …)`` will do, said of the one that comes
        nearest (the most parts of the condition hold for it, the first of those): "no
        card in your hand will do now: Temple needs at least 3 culture; you have 2"."""
        items = self._value(e.source, Ctx(frame))
        if not isinstance(items, list):
            return None
        place = self.source(ast.Comprehension(e.span, "choose", e.var, e.source, None, None),
                            Ctx(frame)) or self.expr(e.source, Ctx(frame))
        noun = self.noun_of(e.source)
        within = _within(noun, place)
        if not items:
            return f"there is no {noun} {within}"
        best, best_held = None, -1
        for item in items:
            inner = frame.child()
            inner.vars[e.var] = item
            held = self._held(e.where, inner, depth)
            if held > best_held:
                best, best_held = inner, held
        if best_held <= 0 and not _has_parts(e.where, self.table.callables):
            # one plain condition that no item meets: the nearest would be any of them
            return needs(self.cond(e, Ctx(frame)))
        name = frame.rt.value_name(best.vars[e.var], None)
        if name is None:
            return None
        why = self.why_not(e.where, best, depth + 1)
        said = why if name in why else f"{name}: {why}"
        return f"no {noun} {within} will do now: {said}"

    def _first_failing(self, e: ast.Comprehension, frame, depth: int) -> str | None:
        """Why ``all(x in … where …)`` does not hold: the condition said of the first
        item it fails for, with its numbers ("needs at least 2 stone; you have 1
        stone", where the rule asks every good of a price to be held as often as the
        price names it). None when no item can be found to fail (its words then)."""
        items = self._value(e.source, Ctx(frame))
        if not isinstance(items, list):
            return None
        for item in items:
            inner = frame.child()
            inner.vars[e.var] = item
            if not self._truth(e.where, inner):
                return self.why_not(e.where, inner, depth + 1)
        return None

    def _held(self, e: ast.Expr, frame, depth: int) -> int:
        """How many parts of an 'and', read through the ruleset's functions, hold in a
        row from the first."""
        if isinstance(e, ast.Binary) and e.op == "and":
            left = self._held(e.left, frame, depth)
            if not self._truth(e.left, frame):
                return left
            return left + 1 + self._held(e.right, frame, depth)
        if isinstance(e, ast.Call) and e.func in self.table.callables and depth < MAX_INLINE:
            tree = self.rs.asts.get(("function", e.func))
            if isinstance(tree, ast.Expr):
                inner = self._inner_frame(e, frame)
                if inner is not None:
                    return self._held(tree, inner, depth + 1)
        return 0

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


# how a comparison that fails reads, said of its two sides as they are
_FAILED_AS = {"<=": "is more than", "<": "is not less than", ">=": "is less than",
              ">": "is not more than"}


def _own_amount(w, e) -> bool:
    """Whether ``e`` calls a function of the ruleset that says its amount ('amount:')."""
    if not isinstance(e, ast.Call) or e.func not in w.table.callables:
        return False
    entry = w.rs.sections["functions"].get(e.func)
    return entry is not None and bool(entry.data.get("amount"))


def _within(noun: str, place: str) -> str:
    """Where the items of a place are, said once: 'on the timeline' for 'the
    technologies on the timeline' (not 'in the technologies on the timeline'), 'in
    your hand' for 'your hand'."""
    many = f"the {plural_of(noun)} "
    if place.startswith(many) and place[len(many):].split(" ", 1)[0] in _PLACE_WORDS:
        return place[len(many):]
    return f"in {place}"


_PLACE_WORDS = ("on", "in", "at", "of", "from", "with", "under", "beside", "near")


def _has_parts(e: ast.Expr, functions) -> bool:
    """Whether a condition is made of parts (an 'and', or a ruleset's function that may
    be one), so that an item may come nearer than another to meeting it."""
    return isinstance(e, ast.Binary) and e.op == "and" or \
        isinstance(e, ast.Call) and e.func in functions

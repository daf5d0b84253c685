"""Implied requirements: the checks an effect's first statements make, found before it runs.

An effect whose first statements always run (at its top level, not inside
``if``, ``may``, ``choose one``, ``for`` or ``repeat``) and are refused when
something is missing implies a requirement: ``lose 1 gold production`` can
only be carried out with a production that may go down a step, ``pay 2 gold``
with 2 gold, ``remove 2 seeds from this`` with 2 seeds on the card, and
a ``require`` there holds or the effect stops. :func:`derive` reads them off
the checked tree, so that the engine can list the option as not available,
with the reason, before anyone picks it (issue 26: nothing offered that
cannot be carried out), exactly as a printed requirement is.

Two more first statements imply one: a tile placed (``place city where …``)
needs a legal space for it, unless none of those tiles is left (then nothing
is placed); and ``let x = choose(c in LIST where …)`` needs something to
choose from. A ``require``, a placement's condition or a choice reads the
game: :func:`reads` says which quantities (a resource's stock or production,
a card resource, the board, the zones, a track), following the ruleset's
functions; such a check is derived only when nothing before it (nor, see
:func:`safe`, anything between the choice and the effect) changes what it
reads.

It is conservative: it reads statements in order and stops at the first one
it cannot follow (a call to a procedure, a ``let`` other than a choice, a
track moved, an event, anything inside a condition or a choice, another
player's stock), since what that does could change what comes after. Amounts must be
written as numbers (or constants): an amount worked out from the game or a
choice made later gives nothing. A quantity changed in a way it cannot count
(a gain, which a capacity may cap; a stock lost, which stops at its floor)
gives nothing more for that quantity. ``run BLOCK of this`` is followed into
the card's own block. Pays and production losses of one quantity add up.

May import: :mod:`.ast` only (the tree in, plain data out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import ast

MAX_DEPTH = 4  # blocks run from blocks


@dataclass(frozen=True)
class Implied:
    """One implied check. ``kind``: "pay" (a stock of ``resource`` must hold ``amount``
    above its floor), "production" (a production must go down ``amount`` steps and
    stay at or above its floor), "on_card" (``amount`` of a card resource on the card
    itself), "require" (``cond`` holds; ``message`` is the rule's own words), "place"
    (a tile of type ``resource`` has a legal space, ``mode`` as the statement's, and
    ``cond`` its condition on ``space`` or None; or none of those tiles is left), or
    "choose" (``cond``, a ``choose(x in … where …)``, has something to choose).
    ``reads``: what the condition reads (see :func:`reads`; None: anything)."""

    kind: str
    resource: str = ""
    amount: int = 0
    cond: Any = None
    message: str | None = None
    span: Any = None
    mode: str = ""
    reads: frozenset | None = frozenset()
    # the parameters of the procedures it was found in, with the values they are called
    # with (each written out: a number, a constant, a resource…): the variables its
    # condition is read with
    variables: tuple = ()


# What the builtins read. Those that read nothing that changes: a list's items, a
# card's printed facts, the seats. Those that read the board, or the zones' cards.
_PURE = frozenset({"abs", "clamp", "concat", "div_floor", "item", "max", "min",
                   "occurrences", "position", "range", "reversed", "size", "without",
                   "player", "player_count", "players", "opponents", "neighbours_of",
                   "has_tag", "has_block", "count_tags", "variant", "round_number",
                   "last_round"})
_BOARD = frozenset({"neighbours", "space_of", "spaces", "can_place", "tiles_left"})
_ZONES = frozenset({"cards_in", "all_cards_in", "top", "zone_of", "card_named", "slot_of"})
_QUANTITY = {"stock": "pay", "production": "production", "resources_on": "on_card"}
# Read across actions (an invariant, checked between them), these builtins read what
# may change from one action to the next; within one option's check they do not
# change, or are not followed (see reads).
_ACROSS = {"round_number": ("round", "*"), "turn_order": ("order", "*"),
           "cubes_on": ("pieces", "*")}
# effects that change the board, the zones, or something no read names
_CHANGES = {"claim": ("board", "*"), "put": ("zones", "*"), "draw": ("zones", "*"),
            "shuffle": ("zones", "*")}


class _Anything(Exception):
    """A read of something no quantity names."""


def reads(tree, function: Callable[[str], Any] | None = None,
          across: bool = False, params: Callable[[str], list] | None = None
          ) -> frozenset | None:
    """What an expression (or statements) reads of the game, as (kind, what) pairs:
    ("pay", resource) a stock, ("production", resource), ("on_card", resource),
    ("board", "*") the spaces and their tiles, ("zones", "*") the cards in zones,
    ("track", id); "*" for a resource held in a variable. ``function(name)`` gives a
    ruleset function's tree, followed. None: it may read anything (a call this does
    not know, a marker, a modifier…).

    ``across``: what it reads from one action to another (an invariant's condition,
    checked between actions): the round ("round", "*"), the turn order ("order", "*"),
    the pieces on cards ("pieces", "*"), a marker ("markers", id), a track read
    with ``track(…)``, a capacity ("capacity", resource) and a modifier ("modifier",
    id), which whoever asks follows into the resource's own declaration and the cards'
    modifiers of that kind; a placement test (``can_place``)
    may read anything. The cards of a zone worked out as it runs (``cards_in(z)``,
    ``z`` a variable) are ("zones", "?"): whoever runs it may see which; where the
    card itself lies (``zone_of(this)``) is ("zones", "this"). A resource held in a
    variable is known there when the variable can only be one of resources written
    out: one that goes over a list of them (``r in [food, wood]``), or a function's
    parameter (``params(name)``: its parameters' names) given one or such a variable."""
    out: set = set()
    seen: set = set()
    try:
        _reads(tree, function, out, seen, across, {} if across else None, params)
    except _Anything:
        return None
    return frozenset(out)


def _literal_resources(arg, names: dict | None) -> frozenset | None:
    """The resources a resource argument may be: the one named, those a variable may
    hold (``names``), or None: any."""
    if not isinstance(arg, ast.Name):
        return None
    if arg.binding in ("resource", "card_resource"):
        return frozenset({getattr(arg, "canonical", None) or arg.id})
    if names is not None and arg.binding == "local":
        return names.get(arg.id)
    return None


def _resource_names(tree, given: dict, parameters=()) -> dict:
    """The variables of ``tree`` that can only hold resources written out: those going
    over a list of resources, and the ``parameters`` ``given`` one (a variable bound
    anywhere else in the tree as well, or a parameter not given one, is left out)."""
    lists: dict = {}
    other: set = {p for p in parameters if p not in given}
    for node in ast.walk(tree):
        if isinstance(node, ast.Comprehension):
            src = node.source
            ids = [_literal_resources(i, None) for i in src.items] \
                if isinstance(src, ast.ListExpr) else [None]
            if ids and all(i is not None for i in ids):
                lists[node.var] = lists.get(node.var, frozenset()).union(*ids)
            else:
                other.add(node.var)
        elif isinstance(node, (ast.Let, ast.For)):
            other.add(getattr(node, "name", None) or getattr(node, "var", None))
    out = {v: ids for v, ids in given.items() if v not in lists and v not in other}
    out.update((v, ids) for v, ids in lists.items() if v not in other and v not in given)
    return out


def _reads(tree, function, out: set, seen: set, across: bool = False,
           given: dict | None = None, params=None, parameters=()) -> None:
    names = _resource_names(tree, given, parameters) if given is not None else None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func
            if across and name in _ACROSS:
                out.add(_ACROSS[name])
                continue
            if across and name == "is_marked":
                arg = node.args[1] if len(node.args) > 1 else None
                out.add(("markers", getattr(arg, "canonical", None) or arg.id)
                        if isinstance(arg, ast.Name) and arg.binding == "marker"
                        else ("markers", "*"))
                continue
            if across and name == "modifier":
                arg = node.args[0] if node.args else None
                out.add(("modifier", getattr(arg, "canonical", None) or arg.id)
                        if isinstance(arg, ast.Name) and arg.binding == "modifier"
                        else ("modifier", "*"))
                continue
            if across and name in ("track", "capacity", "can_place"):
                arg = node.args[0] if node.args else None
                if name == "can_place":
                    raise _Anything
                if name == "track":
                    out.add(("track", getattr(arg, "canonical", None) or arg.id)
                            if isinstance(arg, ast.Name) and arg.binding in (
                                "track", "player_track", "track_symbol")
                            else ("track", "*"))
                    continue
                ids = _literal_resources(arg, names)
                out.update(("capacity", r) for r in ids) if ids else \
                    out.add(("capacity", "*"))
                continue
            if name in _PURE:
                continue
            if name in _BOARD:
                out.add(("board", "*"))
            elif name in _ZONES:
                arg = node.args[0] if node.args else None
                if across and name == "zone_of" and isinstance(arg, ast.Name) \
                        and arg.id == "this":
                    out.add(("zones", "this"))  # (where the card itself lies)
                    continue
                listed = name in ("cards_in", "all_cards_in", "top")
                out.add(("zones", getattr(arg, "canonical", None) or arg.id)
                        if listed and isinstance(arg, ast.Name) and arg.binding == "zone"
                        else ("zones", "?") if listed and across else ("zones", "*"))
            elif name in _QUANTITY and across:
                ids = _literal_resources(node.args[0] if node.args else None, names)
                out.update((_QUANTITY[name], r) for r in ids) if ids else \
                    out.add((_QUANTITY[name], "*"))
            elif name in _QUANTITY:
                arg = node.args[0] if node.args else None
                what = arg.id if isinstance(arg, ast.Name) and arg.binding in (
                    "resource", "card_resource") else "*"
                out.add((_QUANTITY[name], getattr(arg, "canonical", what) if what != "*"
                         else "*"))
            elif function is not None and function(name) is not None:
                if names is not None and params is not None:
                    # (across) followed with what its parameters are known to hold
                    named = params(name) or []
                    held = {} if node.kwargs else {
                        p: ids for p, arg in zip(named, node.args)
                        if (ids := _literal_resources(arg, names)) is not None}
                    key = (name, frozenset(held.items()))
                    if key not in seen:
                        seen.add(key)
                        _reads(function(name), function, out, seen, across, held, params,
                               named)
                elif name not in seen:
                    seen.add(name)  # (its variables not known: a resource in one is any)
                    _reads(function(name), function, out, seen, across)
            else:
                raise _Anything
        elif isinstance(node, ast.Name) and node.binding in ("track", "player_track"):
            out.add(("track", getattr(node, "canonical", node.id)))
        elif isinstance(node, ast.Field):
            if across and node.name != "owner" and str(getattr(node.obj, "type", "")) in (
                    "card", "player"):
                continue  # (a card's printed facts and fields, a seat's number and name)
            out.add(("board", "*"))  # a space's tile or owner (a card's facts do not change)
            if node.name == "owner" and str(getattr(node.obj, "type", "card")) != "space":
                out.add(("zones", "*"))  # a card's owner: whose zone it is in
        elif isinstance(node, (ast.AnyOf, ast.Stmt)) and not isinstance(
                node, (ast.Let, ast.If, ast.Return, ast.For, ast.Pass)):
            raise _Anything


def _overlap(read: frozenset | None, changed: set) -> bool:
    """Whether something ``changed`` may alter what was ``read`` (None: anything)."""
    if not changed:
        return False
    if read is None or ("other", "*") in changed:
        return True
    for kind, what in read:
        if (kind, what) in changed or (kind, "*") in changed \
                or what == "*" and any(k == kind for k, _ in changed):
            return True
    return False


class _Stop(Exception):
    """A statement the derivation cannot follow: nothing after it is derived."""


def derive(body: list, blocks: Callable[[str], list | None] | None = None,
           constants: dict | None = None, function: Callable[[str], Any] | None = None,
           placement: Callable[[str], Any] | None = None,
           procedure: Callable[[str], tuple | None] | None = None) -> list[Implied]:
    """The checks the statements of ``body`` that always run imply, in order.

    ``blocks(name)`` gives the statements of the card's own block ``name`` (for
    ``run name of this``), or None; ``constants`` the ruleset's constants;
    ``function(name)`` a ruleset function's tree (what a condition reads through
    it); ``placement(tile)`` the tree of a tile's placement rule, or None;
    ``procedure(name)`` a procedure's parameter names and statements, followed when
    it is called with values written out."""
    state = _State(blocks, constants or {}, function, placement, procedure)
    try:
        state.walk(body, 0)
    except _Stop:
        pass
    return state.found


def _choice_of(s):
    """The ``choose(x in … where …)`` a statement makes first, before it does anything
    (a variable's value, the card whose block runs, a procedure's argument), or None."""
    if isinstance(s, ast.Let):
        first = [s.value]
    elif isinstance(s, ast.Run):
        first = [s.card]
    elif isinstance(s, ast.CallStmt):
        first = list(s.call.args) + list(s.call.kwargs.values())
    else:
        return None
    for e in first:
        if isinstance(e, ast.Comprehension) and e.func == "choose":
            return e
    return None


def _resource(s) -> str:
    """The resource a statement names, as declared (a variable holding one: stop)."""
    rid = getattr(s, "resource_id", None)
    if not isinstance(rid, str) or rid == "?":
        raise _Stop
    return rid


# what a name written as an argument stands for: its own id
_IDS = ("resource", "card_resource", "tile", "tag", "zone", "marker", "track_symbol")


class _State:
    def __init__(self, blocks, constants, function=None, placement=None, procedure=None):
        self.blocks = blocks
        self.constants = constants
        self.function = function
        self.placement = placement
        self.procedure = procedure
        self.variables: tuple = ()  # the parameters of the procedures followed, bound
        self.found: list[Implied] = []
        self.totals: dict[tuple, int] = {}  # (kind, resource) -> amount so far
        self.unsure: set[tuple] = set()  # quantities changed in a way not counted
        self.changed: set[tuple] = set()  # what has changed so far (see reads)

    def add(self, found: Implied) -> None:
        if self.variables:
            found = Implied(**{**vars(found), "variables": self.variables})
        self.found.append(found)

    def static(self, e) -> Any:
        """The value of an argument written out (a number, a word, a constant, an id)."""
        if isinstance(e, ast.Literal) and type(e.value) in (int, str, bool):
            return e.value
        if isinstance(e, ast.Name) and getattr(e, "binding", None) == "constant":
            value = self.constants.get(getattr(e, "canonical", e.id))
            if type(value) in (int, str, bool):
                return value
        if isinstance(e, ast.Name) and getattr(e, "binding", None) in _IDS:
            return getattr(e, "canonical", None) or e.id
        if isinstance(e, ast.Name) and getattr(e, "binding", None) == "local":
            for name, value in self.variables:  # a parameter of a procedure followed
                if name == e.id:
                    return value
        raise _Stop

    def reading(self, tree) -> frozenset | None:
        """What ``tree`` reads; stop when something changed before may have changed it."""
        read = reads(tree, self.function)
        if _overlap(read, self.changed):
            raise _Stop
        return read

    def amount(self, e) -> int:
        value = self.static(e)
        if type(value) is int and value >= 0:
            return value
        raise _Stop

    def resource(self, s) -> str:
        """The resource a statement names: as declared, or a parameter's value."""
        rid = getattr(s, "resource_id", None)
        if rid == "?" or rid is None:
            for name, value in self.variables:
                if name == getattr(s, "resource", None) and isinstance(value, str):
                    return value
        return _resource(s)

    def need(self, kind: str, resource: str, n: int, span) -> None:
        key = (kind, resource)
        self.changed.add(key)
        if key in self.unsure:
            return
        total = self.totals[key] = self.totals.get(key, 0) + n
        if n > 0:
            self.add(Implied(kind, resource, total, span=span))

    def walk(self, body: list, depth: int) -> None:
        for s in body:
            self.statement(s, depth)

    def statement(self, s, depth: int) -> None:
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.Require):
            read = self.reading(s.cond)
            self.add(Implied("require", cond=s.cond, message=s.message, span=s.span,
                             reads=read))
            return
        if isinstance(s, ast.Place):
            tile = getattr(s, "tile_id", None)
            if s.mode == "on" or s.player is not None or not isinstance(tile, str) \
                    or tile == "?":
                raise _Stop
            rule = self.placement(tile) if self.placement is not None and \
                s.mode != "anywhere" else None
            read = self.reading([x for x in (s.target, rule) if x is not None])
            self.add(Implied("place", tile, cond=s.target, mode=s.mode, span=s.span,
                             reads=(read or frozenset()) | {("board", "*")}
                             if read is not None else None))
            raise _Stop  # a tile placed: its bonus, its effect, what it sets off
        choice = _choice_of(s)
        if choice is not None:
            read = self.reading(choice)
            self.add(Implied("choose", cond=choice, span=s.span, reads=read))
            raise _Stop  # (what follows uses the choice)
        if isinstance(s, ast.Gain):
            resource = self.resource(s)
            if s.player is not None:
                raise _Stop
            n = self.amount(s.amount)
            if s.production:
                if s.verb == "gain":
                    self.changed.add(("production", resource))
                    self.unsure.add(("production", resource))
                else:  # lose or pay: refused below the floor, so counted exactly
                    self.need("production", resource, n, s.span)
                return
            if s.verb == "pay":
                self.need("pay", resource, n, s.span)
            else:  # a gain may be capped, a loss stops at the floor: not counted
                self.changed.add(("pay", resource))
                self.unsure.add(("pay", resource))
            return
        if isinstance(s, ast.Transfer):
            if s.verb == "remove" and not s.up_to and isinstance(s.source, ast.Name) \
                    and s.source.id == "this":
                self.need("on_card", self.resource(s), self.amount(s.amount), s.span)
                return
            raise _Stop
        if isinstance(s, ast.CallStmt) and depth < MAX_DEPTH and self.procedure is not None:
            proc = self.procedure(s.call.func)
            if proc is None or s.call.kwargs or len(s.call.args) != len(proc[0]):
                raise _Stop
            bound = tuple(zip(proc[0], [self.static(a) for a in s.call.args]))
            outer, self.variables = self.variables, bound
            try:
                self.walk(proc[1], depth + 1)
            finally:
                self.variables = outer
            return
        if isinstance(s, ast.Run) and depth < MAX_DEPTH and self.blocks is not None \
                and isinstance(s.card, ast.Name) and s.card.id == "this":
            inner = self.blocks(s.block)
            if inner is None:
                raise _Stop
            self.walk(inner, depth + 1)
            return
        raise _Stop


class _Card:
    """The card being played, as :func:`raised` knows it: the names that stand for it in
    the rules it walks (a procedure's parameter, an event's field) and its printed facts
    (``type``, ``tags``, ``cost`` and its fields), from which a condition about it is
    worked out before the game (:func:`_known`)."""

    def __init__(self, names: set, facts: dict):
        self.names = names
        self.facts = facts

    def means(self, e) -> bool:
        if isinstance(e, ast.Name) and getattr(e, "binding", None) == "local":
            return e.id in self.names
        return isinstance(e, ast.Field) and isinstance(e.obj, ast.Name) \
            and e.obj.id == "event" and ("event." + e.name) in self.names


_UNKNOWN = object()


def _known(e, card: _Card | None) -> Any:
    """The value of an expression about the card being played, from its printed facts;
    _UNKNOWN when it reads anything else."""
    if card is None:
        return _UNKNOWN
    if isinstance(e, ast.Literal):
        return e.value
    if isinstance(e, ast.Name) and getattr(e, "binding", None) in (
            "card_type", "tag", "constant", "card_id"):
        return getattr(e, "canonical", None) or e.id
    if isinstance(e, ast.Field) and card.means(e.obj):
        if e.name in card.facts:
            return card.facts[e.name]
        return _UNKNOWN
    if isinstance(e, ast.Call) and e.args and card.means(e.args[0]):
        tags = [_known(a, card) for a in e.args[1:]]
        if _UNKNOWN in tags:
            return _UNKNOWN
        have = card.facts.get("tags", ())
        if e.func == "has_tag" and len(tags) == 1:
            return tags[0] in have
        if e.func == "count_tags":
            return sum(have.count(t) for t in tags)
        return _UNKNOWN
    if isinstance(e, ast.Unary) and e.op == "not":
        v = _known(e.operand, card)
        return _UNKNOWN if v is _UNKNOWN else not v
    if isinstance(e, ast.Binary):
        left, right = _known(e.left, card), _known(e.right, card)
        if e.op == "and":
            if left is False or right is False:
                return False
            return _UNKNOWN if _UNKNOWN in (left, right) else bool(left and right)
        if e.op == "or":
            if left is True or right is True:
                return True
            return _UNKNOWN if _UNKNOWN in (left, right) else bool(left or right)
        if _UNKNOWN in (left, right):
            return _UNKNOWN
        try:
            return {"==": lambda: left == right, "!=": lambda: left != right,
                    "<": lambda: left < right, "<=": lambda: left <= right,
                    ">": lambda: left > right, ">=": lambda: left >= right}[e.op]()
        except (KeyError, TypeError):
            return _UNKNOWN
    return _UNKNOWN


def _nodes(tree, card: _Card | None):
    """Every node below ``tree``, as :func:`ast.walk`, but leaving out the branches of
    an ``if`` that the card being played cannot take."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
        elif isinstance(n, ast.If) and card is not None:
            yield n
            for cond, body in n.branches:
                value = _known(cond, card)
                stack.append(cond)
                if value is _UNKNOWN:
                    stack.append(body)
                    continue
                if value:
                    stack.append(body)
                    break  # this branch is taken: none after it
                # never taken: its body is left out
            else:
                if n.orelse:
                    stack.append(n.orelse)
        elif isinstance(n, ast.Node):
            yield n
            stack.extend(v for k, v in vars(n).items() if k not in ("span", "type", "target"))


class _Walked:
    """What walking one tree found: what it changes, the trees it calls, whether it places
    a tile or moves a track, and the events it emits (with the card they are about)."""

    __slots__ = ("out", "calls", "places", "moves", "emits")

    def __init__(self):
        self.out: set = set()
        self.calls: list = []
        self.places = self.moves = False
        self.emits: list = []


def _walk_changes(tree, about, triggers, overflow: dict | None) -> _Walked:
    """One tree's :class:`_Walked`, for :func:`raised`."""
    w = _Walked()
    out = w.out
    for node in _nodes(tree, about):
        if isinstance(node, ast.Gain):
            if node.verb == "gain":
                out.add(("production" if node.production else "pay", _declared(node)))
        elif isinstance(node, ast.Transfer):
            if node.verb == "add":
                out.add(("on_card", _declared(node)))
            elif node.verb == "steal":
                out.add(("pay", _declared(node)))
            elif node.verb == "move":  # to a card or a player
                out.update({("on_card", "*"), ("pay", "*")})
        elif isinstance(node, ast.Call):
            if node.func in _CHANGES:
                zone = node.args[1] if node.func == "put" and len(node.args) > 1 else None
                if isinstance(zone, ast.Name) and getattr(zone, "binding", None) == "zone":
                    z = getattr(zone, "canonical", None) or zone.id
                    while z is not None and ("zones", z) not in out:
                        out.add(("zones", z))
                        z = (overflow or {}).get(z)  # a card pushed on from a full zone
                else:
                    out.add(_CHANGES[node.func])
            elif node.func in ("mark", "unmark", "place_pieces", "take_pieces",
                               "set_turn_order"):
                out.add((node.func, "*"))  # (read only as 'anything')
            w.calls.append(node.func)
        elif isinstance(node, ast.Run) and node.block != "play":
            # (a card's play is what the checks are derived from)
            out.update({("on_card", "*"), ("pay", "*"), ("production", "*"), ("other", "*")})
        elif isinstance(node, ast.Place):
            out.add(("board", "*"))
            w.places = True
        elif isinstance(node, (ast.Raise, ast.Set)) and (
                isinstance(node, ast.Raise) or getattr(node, "target_kind", "local") == "track"):
            out.add(("track", "*"))  # (any track: a name may be another's alias)
            w.moves = True
        elif isinstance(node, ast.Emit):
            if triggers is None:
                out.add(("other", "*"))
            else:
                # the event's fields that hold the card being played
                fields = triggers(node.event)[0]
                given = list(zip(fields, node.args)) + list(node.kwargs.items())
                names = {f"event.{p}" for p, a in given
                         if about is not None and about.means(a)}
                w.emits.append((node.event, _Card(names, about.facts) if names else None))
    return w


def raised(roots: list, effect: Callable[[str], Any], tiles: list, rewards: list,
           triggers: Callable[[str], list] | None = None,
           track_events: tuple = (), card: tuple | None = None,
           overflow: dict | None = None, memo: dict | None = None) -> set:
    """What the effects ``roots`` may change, with what they call: (kind, what) as in
    :class:`Implied` and :func:`reads` ("*" for any: a resource held in a variable).
    ``effect(name)`` is the tree of a procedure or function called; ``tiles`` the
    tiles' effects (walked once a tile is placed), ``rewards`` the tracks' rewards
    (walked once a track moves); ``triggers(event)`` the triggers listening to an
    event emitted, as (the event's field names, [(do, if) of each trigger]): each is
    walked when the event is emitted, unless its
    condition cannot hold for the card being played; ``track_events`` the events
    tracks emit when they move. ``card``: (the name the roots call the card being
    played, its printed facts): what it cannot do or set off is left out.
    ``overflow``: a zone's overflow zone (a card put in a full zone pushes one there).
    ``memo``: a dict shared by calls with the same other arguments (but ``roots`` and
    ``card``), which keeps what each tree walked for no card in particular found, so
    that the procedures and triggers every card reaches are walked once."""
    out: set = set()
    seen: set = set()
    known = _Card({card[0]}, card[1]) if card is not None else None
    todo: list = [(r, known) for r in roots]
    placed = moved = False
    events: set = set()

    def emitted(event: str, about: _Card | None) -> None:
        if triggers is None:
            return
        for do, cond in triggers(event)[1]:
            if about is not None and cond is not None and _known(cond, about) is False:
                continue  # it cannot fire for this card
            key = (id(do), about is None)
            if key not in events:
                events.add(key)
                todo.append((do, None))
    while todo:
        tree, about = todo.pop()
        if tree is None or (id(tree), about is None) in seen:
            continue
        seen.add((id(tree), about is None))
        walked = memo.get(id(tree)) if memo is not None and about is None else None
        if walked is None:
            walked = _walk_changes(tree, about, triggers, overflow)
            if memo is not None and about is None:
                memo[id(tree)] = walked
        out |= walked.out
        todo.extend((effect(name), None) for name in walked.calls)
        if walked.places and not placed:
            placed = True
            todo.extend((t, None) for t in tiles)
        if walked.moves and not moved:
            moved = True
            todo.extend((t, None) for t in rewards)
            for event in track_events:
                emitted(event, None)
        for event, about_card in walked.emits:
            emitted(event, about_card)
    return out


def _declared(s) -> str:
    rid = getattr(s, "resource_id", None)
    return rid if isinstance(rid, str) and rid != "?" else "*"


def before_run(body: list) -> list:
    """The statements of rules that play a card (``run play of c``) which run before its
    play: the top-level statements up to the first that holds that ``run``, itself
    included (what else it does may come first)."""
    out = []
    for s in body:
        out.append(s)
        if any(isinstance(n, ast.Run) and n.block == "play" for n in ast.walk(s)):
            break
    return out


def safe(found: list[Implied], unsafe: set) -> list[Implied]:
    """The checks of ``found`` that hold whatever the ``unsafe`` quantities do (those
    that something between the choice and the effect may change): a ``require``, a
    placement or a choice is kept when nothing it reads may change."""
    out = []
    for i in found:
        if i.kind in ("require", "place", "choose"):
            if _overlap(i.reads, unsafe):
                continue
        elif (i.kind, i.resource) in unsafe or (i.kind, "*") in unsafe:
            continue
        out.append(i)
    return out

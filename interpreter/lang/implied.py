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

It is conservative: it reads statements in order and stops at the first one
it cannot follow (a call to a procedure, a ``let``, a tile placed, a track
moved, an event, anything inside a condition or a choice, another player's
stock), since what that does could change what comes after. Amounts must be
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
    itself), or "require" (``cond`` holds; ``message`` is the rule's own words)."""

    kind: str
    resource: str = ""
    amount: int = 0
    cond: Any = None
    message: str | None = None
    span: Any = None


class _Stop(Exception):
    """A statement the derivation cannot follow: nothing after it is derived."""


def derive(body: list, blocks: Callable[[str], list | None] | None = None,
           constants: dict | None = None) -> list[Implied]:
    """The checks the statements of ``body`` that always run imply, in order.

    ``blocks(name)`` gives the statements of the card's own block ``name`` (for
    ``run name of this``), or None; ``constants`` the ruleset's constants."""
    state = _State(blocks, constants or {})
    try:
        state.walk(body, 0)
    except _Stop:
        pass
    return state.found


def _resource(s) -> str:
    """The resource a statement names, as declared (a variable holding one: stop)."""
    rid = getattr(s, "resource_id", None)
    if not isinstance(rid, str) or rid == "?":
        raise _Stop
    return rid


class _State:
    def __init__(self, blocks, constants):
        self.blocks = blocks
        self.constants = constants
        self.found: list[Implied] = []
        self.totals: dict[tuple, int] = {}  # (kind, resource) -> amount so far
        self.unsure: set[tuple] = set()  # quantities changed in a way not counted
        self.changed = False  # whether anything has changed (a require reads everything)

    def amount(self, e) -> int:
        if isinstance(e, ast.Literal) and type(e.value) is int and e.value >= 0:
            return e.value
        if isinstance(e, ast.Name) and getattr(e, "binding", None) == "constant":
            value = self.constants.get(getattr(e, "canonical", e.id))
            if type(value) is int and value >= 0:
                return value
        raise _Stop

    def need(self, kind: str, resource: str, n: int, span) -> None:
        key = (kind, resource)
        self.changed = True
        if key in self.unsure:
            return
        total = self.totals[key] = self.totals.get(key, 0) + n
        if n > 0:
            self.found.append(Implied(kind, resource, total, span=span))

    def walk(self, body: list, depth: int) -> None:
        for s in body:
            self.statement(s, depth)

    def statement(self, s, depth: int) -> None:
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.Require):
            if self.changed:
                raise _Stop
            self.found.append(Implied("require", cond=s.cond, message=s.message, span=s.span))
            return
        if isinstance(s, ast.Gain):
            resource = _resource(s)
            if s.player is not None:
                raise _Stop
            n = self.amount(s.amount)
            if s.production:
                if s.verb == "gain":
                    self.changed = True
                    self.unsure.add(("production", resource))
                else:  # lose or pay: refused below the floor, so counted exactly
                    self.need("production", resource, n, s.span)
                return
            if s.verb == "pay":
                self.need("pay", resource, n, s.span)
            else:  # a gain may be capped, a loss stops at the floor: not counted
                self.changed = True
                self.unsure.add(("pay", resource))
            return
        if isinstance(s, ast.Transfer):
            if s.verb == "remove" and not s.up_to and isinstance(s.source, ast.Name) \
                    and s.source.id == "this":
                self.need("on_card", _resource(s), self.amount(s.amount), s.span)
                return
            raise _Stop
        if isinstance(s, ast.Run) and depth < MAX_DEPTH and self.blocks is not None \
                and isinstance(s.card, ast.Name) and s.card.id == "this":
            inner = self.blocks(s.block)
            if inner is None:
                raise _Stop
            self.walk(inner, depth + 1)
            return
        raise _Stop


def raised(roots: list, effect: Callable[[str], Any], tiles: list, rewards: list) -> set:
    """The quantities the effects ``roots`` may raise, with what they call: (kind,
    resource) as in :class:`Implied`, the resource "*" for any (a resource held in a
    variable). ``effect(name)`` is the tree of a procedure or function called;
    ``tiles`` the tiles' effects (walked once a tile is placed), ``rewards`` the
    tracks' rewards (walked once a track moves)."""
    out: set = set()
    seen: set = set()
    todo = list(roots)
    placed = moved = False
    while todo:
        tree = todo.pop()
        if tree is None or id(tree) in seen:
            continue
        seen.add(id(tree))
        for node in ast.walk(tree):
            if isinstance(node, ast.Gain):
                if node.verb == "gain":
                    out.add(("production" if node.production else "pay",
                             _declared(node)))
            elif isinstance(node, ast.Transfer):
                if node.verb == "add":
                    out.add(("on_card", _declared(node)))
                elif node.verb == "steal":
                    out.add(("pay", _declared(node)))
                elif node.verb == "move":  # to a card or a player
                    out.update({("on_card", "*"), ("pay", "*")})
            elif isinstance(node, ast.Call):
                todo.append(effect(node.func))
            elif isinstance(node, ast.Run) and node.block != "play":
                # (a card's play is what the checks are derived from)
                out.update({("on_card", "*"), ("pay", "*"), ("production", "*")})
            elif isinstance(node, ast.Place) and not placed:
                placed = True
                todo.extend(tiles)
            elif isinstance(node, ast.Raise) and not moved:
                moved = True
                todo.extend(rewards)
    return out


def _declared(s) -> str:
    rid = getattr(s, "resource_id", None)
    return rid if isinstance(rid, str) and rid != "?" else "*"


def safe(found: list[Implied], unsafe: set) -> list[Implied]:
    """The checks of ``found`` that hold whatever the ``unsafe`` quantities do (those
    that something between the choice and the effect may raise): a ``require``
    reads anything, so none is kept when anything may be raised."""
    out = []
    for i in found:
        if i.kind == "require":
            if unsafe:
                continue
        elif (i.kind, i.resource) in unsafe or (i.kind, "*") in unsafe:
            continue
        out.append(i)
    return out

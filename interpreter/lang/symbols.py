"""The names a ruleset declares, as the checker and the compiler see them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..span import Span
from . import types as T


# kinds whose bare name evaluates to a number in the game state
VALUE_KINDS = {"track", "player_track", "constant", "procedure", "function"}


@dataclass
class Symbol:
    """One declared name: its kind (resource, tag, track…), its type and where it is declared."""

    name: str
    kind: str
    type: T.Type
    span: Span | None = None
    canonical: str | None = None  # the declared id when this name is a plural alias
    data: Any = None  # the declaration itself (dict) for kinds that need it


@dataclass
class Callable_:
    """A procedure (statement) or function (expression) declared in YAML."""

    name: str
    kind: str  # "procedure" or "function"
    params: list[tuple[str, T.Type, Any]]  # (name, type, default or None)
    returns: T.Type
    span: Span | None = None
    prompt: str | None = None  # a procedure's own words for its first question
    price: bool = False  # a procedure that says what each card it offers costs (price:)


# Built-in fields of the runtime's entities; rulesets add card fields of their own.
CARD_FIELDS: dict[str, T.Type] = {
    "id": T.CARD_ID, "name": T.STR, "cost": T.INT, "tags": T.list_of(T.TAG),
    "type": T.CARD_TYPE, "owner": T.PLAYER, "number": T.STR, "holds": T.CARD_RESOURCE,
}
SPACE_FIELDS: dict[str, T.Type] = {
    "id": T.STR, "name": T.STR, "type": T.SPACE_TYPE, "tile": T.TILE, "owner": T.PLAYER,
    "bonus": T.list_of(T.BONUS), "row": T.INT, "column": T.INT, "card": T.CARD,
    "claimed_by": T.PLAYER,
}
PLAYER_FIELDS: dict[str, T.Type] = {"seat": T.INT, "name": T.STR}


@dataclass
class SymbolTable:
    symbols: dict[str, Symbol] = field(default_factory=dict)
    callables: dict[str, Callable_] = field(default_factory=dict)
    events: dict[str, T.RecordType] = field(default_factory=dict)
    card_fields: dict[str, T.Type] = field(default_factory=lambda: dict(CARD_FIELDS))
    modifier_params: dict[str, list[tuple[str, T.Type]]] = field(default_factory=dict)
    # once the ruleset is checked: the procedures, functions, track rewards ('track:<id>')
    # and tile effects ('tile:<id>') that need an acting player, with the reason
    needs_acting: dict[str, tuple] | None = None

    # one name may be declared once per kind: a game may have a resource and a tag
    # spelled the same
    overloads: dict[str, list[Symbol]] = field(default_factory=dict)
    # of_kind's answers, kept until the next add: an error's 'did you mean' asks for them,
    # and listing every name again for each of thousands of errors made a load quadratic
    _of_kind: dict[tuple, list[str]] = field(default_factory=dict, repr=False, compare=False)

    def add(self, sym: Symbol) -> Symbol | None:
        """Declare a symbol; return the clashing symbol of the same kind, if any."""
        same = self.overloads.setdefault(sym.name, [])
        for other in same:
            if other.kind == sym.kind or {other.kind, sym.kind} & VALUE_KINDS:
                return other
        same.append(sym)
        self._of_kind.clear()
        self.symbols.setdefault(sym.name, sym)
        return None

    def get(self, name: str, kinds: tuple[str, ...] | None = None) -> Symbol | None:
        if kinds is None:
            return self.symbols.get(name)
        for sym in self.overloads.get(name, ()):
            if sym.kind in kinds:
                return sym
        return None

    def candidates(self, name: str) -> list[Symbol]:
        return self.overloads.get(name, [])

    def of_kind(self, *kinds: str) -> list[str]:
        """The names declared as any of ``kinds``, in declaration order (a shared list: do not
        change it)."""
        found = self._of_kind.get(kinds)
        if found is None:
            found = self._of_kind[kinds] = [n for n, syms in self.overloads.items()
                                            if any(s.kind in kinds for s in syms)]
        return found

    def canonical(self, name: str, kinds: tuple[str, ...] | None = None) -> str:
        sym = self.get(name, kinds)
        return (sym.canonical or name) if sym else name

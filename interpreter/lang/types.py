"""Types of the effect language.

Values are numbers, truth values, text, players, cards, board spaces, lists,
event records, and symbols: the names a ruleset declares (resources, tags,
zones, tracks, tile types…). The checker gives every expression one of these
types before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ListType(Type):
    elem: Type = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"list of {self.elem}"


@dataclass(frozen=True)
class RecordType(Type):
    fields: tuple = ()  # ((name, Type), ...)

    def field(self, name: str) -> Type | None:
        return dict(self.fields).get(name)

    def __str__(self) -> str:
        return f"{self.name} event"


INT = Type("number")
BOOL = Type("truth value")
STR = Type("text")
NONE = Type("nothing")
ANY = Type("any")
PLAYER = Type("player")
CARD = Type("card")
SPACE = Type("space")

# symbols declared by a ruleset, one type per kind of declaration
RESOURCE = Type("resource")
CARD_RESOURCE = Type("card resource")
BONUS = Type("bonus")
TAG = Type("tag")
CARD_TYPE = Type("card type")
CARD_ID = Type("card id")
TILE = Type("tile type")
SPACE_TYPE = Type("space type")
ZONE = Type("zone")
TRACK = Type("track")
MARKER = Type("marker")
BLOCK = Type("effect block")
MODIFIER = Type("modifier")

# reference types may be "none" (no player, no card, an empty space's tile…)
NULLABLE = {PLAYER, CARD, SPACE, TILE, RESOURCE, CARD_RESOURCE, BONUS, TAG, CARD_TYPE, CARD_ID,
            SPACE_TYPE, ZONE, TRACK, MARKER, STR, INT}

TYPE_NAMES = {
    "int": INT, "number": INT, "bool": BOOL, "text": STR, "str": STR, "player": PLAYER,
    "card": CARD, "space": SPACE, "resource": RESOURCE, "card_resource": CARD_RESOURCE,
    "tag": TAG, "card_type": CARD_TYPE, "card_id": CARD_ID, "tile": TILE,
    "space_type": SPACE_TYPE, "zone": ZONE, "track": TRACK, "marker": MARKER, "bonus": BONUS,
}


def list_of(t: Type) -> ListType:
    return ListType("list", t)


def parse_type(text: str) -> Type | None:
    """Type from a declaration such as ``card``, ``list[card]`` or ``list of tag``."""
    text = text.strip()
    for prefix, suffix in (("list[", "]"), ("list of ", "")):
        if text.startswith(prefix) and text.endswith(suffix):
            inner = parse_type(text[len(prefix):len(text) - len(suffix)] if suffix
                               else text[len(prefix):])
            return list_of(inner) if inner else None
    return TYPE_NAMES.get(text)


def assignable(actual: Type, expected: Type | tuple) -> bool:
    """Can a value of type ``actual`` be used where ``expected`` is wanted?"""
    if isinstance(expected, tuple):
        return any(assignable(actual, e) for e in expected)
    if actual is ANY or expected is ANY or actual == expected:
        return True
    if actual is NONE:
        return expected in NULLABLE
    if expected is BONUS and actual is RESOURCE:
        return True
    if isinstance(actual, ListType) and isinstance(expected, ListType):
        return assignable(actual.elem, expected.elem)
    return False


def describe(expected: Type | tuple) -> str:
    if isinstance(expected, tuple):
        names = [str(e) for e in expected]
        return " or ".join(names)
    return str(expected)

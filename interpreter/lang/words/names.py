"""How declared things, zones, tracks and values are called in running text.

Every resource, track, tag, zone, tile and card is called by its declared
``name`` (lower-cased in running text, its plural where one is declared); a
thing with no name falls back to its id as words. A runtime value (a card, a
space, a player, a list) is named the way the game names it.

May import: :mod:`..ast`, :mod:`..types` and the package's :mod:`.english`.
"""

from __future__ import annotations

from typing import Any

from .. import ast
from .. import types as T
from .english import join_and, lower_name, plural_of, possessive, words_of_id

_SECTION_OF_KIND = {
    "resource": "resources", "card_resource": "card_resources", "tag": "tags",
    "card_type": "card_types", "zone": "zones", "tile": "tiles", "marker": "markers",
    "track": "tracks", "player_track": "tracks", "modifier": "modifiers",
}
_NONE_WORD = {T.PLAYER: "nobody", T.CARD: "no card", T.SPACE: "no space", T.TILE: "no tile"}
_ELEM_NOUN = {T.CARD: "card", T.PLAYER: "player", T.SPACE: "space", T.TILE: "tile",
              T.INT: "number", T.TAG: "tag", T.RESOURCE: "resource", T.ZONE: "zone"}


class Names:
    """How things are called; needs ``rs``, ``table``, ``spaces`` and ``board_items``."""

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

    def pieces(self, count: Any = 2) -> str:
        """What the game calls a player's pieces on cards: the last word the names of
        all its piece resources share ('Stored cubes', 'Supply cubes': 'cubes'; 'cube'
        for one), else 'pieces'."""
        known = self.__dict__.setdefault("_piece_words", {})
        one = count == 1
        if one not in known:
            words = set()
            for ident, entry in (self.rs.sections.get("resources") or {}).items():
                if isinstance(entry.data, dict) and entry.data.get("piece"):
                    words.add(self.thing("resource", ident, 1 if one else 2).split()[-1])
            known[one] = words.pop() if len(words) == 1 else ("piece" if one else "pieces")
        return known[one]

    def thing(self, kind: str, ident: str, count: Any = None) -> str:
        """How a declared thing is called in running text."""
        if kind in ("space_type", "bonus"):
            if kind == "bonus" and self.table.get(ident, ("resource",)) is not None:
                return self.thing("resource", ident, count)
            name = lower_name(str(self.board_items.get(ident, words_of_id(ident))))
            return plural_of(name) if kind == "bonus" and count not in (None, 1) else name
        d = self.decl(kind, ident)
        if kind == "card":
            return d.get("name") or words_of_id(ident)
        name = d.get("name")
        if name is None:
            plural = d.get("plural")
            if count not in (None, 1) and plural and "_" not in str(plural):
                return str(plural)  # 'cube', 'cubes': the plural it declares
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

    def value_words(self, value: Any, typ: Any = None, rt=None) -> str:
        """A runtime value as a person calls it (``rt``, the game, names cards and spaces)."""
        if value is None:
            return _NONE_WORD.get(typ, "none")
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            elem = getattr(typ, "elem", None)
            if value and all(isinstance(v, str) and self.table.get(v, ("resource",))
                             is not None for v in value):
                # a list of resources is an amount of each: '2 coins and 1 stone'
                counts: dict = {}
                for v in value:
                    counts[v] = counts.get(v, 0) + 1
                return join_and([f"{n} {self.thing('resource', v, n)}"
                                 for v, n in counts.items()])
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

    def track_amount(self, track: str, value: Any) -> str:
        unit = self.decl("track", track).get("unit")
        return f"{value} {unit}" if unit else str(value)

    def _field_name(self, e: ast.Field) -> str:
        entry = self.rs.sections.get("card_fields", {}).get(e.name)
        if entry is not None and isinstance(entry.data, dict) and entry.data.get("name"):
            return lower_name(str(entry.data["name"]))
        return {"holds": "resource kind", "claimed_by": "claimant", "id": "card",
                "tile": "tile"}.get(e.name, words_of_id(e.name))

    def noun_of(self, source: ast.Expr) -> str:
        """What a list holds, for 'a card', 'each player': a function may name it (noun:)."""
        if isinstance(source, ast.Call) and source.func in self.table.callables:
            entry = self.rs.sections["functions"].get(source.func)
            if entry is not None and entry.data.get("noun"):
                return str(entry.data["noun"])
        return _ELEM_NOUN.get(getattr(source.type, "elem", None), "one")

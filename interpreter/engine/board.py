"""The board: spaces, their neighbours, tiles and placing them.

The part of :class:`~.game.Game` that reads spaces (declared fields and what
lies on them now), names and summarises them for people, checks where a tile
may go and places it (asking where when there is a choice), and claims spaces.
"""

from __future__ import annotations

from ..lang.gensupport import reading
from ..lang.runtime import MAX_CALL_DEPTH
from ..lang.words.english import _a, join_and, plural_of
from .boardbits import BoardBits, BoardLayout
from .decisions import ActionRefused
from .state import BIG, NO_OWNER


_LIVE_FIELDS = frozenset(("tile", "owner", "card"))  # a space's fields kept in the state
_BITS = object()  # the key of the board's masks among the values read from the board
_RULE = object()  # the key of a placement rule's spaces, by tile and player


class SpaceFacts(dict):
    """What the board declares for each space (its type, row, ...), as compiled rules read
    it: field name -> space id -> value (what :meth:`BoardMixin.space_field` answers for
    a declared field), each worked out the first time it is read; declarations never
    change, so the game's copies share the table. An id that is no space raises the
    KeyError ``space_field`` raises."""

    __slots__ = ("game",)

    def __init__(self, game):
        super().__init__()
        self.game = game

    def __missing__(self, name):
        table = self[name] = _SpaceFact(self.game.space_decl, name)
        return table


class _SpaceFact(dict):
    """One declared field of every space, by space id (see :class:`SpaceFacts`)."""

    __slots__ = ("decl", "name")

    def __init__(self, decl: dict, name: str):
        super().__init__()
        self.decl, self.name = decl, name

    def __missing__(self, space):
        value = self[space] = self.decl[space].get(self.name)
        return value


class BoardMixin:
    """The board: spaces, their neighbours, tiles and placing them."""

    def spaces(self):
        return self.charged(list(self.space_decl))

    def neighbours(self, space):
        return self.charged(list(self.rs.adjacency.get(space, [])))

    def space_field(self, space, name):
        """A field of a space: what lies on it now (tile, owner, card, claimed by) or
        what the board declares (its type, its bonus, ...). Read most of all the
        engine's accessors (every scan of the board reads a few per space), so it
        goes straight to the one dict that holds the field. (Compiled rules read what
        lies on a space from the state and a declared field from ``space_facts``, see
        :class:`SpaceFacts`, without calling this.)"""
        if name in _LIVE_FIELDS:
            return self.state.spaces[space][name]
        if name == "claimed_by":
            return self.state.spaces[space].get("claim")
        decl = self.space_decl[space]
        if name == "bonus":
            return list(decl.get("bonus", []) or [])
        return decl.get(name)

    def space_of(self, card):
        for sid, live in self.state.spaces.items():
            if live["card"] == card:
                return sid
        return None

    def space_name(self, space: str) -> str:
        """How a space is called: its name, its map label ('#13'), or both."""
        decl = self.space_decl[space]
        if decl.get("name") and decl.get("off_board"):  # no map to find it on
            return decl["name"]
        if "label" in decl:
            tag = f"#{decl['label']}"
            return f"{decl['name']} {tag}" if decl.get("name") else tag
        return decl.get("name") or space

    def space_summary(self, space: str, seat: int | None = None) -> str:
        """Kind, bonus, tile and occupied neighbours of a space, for ``seat`` choosing
        it: 'Field · bonus 2 apples · next to 3 of your towers, a well and a mill of
        Player 2' (the same tiles of the same owner counted, the chooser's own said
        to be theirs; with no seat, every owner named)."""
        decl, live = self.space_decl[space], self.state.spaces[space]
        kind = decl.get("type", "")
        parts = [self.board_item_names.get(kind, kind)]
        if decl.get("bonus"):
            counts: dict[str, int] = {}
            for b in decl["bonus"]:
                counts[b] = counts.get(b, 0) + 1
            words = self.rs.words  # '1 apple', '2 apples', '2 cards' in running text
            parts.append("bonus " + ", ".join(f"{n} {words.thing('bonus', b, n)}"
                                             for b, n in counts.items()))
        if live.get("tile") is not None:
            parts.append("has " + self.tiles_words({self._tile_key(space): 1}, seat))
        near: dict[tuple, int] = {}
        for n in self.rs.adjacency.get(space, []):
            if self.state.spaces[n].get("tile") is not None:
                key = self._tile_key(n)
                near[key] = near.get(key, 0) + 1
        if near:
            parts.append("next to " + self.tiles_words(near, seat))
        return " · ".join(parts)

    def _tile_key(self, space: str) -> tuple:
        """(tile, owner seat or None) of the tile on a space."""
        live = self.state.spaces[space]
        owner = live.get("owner")
        return live["tile"], (None if owner is None or owner == NO_OWNER else owner)

    def tiles_words(self, counts: dict[tuple, int], seat: int | None = None) -> str:
        """Tiles counted by (tile, owner) in running text, ``seat``'s own first, then
        nobody's, then each other player's: '3 of your towers, a well and a mill of
        Player 2'."""
        def order(key):
            owner = key[1]
            return (0 if owner == seat and seat is not None else 1 if owner is None else 2,
                    -1 if owner is None else owner)
        said = []
        for (tile, owner), n in sorted(counts.items(), key=lambda kv: order(kv[0])):
            one, many = self.rs.words.thing("tile", tile, 1), self._tiles(tile)
            if owner is not None and owner == seat:
                said.append(f"your {one}" if n == 1 else f"{n} of your {many}")
                continue
            what = _a(one) if n == 1 else f"{n} {many}"
            said.append(what if owner is None
                        else f"{what} of {self.state.players[owner].name}")
        return join_and(said)

    def thing_name(self, ident: str) -> str:
        """The printed name of a resource or bonus id."""
        decl = self.resource_decl.get(ident)
        if decl is not None:
            return decl.get("name") or ident
        return self.board_item_names.get(ident, ident.replace("_", " "))

    # ------------------------------------------------------------ bitsets
    def board_layout(self) -> BoardLayout:
        """The ruleset's spaces and neighbours as bits (see boardbits.py), made once."""
        rs = self.rs
        layout = rs.__dict__.get("_board_layout")
        if layout is None:
            layout = rs.__dict__["_board_layout"] = BoardLayout(
                self.space_decl, rs.adjacency, rs.asts, rs.table)
        return layout

    def board_bits(self) -> BoardBits:
        """What lies on the spaces now, as masks: kept with what was read from the
        board (``bmemo``), which a tile placed, a space claimed or a rollback forgets."""
        found = self.bmemo
        if found is None or found[0] is not self.state:
            found = self.bmemo = (self.state, {})
        bits = found[1].get(_BITS)
        if bits is None:
            bits = found[1][_BITS] = BoardBits(self.board_layout(), self.state.spaces)
        return bits

    def _placement_mask(self, tile, player, tests: int):
        """The spaces the tile's placement rule allows the player (a mask; what lies on
        them aside), or None when the rule is asked space by space. Charged as
        ``tests`` top-level runs of the rule of a step each, and, when the mask is
        worked out, a step per space of the board (see docs/engine.md)."""
        layout = self.board_layout()
        fn = layout.rule(("tile", tile, "placement"))
        B = self.budget
        if fn is None or B.active > MAX_CALL_DEPTH:
            return None
        bits = self.board_bits()
        table = self.bmemo[1]
        key = (_RULE, tile, player)
        mask = table.get(key)
        if mask is None:
            tests += layout.size
        if B.active == 0:  # as that many top-level runs: the last one's allowance open
            B.effect_start = B.used + tests - 1
            B.used += tests
            B.limit = min(B.effect_start + B.effect_steps, B.cap)
        else:
            B.used += tests
        if B.used > B.limit:
            tree = self.rs.asts.get(("tile", tile, "placement"))  # the rule, as its run would
            raise B.exceeded(getattr(tree, "span", None))
        if mask is None:
            mask = table[key] = fn(bits, player)
        return mask

    def placement_ok(self, tile, space, player) -> bool:
        code = self.rs.code.get(("tile", tile, "placement"))
        if self.state.spaces[space]["tile"] is not None:
            return False
        if code is None:
            return True
        mask = self._placement_mask(tile, player, 1)
        if mask is not None:
            return bool(mask >> self.board_layout().index[space] & 1)
        return bool(code.call(self, {"you": player, "space": space}))

    def _free_for(self, tile, player, tests):
        """The free spaces the tile's rule allows the player (a mask), or None."""
        if self.rs.code.get(("tile", tile, "placement")) is None:
            return self.board_bits().eq("tile", True, None)
        mask = self._placement_mask(tile, player, tests)
        if mask is None:
            return None
        return mask & self.board_bits().eq("tile", True, None)

    def can_place(self, tile, player):
        free = self._free_for(tile, player, 1)
        if free is not None:
            return free != 0
        return any(self.placement_ok(tile, s, player) for s in self.space_decl)

    def legal_spaces(self, tile, player, mode, target, first: bool = False) -> list:
        """The spaces where ``place TILE`` (``mode`` "rules", "where" or "anywhere", with
        the statement's condition ``target``) may put it; with ``first``, at most one.

        The tile's rule is answered for every space at once from the board's masks
        when it can be (see boardbits.py); the statement's own condition is then asked
        of each space the rule allows, in declared order, as before."""
        layout = self.board_layout()
        free = self.board_bits().eq("tile", True, None) if mode == "anywhere" \
            else self._free_for(tile, player, 1)
        if free is not None:
            out = []
            free &= layout.on_board
            if target is None and first:  # the first only: the lowest bit
                return layout.spaces_in(free & -free)
            spaces = layout.spaces_in(free)
            if target is None:
                return spaces
            with reading(self):
                for s in spaces:
                    if target(s):
                        out.append(s)
                        if first:
                            break
            return out
        out = []
        with reading(self):  # only reading: what the spaces' tests share is done once
            for s in self.space_decl:
                if not self.space_decl[s].get("off_board") \
                        and (mode == "anywhere" and self.state.spaces[s]["tile"] is None
                             or mode != "anywhere" and self.placement_ok(tile, s, player)) \
                        and (target is None or target(s)):
                    out.append(s)
                    if first:
                        break
        return out

    def placement_possible(self, tile, player, mode, target) -> bool:
        """Whether ``place TILE`` can be carried out now: a legal space, or no tile of
        that type left (then nothing is placed, and nothing refused)."""
        return self.tiles_left(tile) <= 0 or bool(
            self.legal_spaces(tile, player, mode, target, first=True))

    def tiles_left(self, tile) -> int:
        supply = self.tile_decl.get(tile, {}).get("supply")
        if supply is None:
            return BIG
        return supply - self.board_bits().eq("tile", True, tile).bit_count()

    def no_space_for(self, tile) -> str:
        """Why a tile cannot be placed, in running text: 'there is no space where a
        tower may go' (the tile's declared name, not its label 'Tower')."""
        return f"there is no space where {self._a_tile(tile)} may go"

    def _a_tile(self, tile) -> str:
        return _a(self.rs.words.thing("tile", tile))  # 'a tower', not 'Tower'

    def _tiles(self, tile) -> str:
        """'towers', 'ponies': the plural the tile declares, else its name's."""
        declared = self.rs.words.decl("tile", tile).get("plural")
        return str(declared) if declared and "_" not in str(declared) \
            else plural_of(self.rs.words.thing("tile", tile, 1))

    def place_tile(self, tile, player, mode, target, source=None):
        if self.tiles_left(tile) <= 0:
            self.log(f"  no {self._tiles(tile)} are left: none is placed")
            return None
        if mode == "on":
            if target is None or self.state.spaces[target]["tile"] is not None:
                raise ActionRefused(f"{self._label(target)} is not free for "
                                    f"{self._a_tile(tile)}")
            space = target
        else:
            legal = self.legal_spaces(tile, player, mode, target)
            if not legal:
                raise ActionRefused(self.no_space_for(tile))
            self.choice_kind = "space"
            what = self._a_tile(tile)
            space = self.choose_one(legal, False,
                                    self._prompt_later(f"where do you place {what}?"), player)
        st = self.state
        bits = self._bits_kept()
        st.set_space(space, "tile", tile)
        if self.tile_decl.get(tile, {}).get("owned"):
            st.set_space(space, "owner", player)
        self._space_changed(space, bits)
        who = self.state.players[player].name if player is not None else "The game"
        if self.logging:  # (the words only for a log someone keeps)
            self.log(f"  {who} places {self._a_tile(tile)} on {self._label(space)}")
        if source is not None:
            bits = self._bits_kept()
            st.set_space(space, "card", source)
            self._space_changed(space, bits)
        self.run_code(("tile", tile, "on_place"), self.frame(player, space=space))
        return space

    def claim(self, space, player):
        bits = self._bits_kept()
        self.state.set_space(space, "claim", player)
        self._space_changed(space, bits)

    def _bits_kept(self):
        """The board's masks for the state as it is, if they were made (else None)."""
        found = self.bmemo
        return found[1].get(_BITS) if found is not None and found[0] is self.state else None

    def _space_changed(self, space, bits) -> None:
        """A space was written: what was read from the board (and the zones, which
        functions reading both keep) is out of date. The masks of what lies on the
        spaces, ``bits`` as they were before the write, are carried over with that
        space's bits moved, rather than made again from every space."""
        self.zmemo = self.bmemo = None
        if bits is not None:
            self.bmemo = (self.state, {_BITS: bits.changed(space)})

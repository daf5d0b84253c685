"""The board as bitsets: which spaces hold what, and which are next to which.

Bit *i* of a mask stands for the *i*-th space in declared order (the order
``spaces()`` lists them and the engine offers them in), so going through a
mask's bits from the lowest goes through its spaces in that order.

:class:`BoardLayout` is what never changes in a game: the order, each
space's neighbours as a mask, and masks of the declared fields
(``type == land``), made when first asked and shared by every game of the
ruleset. :class:`BoardBits` is the board of one state: masks of what lies on
the spaces now, by field and value (the occupied spaces are those whose tile
is not none; a player's spaces are those whose owner is that player), made
when first asked. A state's ``BoardBits`` is kept with the values read from
the board (``game.bmemo``), which the engine forgets whenever a tile is placed,
a space claimed or the state rolled back. A placement or a claim carries the
masks over with the written space's bits moved (:meth:`BoardBits.changed`);
after a rollback (or a copy of the state) they are made again from the
spaces when first asked, rather than kept in step with the undo journal (see
docs/engine.md, "The board as bitsets").

The masks answer the questions :mod:`..lang.spacesets` asks (``eq``, ``near``,
``one``, ``all``); nothing here knows any game.
"""

from __future__ import annotations

from ..lang.spacesets import space_set


class BoardLayout:
    """The spaces of a ruleset's boards in order, and their neighbours, as bits."""

    def __init__(self, space_decl: dict, adjacency: dict, asts: dict, table):
        self.order = list(space_decl)
        self.index = {s: i for i, s in enumerate(self.order)}
        self.size = len(self.order)
        self.all = (1 << self.size) - 1
        self.decl = space_decl
        self.asts, self.table = asts, table
        # every neighbour a space (any other id makes the rules' own reads fail): only
        # then do masks answer as the rules would
        self.sound = all(s in self.index and all(n in self.index for n in ns)
                         for s, ns in adjacency.items())
        # next_to[i]: the spaces that list space i among their neighbours (a space
        # next to a space in M is in the union of next_to over M)
        self.next_to = [0] * self.size
        self.neighbours = [0] * self.size  # the neighbours of space i, as a mask
        if self.sound:
            for s, ns in adjacency.items():
                i = self.index[s]
                for n in ns:
                    self.next_to[self.index[n]] |= 1 << i
                    self.neighbours[i] |= 1 << self.index[n]
        # near[k][b]: the spaces next to any of the spaces of byte value b at byte k of a
        # mask, so that the spaces next to a mask are found a byte at a time
        self.near_tables = []
        for k in range(0, self.size, 8):
            table = [0] * 256
            for b in range(1, 256):
                low = b & -b
                i = k + low.bit_length() - 1
                table[b] = table[b ^ low] | (self.next_to[i] if i < self.size else 0)
            self.near_tables.append(table)
        self._declared: dict = {}
        self._rules: dict = {}
        self.on_board = self.all & ~self.where(
            lambda s: bool(space_decl[s].get("off_board")))

    def where(self, test) -> int:
        """The spaces for which ``test(space)`` is true."""
        out, bit = 0, 1
        for s in self.order:
            if test(s):
                out |= bit
            bit <<= 1
        return out

    def declared(self, name: str, value) -> int:
        """The spaces whose declared field ``name`` equals ``value``."""
        try:
            key = (name, value)
            found = self._declared.get(key)
        except TypeError:  # a value that cannot be a key (a list): looked at each time
            return self.where(lambda s: self.decl[s].get(name) == value)
        if found is None:
            decl = self.decl
            found = self._declared[key] = self.where(lambda s: decl[s].get(name) == value)
        return found

    def rule(self, key: tuple):
        """The bitset function of the condition at ``key`` (a tile's placement rule, whose
        space is ``space``), or None when it is asked space by space (see spacesets)."""
        try:
            return self._rules[key]
        except KeyError:
            tree = self.asts.get(key)
            fn = space_set(tree, "space", self.asts, self.table) \
                if self.sound and tree is not None else None
            self._rules[key] = fn
            return fn

    def spaces_in(self, mask: int) -> list:
        """The spaces of a mask, in declared order."""
        order, out = self.order, []
        while mask:
            low = mask & -mask
            out.append(order[low.bit_length() - 1])
            mask ^= low
        return out


class BoardBits:
    """What lies on the spaces of one state, as masks (made when first asked)."""

    __slots__ = ("layout", "spaces", "all", "_live")

    def __init__(self, layout: BoardLayout, spaces: dict):
        self.layout, self.spaces, self.all = layout, spaces, layout.all
        self._live: dict = {}

    def _by_value(self, key: str) -> dict:
        table: dict = {}
        bit = 1
        spaces = self.spaces
        for s in self.layout.order:
            value = spaces[s].get(key)
            table[value] = table.get(value, 0) | bit
            bit <<= 1
        self._live[key] = table
        return table

    def changed(self, space) -> "BoardBits":
        """The masks after a write to ``space`` (the state's record of it as it is now):
        these masks with the space's bit moved to its new value in each table made so
        far, the others made when first asked, as usual."""
        out = BoardBits(self.layout, self.spaces)
        bit = 1 << self.layout.index[space]
        live = self.spaces[space]
        for key, table in self._live.items():
            value = live.get(key)
            try:
                if table.get(value, 0) & bit:  # unchanged
                    out._live[key] = table
                    continue
            except TypeError:  # a value that cannot be a key: the table made again
                continue
            table = dict(table)
            for old, mask in table.items():
                if mask & bit:
                    if mask == bit:
                        del table[old]
                    else:
                        table[old] = mask & ~bit
                    break
            table[value] = table.get(value, 0) | bit
            out._live[key] = table
        return out

    def eq(self, name: str, live: bool, value) -> int:
        """The spaces whose field equals ``value``: what lies on them (``live``, the
        state's key: tile, owner, card, claim) or what the board declares."""
        if not live:
            return self.layout.declared(name, value)
        table = self._live.get(name)
        if table is None:
            table = self._by_value(name)
        try:
            return table.get(value, 0)
        except TypeError:  # a value that cannot be a key: compared space by space
            spaces = self.spaces
            return self.layout.where(lambda s: spaces[s].get(name) == value)

    def occupied(self) -> int:
        """The spaces with a tile on them."""
        return self.all & ~self.eq("tile", True, None)

    def owned_by(self, player) -> int:
        """The spaces whose tile belongs to the player."""
        return self.eq("owner", True, player)

    def near(self, mask: int) -> int:
        """The spaces with at least one neighbour in ``mask``."""
        out = 0
        for table in self.layout.near_tables:
            if mask & 255:
                out |= table[mask & 255]
            mask >>= 8
            if not mask:
                break
        return out

    def one(self, space) -> int:
        """The space's own bit (0 for anything that is no space)."""
        try:
            i = self.layout.index.get(space)
        except TypeError:
            return 0
        return 0 if i is None else 1 << i

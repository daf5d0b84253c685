"""Values of rules kept across the determinised copies of one position.

A search plays many copies of the same position (a greedy decision's
trials, an ismcts search's iterations), each dealt again for the seat
(:func:`.lookahead.determinise`). The generated rules keep a declared
function's value that depends only on where the cards lie and on the board's
spaces (``gensupport.by_zones``, ``by_board``), but per state: every copy
starts with nothing kept and works each such value out again, though the
copy differs from its position only in the hidden zones dealt again and in
what its own actions changed.

:class:`KeptAcross` keeps those values for all the copies of one position
(it belongs to the position's :class:`.lookahead.Dealing`), for the functions
whose reads are known (:func:`function_reads`: the zones it names, and the
board): a value is shared only when the function reads none of the zones the
copies are dealt again in, and, in a copy, only while the copy has changed
none of the zones it reads (and not the board, when it reads the board).
What a copy changed is read from its state's journal, which the copy keeps
from the moment it is dealt (``State.recording``). A value so kept is the
one the copy would work out itself: the same numbers and the same lists, so
the same games; reading it is charged as reading a kept value is (a step per
item of a list).
"""

from __future__ import annotations

from ..engine import state as _st
from ..lang.implied import reads

_BOARD = ("board", "*")
# journal entries that change no zone and no space (a stock, a track, a count, a
# marker or resources on a card, the random source): what a shared function
# cannot read (its reads are zones and the board only)
_HARMLESS = frozenset({_st._undo_player, _st._undo_track, _st._undo_count, _st._undo_counts,
                       _st._undo_add, _st._undo_marker, _st._undo_on_card, _st._undo_rng})
_ATTRS_OF_ZONES = frozenset({"zones", "cards", "spaces"})


def function_reads(rs, zone_decl: dict) -> dict:
    """For each declared function: ``(zones, board)``, the zone ids it may read and
    whether it reads the board's spaces, when that is all it reads; None when it may
    read anything else (a track, a stock, a marker, a zone worked out as it runs, a
    card's owner…) or what it reads cannot be bounded. Worked out once per ruleset."""
    known = rs.__dict__.get("_function_zone_reads")
    if known is not None:
        return known
    asts = rs.asts
    functions = rs.sections["functions"]

    def function(name: str):
        return asts.get(("function", name))

    def params(name: str) -> list:
        entry = functions.get(name)
        data = entry.data if entry is not None and isinstance(entry.data, dict) else {}
        return list((data.get("params") or {}).keys())

    known = {}
    for name in functions:
        tree = asts.get(("function", name))
        found = None if tree is None else reads(tree, function, across=True, params=params)
        known[name] = _zones_only(found, zone_decl)
    rs.__dict__["_function_zone_reads"] = known
    return known


def _zones_only(found, zone_decl: dict):
    if found is None:
        return None
    zones, board = set(), False
    for kind, what in found:
        if (kind, what) == _BOARD:
            board = True
        elif kind == "zones" and what in zone_decl:
            zones.add(what)
        else:
            return None
    return frozenset(zones), board


class KeptAcross:
    """The kept values of one position's functions, shared by the copies dealt from it.

    ``hidden`` is the zone ids the copies are dealt again in: a function reading
    one of them is never shared."""

    __slots__ = ("source", "table", "usable")

    def __init__(self, game, hidden: set):
        self.source = game.state
        self.table: dict = {}
        usable = {}
        for name, found in function_reads(game.rs, game.zone_decl).items():
            if found is not None and not (found[0] & hidden):
                usable[name] = found
        self.usable = usable  # function name -> (zones, board)

    def watch(self, copy) -> None:
        """Share the values with ``copy``, a copy just dealt from the position: its state
        keeps its journal from now on, so what it changes is known."""
        st = copy.state
        st.recording = st.journaling = True
        st.seen = 0
        copy.kept_across = _Watch(self, st)


class _Watch:
    """One copy's view of the shared values: what its journal says it changed so far."""

    __slots__ = ("kept", "state", "read", "zones", "board", "all")

    def __init__(self, kept: KeptAcross, state):
        self.kept = kept
        self.state = state
        self.read = 0  # how much of the journal has been read
        self.zones: set = set()  # the zone ids the copy changed (or changed and put back)
        self.board = False  # whether it changed a space
        self.all = False  # it changed something this cannot tell: share nothing more

    def _catch_up(self) -> None:
        journal = self.state.journal
        n = len(journal)
        if n < self.read:  # (rolled back: what was undone stays counted as changed)
            self.read = n
            return
        zones = self.zones
        for e in journal[self.read:n]:
            f = e[0]
            if f in _HARMLESS:
                continue
            if f is _st._undo_move:  # (held, was, i, owner, key, j)
                zones.add(e[2][0])
                zones.add(e[5][0])
            elif f is _st._undo_zone_list:  # (key, old list)
                zones.add(e[1][0])
            elif f is _st._undo_place:  # (number, zone, zone owner, owner)
                zones.add(e[2])
                # (the zone it is put in shows in a move or a zone list written)
                self.all = True
            elif f is _st._undo_space:
                self.board = True
            elif f is _st._undo_attr:
                if e[1] in _ATTRS_OF_ZONES:
                    self.all = True
            else:
                self.all = True
        self.read = n

    def usable(self, key):
        """The function's reads when its value under ``key`` may be shared now, else None."""
        if self.all or key.__class__ is not tuple or not key:
            return None
        found = self.kept.usable.get(key[0])
        if found is None:
            return None
        if len(self.state.journal) != self.read:
            self._catch_up()
            if self.all:
                return None
        if found[1] and self.board:
            return None
        zones = self.zones
        if zones and not zones.isdisjoint(found[0]):
            return None
        return found

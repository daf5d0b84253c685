"""Values of rules kept across the determinised copies of one position.

A search plays many copies of the same position (a greedy decision's
trials, an ismcts search's iterations), each dealt again for the seat
(:func:`.lookahead.determinise`). Each copy starts with nothing kept, and so
worked out again the same values in every copy, though a copy differs from
its position only in the hidden zones dealt again and in what its own
actions changed.

:class:`KeptAcross` keeps, for all the copies of one position (it belongs to
the position's :class:`.lookahead.Dealing`), three kinds of value: a
declared function's value that the generated rules keep while the cards and
spaces stay put (``gensupport.by_zones``, ``by_board``), a scoring entry's
points for a seat (``Game._score``), and a declared feature of the learned
evaluation for a seat (:meth:`.features.Features._declared`). Each is shared
only when what it reads is known (:func:`term_reads`: lang/implied.py's read
keys, followed as the invariant checks follow them) and names no zone the
copies are dealt again in; in a copy, only while the copy has changed none
of what it reads. What a copy changed is read from its state's journal,
which the copy keeps from the moment it is dealt (``State.recording``); a
change rolled back since still counts. A value so kept is the one the copy
would work out itself: the same numbers and the same lists, so the same
games; reading it is charged as reading a kept value is (a step per item of
a list).
"""

from __future__ import annotations

from ..engine import state as _st
from ..lang import ast
from ..lang.codegen import worth_keeping  # (as the generated rules judge)
from ..lang.implied import reads

# what a shared value may read (lang/implied.py's read keys, as the invariant checks
# see them: ``across``): anything else (a capacity, a modifier, a zone worked out as
# it runs, where one card lies…) and the value is worked out in every copy
_KINDS = frozenset({"zones", "board", "pay", "production", "track", "markers", "pieces",
                    "on_card", "round", "order"})
# builtins lang/implied.py counts as reading nothing that changes, which do read the
# state: a value calling one is never shared
_UNSEEN = frozenset({"last_round"})
# journal entries that change nothing a shared value reads (the history and tallies,
# what was used or claimed, the random source): no read key names them
_HARMLESS = frozenset({_st._undo_count, _st._undo_counts, _st._undo_add, _st._undo_rng})
_PLAYER = {"stock": "pay", "production": "production", "tracks": "track"}
# state attributes written as a whole: whatever was read from them may have changed
_WHOLE = frozenset({"zones", "cards", "spaces", "players", "tracks"})
# whether searches share values across their copies (tests turn it off to compare)
SHARE = True
_SCORING = object()  # (the key of a scoring entry's value in the shared table)


def term_reads(game) -> dict:
    """What each declared function (by name), each scoring entry (``("scoring", id)``)
    and each declared feature (``("feature", id)``, its list ``("feature", id, "each")``)
    reads, when it is all of :data:`_KINDS` (zones by their ids): a frozenset of read
    keys; None when it may read anything else or cannot be bounded. Worked out once
    per ruleset."""
    rs = game.rs
    known = rs.__dict__.get("_term_reads")
    if known is not None:
        return known
    from ..engine.invariants import _bounded as following
    zone_decl = game.zone_decl
    asts = rs.asts
    functions = rs.sections["functions"]

    def function(name: str):
        return asts.get(("function", name))

    def params(name: str) -> list:
        entry = functions.get(name)
        data = entry.data if entry is not None and isinstance(entry.data, dict) else {}
        return list((data.get("params") or {}).keys())

    known = {}
    terms = [(name, ("function", name)) for name in functions] + \
        [(("scoring", sid), ("scoring", sid)) for sid in rs.sections["scoring"]] + \
        [(key, key) for key in asts if key[0] == "feature"]
    for name, where in terms:
        tree = asts.get(where)
        if tree is None or _calls_unseen(tree, function, set()) or \
                where[0] != "function" and where[-1] != "each" and not worth_keeping(tree):
            # (a scoring entry or feature costing less to work out than to look up: a
            # track read, a stock; a function is kept only when it is worth it already)
            known[name] = None
            continue
        # (a capacity read as what the resource's capacity reads, a modifier as the
        # zones in play and what the cards' modifiers of that kind read: as the
        # invariant checks follow them)
        found = reads(tree, function, across=True, params=params)
        known[name] = _bounded(None if found is None else following(game, found), zone_decl)
    rs.__dict__["_term_reads"] = known
    return known


def _calls_unseen(tree, function, seen: set) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if node.func in _UNSEEN:
                return True
            callee = function(node.func)
            if callee is not None and node.func not in seen:
                seen.add(node.func)
                if _calls_unseen(callee, function, seen):
                    return True
    return False


def _bounded(found, zone_decl: dict):
    if found is None:
        return None
    for kind, what in found:
        if kind not in _KINDS or kind == "zones" and what not in zone_decl:
            return None
    return frozenset(found)


class KeptAcross:
    """The kept values of one position, shared by the copies dealt from it.

    ``hidden`` is the zone ids the copies are dealt again in: a value reading one of
    them is never shared."""

    __slots__ = ("source", "table", "usable")

    def __init__(self, game, hidden: set):
        self.source = game.state
        self.table: dict = {}
        usable = {}
        for name, found in term_reads(game).items():
            if found is not None and not any(kind == "zones" and what in hidden
                                             for kind, what in found):
                usable[name] = found
        self.usable = usable  # function name or ("scoring", id) -> its read keys

    def watch(self, copy) -> None:
        """Share the values with ``copy``, a copy just dealt from the position: its state
        keeps its journal from now on, so what it changes is known."""
        st = copy.state
        st.recording = st.journaling = True
        st.seen = 0
        copy.kept_across = _Watch(self, st)


class _Watch:
    """One copy's view of the shared values: what its journal says it changed so far."""

    __slots__ = ("kept", "state", "seen", "changed", "kinds", "all")

    def __init__(self, kept: KeptAcross, state):
        self.kept = kept
        self.state = state
        # the journal's entries read so far, in order: where the journal no longer holds
        # them, it was rolled back (and perhaps written again) from there
        self.seen: list = []
        self.changed: set = set()  # the read keys the copy changed (or changed and put back)
        self.kinds: set = set()  # their kinds
        self.all = False  # it changed something this cannot tell: share nothing more

    def _catch_up(self) -> None:
        journal = self.state.journal
        seen = self.seen
        i = min(len(journal), len(seen))
        while i and journal[i - 1] is not seen[i - 1]:
            i -= 1  # rolled back to here since the last look (what was undone stays counted)
        del seen[i:]
        new = journal[i:]
        seen.extend(new)
        add = self.changed.add
        for e in new:
            f = e[0]
            if f in _HARMLESS:
                continue
            if f is _st._undo_player:  # (seat, which, key, old)
                add((_PLAYER.get(e[2], e[2]), e[3]))
            elif f is _st._undo_track:  # (key, old)
                add(("track", e[1]))
            elif f is _st._undo_move:  # (held, was, i, owner, key, j)
                add(("zones", e[2][0]))
                add(("zones", e[5][0]))
            elif f is _st._undo_zone_list:  # (key, old list)
                add(("zones", e[1][0]))
            elif f is _st._undo_on_card:  # (number, which, key, old)
                add(("on_card", e[3]) if e[2] == "resources" else ("pieces", "*"))
            elif f is _st._undo_marker:  # (number, marker, on)
                add(("markers", e[2]))
            elif f is _st._undo_space:
                add(("board", "*"))
            elif f is _st._undo_attr:  # (name, old)
                name = e[1]
                if name == "round":
                    add(("round", "*"))
                elif name == "turn_order":
                    add(("order", "*"))
                elif name in _WHOLE:
                    self.all = True
            else:  # (a card put in a zone's place by itself, and anything new)
                self.all = True
        self.kinds = {kind for kind, _ in self.changed}

    def usable(self, name):
        """The reads of the function (or scoring entry) ``name`` when its value may be
        shared now, else None."""
        found = self.kept.usable.get(name)
        if found is None or self.all:
            return None
        journal, seen = self.state.journal, self.seen
        if len(journal) != len(seen) or seen and journal[-1] is not seen[-1]:
            self._catch_up()
            if self.all:
                return None
        changed = self.changed
        if not changed:
            return found
        kinds = self.kinds
        for read in found:
            kind, what = read
            if kind in kinds and (what == "*" or read in changed or (kind, "*") in changed):
                return None
        return found

    def scoring(self, game, sid, player):
        """The scoring entry's points for ``player``: shared when it may be."""
        if self.usable(("scoring", sid)) is None:
            return game.run_code(("scoring", sid), game.frame(player))
        key = (_SCORING, sid, player)
        table = self.kept.table
        value = table.get(key)
        if value is None:
            value = table[key] = game.run_code(("scoring", sid), game.frame(player))
        return value

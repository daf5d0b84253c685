"""The state of a game: plain data that changes during play, cheap to copy and hash.

:class:`State` holds the players (stocks, production, tracks), the global
tracks, the zones and the cards in them, the spaces, the random source and
the round, phase and turn. While a mark is set (:meth:`State.mark`: before an
action, a trial, a ``try``), every change the engine makes through the write
methods below appends its inverse to the state's *journal*, and
:meth:`State.undo_to` rolls the state back to the mark, in place (see
"The undo journal" in docs/engine.md). :meth:`State.clone` copies it for
lookahead, sharing card states until one side changes them and the random
source until one side reads it, and :meth:`State.digest` hashes it the same
way on every machine.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass, field

BIG = 10 ** 9
NO_OWNER = -1
_MISSING = object()  # in the journal: a key that was not there
MAX_ROUNDS = 1000  # the most rounds a flow plays, whatever it says
MAX_SEED = 2 ** 63 - 1  # a game's seed is a whole number from -MAX_SEED to MAX_SEED


class CardRef(int):
    """A card instance as effects see it: its instance number."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"CardRef({int(self)})"

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


@dataclass
class CardState:
    def_id: str
    zone: str
    zone_owner: int = NO_OWNER
    owner: int = NO_OWNER
    markers: set = field(default_factory=set)
    resources: dict = field(default_factory=dict)
    pieces: dict = field(default_factory=dict)  # seat -> count
    # (seat, the resource they came from) -> count: what the pieces are, for people
    # ('1 worker', '2 cubes'); not in the digest, which counts pieces per seat
    kinds: dict = field(default_factory=dict)


@dataclass
class PlayerState:
    seat: int
    name: str
    stock: dict = field(default_factory=dict)
    production: dict = field(default_factory=dict)
    tracks: dict = field(default_factory=dict)


@dataclass
class State:
    """Everything that changes during a game; deep-copyable and hashable."""

    players: list
    tracks: dict
    zones: dict  # (zone id, owner seat or -1) -> list of card numbers
    cards: dict  # card number -> CardState
    spaces: dict  # space id -> {"tile", "owner", "card"}
    rng: random.Random
    turn_order: list
    round: int = 0
    phase: str = ""
    turn_seat: int = NO_OWNER
    history: Counter = field(default_factory=Counter)
    # what each seat did, for simulation results: (what, seat, id) -> times, where
    # what is "played", "gained", "action" or "card_action"; not part of the digest
    tally: Counter = field(default_factory=Counter)
    used: set = field(default_factory=set)  # (what, seat, scope key)
    claimed: set = field(default_factory=set)  # one-time rewards taken
    passed: set = field(default_factory=set)
    over: bool = False
    turn_number: int = 0
    # in a phase whose turns come round again ('repeat'), which time round this is (1…);
    # 0 elsewhere. What the title shows as 'turn 3 of 4'; not part of the digest
    turn_round: int = 0
    # cards this State may change in place; others are shared with snapshots and
    # are copied on their first change (see card_w)
    _owned: set = field(default_factory=set, repr=False, compare=False)
    # the undo journal: (undo function, its arguments...) per change made while a mark
    # is set, and the journal's length at each mark set (the innermost last)
    journal: list = field(default_factory=list, repr=False, compare=False)
    marks: list = field(default_factory=list, repr=False, compare=False)
    # whether the random source's state is in the journal since the innermost mark
    _rng_saved: bool = field(default=False, repr=False, compare=False)
    # whether every change is journaled even with no mark set: while the invariant checks
    # watch the state (engine/invariants.py), which read what changed since their last
    # look off the journal. ``journaling``: a mark is set, or ``recording``
    recording: bool = field(default=False, repr=False, compare=False)
    journaling: bool = field(default=False, repr=False, compare=False)
    # (recording) how much of the journal the checks have read, and the entries they
    # read that a rollback has since undone (what those entries changed changed again)
    seen: int = field(default=0, repr=False, compare=False)
    undone: list = field(default_factory=list, repr=False, compare=False)

    def card_w(self, number: int) -> CardState:
        """The card's state, ready to be changed without touching any snapshot."""
        if number not in self._owned:
            c = self.cards[number]
            self.cards[number] = CardState(c.def_id, c.zone, c.zone_owner, c.owner,
                                           set(c.markers), dict(c.resources), dict(c.pieces),
                                           dict(c.kinds))
            self._owned.add(number)
        return self.cards[number]

    def _share_cards(self) -> dict:
        self._owned = set()  # from now on both states copy a card before changing it
        return dict(self.cards)

    def clone(self) -> "State":
        """A deep copy, written out by hand: snapshots happen at every action.

        Card states are shared until one side changes them (copy on write), and
        so is the random source, until one side reads it (see ``rng``)."""
        new = State.__new__(State)
        new.players = [PlayerState(p.seat, p.name, dict(p.stock), dict(p.production),
                                   dict(p.tracks)) for p in self.players]
        new.tracks = dict(self.tracks)
        new.zones = {k: list(v) for k, v in self.zones.items()}
        new.cards = self._share_cards()
        new.spaces = {k: dict(v) for k, v in self.spaces.items()}
        new._rng = self._rng
        new._rng_shared = self._rng_shared = True
        new.turn_order = list(self.turn_order)
        new.round = self.round
        new.phase = self.phase
        new.turn_seat = self.turn_seat
        new.history = Counter(self.history)
        new.tally = Counter(self.tally)
        new.used = set(self.used)
        new.claimed = set(self.claimed)
        new.passed = set(self.passed)
        new.over = self.over
        new.turn_number = self.turn_number
        new.turn_round = self.turn_round
        new._owned = set()
        new.journal = []  # a copy starts with no marks: nothing to go back to
        new.marks = []
        new._rng_saved = False
        new.recording = new.journaling = False  # (nothing watches a copy)
        new.seen = 0
        new.undone = []
        return new

    # ------------------------------------------------------------ the journal
    def mark(self) -> tuple:
        """A point to roll back to (:meth:`undo_to`) or to keep what was done since
        (:meth:`release`); marks nest, and are undone or released innermost first."""
        marks, at = self.marks, len(self.journal)
        marks.append(at)
        self._rng_saved = False
        self.journaling = True
        return (len(marks) - 1, at)

    def has_mark(self, mark: tuple) -> bool:
        depth, at = mark
        return depth < len(self.marks) and self.marks[depth] == at

    def _mark_index(self, mark: tuple) -> int:
        depth, at = mark
        if depth >= len(self.marks) or self.marks[depth] != at:
            raise RuntimeError("an undo mark used after it was undone or released")
        return depth

    def undo_to(self, mark: tuple) -> bool:
        """Roll the state back to the mark, undoing every change since, and drop the
        mark and those set after it. Whether anything was undone."""
        depth = self._mark_index(mark)
        at = self.marks[depth]
        journal = self.journal
        changed = len(journal) > at
        if at < self.seen:  # (recording) undoing changes the checks have read
            self.undone.extend(journal[at:self.seen])
            self.seen = at
        while len(journal) > at:
            entry = journal.pop()
            entry[0](self, *entry[1:])
        del self.marks[depth:]
        self._rng_saved = False
        self.journaling = self.recording or bool(self.marks)
        return changed

    def release(self, mark: tuple) -> None:
        """Keep what was done since the mark: drop it (and those set after it); with no
        mark left, the journal is emptied."""
        depth, at = mark
        marks = self.marks
        if depth >= len(marks) or marks[depth] != at:
            self._mark_index(mark)  # (says what is wrong)
        del marks[depth:]
        if not marks:
            self.journaling = self.recording
            if not self.recording:
                self.journal.clear()

    def changed_since(self, mark: tuple) -> bool:
        """Whether anything was written since the mark (it may have been put back)."""
        return len(self.journal) > self.marks[self._mark_index(mark)]

    def as_at(self, mark: tuple) -> "State":
        """A copy of the state as it was at the mark (this state is left as it is)."""
        at = self.marks[self._mark_index(mark)]
        past = self.clone()
        for entry in reversed(self.journal[at:]):
            entry[0](past, *entry[1:])
        return past

    # Every change to the state during play goes through these, so that a set mark can
    # undo it. Each appends its inverse (a function of the state and arguments, which
    # never shares a mutable value with the state) while a mark is set.
    def set_attr(self, name: str, value) -> None:
        """round, phase, turn_seat, turn_number, over, turn_order, passed…"""
        if self.journaling:
            self.journal.append((_undo_attr, name, getattr(self, name)))
        setattr(self, name, value)

    def set_player(self, seat: int, which: str, key, value) -> None:
        """A player's stock, production or tracks entry."""
        d = getattr(self.players[seat], which)
        if self.journaling:
            self.journal.append((_undo_player, seat, which, key, d.get(key, _MISSING)))
        d[key] = value

    def set_track(self, key, value) -> None:
        if self.journaling:
            self.journal.append((_undo_track, key, self.tracks.get(key, _MISSING)))
        self.tracks[key] = value

    def count(self, which: str, key) -> None:
        """One more in the history or the tally."""
        c = getattr(self, which)
        if self.journaling:
            self.journal.append((_undo_count, which, key, c.get(key, _MISSING)))
        c[key] += 1

    def count_each(self, which: str, keys: tuple) -> None:
        """One more of each key in the history or the tally: one journal entry for all."""
        c = getattr(self, which)
        if self.journaling:
            self.journal.append((_undo_counts, which, tuple((k, c.get(k, _MISSING))
                                                           for k in keys)))
        for k in keys:
            c[k] += 1

    def add_to(self, which: str, item) -> None:
        """An item into used, claimed or passed."""
        s = getattr(self, which)
        if item not in s:
            if self.journaling:
                self.journal.append((_undo_add, which, item))
            s.add(item)

    def move(self, number: int, key, index, owner) -> CardState:
        """The card out of its zone into zone ``key`` at place ``index`` (at the end when
        None or past it), ``owner``'s from now on: one journal entry for it all."""
        c = self.cards[number]
        if number not in self._owned:
            c = self.card_w(number)
        was = (c.zone, c.zone_owner)
        source = self.zones[was]
        i = source.index(number)
        held = source[i]  # (as the zone held it: a CardRef)
        del source[i]
        target = self.zones[key]
        if index is None or index >= len(target):
            j = len(target)
            target.append(number)
        else:
            j = index
            target.insert(j, number)
        if self.journaling:
            self.journal.append((_undo_move, held, was, i, c.owner, key, j))
        c.zone, c.zone_owner = key
        c.owner = owner
        return c

    def zone_saved(self, key) -> list:
        """The zone's list, to be changed in place as a whole (shuffled): its order
        before is kept in the journal."""
        cards = self.zones[key]
        if self.journaling:
            self.journal.append((_undo_zone_list, key, list(cards)))
        return cards

    def set_zone(self, key, cards: list) -> None:
        if self.journaling:
            self.journal.append((_undo_zone_list, key, list(self.zones[key])))
        self.zones[key] = cards

    def place_card(self, number: int, zone, zone_owner, owner) -> CardState:
        """Where the card is (its zone, that zone's owner) and whose it is."""
        c = self.card_w(number)
        if self.journaling:
            self.journal.append((_undo_place, number, c.zone, c.zone_owner, c.owner))
        c.zone, c.zone_owner, c.owner = zone, zone_owner, owner
        return c

    def set_marker(self, number: int, marker, on: bool) -> None:
        markers = self.card_w(number).markers
        if (marker in markers) != on:
            if self.journaling:
                self.journal.append((_undo_marker, number, marker, not on))
            if on:
                markers.add(marker)
            else:
                markers.discard(marker)

    def set_on_card(self, number: int, which: str, key, value) -> None:
        """A card's resources, pieces or kinds entry; None takes the entry away."""
        d = getattr(self.card_w(number), which)
        if self.journaling:
            self.journal.append((_undo_on_card, number, which, key, d.get(key, _MISSING)))
        if value is None:
            d.pop(key, None)
        else:
            d[key] = value

    def set_space(self, space, key, value) -> None:
        live = self.spaces[space]
        if self.journaling:
            self.journal.append((_undo_space, space, key, live.get(key, _MISSING)))
        live[key] = value

    def same_as(self, other: "State") -> bool:
        """Whether the two states are the same game position (what a trial changed:
        see AskingMixin.choose_option). The tally, kept for statistics, is left out;
        the random source counts only by its state, and is not read (nor copied)."""
        if self._rng is not other._rng and self._rng.getstate() != other._rng.getstate():
            return False
        return (self.players == other.players and self.tracks == other.tracks
                and self.zones == other.zones and self.spaces == other.spaces
                and self.turn_order == other.turn_order and self.history == other.history
                and self.used == other.used and self.claimed == other.claimed
                and self.passed == other.passed and self.over == other.over
                and (self.round, self.phase, self.turn_seat, self.turn_number, self.turn_round)
                == (other.round, other.phase, other.turn_seat, other.turn_number,
                    other.turn_round)
                and all(c is other.cards.get(n) or c == other.cards.get(n)
                        for n, c in self.cards.items())
                and len(self.cards) == len(other.cards))

    def digest(self) -> str:
        """A hash of the whole state, stable across machines."""
        data = {
            "players": [[p.seat, sorted(p.stock.items()), sorted(p.production.items()),
                         sorted(p.tracks.items())] for p in self.players],
            "tracks": sorted(self.tracks.items()),
            "zones": sorted([f"{z}@{o}", [int(c) for c in cards]]
                            for (z, o), cards in self.zones.items()),
            "cards": sorted([n, c.def_id, c.zone, c.zone_owner, c.owner, sorted(c.markers),
                             sorted(c.resources.items()), sorted(c.pieces.items())]
                            for n, c in self.cards.items()),
            "spaces": sorted([k, v.get("tile"), v.get("owner"), v.get("claim"),
                              None if v.get("card") is None else int(v["card"])]
                             for k, v in self.spaces.items()),
            "turn_order": self.turn_order, "round": self.round, "over": self.over,
            "claimed": sorted(map(str, self.claimed)),
        }
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()


def _put(d: dict, key, old) -> None:
    if old is _MISSING:
        d.pop(key, None)
    else:
        d[key] = old


def _undo_attr(st: State, name, old) -> None:
    # (a list, set or count put back is a copy: the journal's value may serve another copy)
    setattr(st, name, old.copy() if isinstance(old, (list, set, dict)) else old)


def _undo_player(st: State, seat, which, key, old) -> None:
    _put(getattr(st.players[seat], which), key, old)


def _undo_track(st: State, key, old) -> None:
    _put(st.tracks, key, old)


def _undo_count(st: State, which, key, old) -> None:
    _put(getattr(st, which), key, old)


def _undo_counts(st: State, which, olds) -> None:
    c = getattr(st, which)
    for key, old in reversed(olds):
        _put(c, key, old)


def _undo_add(st: State, which, item) -> None:
    getattr(st, which).discard(item)


def _undo_zone_list(st: State, key, old) -> None:
    st.zones[key] = list(old)


def _undo_move(st: State, held, was, i, owner, key, j) -> None:
    del st.zones[key][j]
    st.zones[was].insert(i, held)
    c = st.card_w(held)
    c.zone, c.zone_owner = was
    c.owner = owner


def _undo_place(st: State, number, zone, zone_owner, owner) -> None:
    c = st.card_w(number)
    c.zone, c.zone_owner, c.owner = zone, zone_owner, owner


def _undo_marker(st: State, number, marker, on) -> None:
    markers = st.card_w(number).markers
    if on:
        markers.add(marker)
    else:
        markers.discard(marker)


def _undo_on_card(st: State, number, which, key, old) -> None:
    _put(getattr(st.card_w(number), which), key, old)


def _undo_space(st: State, space, key, old) -> None:
    _put(st.spaces[space], key, old)


def _undo_rng(st: State, saved) -> None:
    own = random.Random.__new__(random.Random)
    own.setstate(saved)
    st._rng, st._rng_shared = own, False


def _own_rng(state: State) -> random.Random:
    """The state's random source, its own: a shared one is copied before its first use.

    A clone and its original share one generator that neither draws from;
    whichever reads it first takes a copy of its own (the shared one is never
    advanced). Read while a mark is set, its state goes into the journal first
    (once per mark), for it may be drawn from."""
    if state._rng_shared:
        own = random.Random.__new__(random.Random)
        own.setstate(state._rng.getstate())
        state._rng, state._rng_shared = own, False
    if state.marks and not state._rng_saved:
        state.journal.append((_undo_rng, state._rng.getstate()))
        state._rng_saved = True
    return state._rng


def _set_rng(state: State, rng: random.Random) -> None:
    if getattr(state, "marks", None):  # (none yet while the state is being made)
        state.journal.append((_undo_rng, state._rng.getstate()))
        state._rng_saved = False  # (the next read saves the new source's state too)
    state._rng, state._rng_shared = rng, False


State.rng = property(_own_rng, _set_rng)  # the dataclass field 'rng' reads and writes this

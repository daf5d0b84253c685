"""The state of a game: plain data that changes during play, cheap to copy and hash.

:class:`State` holds the players (stocks, production, tracks), the global
tracks, the zones and the cards in them, the spaces, the random source and
the round, phase and turn. :meth:`State.clone` copies it for snapshots and
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

    def card_w(self, number: int) -> CardState:
        """The card's state, ready to be changed without touching any snapshot."""
        if number not in self._owned:
            c = self.cards[number]
            self.cards[number] = CardState(c.def_id, c.zone, c.zone_owner, c.owner,
                                           set(c.markers), dict(c.resources), dict(c.pieces))
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
        return new

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
                and (self.round, self.phase, self.turn_seat, self.turn_number)
                == (other.round, other.phase, other.turn_seat, other.turn_number)
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


def _own_rng(state: State) -> random.Random:
    """The state's random source, its own: a shared one is copied before its first use.

    A clone and its original share one generator that neither draws from;
    whichever reads it first takes a copy of its own (the shared one is never
    advanced), so a snapshot that is only restored never copies it at all."""
    if state._rng_shared:
        own = random.Random.__new__(random.Random)
        own.setstate(state._rng.getstate())
        state._rng, state._rng_shared = own, False
    return state._rng


def _set_rng(state: State, rng: random.Random) -> None:
    state._rng, state._rng_shared = rng, False


State.rng = property(_own_rng, _set_rng)  # the dataclass field 'rng' reads and writes this

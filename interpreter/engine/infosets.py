"""Information sets: states one seat cannot tell apart, to check that agents never peek.

A seat knows what its view shows (``Game.view``), the log as that seat reads
it, and the answers of the record. :func:`twin` makes a copy of a game that
differs from it in everything else: the cards in every place hidden from
the seat are dealt again (a card the seat has not seen may be in another
player's hand as well as in the pile it was drawn from; see
:func:`hidden_pools`), the random source that decides the draws to come is replaced,
and the private log lines of the other seats are dropped. :func:`seen_by` is
everything the seat may know, so a test can check that a twin looks the same
to the seat as the original. An agent that reads only what its seat may
know answers a game and its twin alike; one that reads anything else is
caught by such a pair.
"""

from __future__ import annotations

import random

from .state import NO_OWNER

MAX_TRIES = 20  # shuffles tried for a pool to come out different from how it lies


def hidden_groups(game, seat: int) -> list[list[tuple]]:
    """The zones this seat cannot see into, grouped by zone id, in the zones' order.

    Visibility is declared, so the groups are worked out once per seat and
    set of zones, and kept with the game (its copies share them)."""
    zones = tuple(game.state.zones)
    cache = game.__dict__.setdefault("_hidden_groups", {})
    known = cache.get(seat)
    if known is not None and known[0] == zones:
        return known[1]
    groups: dict[str, list[tuple]] = {}
    for key in zones:
        if game.visible_to(key[0], key[1], seat) != "all":
            groups.setdefault(key[0], []).append(key)
    found = list(groups.values())
    cache[seat] = (zones, found)
    return found


def copy_game(game):
    """A working copy of the game with a state of its own: the same to every reader.

    The copy keeps the record, the log and the agents, so an agent given it
    sees what it would see in the game itself; nothing it does reaches the
    original."""
    clone = game.__copy__()
    clone.state = game.state.clone()
    clone.record = list(game.record)
    clone.deciders = list(game.deciders)
    clone.log_lines = list(game.log_lines)
    clone.private_lines = {k: dict(v) for k, v in game.private_lines.items()}
    clone.listeners = []
    clone.held = None if game.held is None else list(game.held)
    clone.held_moves = dict(game.held_moves)
    clone.memo = clone.zmemo = clone.bmemo = clone.smemo = None
    return clone


def twin(game, seat: int, rng: random.Random, across: bool = True) -> tuple[object, bool]:
    """A copy of the game that ``seat`` cannot tell from it, hidden things changed.

    The hidden cards are dealt again among the places of :func:`hidden_pools`
    (with ``across``, the default, a card in another player's hidden zones
    may as well be in its deck; without, each zone keeps its own cards, only
    in another order or another player's hands). Returns the copy and whether
    any hidden card lies differently in it (it cannot when the hidden places
    hold one card, or copies of one card, per pool). The random source is
    always a new one."""
    clone = copy_game(game)
    moved = _redeal(game, clone.state, seat, rng, across)
    if game.action_start is not None:
        # an action under way keeps the position it started from (a search replays it
        # from there); the cards hidden then are dealt again in the copy's copy of it
        then = clone.__copy__()
        then.state = clone.action_start[0]  # (the copy holds that position as a state)
        past = then.state.clone()
        moved |= _redeal(then, past, seat, rng, across)
        clone.action_start = (past, *clone.action_start[1:])
    clone.private_lines = {line: _only(lines, seat)
                           for line, lines in clone.private_lines.items()}
    if clone.held is not None:
        clone.held = [(line, _only(private, seat) if private else private)
                      for line, private in clone.held]
    return clone, moved


def _redeal(game, st, seat: int, rng: random.Random, across: bool) -> bool:
    """Deal the cards ``seat`` cannot see in ``game`` again, in ``st`` (a copy of its
    state), and give ``st`` a new random source; whether any card lies differently."""
    moved = False
    for slots in hidden_pools(game, seat, across):
        pool = [st.zones[key][i] for key, i in slots]
        before = [st.cards[c].def_id for c in pool]
        shuffled = list(pool)
        for _ in range(MAX_TRIES):
            rng.shuffle(shuffled)
            if [st.cards[c].def_id for c in shuffled] != before:
                moved = True
                break
        else:
            shuffled = list(pool)  # every order looks the same: leave it
        for (key, i), c in zip(slots, shuffled):
            st.zones[key][i] = c
            card = st.card_w(c)
            card.zone, card.zone_owner = key
            if key[1] != NO_OWNER:
                card.owner = key[1]
    st.rng = random.Random(rng.random())
    return moved


def hidden_pools(game, seat: int, across: bool = True) -> list[list[tuple]]:
    """The places of the cards ``seat`` has not seen, grouped into pools that may trade.

    Each place is a (zone key, index) pair. A card in a player's hidden zone
    (another player's hand, a face-down card of theirs) or still in its own
    deck is pooled with every such card of the same deck: the seat cannot
    tell an unseen card in a hand from one in the pile it was drawn from.
    Every other hidden zone (a pile set aside, face-down offers) is a pool of
    its own, since which cards went there can follow from the rules. Without
    ``across`` every zone id is a pool (the hands of a zone among each other,
    a deck with itself). A card the seat owns is left where it is: it knows
    that one. Places come in the zones' order, pools in the order of their
    names: a pile of cards from two decks must not give its pools in the order
    its hidden cards happen to lie (a shuffle of them would then draw numbers in
    another order, and a search would see how the pile lies)."""
    st = game.state
    pools: dict = {}
    for keys in hidden_groups(game, seat):
        for key in keys:
            for i, c in enumerate(st.zones[key]):
                card = st.cards[c]
                if card.owner == seat:
                    continue
                home = home_deck(game, card.def_id)
                if across and (key[1] != NO_OWNER or key[0] == home):
                    pool = ("deck", home)
                else:
                    pool = ("zone", key[0], home if across else "")
                pools.setdefault(pool, []).append((key, i))
    return [pools[name] for name in sorted(pools)]


def home_deck(game, def_id: str) -> str:
    """The zone a card starts in (its declared deck, else the first shared zone)."""
    homes = game.__dict__.setdefault("_home_decks", {})
    home = homes.get(def_id)
    if home is None:
        home = homes[def_id] = game.rs.cards[def_id].data.get("deck") or next(
            z for z, d in game.zone_decl.items() if d.get("scope", "shared") == "shared")
    return home


def _only(private: dict, seat: int) -> dict:
    return {s: text for s, text in private.items() if s == seat}


def seen_by(game, seat: int) -> dict:
    """Everything ``seat`` may know now: its view, the log as it reads it, the answers."""
    return {
        "view": game.view(seat),
        "log": [game.log_line_for(i, seat) for i in range(len(game.log_lines))],
        "record": list(game.record),
        "deciders": list(game.deciders),
    }


def hidden_of(game, seat: int) -> list:
    """What ``seat`` cannot see: the cards of each hidden place, in order (to compare twins)."""
    st = game.state
    return [(key, [st.cards[c].def_id for c in st.zones[key]])
            for keys in hidden_groups(game, seat) for key in keys]
